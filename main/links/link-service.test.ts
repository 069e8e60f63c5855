// A link the app was opened with, routed over real accounts (signed in to the
// emulator over HTTP) whose mirror files hold real tasks, answered through the
// real IPC gate as the page would call it; the window and clipboard are recorders.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { loadTasks, taskJson } from '../../db/test-mirror';
import { type RunningEmulator } from '../../emulator/start';
import { AccountManager } from '../../sync/accounts/account-manager';
import { withEncryptionReport } from '../../sync/accounts/account-secrets';
import { MemorySecretStore } from '../../sync/auth/secret-store';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import type { InvokeEventLike } from '../ipc/gate';
import type { IpcResult } from '../../ipc/transport';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from '../security/app-protocol';
import { createLinkService, type LinkService } from './link-service';
import { gateWithInvoke } from '../ipc/testing/gate-harness';
import { emulatorPerFile } from '../../emulator/testing/emulator-per-file';

let emulator: RunningEmulator;
let directory: string;
let accounts: AccountManager<Mirror, SyncEngine>;
let links: LinkService;
let call: (channel: string, input?: unknown) => Promise<IpcResult<unknown>>;
let live: string;
let peer: string;
const recorded = { windowsShown: 0, announced: 0, clipboard: [] as string[] };

emulatorPerFile({ seedTasks: 3 }, (started) => (emulator = started));

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'svc-links-'));
  accounts = await AccountManager.open<Mirror, SyncEngine>({
    directory,
    secrets: withEncryptionReport(new MemorySecretStore(), true),
    defaults: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
    // Nothing syncs: each mirror holds exactly the tasks loaded below.
    createEngine: null,
  });
  live = (await accounts.signInWithToken({ token: emulator.tokens.live })).account.id;
  peer = (await accounts.signInWithToken({ token: emulator.tokens.peer })).account.id;
  loadTasks(accounts.runtime(live).mirror, [
    taskJson({ task_id: 'tsk_both' }),
    taskJson({ task_id: 'tsk_live' }),
  ]);
  loadTasks(accounts.runtime(peer).mirror, [
    taskJson({ task_id: 'tsk_both' }),
    taskJson({ task_id: 'tsk_peer' }),
  ]);
  await accounts.switchTo(live);

  recorded.windowsShown = 0;
  recorded.announced = 0;
  recorded.clipboard = [];
  links = createLinkService({
    accounts,
    announce: () => (recorded.announced += 1),
    showWindow: () => (recorded.windowsShown += 1),
    writeClipboard: (text) => recorded.clipboard.push(text),
  });
  const { gate, invoke } = gateWithInvoke(trustedPageUrlCheck([APP_ORIGIN]));
  gate.trust({ id: 1, isDestroyed: () => false, send: () => undefined, once: () => undefined });
  gate.register(links.handlers);
  call = async (channel, input) => {
    const event: InvokeEventLike = { sender: { id: 1 }, senderFrame: { url: APP_ENTRY_URL, parent: null } };
    return (await invoke(event, { channel, input })) as IpcResult<unknown>;
  };
});

afterEach(async () => {
  await accounts.close();
  await rm(directory, { recursive: true, force: true });
});

describe('opening a task link', () => {
  test('switches to the one account whose mirror holds it, shows the window, and the page takes the request once', async () => {
    await links.open('svc-desktop://task/tsk_peer');
    expect(accounts.current()?.id).toBe(peer);
    expect(recorded.windowsShown).toBe(1);
    expect(recorded.announced).toBe(1);
    expect(await call('link:take')).toEqual({
      ok: true,
      value: { kind: 'open-task', account_id: peer, task_id: 'tsk_peer' },
    });
    expect(await call('link:take')).toEqual({ ok: true, value: null });
  });

  test('stays on the account on show when it is the one that holds the task', async () => {
    await links.open('svc-desktop://task/tsk_live');
    expect(accounts.current()?.id).toBe(live);
    expect(await call('link:take')).toMatchObject({ value: { kind: 'open-task', account_id: live } });
  });

  test('asks which account when several hold the task, switching nothing yet', async () => {
    await accounts.switchTo(peer);
    await links.open('svc-desktop://task/tsk_both');
    expect(accounts.current()?.id).toBe(peer);
    expect(await call('link:take')).toEqual({
      ok: true,
      value: { kind: 'choose-account', task_id: 'tsk_both', account_ids: [peer, live] },
    });
  });

  test('a task no account holds, or a signed-out account alone holds, becomes a notice', async () => {
    await links.open('svc-desktop://task/tsk_nowhere');
    expect(await call('link:take')).toMatchObject({
      value: { kind: 'refused', problem: 'link-task-not-found' },
    });
    // An edit waits, so signing out keeps the account listed with its mirror.
    accounts.runtime(peer).mirror.tasks.edit('tsk_peer', { title: 'Kept for later' });
    await accounts.signOut(peer, { keepQueuedEdits: true });
    expect(accounts.list().find((account) => account.id === peer)?.state).toBe('signed-out');
    await links.open('svc-desktop://task/tsk_peer');
    expect(accounts.current()?.id).toBe(live);
    expect(await call('link:take')).toMatchObject({
      value: { kind: 'refused', problem: 'link-task-not-found' },
    });
  });

  test.each([
    ['svc-desktop://task/tsk_peer/../tsk_live', 'link-malformed'],
    ['svc-desktop://task/tsk_peer?account=x', 'link-malformed'],
    ['svc-desktop://project/prj_1', 'link-unsupported'],
  ])('%s is shown as a notice (%s) and nothing is switched', async (raw, problem) => {
    await links.open(raw);
    expect(accounts.current()?.id).toBe(live);
    expect(recorded.windowsShown).toBe(1);
    expect(await call('link:take')).toMatchObject({ value: { kind: 'refused', problem } });
  });

  test('a newer link replaces one the page has not taken yet', async () => {
    await links.open('svc-desktop://task/tsk_nowhere');
    await links.open('svc-desktop://task/tsk_live');
    expect(await call('link:take')).toMatchObject({ value: { kind: 'open-task', task_id: 'tsk_live' } });
    expect(await call('link:take')).toEqual({ ok: true, value: null });
  });
});

describe('copy link', () => {
  test("puts the task's link on the clipboard and answers it", async () => {
    expect(await call('task:copy-link', { task_id: 'odd id' })).toEqual({
      ok: true,
      value: { url: 'svc-desktop://task/odd%20id' },
    });
    expect(recorded.clipboard).toEqual(['svc-desktop://task/odd%20id']);
  });

  test('an id no link can name is refused, and the clipboard is left alone', async () => {
    expect(await call('task:copy-link', { task_id: 'a/b' })).toMatchObject({
      ok: false,
      error: { type: 'link-unavailable' },
    });
    expect(recorded.clipboard).toEqual([]);
  });
});
