// The OAuth session kept going against the emulator over real HTTP: refresh
// before expiry and after a 401, single flight, rotation saved before use,
// reuse of a spent refresh token, restarts and failing secret stores.
import { join } from 'node:path';
import { inspect } from 'node:util';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../emulator/clock';
import { type RunningEmulator } from '../../emulator/start';
import { ApiClient } from '../api/api-client';
import { NetworkError, SignedOutError as ApiSignedOutError } from '../api/errors';
import { meOperations } from '../api/operations';
import { apiCredentials } from './api-credentials';
import { AuthServerUnavailableError, SecretStoreError, SignedOutError } from './auth-errors';
import { OAuthSignIn } from './oauth-flow';
import { FileSecretStore, MemorySecretStore, type SecretStore, refreshTokenKey } from './secret-store';
import { consentBrowser } from './testing/consent-browser';
import type { TokenGrant } from './token-endpoint';
import { DEFAULT_REFRESH_MARGIN_MS, TokenKeeper, type TokenKeeperOptions } from './token-keeper';
import { emulatorPerFile } from '../../emulator/testing/emulator-per-file';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';

let emulator: RunningEmulator;
const clock = new ManualClock();
const KEY = refreshTokenKey('acct-1');
let directory: string;

emulatorPerFile({ seedTasks: 5, clock, oauthAutoApprove: true }, (started) => (emulator = started));
temporaryDirectoryPerTest('svc-token-keeper-', (made) => (directory = made));

async function signIn(): Promise<TokenGrant> {
  return new OAuthSignIn(
    { authUrl: emulator.authUrl, clientId: emulator.clientId },
    { openUrl: consentBrowser().openUrl, now: () => clock.now() },
  ).signIn();
}

function options(store: SecretStore, overrides: Partial<TokenKeeperOptions> = {}): TokenKeeperOptions {
  return {
    authUrl: emulator.authUrl,
    clientId: emulator.clientId,
    store,
    storeKey: KEY,
    now: () => clock.now(),
    ...overrides,
  };
}

async function meStatus(token: string): Promise<{ status: number; type: string | undefined }> {
  const response = await request(`${emulator.baseUrl}/v1/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.body.json()) as { type?: string };
  return { status: response.statusCode, type: body.type?.replace('urn:svc:problem:', '') };
}

async function presentRefreshToken(refreshToken: string | null): Promise<{ status: number; error: unknown }> {
  const response = await request(`${emulator.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken ?? '',
      client_id: emulator.clientId,
    }).toString(),
  });
  const body = (await response.body.json()) as { error?: unknown };
  return { status: response.statusCode, error: body.error };
}

function tokenRequests(): number {
  return emulator.control.requests().filter((r) => r.path === '/oauth/token').length;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Moves the clock into the refresh margin of the keeper's access token. */
function intoRefreshMargin(grant: TokenGrant): void {
  clock.set((grant.expiresAt ?? 0) - DEFAULT_REFRESH_MARGIN_MS + 1);
}

/** A store whose next `failSets` writes fail (a keychain that is locked, a full disk...). */
class FailingStore implements SecretStore {
  failSets = 0;
  /** Persist first, then fail: the process "crashes" right after the value reached the disk. */
  crashAfterPersist = false;
  constructor(private readonly inner: SecretStore) {}
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
  async set(key: string, value: string): Promise<void> {
    if (this.crashAfterPersist) {
      this.crashAfterPersist = false;
      await this.inner.set(key, value);
      throw new Error('process killed after saving');
    }
    if (this.failSets > 0) {
      this.failSets -= 1;
      // A careless store that names the value in its error: the keeper must not pass that on.
      throw Object.assign(new Error(`keychain locked, could not store ${value}`), { code: 'EKEYLOCKED' });
    }
    return this.inner.set(key, value);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}

describe('token keeper against the emulator', () => {
  test('saves the refresh token at sign-in and hands out the access token without asking the server', async () => {
    const grant = await signIn();
    const store = new MemorySecretStore();
    emulator.control.clearRequests();
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    expect(await store.get(KEY)).toBe(grant.refreshToken);
    expect(await keeper.getAccessToken()).toBe(grant.accessToken);
    expect(tokenRequests()).toBe(0);
    expect(keeper.orgId).toBe(emulator.orgId);
    expect(keeper.state).toBe('signed-in');
  });

  test('refreshes before expiry; the refresh token rotates and the spent one is refused afterwards', async () => {
    const grant = await signIn();
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    intoRefreshMargin(grant);
    const renewed = await keeper.getAccessToken();
    expect(renewed).not.toBe(grant.accessToken);
    expect(await meStatus(renewed)).toEqual({ status: 200, type: undefined });
    const rotated = await store.get(KEY);
    expect(rotated).toBeDefined();
    expect(rotated).not.toBe(grant.refreshToken);
    expect(await presentRefreshToken(grant.refreshToken)).toEqual({ status: 400, error: 'invalid_grant' });
  });

  test('reuse of a spent refresh token revokes the grant: the keeper is signed out and the dead refresh token deleted', async () => {
    const grant = await signIn();
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    intoRefreshMargin(grant);
    await keeper.getAccessToken();
    const saved = await store.get(KEY);
    // Someone replays the spent token (it leaked): the server revokes the whole grant (RFC 9700).
    await presentRefreshToken(grant.refreshToken);

    const error = await failure(keeper.refresh());
    expect(error).toBeInstanceOf(SignedOutError);
    expect(error).toMatchObject({ type: 'signed-out', reason: 'refresh-token-refused' });
    expect(keeper.state).toBe('signed-out');
    // The refused token is gone from the store, so no later run (a restart, the next sync) presents it again.
    expect(saved).toBeDefined();
    expect(await store.get(KEY)).toBeUndefined();
    const afterRestart = TokenKeeper.resume(options(store));
    emulator.control.clearRequests();
    expect(await failure(afterRestart.getAccessToken())).toMatchObject({ reason: 'no-refresh-token' });
    expect(tokenRequests()).toBe(0);
    // Once signed out it stays so, without asking the server again.
    emulator.control.clearRequests();
    expect(await failure(keeper.getAccessToken())).toBe(error);
    expect(tokenRequests()).toBe(0);
    const shown = `${(error as Error).message} ${inspect(error)} ${inspect(keeper)} ${JSON.stringify(keeper)}`;
    for (const secret of [grant.refreshToken, grant.accessToken, saved ?? ''])
      expect(shown).not.toContain(secret);
  });

  test('after a 401 token-expired, refresh gives a token the service accepts', async () => {
    const grant = await signIn();
    const keeper = await TokenKeeper.fromGrant(grant, options(new MemorySecretStore()));
    clock.set((grant.expiresAt ?? 0) + 1);
    expect(await meStatus(grant.accessToken)).toEqual({ status: 401, type: 'token-expired' });
    const renewed = await keeper.refresh(grant.accessToken);
    expect(await meStatus(renewed)).toEqual({ status: 200, type: undefined });
  });

  test('concurrent refreshes share one request (single flight)', async () => {
    const grant = await signIn();
    const keeper = await TokenKeeper.fromGrant(grant, options(new MemorySecretStore()));
    emulator.control.clearRequests();
    const tokens = await Promise.all(Array.from({ length: 5 }, () => keeper.refresh(grant.accessToken)));
    expect(new Set(tokens).size).toBe(1);
    expect(tokenRequests()).toBe(1);
    expect(await meStatus(tokens[0] ?? '')).toEqual({ status: 200, type: undefined });
  });

  test('a refresh for a token already replaced returns the current one without rotating again', async () => {
    const grant = await signIn();
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    const renewed = await keeper.refresh(grant.accessToken);
    const saved = await store.get(KEY);
    emulator.control.clearRequests();
    expect(await keeper.refresh(grant.accessToken)).toBe(renewed);
    expect(tokenRequests()).toBe(0);
    expect(await store.get(KEY)).toBe(saved);
  });

  test('after a restart a fresh keeper continues from the saved refresh token (file store)', async () => {
    const grant = await signIn();
    const path = join(directory, 'account.db.secrets.json');
    await TokenKeeper.fromGrant(grant, options(new FileSecretStore(path)));
    const resumed = TokenKeeper.resume(options(new FileSecretStore(path)));
    const token = await resumed.getAccessToken();
    expect(await meStatus(token)).toEqual({ status: 200, type: undefined });
    expect(resumed.orgId).toBe(emulator.orgId);
  });

  test('with nothing saved, a resumed keeper says signed out', async () => {
    const error = await failure(TokenKeeper.resume(options(new MemorySecretStore())).getAccessToken());
    expect(error).toMatchObject({ type: 'signed-out', reason: 'no-refresh-token' });
  });

  test('a rotated token that cannot be saved is not used; the error is clear; saving is retried before anything else', async () => {
    const grant = await signIn();
    const store = new FailingStore(new FileSecretStore(join(directory, 'secrets.json')));
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    intoRefreshMargin(grant);
    store.failSets = 2;

    const error = await failure(keeper.refresh());
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error).toMatchObject({ type: 'secret-store-failed', operation: 'set', code: 'EKEYLOCKED' });
    expect((error as Error).message).toBe(
      'Could not save the sign-in securely (EKEYLOCKED); the renewed sign-in was not used.',
    );
    // The store still holds the old token, and nothing new was handed out while it cannot be saved.
    expect(await store.get(KEY)).toBe(grant.refreshToken);
    expect(await failure(keeper.getAccessToken())).toBeInstanceOf(SecretStoreError);

    // The store works again: the rotated token is saved first, then its access token is used.
    emulator.control.clearRequests();
    const token = await keeper.getAccessToken();
    expect(tokenRequests()).toBe(0);
    expect(token).not.toBe(grant.accessToken);
    expect(await meStatus(token)).toEqual({ status: 200, type: undefined });
    const saved = await store.get(KEY);
    expect(saved).not.toBe(grant.refreshToken);
    // What was saved is the live refresh token: a fresh keeper continues from it.
    const resumed = TokenKeeper.resume(options(new FileSecretStore(join(directory, 'secrets.json'))));
    expect(await meStatus(await resumed.refresh())).toEqual({ status: 200, type: undefined });
  });

  test('a crash right after the rotated token was saved loses nothing: a fresh keeper continues', async () => {
    const grant = await signIn();
    const path = join(directory, 'secrets.json');
    const store = new FailingStore(new FileSecretStore(path));
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    store.crashAfterPersist = true;
    expect(await failure(keeper.refresh())).toBeInstanceOf(SecretStoreError);

    const afterRestart = TokenKeeper.resume(options(new FileSecretStore(path)));
    expect(await meStatus(await afterRestart.getAccessToken())).toEqual({ status: 200, type: undefined });
  });

  test('an unreachable token endpoint keeps the session: the current token serves while still valid', async () => {
    const grant = await signIn();
    const keeper = await TokenKeeper.fromGrant(grant, options(new MemorySecretStore()));
    intoRefreshMargin(grant);
    emulator.control.faults.serverErrors(2, { pathPrefix: '/oauth/token' });
    expect(await failure(keeper.refresh())).toBeInstanceOf(AuthServerUnavailableError);
    expect(await keeper.getAccessToken()).toBe(grant.accessToken);
    expect(keeper.state).toBe('signed-in');
    const renewed = await keeper.getAccessToken();
    expect(renewed).not.toBe(grant.accessToken);
  });

  test('forget() deletes the saved refresh token and ends the session', async () => {
    const grant = await signIn();
    const store = new MemorySecretStore();
    const keeper = await TokenKeeper.fromGrant(grant, options(store));
    await keeper.forget();
    expect(await store.get(KEY)).toBeUndefined();
    expect(await failure(keeper.getAccessToken())).toBeInstanceOf(SignedOutError);
  });

  test('printing or serialising a keeper never shows a token', async () => {
    const grant = await signIn();
    const keeper = await TokenKeeper.fromGrant(grant, options(new MemorySecretStore()));
    for (const shown of [inspect(keeper, { showHidden: true, depth: 5 }), JSON.stringify(keeper)]) {
      expect(shown).not.toContain(grant.accessToken);
      expect(shown).not.toContain(grant.refreshToken);
    }
  });
});

describe('the keeper behind the API client', () => {
  test('a 401 token-expired is answered with one refresh and the request succeeds', async () => {
    const grant = await signIn();
    // The local clock runs two hours slow, so the keeper believes an expired token is fresh.
    const keeper = await TokenKeeper.fromGrant(
      grant,
      options(new MemorySecretStore(), { now: () => clock.now() - 2 * 3600_000 }),
    );
    clock.set((grant.expiresAt ?? 0) + 1);
    const client = new ApiClient({ baseUrl: emulator.baseUrl, credentials: apiCredentials(keeper) });
    try {
      const answer = await client.read(meOperations.get, {});
      expect(answer.status).toBe(200);
      expect(client.stats.refreshes).toBe(1);
    } finally {
      await client.close();
    }
  });

  test('an unreachable auth server is a network error to the API client, a spent session its signed-out', async () => {
    const grant = await signIn();
    const keeper = await TokenKeeper.fromGrant(grant, options(new MemorySecretStore()));
    const credentials = apiCredentials(keeper);
    emulator.control.faults.serverErrors(1, { pathPrefix: '/oauth/token' });
    const unreachable = await failure(credentials.refresh?.() ?? Promise.resolve(''));
    expect(unreachable).toBeInstanceOf(NetworkError);
    expect(unreachable).toMatchObject({ code: 'AUTH_SERVER_HTTP_500' });

    await presentRefreshToken(grant.refreshToken);
    await presentRefreshToken(grant.refreshToken); // the second presentation is a reuse: grant revoked
    expect(await failure(credentials.refresh?.() ?? Promise.resolve(''))).toBeInstanceOf(ApiSignedOutError);
  });
});
