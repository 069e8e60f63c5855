import { request as httpRequest, Agent } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import {
  IssuerMismatchError,
  LoopbackListenError,
  OAuthProtocolError,
  SignInAttemptEndedError,
} from './auth-errors';
import {
  type LoopbackCallback,
  type LoopbackListener,
  type LoopbackListenerOptions,
  type SignInOutcome,
  startLoopbackListener,
} from './loopback-listener';
import { withTakenPort } from './testing/taken-port';

const STATE = 'state-0123456789abcdefghijklmnopqrstuvwxyz';

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw HTTP request, so tests can send what browsers never would (other Host headers, absolute targets). */
function send(
  port: number,
  target: string,
  options: { method?: string; host?: string; agent?: Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
        agent: options.agent ?? false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const open: LoopbackListener[] = [];
async function listen(options: Partial<LoopbackListenerOptions> = {}): Promise<LoopbackListener> {
  const listener = await startLoopbackListener({ expectedState: STATE, ...options });
  open.push(listener);
  return listener;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

/**
 * The browser arrives with the genuine redirect; once the listener has handed
 * on the code, the app answers with `outcome`, and the browser gets its page.
 */
async function arrive(
  listener: LoopbackListener,
  target: string,
  outcome: SignInOutcome = { ok: true },
  options: { agent?: Agent } = {},
): Promise<{ reply: Reply; callback: LoopbackCallback; answeredBeforeRespond: boolean }> {
  let answered = false;
  const replied = send(listener.port, target, options).then((reply) => {
    answered = true;
    return reply;
  });
  const callback = await listener.callback;
  const answeredBeforeRespond = answered;
  callback.respond(outcome);
  return { reply: await replied, callback, answeredBeforeRespond };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('loopback listener', () => {
  test('binds 127.0.0.1 on a port the OS picks and serves /callback', async () => {
    const listener = await listen();
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
  });

  test('accepts the genuine redirect; the browser is told "Signed in" only once the app says so, and it closes', async () => {
    const listener = await listen();
    const { reply, callback, answeredBeforeRespond } = await arrive(
      listener,
      `/callback?code=the-code&state=${STATE}`,
    );
    expect(callback.code).toBe('the-code');
    expect(answeredBeforeRespond).toBe(false);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<h1>Signed in</h1>');
    expect(reply.body).toContain('go back to the app');
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    // A second callback after success finds nobody listening.
    await expect(send(listener.port, `/callback?code=again&state=${STATE}`)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  test('a callback with another state is refused with 400 and the genuine one still succeeds', async () => {
    const listener = await listen();
    const forged = await send(listener.port, '/callback?code=forged&state=not-the-state');
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('does not belong to the sign-in');
    expect((await send(listener.port, '/callback?code=forged')).status).toBe(400);
    expect((await send(listener.port, `/callback?code=forged&state=${STATE}&state=${STATE}`)).status).toBe(
      400,
    );
    expect((await send(listener.port, `/callback?error=access_denied&state=nope`)).status).toBe(400);
    const { reply, callback } = await arrive(listener, `/callback?code=genuine&state=${STATE}`);
    expect(reply.status).toBe(200);
    expect(callback.code).toBe('genuine');
  });

  test.each<[string, { target: string; method?: string; host?: string }]>([
    ['another path', { target: `/other?code=c&state=${STATE}` }],
    ['a longer path', { target: `/callback/x?code=c&state=${STATE}` }],
    ['a trailing slash', { target: `/callback/?code=c&state=${STATE}` }],
    ['POST', { target: `/callback?code=c&state=${STATE}`, method: 'POST' }],
    ['PUT', { target: `/callback?code=c&state=${STATE}`, method: 'PUT' }],
    ['localhost as Host', { target: `/callback?code=c&state=${STATE}`, host: 'localhost:PORT' }],
    [
      'another Host (DNS rebinding)',
      { target: `/callback?code=c&state=${STATE}`, host: 'evil.example:PORT' },
    ],
    ['an absolute-form target', { target: `http://127.0.0.1:PORT/callback?code=c&state=${STATE}` }],
  ])('%s answers 404 and does not end the attempt', async (_name, { target, method, host }) => {
    const listener = await listen();
    const port = String(listener.port);
    const reply = await send(listener.port, target.replace('PORT', port), {
      ...(method ? { method } : {}),
      ...(host ? { host: host.replace('PORT', port) } : {}),
    });
    expect(reply.status).toBe(404);
    const genuine = await arrive(listener, `/callback?code=genuine&state=${STATE}`);
    expect(genuine.reply.status).toBe(200);
    expect(genuine.callback.code).toBe('genuine');
  });

  test('HEAD answers 404 too', async () => {
    const listener = await listen();
    expect((await send(listener.port, `/callback?code=c&state=${STATE}`, { method: 'HEAD' })).status).toBe(
      404,
    );
  });

  test('an error on the redirect (access_denied) ends the attempt with a typed error and tells the browser', async () => {
    const listener = await listen();
    const reply = await send(
      listener.port,
      `/callback?error=access_denied&error_description=${encodeURIComponent('The person declined')}&state=${STATE}`,
    );
    expect(reply.body).toContain('Sign-in was declined');
    const error = await rejection(listener.callback);
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({
      type: 'oauth-error',
      stage: 'authorization',
      code: 'access_denied',
      description: 'The person declined',
    });
  });

  test('what the redirect carries is never reflected unescaped into the page', async () => {
    const listener = await listen();
    const evil = '<script>alert(1)</script><img src=x>';
    const reply = await send(
      listener.port,
      `/callback?error=${encodeURIComponent(evil)}&error_description=${encodeURIComponent(evil)}&state=${STATE}`,
    );
    expect(reply.body).not.toContain('<script>');
    expect(reply.body).not.toContain('<img');
    expect(reply.headers['content-security-policy']).toContain("default-src 'none'");
    expect(await rejection(listener.callback)).toBeInstanceOf(OAuthProtocolError);
  });

  test('when the app says the sign-in failed (a refused code exchange), the browser is told so and why', async () => {
    const listener = await listen();
    const { reply } = await arrive(listener, `/callback?code=c&state=${STATE}`, {
      ok: false,
      message: 'The authorization is no longer valid (invalid_grant).',
    });
    expect(reply.body).toContain('<h1>Sign-in did not complete</h1>');
    expect(reply.body).toContain('The authorization is no longer valid (invalid_grant).');
    expect(reply.body).not.toContain('Signed in');
  });

  test('closing the listener while the browser waits tells it the sign-in did not complete', async () => {
    const listener = await listen();
    const replied = send(listener.port, `/callback?code=c&state=${STATE}`);
    await listener.callback;
    await listener.close();
    const reply = await replied;
    expect(reply.body).toContain('Sign-in did not complete');
    expect(reply.body).toContain('The app ended this sign-in.');
  });

  test('RFC 9207: a redirect naming another issuer ends the attempt, the code unused, and tells the browser', async () => {
    const listener = await listen({ expectedIssuer: 'https://auth.example.com' });
    const reply = await send(
      listener.port,
      `/callback?code=c&state=${STATE}&iss=${encodeURIComponent('https://attacker.example')}`,
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('Sign-in did not complete');
    const error = await rejection(listener.callback);
    expect(error).toBeInstanceOf(IssuerMismatchError);
    expect(error).toMatchObject({
      type: 'issuer-mismatch',
      expected: 'https://auth.example.com',
      received: 'https://attacker.example',
    });
  });

  test.each([
    ['the expected issuer', `&iss=${encodeURIComponent('https://auth.example.com')}`],
    ['the expected issuer with a trailing slash', `&iss=${encodeURIComponent('https://auth.example.com/')}`],
    ['no iss (the server need not send one)', ''],
  ])('RFC 9207: a redirect with %s is accepted', async (_name, iss) => {
    const listener = await listen({ expectedIssuer: 'https://auth.example.com/' });
    const { reply, callback } = await arrive(listener, `/callback?code=c&state=${STATE}${iss}`);
    expect(reply.status).toBe(200);
    expect(callback.code).toBe('c');
  });

  test('RFC 9207: a repeated iss is refused, even if one of them matches', async () => {
    const listener = await listen({ expectedIssuer: 'https://auth.example.com' });
    const both = `iss=${encodeURIComponent('https://auth.example.com')}&iss=${encodeURIComponent('https://attacker.example')}`;
    expect((await send(listener.port, `/callback?code=c&state=${STATE}&${both}`)).status).toBe(400);
    expect(await rejection(listener.callback)).toMatchObject({ type: 'issuer-mismatch', received: null });
  });

  test('a genuine redirect without a code ends the attempt with invalid_request', async () => {
    const listener = await listen();
    expect((await send(listener.port, `/callback?state=${STATE}`)).status).toBe(400);
    expect(await rejection(listener.callback)).toMatchObject({
      code: 'invalid_request',
      stage: 'authorization',
    });
  });

  test('an idle keep-alive connection from an earlier stray request does not hold the listener open', async () => {
    const listener = await listen();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(listener.port, '/favicon.ico', { agent })).status).toBe(404);
      const { reply, callback } = await arrive(listener, `/callback?code=c&state=${STATE}`);
      expect(reply.status).toBe(200);
      expect(callback.code).toBe('c');
    } finally {
      agent.destroy();
    }
  });

  test('gives up after its timeout with a typed error, and closes', async () => {
    const listener = await listen({ timeoutMs: 20 });
    const error = await rejection(listener.callback);
    expect(error).toBeInstanceOf(SignInAttemptEndedError);
    expect(error).toMatchObject({ type: 'attempt-ended', reason: 'timeout' });
    await expect(send(listener.port, `/callback?code=c&state=${STATE}`)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  test('ends on cancel through its AbortSignal', async () => {
    const controller = new AbortController();
    const listener = await listen({ signal: controller.signal });
    controller.abort();
    expect(await rejection(listener.callback)).toMatchObject({ type: 'attempt-ended', reason: 'cancelled' });
  });

  test('keeps the reason of an abort that says the attempt was superseded', async () => {
    const controller = new AbortController();
    const listener = await listen({ signal: controller.signal });
    controller.abort(new SignInAttemptEndedError('superseded'));
    expect(await rejection(listener.callback)).toMatchObject({ reason: 'superseded' });
  });

  test('close() cancels a waiting attempt and resolves once the port is closed', async () => {
    const listener = await listen();
    await listener.close();
    expect(await rejection(listener.callback)).toMatchObject({ reason: 'cancelled' });
    await expect(send(listener.port, '/callback')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('refuses to start on an already aborted signal', async () => {
    const error = await rejection(listen({ signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ type: 'attempt-ended', reason: 'cancelled' });
  });

  test('an explicitly chosen port that is already taken fails with a clear error', () =>
    withTakenPort(async (port) => {
      const error = await rejection(listen({ port }));
      expect(error).toBeInstanceOf(LoopbackListenError);
      expect(error).toMatchObject({ type: 'loopback-unavailable', port, code: 'EADDRINUSE' });
      expect((error as Error).message).toBe(
        `Cannot receive the sign-in: port ${port} on 127.0.0.1 is already in use.`,
      );
    }));
});
