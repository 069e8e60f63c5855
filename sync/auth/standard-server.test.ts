// The whole sign-in against an authorization server that is not ours:
// oidc-provider (OpenID Certified), plain OAuth 2.0 for a public native client
// (testing/standard-auth-server.ts). Its answers differ from our emulator's in
// what RFC 6749 allows: no org_id, a refresh token only when it chooses, an
// `iss` on the redirect (RFC 9207). The browser is played over real HTTP.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../api/api-client';
import { meOperations } from '../api/operations';
import { type LoginIo, resolveStoredCredentials, runLogin } from '../cli/login-command';
import { explain } from '../cli/run-cli';
import { meOfStoredSignIn } from '../cli/testing/stored-sign-in';
import { SessionEndedError, SignInServerUnreachableError, apiCredentials } from './api-credentials';
import { IssuerMismatchError, OAuthProtocolError, SignedOutError } from './auth-errors';
import { DEFAULT_SCOPES, OAuthSignIn } from './oauth-flow';
import { MemorySecretStore, refreshTokenKey, secretFileBesideDatabase } from './secret-store';
import {
  STANDARD_ACCOUNT,
  type StandardAuthServer,
  redirectingBrowser,
  type RedirectingBrowserScript,
  startStandardAuthServer,
} from './testing/standard-auth-server';
import { TokenGrant } from './token-endpoint';
import { TokenKeeper, type TokenKeeperOptions } from './token-keeper';

const KEY = refreshTokenKey('acct_standard');
const ORG = 'org_from_me';

let server: StandardAuthServer;
let noRefresh: StandardAuthServer;
const directories: string[] = [];

beforeAll(async () => {
  server = await startStandardAuthServer({ meOrgId: ORG });
  noRefresh = await startStandardAuthServer({ refreshTokens: false, meOrgId: ORG });
});
afterAll(async () => {
  await server.close();
  await noRefresh.close();
});
afterEach(async () => {
  await Promise.all(directories.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function signInTo(target: StandardAuthServer, openUrl: (url: string) => void): OAuthSignIn {
  return new OAuthSignIn({ authUrl: target.authUrl, clientId: target.clientId }, { openUrl });
}

function keeperOptions(
  target: StandardAuthServer,
  store: MemorySecretStore,
  extra: Partial<TokenKeeperOptions> = {},
) {
  return { authUrl: target.authUrl, clientId: target.clientId, store, storeKey: KEY, ...extra };
}

async function meStatus(target: StandardAuthServer, token: string): Promise<number> {
  const response = await request(`${target.baseUrl}/v1/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body.dump();
  return response.statusCode;
}

async function presentRefreshToken(target: StandardAuthServer, token: string): Promise<unknown> {
  const response = await request(`${target.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: target.clientId,
    }).toString(),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function signedIn(target: StandardAuthServer): Promise<TokenGrant> {
  const browser = redirectingBrowser();
  const grant = await signInTo(target, browser.openUrl).signIn();
  await browser.finished;
  return grant;
}

describe('browser sign-in against oidc-provider', () => {
  test('authorize with PKCE S256 and state, loopback redirect with iss, code exchanged: a grant without org_id', async () => {
    const browser = redirectingBrowser();
    const grant = await signInTo(server, browser.openUrl).signIn();

    const authorize = new URL(browser.opened[0] ?? '');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${server.authUrl}/oauth/authorize`);
    const query = authorize.searchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The server sent iss (RFC 9207), and it was its own.
    const landing = await browser.finished;
    const callback = new URL(landing.url);
    expect(callback.searchParams.get('iss')).toBe(server.authUrl);

    // oidc-provider requires PKCE of this client and checks the verifier at the exchange: a grant is the proof.
    expect(grant.orgId).toBeNull();
    expect(grant.refreshToken).not.toBeNull();
    expect(grant.scopes).toEqual(DEFAULT_SCOPES);
    expect(grant.expiresAt).not.toBeNull();
    expect(await meStatus(server, grant.accessToken)).toBe(200);
    // The page is answered after the exchange, and says it worked.
    expect(landing.status).toBe(200);
    expect(landing.body).toContain('<h1>Signed in</h1>');
  });

  test('the browser is told "Signed in" only after the caller\'s own step (who signed in) succeeded', async () => {
    const browser = redirectingBrowser();
    let pageSeenDuringFinish: boolean | undefined;
    const who = await signInTo(server, browser.openUrl).signIn({
      finish: async (grant) => {
        pageSeenDuringFinish = browser.visited.some((page) => page.body.includes('Signed in'));
        const response = await request(`${server.baseUrl}/v1/me`, {
          headers: { authorization: `Bearer ${grant.accessToken}` },
        });
        return (await response.body.json()) as { user_id: string; org_id: string };
      },
    });
    expect(pageSeenDuringFinish).toBe(false);
    expect(who).toMatchObject({ user_id: STANDARD_ACCOUNT.user_id, org_id: ORG });
    expect((await browser.finished).body).toContain('<h1>Signed in</h1>');
  });

  test('a code exchange the server refuses: the command and the browser page both say the sign-in failed', async () => {
    const browser = redirectingBrowser({
      beforeCallback(url) {
        // The code is spoiled on the way back: the server refuses it at the exchange.
        url.searchParams.set('code', `${url.searchParams.get('code') ?? ''}x`);
        return url;
      },
    });
    const error = await failure(signInTo(server, browser.openUrl).signIn());
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ stage: 'token', code: 'invalid_grant' });
    const landing = await browser.finished;
    expect(landing.body).toContain('<h1>Sign-in did not complete</h1>');
    expect(landing.body).toContain('The authorization is no longer valid (invalid_grant');
    expect(landing.body).not.toContain('<h1>Signed in</h1>');
  });

  test("the caller's step failing (say the account does not match) is what the browser page says too", async () => {
    const browser = redirectingBrowser();
    const error = await failure(
      signInTo(server, browser.openUrl).signIn({
        finish: () =>
          Promise.reject(new IssuerMismatchError('https://expected.example', 'https://other.example')),
      }),
    );
    expect(error).toBeInstanceOf(IssuerMismatchError);
    expect((await browser.finished).body).toContain((error as Error).message);
  });

  test('RFC 9207: a redirect whose iss is not the server asked is refused before any exchange', async () => {
    const browser = redirectingBrowser({
      beforeCallback(url) {
        url.searchParams.set('iss', 'https://attacker.example');
        return url;
      },
    });
    const before = server.tokenRequests();
    const error = await failure(signInTo(server, browser.openUrl).signIn());
    expect(error).toBeInstanceOf(IssuerMismatchError);
    expect(error).toMatchObject({ received: 'https://attacker.example' });
    expect(server.tokenRequests()).toBe(before);
    expect((await browser.finished).body).toContain('Sign-in did not complete');
  });

  test('RFC 9207: a redirect without iss is accepted', async () => {
    const browser = redirectingBrowser({
      beforeCallback(url) {
        url.searchParams.delete('iss');
        return url;
      },
    });
    const grant = await signInTo(server, browser.openUrl).signIn();
    expect(await meStatus(server, grant.accessToken)).toBe(200);
  });

  test('declining is access_denied, told to the command and the browser', async () => {
    server.decide('deny');
    try {
      const browser = redirectingBrowser();
      const error = await failure(signInTo(server, browser.openUrl).signIn());
      expect(error).toMatchObject({ type: 'oauth-error', stage: 'authorization', code: 'access_denied' });
      expect((await browser.finished).body).toContain('Sign-in was declined');
    } finally {
      server.decide('approve');
    }
  });
});

describe('keeping the session with oidc-provider', () => {
  test('refresh rotates the refresh token; the spent one is refused afterwards', async () => {
    const grant = await signedIn(server);
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, keeperOptions(server, store));
    const renewed = await keeper.refresh();
    expect(renewed).not.toBe(grant.accessToken);
    expect(await meStatus(server, renewed)).toBe(200);
    const rotated = await store.get(KEY);
    expect(rotated).toBeDefined();
    expect(rotated).not.toBe(grant.refreshToken);
    // Scopes are kept, and the organization is not invented: the answer has none.
    expect(keeper.scopes).toEqual(DEFAULT_SCOPES);
    expect(keeper.orgId).toBeUndefined();
  });

  test('reuse of a spent refresh token: the server revokes the grant, the keeper signs out and deletes it, the message says sign in again', async () => {
    const grant = await signedIn(server);
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, keeperOptions(server, store));
    const renewed = await keeper.refresh();
    // The spent token is replayed (it leaked): RFC 9700 reuse detection revokes the whole grant.
    expect(await presentRefreshToken(server, grant.refreshToken ?? '')).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await meStatus(server, renewed)).toBe(401);

    const credentials = apiCredentials(keeper, {
      signInAgain: 'sign in again with: login --db mirror.sqlite',
    });
    const error = await failure(credentials.refresh?.() ?? Promise.resolve(''));
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(error).toMatchObject({ sessionReason: 'refresh-token-refused', reason: 'token-revoked' });
    expect(keeper.state).toBe('signed-out');
    expect(await store.get(KEY)).toBeUndefined();
    const { code, message } = explain(error);
    expect(code).toBe(3);
    expect(message).toContain('sign in again with: login --db mirror.sqlite');
    expect(message).not.toContain('--token');
    expect(message).not.toContain('SVC_TOKEN');

    // A later run finds nothing to present: no request reaches the server.
    const before = server.tokenRequests();
    const later = TokenKeeper.resume(keeperOptions(server, store));
    expect(await failure(later.getAccessToken())).toMatchObject({ reason: 'no-refresh-token' });
    expect(server.tokenRequests()).toBe(before);
  });

  test('a 401 token-expired whose refresh is refused still says to sign in again (through the API client)', async () => {
    const target = await startStandardAuthServer();
    try {
      const grant = await signedIn(target);
      const store = new MemorySecretStore();
      const keeper = await TokenKeeper.fromGrant(grant, keeperOptions(target, store));
      // The refresh token the keeper holds is no longer one the server honours.
      await store.set(KEY, 'a-refresh-token-the-server-never-issued');
      target.expireAccessToken(grant.accessToken);
      const client = new ApiClient({
        baseUrl: target.baseUrl,
        credentials: apiCredentials(keeper, { signInAgain: 'sign in again with: login --db FILE' }),
      });
      try {
        const error = await failure(client.read(meOperations.get, {}));
        expect(error).toBeInstanceOf(SessionEndedError);
        expect(explain(error).message).toContain('sign in again with: login --db FILE');
        expect(explain(error).message).not.toContain('SVC_TOKEN');
        expect(client.stats.refreshes).toBe(0);
      } finally {
        await client.close();
      }
    } finally {
      await target.close();
    }
  });

  test('an access token without a known lifetime serves until a 401 says it expired; then one refresh', async () => {
    const signed = await signedIn(server);
    // As from a server that sent no expires_in (RFC 6749 5.1 allows it).
    const grant = new TokenGrant(signed.accessToken, signed.refreshToken, null, signed.scopes, null);
    const keeper = await TokenKeeper.fromGrant(
      grant,
      keeperOptions(server, new MemorySecretStore(), { now: () => Date.now() + 365 * 86_400_000 }),
    );
    expect(await keeper.getAccessToken()).toBe(grant.accessToken);
    server.expireAccessToken(grant.accessToken);
    const client = new ApiClient({ baseUrl: server.baseUrl, credentials: apiCredentials(keeper) });
    try {
      const answer = await client.read(meOperations.get, {});
      expect(answer.status).toBe(200);
      expect(client.stats.refreshes).toBe(1);
      expect(await keeper.getAccessToken()).not.toBe(grant.accessToken);
    } finally {
      await client.close();
    }
  });

  test('no refresh token from the server: the session lasts as long as the access token, then says sign in again', async () => {
    const grant = await signedIn(noRefresh);
    expect(grant.refreshToken).toBeNull();
    let now = Date.now();
    const store = new MemorySecretStore();
    await store.set(KEY, 'a refresh token from an earlier sign-in');
    const keeper = await TokenKeeper.fromGrant(grant, keeperOptions(noRefresh, store, { now: () => now }));
    expect(keeper.renewable).toBe(false);
    expect(await store.get(KEY)).toBeUndefined();
    // Inside the refresh margin it is still used: there is nothing to renew it with.
    now = (grant.expiresAt ?? 0) - 1000;
    expect(await keeper.getAccessToken()).toBe(grant.accessToken);
    expect(await meStatus(noRefresh, grant.accessToken)).toBe(200);

    now = (grant.expiresAt ?? 0) + 1;
    const before = noRefresh.tokenRequests();
    const error = await failure(apiCredentials(keeper).getAccessToken());
    expect(error).toBeInstanceOf(SessionEndedError);
    expect((error as Error).message).toMatch(/gave no refresh token.*lapsed; sign in again/);
    expect(noRefresh.tokenRequests()).toBe(before);
    expect(await failure(keeper.refresh())).toBeInstanceOf(SignedOutError);
  });

  test('a sign-in server that cannot be reached during a refresh is named, not the API address', async () => {
    const gone = await startStandardAuthServer();
    const grant = await signedIn(gone);
    const keeper = await TokenKeeper.fromGrant(grant, keeperOptions(gone, new MemorySecretStore()));
    await gone.close();
    const error = await failure(apiCredentials(keeper).refresh?.() ?? Promise.resolve(''));
    expect(error).toBeInstanceOf(SignInServerUnreachableError);
    expect(error).toMatchObject({ kind: 'network', code: 'AUTH_SERVER_UNREACHABLE', authUrl: gone.authUrl });
    const { message } = explain(error);
    expect(message).toContain(`the sign-in server ${gone.authUrl} could not be reached`);
    expect(message).not.toContain('--base-url');
    expect(keeper.state).toBe('signed-in');
  });
});

describe('the headless login against oidc-provider', () => {
  async function database(): Promise<string> {
    const directory = await mkdtemp(join(tmpdir(), 'svc-standard-login-'));
    directories.push(directory);
    return join(directory, 'mirror.sqlite');
  }

  function loginIo(script: RedirectingBrowserScript = {}): LoginIo & {
    out: () => string;
    err: () => string;
    browser: ReturnType<typeof redirectingBrowser>;
  } {
    let out = '';
    let err = '';
    const browser = redirectingBrowser(script);
    return {
      stdout: (text) => (out += text),
      stderr: (text) => (err += text),
      env: {},
      openBrowser: (url) => {
        browser.openUrl(url);
        return Promise.resolve();
      },
      out: () => out,
      err: () => err,
      browser,
    };
  }

  function args(target: StandardAuthServer, db: string): string[] {
    return [
      '--base-url',
      target.baseUrl,
      '--auth-url',
      target.authUrl,
      '--client-id',
      target.clientId,
      '--db',
      db,
    ];
  }

  test("signs in, takes the organization from /v1/me, and sync's credentials work; a revoked grant then says login again", async () => {
    const db = await database();
    const io = loginIo();
    expect(await runLogin(args(server, db), io)).toBe(0);
    expect(io.out()).toContain(`Signed in as ${STANDARD_ACCOUNT.username} (organization ${ORG})`);
    expect((await io.browser.finished).body).toContain('<h1>Signed in</h1>');
    const stored = await resolveStoredCredentials(db);
    expect(stored?.identity).toMatchObject({ user_id: STANDARD_ACCOUNT.user_id, org_id: ORG });
    expect(await meOfStoredSignIn(db)).toMatchObject({ username: STANDARD_ACCOUNT.username });

    // The saved refresh token is replayed elsewhere after our rotation: the grant is revoked.
    const secrets = JSON.parse(await readFile(secretFileBesideDatabase(db), 'utf8')) as Record<
      string,
      string
    >;
    const saved = secrets['refresh-token:database'] ?? '';
    await presentRefreshToken(server, saved);
    await presentRefreshToken(server, saved);
    const error = await failure(meOfStoredSignIn(db));
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(explain(error).message).toContain(`sign in again with: login --db ${db}`);
    expect(JSON.parse(await readFile(secretFileBesideDatabase(db), 'utf8'))).toEqual({});
    // The next sync does not present the dead token again; it says the same.
    const before = server.tokenRequests();
    const again = await failure(meOfStoredSignIn(db));
    expect(explain(again)).toMatchObject({
      code: 3,
      message: expect.stringContaining(`login --db ${db}`) as unknown,
    });
    expect(server.tokenRequests()).toBe(before);
  });

  test('without a refresh token the command says the sign-in lasts as long as its access token, and it works until then', async () => {
    const db = await database();
    const io = loginIo();
    expect(await runLogin(args(noRefresh, db), io)).toBe(0);
    expect(io.err()).toMatch(
      /gave no refresh token, so this sign-in lasts only as long as its access token \(until \d{4}-/,
    );
    expect(io.err()).toContain(`then sign in again with: login --db ${db}`);
    expect(await meOfStoredSignIn(db)).toMatchObject({ user_id: STANDARD_ACCOUNT.user_id, org_id: ORG });
    const stored = await resolveStoredCredentials(db, { now: () => Date.now() + 2 * 3600_000 });
    const lapsed = await failure(stored?.credentials.getAccessToken() ?? Promise.resolve(''));
    expect(explain(lapsed).message).toMatch(/lapsed; sign in again with: login --db/);
  });

  test('a failed exchange: the command fails and the browser page says so, nothing is kept', async () => {
    const db = await database();
    const io = loginIo({
      beforeCallback(url) {
        url.searchParams.set('code', 'not-the-code');
        return url;
      },
    });
    expect(await runLogin(args(server, db), io)).toBe(1);
    expect(io.err()).toContain('Sign-in failed: The authorization is no longer valid (invalid_grant');
    expect(io.out()).toBe('');
    expect((await io.browser.finished).body).toContain('Sign-in did not complete');
    expect(await resolveStoredCredentials(db)).toBeNull();
  });
});
