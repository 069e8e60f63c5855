// The whole browser sign-in against the emulator over real HTTP; the browser's
// part is played by testing/consent-browser.ts.
import { request } from 'undici';
import { beforeEach, describe, expect, test } from 'vitest';
import { ManualClock } from '../../emulator/clock';
import { type RunningEmulator } from '../../emulator/start';
import {
  AuthServerUnavailableError,
  AuthUrlRefusedError,
  BrowserOpenError,
  LoopbackListenError,
  OAuthProtocolError,
  SignInAttemptEndedError,
} from './auth-errors';
import { DEFAULT_SCOPES, OAuthSignIn, type OAuthSignInDeps } from './oauth-flow';
import { codeChallengeS256 } from './pkce';
import { consentBrowser, visit } from './testing/consent-browser';
import { emulatorPerFile } from '../../emulator/testing/emulator-per-file';
import { withTakenPort } from './testing/taken-port';

let emulator: RunningEmulator;
const clock = new ManualClock();

emulatorPerFile({ seedTasks: 5, clock }, (started) => (emulator = started));
beforeEach(() => {
  emulator.control.setOAuthAutoApprove(false);
});

function signInWith(deps: OAuthSignInDeps): OAuthSignIn {
  return new OAuthSignIn(
    { authUrl: emulator.authUrl, clientId: emulator.clientId },
    { now: () => clock.now(), ...deps },
  );
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function me(accessToken: string): Promise<{ status: number; body: unknown }> {
  const response = await request(`${emulator.baseUrl}/v1/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: response.statusCode, body: await response.body.json() };
}

const neverAnswers = { openUrl: () => undefined };

describe('browser sign-in against the emulator', () => {
  test('approving on the consent page signs in: a live token for the organization that works', async () => {
    const browser = consentBrowser({ decision: 'approve' });
    const grant = await signInWith(browser).signIn();

    expect(grant.accessToken).toMatch(/^svc_live_/);
    expect(grant.refreshToken).not.toBe('');
    expect(grant.orgId).toBe(emulator.orgId);
    expect(grant.scopes).toEqual(DEFAULT_SCOPES);
    expect(grant.expiresAt).toBe(clock.now() + 3600 * 1000);
    expect(await me(grant.accessToken)).toMatchObject({
      status: 200,
      body: { user_id: emulator.me.user_id, org_id: emulator.orgId },
    });
    // The browser saw the consent page, was redirected to the app, and was told the app takes over.
    const landing = await browser.finished;
    expect(landing.status).toBe(200);
    expect(landing.body).toContain('go back to the app');
    expect(browser.visited.map((page) => page.status)).toEqual([200, 302, 200]);
  });

  test('the authorization request carries PKCE S256, a 256-bit state and the loopback redirect', async () => {
    let challenge = '';
    const browser = consentBrowser({
      beforeAuthorize(url) {
        challenge = url.searchParams.get('code_challenge') ?? '';
      },
    });
    await signInWith(browser).signIn();
    const url = new URL(browser.opened[0] ?? '');
    expect(url.origin + url.pathname).toBe(`${emulator.authUrl}/oauth/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('svcc_desktop');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(url.searchParams.get('scope')).toBe(DEFAULT_SCOPES.join(' '));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('the verifier behind the challenge comes from the injected randomness', async () => {
    const browser = consentBrowser();
    const fixed = new Uint8Array(32).fill(7);
    await signInWith({ ...browser, random: (size) => fixed.subarray(0, size) }).signIn();
    const url = new URL(browser.opened[0] ?? '');
    expect(url.searchParams.get('code_challenge')).toBe(
      codeChallengeS256(Buffer.from(fixed).toString('base64url')),
    );
  });

  test('with the auto-approve option the consent page redirects at once', async () => {
    emulator.control.setOAuthAutoApprove(true);
    const browser = consentBrowser();
    const grant = await signInWith(browser).signIn();
    expect((await me(grant.accessToken)).status).toBe(200);
    expect(browser.visited.map((page) => page.status)).toEqual([302, 200]);
  });

  test('Deny on the consent page ends the attempt with access_denied, and the browser is told', async () => {
    const browser = consentBrowser({ decision: 'deny' });
    const error = await failure(signInWith(browser).signIn());
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ type: 'oauth-error', stage: 'authorization', code: 'access_denied' });
    expect((error as Error).message).toMatch(/^Sign-in was declined on the consent page/);
    expect((await browser.finished).body).toContain('Sign-in did not complete');
  });

  test('a callback with another state is refused (400), nothing is exchanged, and the genuine one still signs in', async () => {
    let forged = 0;
    const browser = consentBrowser({
      async beforeCallback(callback) {
        const stray = new URL(callback);
        stray.searchParams.set('state', 'forged-state');
        stray.searchParams.set('code', 'forged-code');
        forged = (await visit(stray.href)).status;
      },
    });
    emulator.control.clearRequests();
    const grant = await signInWith(browser).signIn();
    expect(forged).toBe(400);
    expect((await me(grant.accessToken)).status).toBe(200);
    const exchanges = emulator.control.requests().filter((r) => r.path === '/oauth/token');
    expect(exchanges).toHaveLength(1);
  });

  test('requests to another path answer 404 and do not end the attempt', async () => {
    let stray = 0;
    const browser = consentBrowser({
      async beforeCallback(callback) {
        stray = (await visit(new URL('/favicon.ico', callback).href)).status;
      },
    });
    const grant = await signInWith(browser).signIn();
    expect(stray).toBe(404);
    expect(grant.orgId).toBe(emulator.orgId);
  });

  test('a second callback after success finds the listener closed', async () => {
    let genuine: URL | undefined;
    const browser = consentBrowser({
      beforeCallback(callback) {
        genuine = callback;
      },
    });
    await signInWith(browser).signIn();
    await expect(visit(genuine?.href ?? '')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('an error from the token endpoint is typed: a code that expired before it reached the app', async () => {
    const browser = consentBrowser({
      beforeCallback() {
        clock.advance(61_000); // codes live 60 s
      },
    });
    const error = await failure(signInWith(browser).signIn());
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ stage: 'token', code: 'invalid_grant' });
    expect((error as Error).message).toContain('expired');
  });

  test('a failing token endpoint is a typed error with its status, not a hang', async () => {
    emulator.control.faults.serverErrors(1, { pathPrefix: '/oauth/token' });
    const error = await failure(signInWith(consentBrowser()).signIn());
    expect(error).toBeInstanceOf(AuthServerUnavailableError);
    expect(error).toMatchObject({ stage: 'token', status: 500 });
  });

  test('an explicitly chosen port that is taken fails clearly, before the browser opens', () =>
    withTakenPort(async (port) => {
      const browser = consentBrowser();
      const error = await failure(signInWith({ ...browser, port }).signIn());
      expect(error).toBeInstanceOf(LoopbackListenError);
      expect((error as Error).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(browser.opened).toEqual([]);
    }));

  test('gives up when the browser never comes back', async () => {
    const error = await failure(signInWith({ ...neverAnswers, attemptTimeoutMs: 30 }).signIn());
    expect(error).toBeInstanceOf(SignInAttemptEndedError);
    expect(error).toMatchObject({ reason: 'timeout' });
  });

  test('an openUrl that never settles does not outlast the attempt', async () => {
    const flow = signInWith({ openUrl: () => new Promise<void>(() => undefined), attemptTimeoutMs: 30 });
    expect(await failure(flow.signIn())).toMatchObject({ type: 'attempt-ended', reason: 'timeout' });
  });

  test('cancel() ends a waiting attempt, and so does the caller’s AbortSignal', async () => {
    const opened: string[] = [];
    const flow = signInWith({ openUrl: (url) => void opened.push(url) });
    const first = failure(flow.signIn());
    await expect.poll(() => opened.length).toBe(1);
    flow.cancel();
    expect(await first).toMatchObject({ type: 'attempt-ended', reason: 'cancelled' });

    const controller = new AbortController();
    const second = failure(flow.signIn({ signal: controller.signal }));
    await expect.poll(() => opened.length).toBe(2);
    controller.abort();
    expect(await second).toMatchObject({ type: 'attempt-ended', reason: 'cancelled' });
  });

  test('a second attempt ends the first (superseded), and the second signs in', async () => {
    let browser: ReturnType<typeof consentBrowser> | undefined;
    let attempts = 0;
    const flow = signInWith({
      openUrl(url) {
        attempts += 1;
        // The first page is left open and forgotten; the person clicks "Sign in" again.
        if (attempts === 2) {
          browser = consentBrowser();
          browser.openUrl(url);
        }
      },
    });
    const first = failure(flow.signIn());
    await expect.poll(() => attempts).toBe(1);
    const grant = await flow.signIn();
    const error = await first;
    expect(error).toBeInstanceOf(SignInAttemptEndedError);
    expect(error).toMatchObject({ reason: 'superseded' });
    expect((await me(grant.accessToken)).status).toBe(200);
    expect((await browser?.finished)?.status).toBe(200);
  });

  test('a browser that cannot be opened is a typed error, and the listener does not stay open', async () => {
    let redirect = '';
    const flow = signInWith({
      openUrl(url) {
        redirect = new URL(url).searchParams.get('redirect_uri') ?? '';
        throw new Error('xdg-open: no method available');
      },
    });
    expect(await failure(flow.signIn())).toBeInstanceOf(BrowserOpenError);
    await expect(visit(redirect)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test.each([
    ['http://auth.example.com', true],
    ['ftp://auth.example.com', true],
    ['https://auth.example.com', false],
    ['http://127.0.0.1:4010', false],
    ['http://localhost:4010', true],
  ])('auth_url %s refused: %s (https, or http on a loopback address literal only)', (authUrl, refused) => {
    const make = () => new OAuthSignIn({ authUrl, clientId: 'svcc_desktop' }, neverAnswers);
    if (refused) expect(make).toThrow(AuthUrlRefusedError);
    else expect(make).not.toThrow();
  });
});
