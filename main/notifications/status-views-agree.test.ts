// The status bar's board and the tray/account panel are views of one account
// status: while the client waits out a 429 they must say the same thing, over
// a real AccountManager syncing against the emulator.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { startEmulator } from '../../emulator/start';
import { AccountManager } from '../../sync/accounts/account-manager';
import { withEncryptionReport } from '../../sync/accounts/account-secrets';
import { FileSecretStore } from '../../sync/auth/secret-store';
import { SyncEngine } from '../../sync/engine/sync-engine';
import type { TrayModel } from '../../services/notify/tray-model';
import type { SyncStatus } from '../../ipc/screen-schemas';
import { SyncStatusBoard } from '../ipc/sync-status-board';
import { AccountVisibility } from './account-visibility';
import { NotificationSettingsStore } from './notification-settings-store';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('while the client waits out a 429, the status bar, the account panel and the tray all say offline, rate-limited until the same time', async () => {
  const emulator = await startEmulator({ seedTasks: 20 });
  cleanups.push(() => emulator.stop());
  const directory = await mkdtemp(join(tmpdir(), 'svc-status-views-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  const now = Date.parse('2026-03-04T10:00:00Z');
  const accounts = await AccountManager.open<Mirror, SyncEngine>({
    directory,
    secrets: withEncryptionReport(new FileSecretStore(join(directory, 'secrets.json')), true),
    defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
    createEngine: ({ mirror, api, me, onEvent }) =>
      new SyncEngine({ mirror, api, me, onEvent, pullInWorker: false }),
    startEngines: true,
    // The clock the account's status reads (retry_at is now + Retry-After).
    now: () => now,
  });
  cleanups.push(() => accounts.close());
  const statuses: SyncStatus[] = [];
  const board = new SyncStatusBoard({
    emitStatus: (status) => statuses.push(status),
    emitChanged: () => undefined,
    throttleMs: 0,
  });
  cleanups.push(() => board.close());
  const trays: TrayModel[] = [];
  const visibility = new AccountVisibility({
    accounts,
    settings: new NotificationSettingsStore(join(directory, 'notifications.json')),
    appName: 'svc-desktop',
    appContext: () => ({}),
    display: () => undefined,
    trayChanged: (model) => trays.push(model),
    now: () => now,
    utcOffsetMinutes: () => 0,
    trayDelayMs: 0,
  });
  cleanups.push(() => visibility.close());
  const { account } = await accounts.signInWithToken({ token: emulator.tokens.live });
  const runtime = accounts.runtime(account.id);
  const statusAccount = () => ({
    accountId: account.id,
    mirror: runtime.mirror,
    signedIn: true,
    readOnly: false,
    sync: runtime.sync,
  });
  // Fed as the screen backend feeds it.
  cleanups.push(
    accounts.subscribe((event) => {
      if (event.type === 'account-event' && event.event.type === 'sync') {
        board.onSyncEvent(statusAccount(), event.event.event);
      }
    }),
  );
  const engine = runtime.session?.engine;
  if (!engine) throw new Error('the account has no engine');
  await until(() => runtime.mirror.passes.state('tasks')?.completedAt != null, 'the first sync');

  // The service answers 429 asking for two minutes; the client waits them out on its own.
  emulator.control.faults.rateLimitBurst(1000, { retryAfterSeconds: 120 });
  void engine.syncNow().catch(() => undefined);
  await until(() => statuses.some((s) => s.problem?.type === 'rate-limit'), 'the 429');

  const bar = board.status(statusAccount());
  expect(bar).toMatchObject({
    connection: 'offline',
    problem: { type: 'rate-limit', retry_at: '2026-03-04T10:02:00.000Z' },
  });
  const accountsHandler = visibility.handlers()['sync:accounts'];
  if (!accountsHandler) throw new Error('no sync:accounts handler');
  const panel = await accountsHandler(undefined, { senderId: 1, senderGone: new AbortController().signal });
  expect(panel.accounts[0]).toMatchObject({ connection: bar.connection, problem: bar.problem });
  const line = visibility
    .tray()
    .menu.find((item) => item.kind === 'action' && item.label.includes(emulator.me.username));
  expect(line?.kind === 'action' ? line.label : null).toContain('Offline (rate-limited until 10:02)');
});
