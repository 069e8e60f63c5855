// Accounts against the emulator over real HTTP, with real registry, secrets
// and mirror files in a temporary directory: pasted and browser sign-in,
// read-only test tokens, the same-account rule, sign-in refused by the
// service without losing queued edits, sign-out, restarts, several accounts.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { systemApiClock } from '../api/clock';
import { SignedOutError as ApiSignedOutError } from '../api/errors';
import { meOperations, taskOperations } from '../api/operations';
import { PastedTokenRefusedError } from '../auth/auth-errors';
import { FileSecretStore, refreshTokenKey } from '../auth/secret-store';
import { consentBrowser } from '../auth/testing/consent-browser';
import {
  STANDARD_ACCOUNT,
  redirectingBrowser,
  startStandardAuthServer,
} from '../auth/testing/standard-auth-server';
import { createMirrorPusher } from '../push/mirror-push-store';
import { SyncEngine } from '../engine/sync-engine';
import type { SyncEvent } from '../events/sync-events';
import {
  AccountMismatchError,
  AccountRegistryUnreadableError,
  ServerSettingsRefusedError,
  TokenNotAcceptedError,
} from './account-errors';
import {
  AccountManager,
  type AccountManagerOptions,
  type AccountsEvent,
  removeMirrorFiles,
} from './account-manager';
import { REGISTRY_FILE_NAME } from './account-registry';
import type { AccountRuntime, AccountState, AccountSyncEngine } from './account-runtime';
import { accessTokenKey, withEncryptionReport } from './account-secrets';
import { emulatorPerFile } from '../../emulator/testing/emulator-per-file';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';
import {
  MIGRATIONS_AFTER_OLDER_MIRROR,
  upgradeSteps,
  writeOlderMirror,
} from '../../db/testing/other-version-mirrors';

let emulator: RunningEmulator;
let directory: string;
let secretsFile: string;
type TestManager = AccountManager<Mirror, AccountSyncEngine>;
const managers: TestManager[] = [];

emulatorPerFile({ seedTasks: 6, oauthAutoApprove: true }, (started) => (emulator = started));
temporaryDirectoryPerTest('svc-accounts-', (made) => {
  directory = made;
  secretsFile = join(made, 'secrets.json');
});
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.close();
});

const FAST_RETRY = { retry: { baseDelayMs: 5, maxDelayMs: 40 } };

/** A manager over the test directory; secrets in a 0600 file labelled as a real keychain unless told otherwise. */
async function openManager(
  overrides: Partial<AccountManagerOptions<Mirror, AccountSyncEngine>> = {},
): Promise<TestManager> {
  const manager = await AccountManager.open<Mirror, AccountSyncEngine>({
    directory,
    secrets: withEncryptionReport(new FileSecretStore(secretsFile), true),
    defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
    // The engine's push half is enough to see queued edits go out.
    createEngine: ({ mirror, api, onEvent }) => {
      const pusher = createMirrorPusher({ mirror, api, clock: systemApiClock, onEvent });
      return { pushOnce: () => pusher.pushAll() };
    },
    client: FAST_RETRY,
    ...overrides,
  });
  managers.push(manager);
  return manager;
}

async function closeManager(manager: TestManager): Promise<void> {
  managers.splice(managers.indexOf(manager), 1);
  await manager.close();
}

function stateReached(
  runtime: AccountRuntime<Mirror, AccountSyncEngine>,
  state: AccountState,
): Promise<void> {
  if (runtime.status.state === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = runtime.subscribe((event) => {
      if (event.type === 'status' && event.status.state === state) {
        stop();
        resolve();
      }
    });
  });
}

/** Pushes what waits and returns once the 403 has made two kinds read-only on the (first) account. */
async function pushIntoReadOnlyKinds(
  manager: TestManager,
  runtime: AccountRuntime<Mirror, AccountSyncEngine>,
): Promise<void> {
  const refused = new Promise<void>((resolve) => {
    const stop = manager.subscribe((event) => {
      if (event.type === 'accounts-changed' && event.accounts[0]?.read_only_kinds.length === 2) {
        stop();
        resolve();
      }
    });
  });
  await runtime.pushQueuedEdits();
  await refused;
}

/** Puts one of the emulator's tasks into an account's mirror, as a single read would, and edits it there. */
function queueEdit(runtime: AccountRuntime<Mirror, AccountSyncEngine>, title: string): string {
  const task =
    emulator.control.tasks().find((t) => t.assignee === emulator.me.username) ?? emulator.control.tasks()[0];
  if (!task) throw new Error('the emulator has no task');
  runtime.mirror.tasks.applyServerCopy(task, emulator.control.taskEtag(task.task_id) ?? null);
  expect(runtime.mirror.tasks.edit(task.task_id, { title })).not.toBeNull();
  return task.task_id;
}

/** `signedIn` resumed `accountId` with its one queued edit, and the next push of its runtime sends that edit's `title`. */
async function resumedThenSent(
  signedIn: unknown,
  accountId: string,
  runtime: AccountRuntime<Mirror, AccountSyncEngine>,
  taskId: string,
  title: string,
): Promise<void> {
  expect(signedIn).toMatchObject({
    created: false,
    queued_edits: 1,
    account: { id: accountId, state: 'signed-in' },
  });
  await runtime.pushQueuedEdits();
  expect(emulator.control.task(taskId)?.title).toBe(title);
}

async function filesContaining(secrets: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(directory)) {
    if (name === 'secrets.json') continue;
    const bytes = await readFile(join(directory, name));
    for (const secret of secrets) if (bytes.includes(secret)) found.push(name);
  }
  return found;
}

describe('pasted tokens', () => {
  test('a live token signs in as the token’s user, with its own mirror file, and becomes the current account', async () => {
    const manager = await openManager();
    const result = await manager.signInWithToken({ token: ` Bearer ${emulator.tokens.live} ` });

    expect(result.created).toBe(true);
    expect(result.account).toMatchObject({
      base_url: emulator.baseUrl,
      identity: { user_id: emulator.me.user_id, username: emulator.me.username, org_id: emulator.orgId },
      token_kind: 'live',
      read_only: false,
      state: 'signed-in',
      current: true,
    });
    expect(existsSync(result.account.mirror_path)).toBe(true);
    expect(manager.current()?.id).toBe(result.account.id);
    const session = manager.runtime(result.account.id).session;
    const me = await session?.api.read(meOperations.get, {});
    expect(me).toMatchObject({ status: 200, body: { user_id: emulator.me.user_id } });
  });

  test('a test token signs in read-only, and the account says so', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.test });
    expect(account).toMatchObject({ token_kind: 'test', read_only: true, state: 'read-only' });
    expect(manager.runtime(account.id).status.state).toBe('read-only');
  });

  test('an edit refused to a test token waits, and goes out once the account signs in again with a live token', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.test });
    const runtime = manager.runtime(account.id);
    const taskId = queueEdit(runtime, 'Written while read-only');
    await runtime.pushQueuedEdits();
    expect(runtime.mirror.outbox.list(['blocked'])).toHaveLength(1);
    expect(emulator.control.task(taskId)?.title).not.toBe('Written while read-only');

    const live = await manager.signInWithToken({ token: emulator.tokens.live });
    await resumedThenSent(live, account.id, runtime, taskId, 'Written while read-only');
  });

  test('something that is not a token of this service is refused before it is sent', async () => {
    const manager = await openManager();
    emulator.control.clearRequests();
    const refused = manager.signInWithToken({ token: 'ghp_0123456789abcdefghijklmnop' });
    await expect(refused).rejects.toBeInstanceOf(PastedTokenRefusedError);
    await expect(refused).rejects.toThrow(/should start with svc_live_ or svc_test_/);
    expect(emulator.control.requests()).toEqual([]);
    expect(manager.list()).toEqual([]);
  });

  test('a well-formed token the service does not know is refused with a clear message, and no account is kept', async () => {
    const manager = await openManager();
    const refused = manager.signInWithToken({ token: 'svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    await expect(refused).rejects.toBeInstanceOf(TokenNotAcceptedError);
    await expect(refused).rejects.toThrow(/does not recognise this token/);
    expect(manager.list()).toEqual([]);
    expect(existsSync(join(directory, REGISTRY_FILE_NAME))).toBe(false);
  });

  test('a revoked pasted token signs the account out when the service refuses it, keeping the mirror', async () => {
    const manager = await openManager();
    const minted = emulator.control.mintToken({ scopes: ['tasks:write'], name: 'to be revoked' });
    const { account } = await manager.signInWithToken({ token: minted.token });
    const runtime = manager.runtime(account.id);
    emulator.control.revokeToken(minted.record.token_id);

    await expect(runtime.session?.api.read(meOperations.get, {})).rejects.toBeInstanceOf(ApiSignedOutError);
    await stateReached(runtime, 'signed-out');

    expect(manager.list()[0]).toMatchObject({ state: 'signed-out', signed_out_reason: 'sign-in-refused' });
    expect(existsSync(account.mirror_path)).toBe(true);
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(account.id))).toBeUndefined();
  });
});

describe('browser sign-in', () => {
  test('signs in through the consent page, saves the refresh token, and the session reaches the API', async () => {
    const manager = await openManager();
    const browser = consentBrowser();
    const { account } = await manager.signInWithBrowser({ openUrl: browser.openUrl });

    expect(browser.opened[0]).toMatch(new RegExp(`^${emulator.authUrl}/oauth/authorize\\?`));
    expect(account).toMatchObject({
      token_kind: 'oauth',
      state: 'signed-in',
      identity: { user_id: emulator.me.user_id, org_id: emulator.orgId },
    });
    expect(await new FileSecretStore(secretsFile).get(refreshTokenKey(account.id))).toMatch(/^svcr_/);
    const answer = await manager.runtime(account.id).session?.api.read(meOperations.get, {});
    expect(answer?.status).toBe(200);
  });

  test('against a standard OAuth server (oidc-provider): no org_id in the token answer, so it comes from /v1/me', async () => {
    const standard = await startStandardAuthServer({ meOrgId: 'org_standard' });
    try {
      const manager = await openManager({
        defaults: { base_url: standard.baseUrl, auth_url: standard.authUrl, client_id: standard.clientId },
      });
      const browser = redirectingBrowser();
      const { account } = await manager.signInWithBrowser({ openUrl: browser.openUrl });
      expect(account).toMatchObject({
        token_kind: 'oauth',
        state: 'signed-in',
        identity: { user_id: STANDARD_ACCOUNT.user_id, org_id: 'org_standard' },
      });
      expect((await browser.finished).body).toContain('<h1>Signed in</h1>');
      const answer = await manager.runtime(account.id).session?.api.read(meOperations.get, {});
      expect(answer?.status).toBe(200);
      // It gave a refresh token: the session renews itself, no end to tell.
      expect(account.session_ends_at).toBeNull();
    } finally {
      await standard.close();
    }
  });

  test('a standard server that gives no refresh token: the account says when its sign-in ends, also after a restart', async () => {
    const standard = await startStandardAuthServer({
      meOrgId: 'org_standard',
      refreshTokens: false,
      accessTokenTtlSeconds: 600,
    });
    try {
      const manager = await openManager({
        defaults: { base_url: standard.baseUrl, auth_url: standard.authUrl, client_id: standard.clientId },
      });
      const before = Date.now();
      const { account } = await manager.signInWithBrowser({ openUrl: redirectingBrowser().openUrl });
      const endsAt = Date.parse(account.session_ends_at ?? '');
      expect(endsAt).toBeGreaterThanOrEqual(before + 590_000);
      expect(endsAt).toBeLessThanOrEqual(Date.now() + 600_000);
      await closeManager(manager);
      const listed = (await openManager()).list().find((a) => a.id === account.id);
      expect(listed?.session_ends_at).toBe(account.session_ends_at);
    } finally {
      await standard.close();
    }
  });

  test('a declined consent adds no account', async () => {
    const manager = await openManager();
    emulator.control.setOAuthAutoApprove(false);
    try {
      const denied = manager.signInWithBrowser({ openUrl: consentBrowser({ decision: 'deny' }).openUrl });
      await expect(denied).rejects.toMatchObject({ type: 'oauth-error', code: 'access_denied' });
    } finally {
      emulator.control.setOAuthAutoApprove(true);
    }
    expect(manager.list()).toEqual([]);
  });

  test('a spent refresh token signs the account out without losing its queued edit, which goes out after signing in again', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithBrowser({ openUrl: consentBrowser().openUrl });
    const runtime = manager.runtime(account.id);
    const taskId = queueEdit(runtime, 'Queued before the sign-in was refused');

    // Rotate once, then put the spent refresh token back, as a restored backup or a second copy of the app would.
    const file = new FileSecretStore(secretsFile);
    const spent = await file.get(refreshTokenKey(account.id));
    await runtime.session?.keeper?.refresh();
    await file.set(refreshTokenKey(account.id), spent as string);
    await expect(runtime.session?.credentials.refresh?.()).rejects.toBeInstanceOf(ApiSignedOutError);
    await stateReached(runtime, 'signed-out');

    expect(manager.list()[0]).toMatchObject({
      id: account.id,
      state: 'signed-out',
      signed_out_reason: 'sign-in-refused',
      queued_edits: 1,
    });
    expect(await file.get(refreshTokenKey(account.id))).toBeUndefined();
    expect(emulator.control.task(taskId)?.title).not.toBe('Queued before the sign-in was refused');

    const again = await manager.signInWithBrowser({
      accountId: account.id,
      openUrl: consentBrowser().openUrl,
    });
    await resumedThenSent(again, account.id, runtime, taskId, 'Queued before the sign-in was refused');
    expect(runtime.queuedEditCount()).toBe(0);
  });
});

describe('scopes', () => {
  test('a browser sign-in asks for every kind the app writes; a grant without teams:write leaves sprints read-only until a sign-in that grants it', async () => {
    const manager = await openManager();
    const browser = consentBrowser();
    emulator.control.setOAuthWithheldScopes(['teams:write']);
    let account;
    try {
      ({ account } = await manager.signInWithBrowser({ openUrl: browser.openUrl }));
    } finally {
      emulator.control.setOAuthWithheldScopes([]);
    }
    const asked = new URL(browser.opened[0] as string).searchParams.get('scope')?.split(' ');
    expect(asked?.sort()).toEqual([
      'members:read',
      'projects:read',
      'projects:write',
      'tasks:read',
      'tasks:write',
      'teams:read',
      'teams:write',
    ]);
    expect(account.read_only_kinds).toEqual([{ kind: 'sprint', scope: 'teams:write' }]);

    const again = await manager.signInWithBrowser({
      accountId: account.id,
      openUrl: consentBrowser().openUrl,
    });
    expect(again.account.read_only_kinds).toEqual([]);
  });

  test('a 403 insufficient-scope makes its kinds read-only for the account, kept across restarts, until it signs in again', async () => {
    const manager = await openManager();
    const { token } = emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:write', 'members:read'],
    });
    const { account } = await manager.signInWithToken({ token });
    expect(account.read_only_kinds).toEqual([]);
    const runtime = manager.runtime(account.id);
    const projectId = emulator.control.tasks()[0]?.project_id as string;
    runtime.mirror.goals.create({ name: 'Refused goal' }, projectId);

    await pushIntoReadOnlyKinds(manager, runtime);
    expect(manager.list()[0]?.read_only_kinds).toEqual([
      { kind: 'goal', scope: 'projects:write' },
      { kind: 'milestone', scope: 'projects:write' },
    ]);
    await closeManager(manager);
    const reopened = await openManager();
    expect(reopened.list()[0]?.read_only_kinds).toHaveLength(2);
    const again = await reopened.signInWithToken({ token: emulator.tokens.live, accountId: account.id });
    expect(again.account.read_only_kinds).toEqual([]);
  });
});

describe('a scope taken back after a full sign-in', () => {
  test('the changes that need it wait, blocked, and signing in again sends them by itself, once', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithBrowser({ openUrl: consentBrowser().openUrl });
    expect(account.read_only_kinds).toEqual([]);
    const runtime = manager.runtime(account.id);
    const projectId = emulator.control.tasks()[0]?.project_id as string;
    const goalsBefore = emulator.control.creates().goals;
    // An administrator takes projects:write back from what the app was granted.
    expect(emulator.control.withdrawOAuthScopes(['projects:write'])).toBeGreaterThan(0);
    runtime.mirror.goals.create({ name: 'Goal after the grant narrowed' }, projectId);

    await pushIntoReadOnlyKinds(manager, runtime);
    const unsettled = () =>
      runtime.mirror.outbox
        .list()
        .filter((op) => op.state !== 'done')
        .map((op) => [op.entityType, op.state]);
    expect(unsettled()).toEqual([['goal', 'blocked']]);
    expect(emulator.control.creates().goals).toBe(goalsBefore);

    const again = await manager.signInWithBrowser({
      accountId: account.id,
      openUrl: consentBrowser().openUrl,
    });
    expect(again).toMatchObject({ created: false, queued_edits: 1, account: { read_only_kinds: [] } });
    // The sign-in started the push; this joins it.
    await runtime.pushQueuedEdits();
    expect(emulator.control.creates().goals).toBe(goalsBefore + 1);
    expect(unsettled()).toEqual([]);
  });
});

describe('the same account', () => {
  test('signing in again as another user is refused, naming both, and changes nothing', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    const before = await readFile(join(directory, REGISTRY_FILE_NAME), 'utf8');

    const other = manager.signInWithToken({ accountId: account.id, token: emulator.tokens.peer });
    await expect(other).rejects.toBeInstanceOf(AccountMismatchError);
    await expect(other).rejects.toThrow(
      new RegExp(
        `This account is ${emulator.me.username} .*but the sign-in was for ${emulator.peer.username}`,
      ),
    );
    expect(await readFile(join(directory, REGISTRY_FILE_NAME), 'utf8')).toBe(before);
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(account.id))).toBe(emulator.tokens.live);
  });

  test('signing in again to an account of another organization is refused', async () => {
    const first = await openManager();
    const { account } = await first.signInWithToken({ token: emulator.tokens.live });
    await closeManager(first);
    // The account as if it had been made for another organization of the same user.
    const file = join(directory, REGISTRY_FILE_NAME);
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll(emulator.orgId, 'org_elsewhere'));

    const manager = await openManager();
    const browser = consentBrowser();
    const other = manager.signInWithBrowser({ accountId: account.id, openUrl: browser.openUrl });
    await expect(other).rejects.toMatchObject({
      type: 'account-mismatch',
      expected: { org_id: 'org_elsewhere' },
      actual: { org_id: emulator.orgId },
    });
    // The browser's page says what the app says, not "Signed in".
    const landing = await browser.finished;
    expect(landing.body).toContain('Sign-in did not complete');
    expect(landing.body).toContain('This account is');
    expect(landing.body).not.toContain('<h1>Signed in</h1>');
  });

  test('adding an account that is already listed signs in to it again instead of adding a second', async () => {
    const manager = await openManager();
    const first = await manager.signInWithToken({ token: emulator.tokens.test });
    const second = await manager.signInWithBrowser({ openUrl: consentBrowser().openUrl });
    expect(second).toMatchObject({
      created: false,
      account: { id: first.account.id, token_kind: 'oauth', read_only: false },
    });
    expect(manager.list()).toHaveLength(1);
    // The pasted token is forgotten once the browser sign-in replaced it.
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(first.account.id))).toBeUndefined();
  });
});

describe('sign-out', () => {
  test('with queued edits it reports them first and does nothing until told', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    queueEdit(manager.runtime(account.id), 'Not sent yet');

    expect(await manager.signOut(account.id)).toEqual({ status: 'queued-edits', queued_edits: 1 });
    expect(manager.list()[0]).toMatchObject({ state: 'signed-in', queued_edits: 1 });
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(account.id))).toBe(emulator.tokens.live);
  });

  test('keeping the queued edits forgets the secrets but keeps the mirror for the next sign-in, across a restart', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    const taskId = queueEdit(manager.runtime(account.id), 'Kept for the next sign-in');

    expect(await manager.signOut(account.id, { keepQueuedEdits: true })).toEqual({
      status: 'signed-out',
      kept_edits: 1,
      discarded_edits: 0,
      removed: false,
    });
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(account.id))).toBeUndefined();
    await closeManager(manager);

    const reopened = await openManager();
    expect(reopened.list()[0]).toMatchObject({
      state: 'signed-out',
      signed_out_reason: 'by-person',
      queued_edits: 1,
    });
    await reopened.signInWithToken({ accountId: account.id, token: emulator.tokens.live });
    await reopened.runtime(account.id).pushQueuedEdits();
    expect(emulator.control.task(taskId)?.title).toBe('Kept for the next sign-in');
  });

  test('discarding the queued edits deletes the mirror and removes the account', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    queueEdit(manager.runtime(account.id), 'Thrown away');

    expect(await manager.signOut(account.id, { keepQueuedEdits: false })).toEqual({
      status: 'signed-out',
      kept_edits: 0,
      discarded_edits: 1,
      removed: true,
    });
    expect(manager.list()).toEqual([]);
    expect(manager.current()).toBeNull();
    expect((await readdir(directory)).filter((name) => name.startsWith('mirror-'))).toEqual([]);
    expect(await new FileSecretStore(secretsFile).get(accessTokenKey(account.id))).toBeUndefined();
  });

  test('signing out of a browser session deletes its refresh token', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithBrowser({ openUrl: consentBrowser().openUrl });
    expect(await manager.signOut(account.id)).toMatchObject({ status: 'signed-out', removed: true });
    expect(await new FileSecretStore(secretsFile).get(refreshTokenKey(account.id))).toBeUndefined();
  });
});

describe('restarts and secrets', () => {
  test('a mirror an older app left is upgraded as the accounts open, reported upgrading then ready, its tasks kept', async () => {
    const first = await openManager();
    const { account } = await first.signInWithToken({ token: emulator.tokens.live });
    await closeManager(first);
    await removeMirrorFiles(account.mirror_path);
    await writeOlderMirror(account.mirror_path, 20);

    const reports: string[] = [];
    const manager = await openManager({
      onMirrorUpgrade: (accountId, upgrade) =>
        reports.push(`${accountId} ${upgrade.state} ${upgrade.applied.join(',')}`),
    });

    expect(reports).toEqual([
      `${account.id} upgrading `,
      ...upgradeSteps().map((applied) => `${account.id} upgrading ${applied.join(',')}`),
      `${account.id} ready ${MIGRATIONS_AFTER_OLDER_MIRROR.join(',')}`,
    ]);
    expect(manager.runtime(account.id).mirror.tasks.get('tsk_20')?.task.title).toBe('Task 20');
    expect(manager.list()[0]?.state).toBe('signed-in');
  });

  test('both kinds of sign-in resume after a restart with a keychain', async () => {
    const first = await openManager();
    const pasted = await first.signInWithToken({ token: emulator.tokens.live });
    const peer = await first.signInWithToken({ token: emulator.tokens.peer });
    await first.signInWithBrowser({ accountId: pasted.account.id, openUrl: consentBrowser().openUrl });
    await closeManager(first);

    const manager = await openManager();
    expect(manager.list().map((a) => [a.token_kind, a.state])).toEqual([
      ['oauth', 'signed-in'],
      ['live', 'signed-in'],
    ]);
    for (const account of manager.list()) {
      const answer = await manager.runtime(account.id).session?.api.read(meOperations.get, {});
      expect(answer?.status).toBe(200);
    }
    expect(peer.account.identity.username).toBe(emulator.peer.username);
  });

  test('without a real keychain secrets are kept for the session only: after a restart the account is signed out', async () => {
    const secrets = withEncryptionReport(new FileSecretStore(secretsFile), false);
    const first = await openManager({ secrets });
    expect(first.secretPersistence).toBe('session-only');
    const { account } = await first.signInWithToken({ token: emulator.tokens.live });
    expect(first.list()[0]?.state).toBe('signed-in');
    expect(existsSync(secretsFile)).toBe(false);
    await closeManager(first);

    const manager = await openManager({ secrets });
    expect(manager.list()[0]).toMatchObject({
      id: account.id,
      state: 'signed-out',
      signed_out_reason: 'sign-in-not-kept',
    });
  });

  test('when the person opts in without a keychain, the sign-in outlives a restart', async () => {
    const secrets = withEncryptionReport(new FileSecretStore(secretsFile), false);
    const first = await openManager({ secrets });
    await first.signInWithToken({ token: emulator.tokens.live });
    await first.setKeepSecretsWithoutKeychain(true);
    expect(first.secretPersistence).toBe('unencrypted-by-choice');
    await closeManager(first);

    const manager = await openManager({ secrets });
    expect(manager.secretPersistence).toBe('unencrypted-by-choice');
    expect(manager.list()[0]?.state).toBe('signed-in');
  });

  test('no token is ever written in clear to the registry or a mirror', async () => {
    const manager = await openManager();
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    queueEdit(manager.runtime(account.id), 'An edit in the mirror');
    const oauth = await manager.signInWithToken({ token: emulator.tokens.peer });
    await manager.signInWithBrowser({ accountId: account.id, openUrl: consentBrowser().openUrl });
    const refreshToken = await new FileSecretStore(secretsFile).get(refreshTokenKey(account.id));
    await manager.runtime(account.id).pushQueuedEdits();
    await manager
      .runtime(oauth.account.id)
      .session?.api.listPage(taskOperations.list, { orgId: emulator.orgId }, { limit: 5 });
    await closeManager(manager);

    const secrets = [
      emulator.tokens.live,
      emulator.tokens.peer,
      refreshToken as string,
      'svc_live_',
      'svcr_',
    ];
    expect(await filesContaining(secrets)).toEqual([]);
    expect((await readdir(directory)).filter((n) => n.startsWith('mirror-')).length).toBeGreaterThanOrEqual(
      2,
    );
  });
});

describe('several accounts', () => {
  test('two accounts on two servers side by side, each with its own mirror file and status, and a switcher', async () => {
    const second = await startEmulator({ seed: 7, seedTasks: 3 });
    try {
      const manager = await openManager();
      const events: AccountsEvent[] = [];
      manager.subscribe((event) => events.push(event));
      const a = await manager.signInWithToken({ token: emulator.tokens.live });
      const b = await manager.signInWithToken({
        token: second.tokens.test,
        server: { base_url: second.baseUrl, auth_url: second.authUrl },
      });

      expect(second.orgId).not.toBe(emulator.orgId);
      expect(b.account).toMatchObject({
        base_url: second.baseUrl,
        identity: { org_id: second.orgId },
        state: 'read-only',
      });
      expect(a.account.mirror_path).not.toBe(b.account.mirror_path);
      expect(existsSync(a.account.mirror_path) && existsSync(b.account.mirror_path)).toBe(true);
      expect(manager.current()?.id).toBe(b.account.id);

      await manager.switchTo(a.account.id);
      expect(manager.current()?.id).toBe(a.account.id);
      expect(manager.currentRuntime()?.id).toBe(a.account.id);
      expect(events.at(-1)).toMatchObject({ type: 'accounts-changed', current_account_id: a.account.id });

      // An edit in one mirror is not in the other, and signing one out leaves the other signed in.
      queueEdit(manager.runtime(a.account.id), 'Only in the first account');
      expect(manager.runtime(b.account.id).queuedEditCount()).toBe(0);
      await manager.signOut(b.account.id);
      expect(manager.list().map((x) => [x.id, x.state])).toEqual([[a.account.id, 'signed-in']]);
      expect(existsSync(b.account.mirror_path)).toBe(false);

      const answers = await manager.runtime(a.account.id).session?.api.read(meOperations.get, {});
      expect(answers?.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  test('with the app’s engine started, each account syncs its own organization into its own mirror', async () => {
    const second = await startEmulator({ seed: 7, seedTasks: 4 });
    const manager = await AccountManager.open({
      directory,
      secrets: withEncryptionReport(new FileSecretStore(secretsFile), true),
      defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
      client: FAST_RETRY,
      startEngines: true,
    });
    try {
      const synced = new Set<string>();
      const bothSynced = new Promise<void>((resolve) =>
        manager.subscribe((event) => {
          if (event.type !== 'account-event' || event.event.type !== 'sync') return;
          if (event.event.event.type === 'sync-finished') synced.add(event.account_id);
          if (synced.size === 2) resolve();
        }),
      );
      const a = await manager.signInWithToken({ token: emulator.tokens.live });
      const b = await manager.signInWithToken({
        token: second.tokens.live,
        server: { base_url: second.baseUrl, auth_url: second.authUrl },
      });
      await bothSynced;

      const tasksOf = (id: string) => manager.runtime(id).mirror.tasks.total();
      expect(tasksOf(a.account.id)).toBe(emulator.control.taskCount());
      expect(tasksOf(b.account.id)).toBe(second.control.taskCount());
      expect(manager.runtime(a.account.id).mirror.identity.account().orgId).toBe(emulator.orgId);
      expect(manager.runtime(b.account.id).mirror.identity.account().orgId).toBe(second.orgId);
    } finally {
      await manager.close();
      await second.stop();
    }
  });
});

describe('the mirror’s SQLite addon', () => {
  test('account mirrors open through the nativeBinding the host gives (Electron’s build in the app)', async () => {
    const manager = await openManager({ nativeBinding: join(directory, 'no-such-addon.node') });
    // Had the option been dropped, node_modules' build would have opened the mirror and the sign-in succeeded.
    await expect(manager.signInWithToken({ token: emulator.tokens.live })).rejects.toThrow(/no-such-addon/);
    expect(manager.list()).toEqual([]);
  });
});

describe('pause', () => {
  /** An engine whose scheduler only records whether it runs. */
  function schedulerEngines() {
    const running = new Map<string, boolean>();
    const createEngine: AccountManagerOptions<Mirror, AccountSyncEngine>['createEngine'] = ({
      accountId,
    }) => ({
      pushOnce: () => Promise.resolve(),
      start: () => void running.set(accountId, true),
      stop: () => {
        running.set(accountId, false);
        return Promise.resolve();
      },
    });
    return { running, createEngine };
  }

  test('a paused manager never starts the engine of an account signing in, until resumed; a restart is not paused', async () => {
    const engines = schedulerEngines();
    const manager = await openManager({ createEngine: engines.createEngine, startEngines: true });
    await manager.pause();
    expect(manager.isPaused()).toBe(true);
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    // Started then stopped would have been `false` too: only never started leaves no entry.
    expect(engines.running.has(account.id)).toBe(false);
    manager.resume();
    expect(engines.running.get(account.id)).toBe(true);
    await manager.pause();
    expect(engines.running.get(account.id)).toBe(false);

    await closeManager(manager);
    const restarted = schedulerEngines();
    const again = await openManager({ createEngine: restarted.createEngine, startEngines: true });
    expect(again.isPaused()).toBe(false);
    expect(restarted.running.get(account.id)).toBe(true);
  });

  test('a manager that does not start engines does not start them on resume either', async () => {
    const engines = schedulerEngines();
    const manager = await openManager({ createEngine: engines.createEngine });
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    await manager.pause();
    manager.resume();
    expect(engines.running.get(account.id)).toBe(false);
  });
});

describe('what the operating system says', () => {
  /**
   * A manager running the app's engine, whose own timers would not act within the test: a probe
   * and each poll ten minutes away. What happens sooner, the operating system's word brought.
   */
  async function slowPollingManager(): Promise<TestManager> {
    const later = { baseMs: 10 * 60_000, maxMs: 10 * 60_000 };
    return openManager({
      createEngine: ({ mirror, api, me, onEvent }) =>
        new SyncEngine({
          mirror,
          api,
          me,
          onEvent,
          pollPolicy: {
            probeBaseMs: later.baseMs,
            probeMaxMs: later.maxMs,
            tiers: { hot: later, new: later, full: later },
          },
        }),
      startEngines: true,
    });
  }

  /** The next sync event of `type` from any account that `matches`. */
  function nextSyncEvent<T extends SyncEvent['type']>(
    manager: TestManager,
    type: T,
    matches: (event: Extract<SyncEvent, { type: T }>) => boolean = () => true,
  ): Promise<Extract<SyncEvent, { type: T }>> {
    return new Promise((resolve) => {
      const stop = manager.subscribe((event) => {
        if (event.type !== 'account-event' || event.event.type !== 'sync') return;
        const sync = event.event.event;
        if (sync.type === type && matches(sync as Extract<SyncEvent, { type: T }>)) {
          stop();
          resolve(sync as Extract<SyncEvent, { type: T }>);
        }
      });
    });
  }

  test('the network coming back sends an offline account’s waiting edit at once, not at its next probe', async () => {
    const manager = await slowPollingManager();
    const firstSync = nextSyncEvent(manager, 'sync-finished');
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    await firstSync;
    const runtime = manager.runtime(account.id);
    // The network goes: the next sync cannot get through, and sync goes offline; an edit waits.
    emulator.control.faults.dropConnections(10_000);
    const offline = nextSyncEvent(manager, 'offline');
    void (runtime.session?.engine as SyncEngine).syncNow();
    await offline;
    const taskId = queueEdit(runtime, 'Written on the train');
    expect(runtime.queuedEditCount()).toBe(1);

    emulator.control.faults.clear();
    const online = nextSyncEvent(manager, 'online');
    manager.networkChanged();
    await online;
    await expect.poll(() => runtime.queuedEditCount()).toBe(0);
    expect(emulator.control.task(taskId)?.title).toBe('Written on the train');
  });

  test('the computer waking pulls what others did meanwhile at once, not at the next poll', async () => {
    const manager = await slowPollingManager();
    const firstSync = nextSyncEvent(manager, 'sync-finished');
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    await firstSync;
    const created = emulator.control.peerCreate({ title: 'Filed while the laptop slept' });

    const caughtUp = nextSyncEvent(manager, 'sync-finished', (event) => event.reason === 'woke');
    manager.woke();
    await caughtUp;
    expect(manager.runtime(account.id).mirror.tasks.get(created.task_id)?.task.title).toBe(
      'Filed while the laptop slept',
    );
  });
});

describe('a tampered accounts file', () => {
  test.each([
    ['a relative path out of the folder', () => '../victim.sqlite'],
    ['an absolute path', () => join(directory, 'victim.sqlite')],
  ])(
    'naming %s as a mirror is refused with a clear error, and nothing outside the folder is opened or removed',
    async (_case, tamperedName) => {
      const accounts = join(directory, 'accounts');
      const manager = await openManager({ directory: accounts });
      const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
      await closeManager(manager);
      // The real mirror, moved out of the folder: a SQLite file the app could open, migrate and delete.
      const victim = join(directory, 'victim.sqlite');
      await rename(account.mirror_path, victim);
      const registryFile = join(accounts, REGISTRY_FILE_NAME);
      const registry = JSON.parse(await readFile(registryFile, 'utf8')) as {
        accounts: { mirror_file: string }[];
      };
      registry.accounts[0]!.mirror_file = tamperedName();
      const tampered = `${JSON.stringify(registry, null, 2)}\n`;
      await writeFile(registryFile, tampered);
      const before = await readFile(victim);

      const reopened = AccountManager.open<Mirror, AccountSyncEngine>({
        directory: accounts,
        secrets: withEncryptionReport(new FileSecretStore(secretsFile), true),
        defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
        createEngine: null,
      });
      const opened = await reopened.then(
        (m) => {
          managers.push(m);
          return m;
        },
        (error: unknown) => error,
      );
      if (opened instanceof AccountManager) await opened.signOut(account.id, { keepQueuedEdits: false });
      expect(opened).toBeInstanceOf(AccountRegistryUnreadableError);
      expect((opened as Error).message).toMatch(/accounts\.0\.mirror_file/);
      // Buffer.equals: a deep equality over a mirror's bytes takes seconds.
      expect((await readFile(victim)).equals(before)).toBe(true);
      expect(await readFile(registryFile, 'utf8')).toBe(tampered);
    },
  );
});

describe('readable by its owner alone', () => {
  let umask: number;
  beforeAll(() => {
    // The usual umask, which leaves new folders and files readable by everyone.
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });
  const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

  test('the accounts folder is 0700 and every file in it 0600: registry, mirror and its -wal and -shm', async () => {
    const accounts = join(directory, 'accounts');
    const manager = await openManager({ directory: accounts });
    const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
    expect(await modeOf(accounts)).toBe(0o700);
    const files = await readdir(accounts);
    expect(files).toEqual(
      expect.arrayContaining([
        REGISTRY_FILE_NAME,
        `mirror-${account.id}.sqlite`,
        `mirror-${account.id}.sqlite-wal`,
      ]),
    );
    for (const name of files) expect([name, await modeOf(join(accounts, name))]).toEqual([name, 0o600]);
  });

  test('a folder an older version made 0755 is tightened to 0700 at open', async () => {
    const accounts = join(directory, 'accounts');
    await mkdir(accounts, { mode: 0o755 });
    await chmod(accounts, 0o755);
    await openManager({ directory: accounts });
    expect(await modeOf(accounts)).toBe(0o700);
  });
});

test('an API address edited in accounts.json to another origin than the sign-in server gets no kept token: signed out, and signing in again is refused', async () => {
  const manager = await openManager();
  const { account } = await manager.signInWithToken({ token: emulator.tokens.live });
  await closeManager(manager);
  const registryFile = join(directory, REGISTRY_FILE_NAME);
  const registry = JSON.parse(await readFile(registryFile, 'utf8')) as { accounts: { base_url: string }[] };
  registry.accounts[0]!.base_url = 'https://collector.evil.test';
  await writeFile(registryFile, JSON.stringify(registry));

  const reopened = await openManager();
  expect(reopened.list()[0]).toMatchObject({ id: account.id, state: 'signed-out' });
  expect(reopened.runtime(account.id).session).toBeNull();
  await expect(
    reopened.signInWithToken({ token: emulator.tokens.live, accountId: account.id }),
  ).rejects.toBeInstanceOf(ServerSettingsRefusedError);
});
