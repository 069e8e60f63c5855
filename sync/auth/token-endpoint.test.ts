// The token endpoint's answers that the emulator never gives (it is a
// well-behaved server): a small scripted HTTP server plays a broken or hostile
// one. Well-formed answers and RFC 6749 errors are covered against the
// emulator in oauth-flow.test.ts and token-keeper.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import {
  AuthServerUnavailableError,
  OAuthProtocolError,
  SignInAttemptEndedError,
  TokenResponseInvalidError,
} from './auth-errors';
import { requestTokens } from './token-endpoint';

const ACCESS = 'svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const REFRESH = 'opaque-refresh-token-value-0123456789';

interface Seen {
  method: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

async function scripted(
  answer: (response: ServerResponse, request: IncomingMessage) => void,
): Promise<{ endpoint: URL; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({
        method: request.method,
        contentType: request.headers['content-type'],
        form: new URLSearchParams(body),
      });
      answer(response, request);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { endpoint: new URL(`http://127.0.0.1:${address.port}/oauth/token`), seen };
}

function json(status: number, body: unknown) {
  return (response: ServerResponse): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

const goodAnswer = {
  access_token: ACCESS,
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: REFRESH,
  scope: 'tasks:write members:read',
  org_id: 'org_1',
};

const options = { stage: 'refresh' as const, now: () => 1_000_000, knownSecrets: [REFRESH] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

function expectNoSecrets(error: unknown): void {
  const shown = `${(error as Error).message} ${JSON.stringify(error)}`;
  expect(shown).not.toContain(ACCESS);
  expect(shown).not.toContain(REFRESH);
}

describe('token endpoint request', () => {
  test('posts the form url-encoded and reads the documented answer', async () => {
    const { endpoint, seen } = await scripted(json(200, { ...goodAnswer, token_type: 'bearer', extra: 1 }));
    const grant = await requestTokens(
      endpoint,
      { grant_type: 'refresh_token', refresh_token: REFRESH },
      options,
    );
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(seen[0]?.form ?? [])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: REFRESH,
    });
    expect(grant.accessToken).toBe(ACCESS);
    expect(grant.refreshToken).toBe(REFRESH);
    expect(grant.expiresAt).toBe(1_000_000 + 3_600_000);
    expect(grant.scopes).toEqual(['tasks:write', 'members:read']);
    expect(grant.orgId).toBe('org_1');
  });

  // RFC 6749 5.1 and 6: only access_token and token_type are required; org_id is our service's
  // addition (gaps.md). A standard server's answer must sign in, whatever it leaves out.
  test.each<[string, Record<string, unknown>, Partial<Record<string, unknown>>]>([
    [
      'no org_id (a standard OAuth server)',
      { ...goodAnswer, org_id: undefined },
      { orgId: null, refreshToken: REFRESH, scopes: ['tasks:write', 'members:read'] },
    ],
    ['org_id null or empty', { ...goodAnswer, org_id: '' }, { orgId: null }],
    [
      'no refresh_token',
      { ...goodAnswer, refresh_token: undefined },
      { refreshToken: null, expiresAt: 1_000_000 + 3_600_000 },
    ],
    ['refresh_token null', { ...goodAnswer, refresh_token: null }, { refreshToken: null }],
    ['no scope: the scopes asked for', { ...goodAnswer, scope: undefined }, { scopes: ['tasks:write'] }],
    ['scope null: the scopes asked for', { ...goodAnswer, scope: null }, { scopes: ['tasks:write'] }],
    ['no expires_in: valid until a 401', { ...goodAnswer, expires_in: undefined }, { expiresAt: null }],
    ['expires_in null', { ...goodAnswer, expires_in: null }, { expiresAt: null }],
    ['expires_in as text', { ...goodAnswer, expires_in: '3600' }, { expiresAt: 1_000_000 + 3_600_000 }],
    ['expires_in not a lifetime', { ...goodAnswer, expires_in: -5 }, { expiresAt: null }],
    ['token_type in capitals', { ...goodAnswer, token_type: 'BEARER' }, { accessToken: ACCESS }],
    [
      'nothing but the required two',
      { access_token: ACCESS, token_type: 'Bearer' },
      { accessToken: ACCESS, refreshToken: null, expiresAt: null, scopes: ['tasks:write'], orgId: null },
    ],
  ])('a 200 with %s is read', async (_name, body, expected) => {
    const { endpoint } = await scripted(json(200, body));
    const grant = await requestTokens(endpoint, {}, { ...options, assumedScopes: ['tasks:write'] });
    expect({
      accessToken: grant.accessToken,
      refreshToken: grant.refreshToken,
      expiresAt: grant.expiresAt,
      scopes: grant.scopes,
      orgId: grant.orgId,
    }).toMatchObject(expected);
  });

  test.each([
    ['another token type', { ...goodAnswer, token_type: 'mac' }, ['token_type']],
    ['no access token', { ...goodAnswer, access_token: undefined }, ['access_token']],
    ['no token type', { ...goodAnswer, token_type: undefined }, ['token_type']],
    ['an array', [goodAnswer], ['(body)']],
  ])('a 200 with %s is a typed error naming the fields, never their values', async (_name, body, fields) => {
    const { endpoint } = await scripted(json(200, body));
    const error = await failure(requestTokens(endpoint, {}, options));
    expect(error).toBeInstanceOf(TokenResponseInvalidError);
    expect(error).toMatchObject({ type: 'token-response-invalid', stage: 'refresh', fields });
    expectNoSecrets(error);
  });

  test('a 200 that is not JSON is a typed error', async () => {
    const { endpoint } = await scripted((response) => response.end(`<html>${ACCESS}</html>`));
    const error = await failure(requestTokens(endpoint, {}, options));
    expect(error).toBeInstanceOf(TokenResponseInvalidError);
    expectNoSecrets(error);
  });

  test('an RFC 6749 error is typed, and a description echoing a token is redacted', async () => {
    const { endpoint } = await scripted(
      json(400, {
        error: 'invalid_grant',
        error_description: `refresh token ${REFRESH} is spent (${ACCESS})`,
      }),
    );
    const error = await failure(requestTokens(endpoint, {}, options));
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ code: 'invalid_grant', stage: 'refresh' });
    expect((error as OAuthProtocolError).description).toBe('refresh token [redacted] is spent ([redacted])');
    expectNoSecrets(error);
  });

  test('a 401 invalid_client is typed too', async () => {
    const { endpoint } = await scripted(
      json(401, { error: 'invalid_client', error_description: 'unknown client' }),
    );
    expect(await failure(requestTokens(endpoint, {}, { ...options, stage: 'token' }))).toMatchObject({
      type: 'oauth-error',
      code: 'invalid_client',
      stage: 'token',
    });
  });

  test.each([
    ['a 503 page', 503],
    ['a 500 with an OAuth body', 500],
    ['a redirect (never followed)', 302],
    ['a 404 without an OAuth body', 404],
  ])('%s means the server is unavailable, with its status', async (_name, status) => {
    const { endpoint, seen } = await scripted((response) => {
      response.writeHead(
        status,
        status === 302 ? { location: '/elsewhere' } : { 'content-type': 'application/json' },
      );
      response.end(status === 500 ? JSON.stringify({ error: 'server_error' }) : '');
    });
    const error = await failure(requestTokens(endpoint, {}, options));
    expect(error).toBeInstanceOf(AuthServerUnavailableError);
    expect(error).toMatchObject({ type: 'auth-server-unavailable', status });
    expect(seen).toHaveLength(1);
  });

  test('no server listening means unavailable without a status', async () => {
    const { endpoint } = await scripted(json(200, goodAnswer));
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await failure(requestTokens(endpoint, {}, options))).toMatchObject({
      type: 'auth-server-unavailable',
      status: null,
    });
  });

  test('a server that never answers is given up on after the timeout', async () => {
    const { endpoint } = await scripted(() => undefined);
    expect(await failure(requestTokens(endpoint, {}, { ...options, timeoutMs: 50 }))).toMatchObject({
      type: 'auth-server-unavailable',
      status: null,
    });
  });

  test('aborting the attempt ends the request with the reason it was given', async () => {
    const { endpoint } = await scripted(() => undefined);
    const controller = new AbortController();
    const pending = failure(requestTokens(endpoint, {}, { ...options, signal: controller.signal }));
    controller.abort(new SignInAttemptEndedError('superseded'));
    const error = await pending;
    expect(error).toBeInstanceOf(SignInAttemptEndedError);
    expect(error).toMatchObject({ reason: 'superseded' });
  });
});
