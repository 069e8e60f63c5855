// AccountVisibility over a real AccountManager: an account signed in to the
// emulator with a pasted token, its engine syncing over HTTP into a real
// mirror, and what reaches the log, the notifications, the tray, the settings
// file and the diagnostics through the IPC handlers.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { AccountManager } from '../../sync/accounts/account-manager';
import { withEncryptionReport } from '../../sync/accounts/account-secrets';
import { FileSecretStore, refreshTokenKey } from '../../sync/auth/secret-store';
import { redirectingBrowser, startStandardAuthServer } from '../../sync/auth/testing/standard-auth-server';
import { SyncEngine } from '../../sync/engine/sync-engine';
import { syncLogFileFor } from '../../sync/sync-log/sync-log';
import { DEFAULT_POLL_POLICY, type PollPolicy } from '../../sync/schedule/poll-policy';
import type { DesktopNotification } from '../../services/notify/notification-decisions';
import { peerAssignsMeATask } from '../../emulator/testing/peer-assignment';
import type { TrayModel } from '../../services/notify/tray-model';
import type { HandlerContext, IpcHandlers } from '../ipc/gate';
import type { SyncAccountsView } from '../../ipc/visibility-schemas';
import { AccountVisibility } from './account-visibility';
import { NotificationSettingsStore } from './notification-settings-store';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const context: HandlerContext = { senderId: 1, senderGone: new AbortController().signal };

/** Polls every few tens of milliseconds, pushes 20 ms after an edit: what pausing must stop is frequent. */
const FAST_POLLING: PollPolicy = {
  ...DEFAULT_POLL_POLICY,
  tiers: {
    hot: { baseMs: 40, maxMs: 80 },
    new: { baseMs: 40, maxMs: 80 },
    full: { baseMs: 150, maxMs: 300 },
  },
  pushDebounceMs: 20,
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setUp(options: { polling?: boolean } = {}) {
  const emulator: RunningEmulator = await startEmulator({ seedTasks: 150 });
  cleanups.push(() => emulator.stop());
  const directory = await mkdtemp(join(tmpdir(), 'svc-visibility-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const accounts = await AccountManager.open<Mirror, SyncEngine>({
    directory,
    secrets: withEncryptionReport(new FileSecretStore(join(directory, 'secrets.json')), true),
    defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
    createEngine: ({ mirror, api, me, onEvent }) =>
      new SyncEngine({
        mirror,
        api,
        me,
        onEvent,
        pullInWorker: false,
        ...(options.polling ? { pollPolicy: FAST_POLLING } : {}),
      }),
    startEngines: options.polling ?? false,
    client: { retry: { baseDelayMs: 5, maxDelayMs: 40 } },
  });
  cleanups.push(() => accounts.close());
  const shown: DesktopNotification[] = [];
  const trays: TrayModel[] = [];
  const clipboard: string[] = [];
  const settingsFile = join(directory, 'notifications.json');
  const visibility = new AccountVisibility({
    accounts,
    settings: new NotificationSettingsStore(settingsFile),
    appName: 'svc-desktop',
    appContext: () => ({ version: '0.0.0-test' }),
    display: (batch) => shown.push(...batch),
    trayChanged: (model) => trays.push(model),
    writeClipboard: (text) => clipboard.push(text),
    trayDelayMs: 0,
  });
  cleanups.push(() => visibility.close());
  const { account } = await accounts.signInWithToken({ token: emulator.tokens.live });
  const engine = accounts.runtime(account.id).session?.engine;
  if (!engine) throw new Error('the account has no engine');
  return { emulator, accounts, visibility, account, engine, shown, trays, clipboard, settingsFile };
}

function call<C extends keyof IpcHandlers>(handlers: IpcHandlers, channel: C, input: unknown) {
  const handler = handlers[channel] as ((input: unknown, context: HandlerContext) => unknown) | undefined;
  if (!handler) throw new Error(`no handler for ${channel}`);
  return handler(input, context);
}

test('a signed-in account’s sync is logged, notified, counted in the tray and reported without its token', async () => {
  const f = await setUp();
  const handlers = f.visibility.handlers();
  await f.engine.syncOnce();
  expect(f.shown).toEqual([]);

  const me = f.emulator.me.username;
  const other = peerAssignsMeATask(f.emulator);
  await f.engine.syncOnce();
  expect(f.shown.map((n) => [n.kind, n.open])).toEqual([
    ['task-assigned', { accountId: f.account.id, taskId: other.task_id }],
  ]);

  await new Promise((resolve) => setTimeout(resolve, 10));
  const tray = f.visibility.tray();
  expect(tray.icon).toBe('unseen');
  const line = tray.menu[0];
  expect(line?.kind === 'action' ? line.label : null).toMatch(
    new RegExp(`^${me} · .+ — Up to date · 1 unread in inbox$`),
  );
  expect(f.trays.length).toBeGreaterThan(0);
  const first = f.shown[0];
  if (first) f.visibility.opened(first);
  expect(f.visibility.tray().icon).toBe('normal');

  const page = (await call(handlers, 'sync-log:query', { kinds: ['request'], limit: 5 })) as {
    account_id: string;
    entries: { method: string; status: number; request_id: string | null }[];
    next_before_id: number | null;
  };
  expect(page.account_id).toBe(f.account.id);
  expect(page.entries).toHaveLength(5);
  expect(page.next_before_id).not.toBeNull();
  expect(page.entries.every((e) => e.method === 'GET' && e.status < 400)).toBe(true);
  const changes = (await call(handlers, 'sync-log:query', { text: 'remote changes' })) as {
    entries: unknown[];
  };
  expect(changes.entries).toHaveLength(1);

  const diagnostics = (await call(handlers, 'sync-log:copy-diagnostics', undefined)) as {
    text: string;
    copied: boolean;
  };
  expect(diagnostics.copied).toBe(true);
  expect(f.clipboard).toEqual([diagnostics.text]);
  expect(diagnostics.text).toContain('svc-desktop sync diagnostics');
  expect(diagnostics.text).not.toContain(f.emulator.tokens.live);
  // As a word: a three-letter name can occur inside a hex pseudonym or request id by chance.
  expect(diagnostics.text).not.toMatch(new RegExp(`\\b${me}\\b`));
  expect(diagnostics.text).not.toContain(other.title);
});

test('notification settings are saved to their file and applied to the next poll; pause stops sync now', async () => {
  const f = await setUp();
  const handlers = f.visibility.handlers();
  const saved = await call(handlers, 'notification-settings:set', { kinds: { 'task-assigned': false } });
  expect(saved).toMatchObject({ enabled: true, kinds: { 'task-assigned': false, 'task-commented': true } });
  expect(JSON.parse(await readFile(f.settingsFile, 'utf8'))).toEqual(saved);
  expect(await call(handlers, 'notification-settings:get', undefined)).toEqual(saved);

  await f.engine.syncOnce();
  peerAssignsMeATask(f.emulator);
  await f.engine.syncOnce();
  expect(f.shown).toEqual([]);
  expect(f.visibility.tray().icon).toBe('unseen');

  await f.visibility.pause();
  expect(f.visibility.tray()).toMatchObject({ icon: 'offline' });
  expect(f.visibility.tray().menu).toContainEqual(
    expect.objectContaining({ label: 'Resume sync', action: { type: 'resume' } }),
  );
  f.visibility.resume();
  expect(f.visibility.isPaused()).toBe(false);
});

test('pause stops polling and pushes until resumed (the edit waits, counted); the panel shows each collection checked', async () => {
  const f = await setUp({ polling: true });
  const handlers = f.visibility.handlers();
  const mirror = f.accounts.runtime(f.account.id).mirror;
  const view = async () => (await call(handlers, 'sync:accounts', undefined)) as SyncAccountsView;
  // Running: the engine polls on its own.
  await until(() => mirror.passes.state('tasks')?.completedAt != null, 'the first sync');
  f.emulator.control.clearRequests();
  await until(() => f.emulator.control.requests().length > 0, 'a poll');
  const running = await view();
  expect(running.paused).toBe(false);
  const [account] = running.accounts;
  expect(account).toMatchObject({
    account_id: f.account.id,
    current: true,
    connection: 'online',
    pending: 0,
    // A pasted token: no known end to tell (an OAuth sign-in without a refresh token has one).
    session_ends_at: null,
  });
  const tasks = account?.collections.find((c) => c.collection === 'tasks');
  expect(tasks?.checked_at).not.toBeNull();

  expect(await call(handlers, 'sync:pause', undefined)).toEqual({ paused: true });
  // A request aborted by the pause may still be answered (and logged) by the server a moment later.
  await new Promise((resolve) => setTimeout(resolve, 100));
  f.emulator.control.clearRequests();
  const mine = f.emulator.control.tasks().find((t) => t.assignee === f.emulator.me.username);
  if (!mine) throw new Error('the seed has no task of mine');
  mirror.tasks.edit(mine.task_id, { due_date: '2031-05-06' });
  f.engine.localEdit();
  f.visibility.syncNow();
  // Many poll periods and push delays: nothing reaches the server while paused.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(f.emulator.control.requests()).toEqual([]);
  const paused = await view();
  expect(paused).toMatchObject({ paused: true, accounts: [{ pending: 1 }] });
  expect(f.visibility.tray().menu).toContainEqual(expect.objectContaining({ label: 'Resume sync' }));

  expect(await call(handlers, 'sync:resume', undefined)).toEqual({ paused: false });
  await until(
    () => f.emulator.control.task(mine.task_id)?.due_date === '2031-05-06',
    'the edit on the server',
  );
});

test('accounts closed before the visibility (quitting) are left out of the tray, without an error', async () => {
  const f = await setUp();
  expect(f.visibility.tray().menu[0]?.kind).toBe('action');
  // Their mirrors close with them; a tray update pending on a timer must not throw in main.
  await f.accounts.close();
  const tray = f.visibility.tray();
  expect(
    tray.menu.some((item) => item.kind === 'action' && item.label.startsWith(f.emulator.me.username)),
  ).toBe(false);
});

test('tokens of no known shape (a standard OAuth server’s) are kept out of the log file and the diagnostics by value, the rotated ones too', async () => {
  const standard = await startStandardAuthServer({ meOrgId: 'org_standard' });
  cleanups.push(() => standard.close());
  const directory = await mkdtemp(join(tmpdir(), 'svc-visibility-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const secretStore = new FileSecretStore(join(directory, 'secrets.json'));
  const accounts = await AccountManager.open<Mirror, SyncEngine>({
    directory,
    secrets: withEncryptionReport(secretStore, true),
    defaults: { base_url: standard.baseUrl, auth_url: standard.authUrl, client_id: standard.clientId },
    createEngine: null,
  });
  cleanups.push(() => accounts.close());
  const visibility = new AccountVisibility({
    accounts,
    settings: new NotificationSettingsStore(join(directory, 'notifications.json')),
    appName: 'svc-desktop',
    appContext: () => ({ version: '0.0.0-test' }),
    display: () => undefined,
    trayChanged: () => undefined,
    trayDelayMs: 0,
  });
  cleanups.push(() => visibility.close());
  const { account } = await accounts.signInWithBrowser({ openUrl: redirectingBrowser().openUrl });
  // The session's credentials, as its API client asks them (a refresh after a 401).
  const credentials = accounts.runtime(account.id).session?.credentials;
  if (!credentials?.refresh) throw new Error('a browser sign-in renews itself');
  const firstAccess = await credentials.getAccessToken();
  const firstRefresh = await secretStore.get(refreshTokenKey(account.id));
  const secondAccess = await credentials.refresh();
  const secondRefresh = await secretStore.get(refreshTokenKey(account.id));
  const tokens = [firstAccess, firstRefresh, secondAccess, secondRefresh].filter(
    (t): t is string => t !== undefined,
  );
  expect(new Set(tokens).size).toBe(4);
  // Opaque: no pattern knows them, only their values do.
  for (const token of tokens) expect(token).not.toMatch(/^(svc|tsk|eyJ)/);

  const { log } = visibility.log(account.id);
  log.add({
    level: 'warn',
    kind: 'auth',
    message: `renewed ${firstAccess} with ${firstRefresh ?? ''}; now ${secondAccess} and ${secondRefresh ?? ''}`,
    detail: { note: `sent ${secondAccess}` },
  });
  const [entry] = log.query({ limit: 1 }).entries;
  const report = visibility.diagnostics(account.id);
  log.close();
  const file = await readFile(syncLogFileFor(accounts.runtime(account.id).mirror.file));
  for (const token of tokens) {
    expect(entry?.message).not.toContain(token);
    expect(JSON.stringify(entry?.detail)).not.toContain(token);
    expect(report).not.toContain(token);
    expect(file.includes(token)).toBe(false);
  }
  expect(entry?.message).toContain('[redacted]');
});
