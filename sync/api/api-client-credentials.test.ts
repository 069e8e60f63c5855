// The client's credentials over real HTTP: an expired token is refreshed once
// however many requests saw it expire, and a revoked or unknown token signs out
// (typed error, told once, no further requests) without a token in any error.
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../../emulator/clock';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { ApiClient } from './api-client';
import type { CredentialSource } from './credentials';
import { NetworkError, type SignedOutReason, SignedOutError } from './errors';
import { meOperations, taskOperations } from './operations';
import { failure } from './testing/failure';

const SCOPES = ['tasks:write', 'projects:read', 'teams:read', 'members:read'];
const HOUR = 3_600_000;

describe('ApiClient credentials', () => {
  const clock = new ManualClock();
  let emulator: RunningEmulator;
  const clients: ApiClient[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ seedTasks: 10, clock });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await emulator.stop();
  });

  /** A session whose token expires in an hour, and whose refresh mints the next one. */
  function expiringSession(options: { failRefresh?: Error } = {}) {
    const mint = () =>
      emulator.control.mintToken({ scopes: SCOPES, expiresAt: new Date(clock.now() + HOUR).toISOString() })
        .token;
    const session = {
      current: mint(),
      refreshes: 0,
      signedOut: [] as SignedOutReason[],
      source: null as unknown as CredentialSource,
    };
    session.source = {
      getAccessToken: () => Promise.resolve(session.current),
      refresh: async () => {
        session.refreshes += 1;
        // Let every request that saw the expiry arrive while this refresh is under way.
        await new Promise((resolve) => setTimeout(resolve, 30));
        if (options.failRefresh) throw options.failRefresh;
        session.current = mint();
        return session.current;
      },
      onSignedOut: (reason) => session.signedOut.push(reason),
    };
    return session;
  }

  function client(credentials: CredentialSource): ApiClient {
    const made = new ApiClient({
      baseUrl: emulator.baseUrl,
      credentials,
      retry: { baseDelayMs: 5, maxDelayMs: 20, random: () => 0.5 },
    });
    clients.push(made);
    return made;
  }

  test('an expired token is refreshed once for all the requests that saw it expire, and they all succeed', async () => {
    const session = expiringSession();
    const api = client(session.source);
    const firstToken = session.current;
    expect((await api.read(meOperations.get, {})).status).toBe(200);

    clock.advance(2 * HOUR);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        api.listPage(taskOperations.list, { orgId: emulator.orgId }, { limit: 2 }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(session.refreshes).toBe(1);
    expect(api.stats.refreshes).toBe(1);
    expect(session.current).not.toBe(firstToken);
    expect(session.signedOut).toEqual([]);
  });

  test('without a way to refresh, an expired token signs out', async () => {
    const { token } = emulator.control.mintToken({
      scopes: SCOPES,
      expiresAt: new Date(clock.now() + HOUR).toISOString(),
    });
    const told: SignedOutReason[] = [];
    const api = client({
      getAccessToken: () => Promise.resolve(token),
      onSignedOut: (reason) => told.push(reason),
    });
    clock.advance(2 * HOUR);
    const error = await failure(api.read(meOperations.get, {}));
    expect(error).toBeInstanceOf(SignedOutError);
    expect(error).toMatchObject({ kind: 'signed-out', reason: 'token-expired', operation: 'me.get' });
    expect(told).toEqual(['token-expired']);
  });

  test('a refresh that is refused signs out, once', async () => {
    const session = expiringSession({ failRefresh: new Error('invalid_grant') });
    const api = client(session.source);
    clock.advance(2 * HOUR);
    const errors = await Promise.all([1, 2, 3].map(() => failure(api.read(meOperations.get, {}))));
    for (const error of errors) expect(error).toMatchObject({ kind: 'signed-out', reason: 'token-expired' });
    expect(session.refreshes).toBe(1);
    expect(session.signedOut).toEqual(['token-expired']);
  });

  test('a refresh that fails on the network keeps the session: the next request tries again', async () => {
    const session = expiringSession({
      failRefresh: new NetworkError('oauth.token', 'ECONNRESET', 'reset', 1),
    });
    const api = client(session.source);
    clock.advance(2 * HOUR);
    expect(await failure(api.read(meOperations.get, {}))).toBeInstanceOf(NetworkError);
    expect(await failure(api.read(meOperations.get, {}))).toBeInstanceOf(NetworkError);
    expect(session.refreshes).toBe(2);
    expect(session.signedOut).toEqual([]);
  });

  test('a revoked token signs out: every request fails typed, the source is told once, nothing more is sent', async () => {
    const { token, record } = emulator.control.mintToken({ scopes: SCOPES });
    const told: SignedOutReason[] = [];
    const api = client({
      getAccessToken: () => Promise.resolve(token),
      onSignedOut: (reason) => told.push(reason),
    });
    expect((await api.read(meOperations.get, {})).status).toBe(200);

    emulator.control.revokeToken(record.token_id, 'lost laptop');
    const errors = await Promise.all([1, 2, 3].map(() => failure(api.read(meOperations.get, {}))));
    for (const error of errors) expect(error).toMatchObject({ kind: 'signed-out', reason: 'token-revoked' });
    expect(told).toEqual(['token-revoked']);

    const sent = api.stats.requests;
    expect(await failure(api.listPage(taskOperations.list, { orgId: emulator.orgId }))).toMatchObject({
      reason: 'token-revoked',
    });
    expect(api.stats.requests).toBe(sent);
    for (const error of errors) {
      expect(inspect(error, { depth: 10 })).not.toContain(token);
      expect(JSON.stringify(error)).not.toContain(token);
    }
  });

  test('an unknown token signs out as token-invalid, and the token is in no error', async () => {
    const token = 'svc_live_this_token_was_never_minted_0123456789';
    const api = client({ getAccessToken: () => Promise.resolve(token) });
    const error = await failure(api.read(meOperations.get, {}));
    expect(error).toMatchObject({ kind: 'signed-out', reason: 'token-invalid' });
    expect(inspect(error, { depth: 10 })).not.toContain('never_minted');
    expect((error as Error).message).toMatch(/sign in again/);
  });
});
