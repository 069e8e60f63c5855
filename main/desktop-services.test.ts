// The desktop app's services as main/index.ts builds them, in Node: the real
// gate (through its transport, as the preload calls it), accounts and mirrors
// in a temporary user-data folder, the emulator over real HTTP, and recorders
// where Electron would show a window, a tray or a notification.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { AttachmentFiles } from '../db/attachments/attachment-files';
import { MemorySecretStore } from '../sync/auth/secret-store';
import { withEncryptionReport, type AccountSecretStore } from '../sync/accounts/account-secrets';
import { FileSecretStore } from '../sync/auth/secret-store';
import { consentBrowser } from '../sync/auth/testing/consent-browser';
import type { DesktopNotification } from '../services/notify/notification-decisions';
import type { TrayModel } from '../services/notify/tray-model';
import { type RunningEmulator } from '../emulator/start';
import {
  createDesktopServices,
  demoRequested,
  type DesktopServices,
  isOpenableUrl,
} from './desktop-services';
import { invokeChannels } from '../ipc/contract';
import { startDemoServer } from './ipc/demo-server';
import type { InvokeEventLike, WebContentsLike } from './ipc/gate';
import { EVENT_TRANSPORT_CHANNEL, type IpcResult } from '../ipc/transport';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from './security/app-protocol';
import { gateWithInvoke } from './ipc/testing/gate-harness';
import { emulatorPerFile } from '../emulator/testing/emulator-per-file';
import { temporaryDirectoryPerTest } from '../test/support/temporary-directory';
import { MIGRATIONS_AFTER_OLDER_MIRROR, writeOlderMirror } from '../db/testing/other-version-mirrors';
import { removeMirrorFiles } from '../sync/accounts/account-manager';

let emulator: RunningEmulator;
let userDataDir: string;
const opened: DesktopServices[] = [];

emulatorPerFile({ seedTasks: 20, oauthAutoApprove: false }, (started) => (emulator = started));
temporaryDirectoryPerTest('svc-desktop-services-', (made) => (userDataDir = made));
afterEach(async () => {
  for (const services of opened.splice(0)) await services.close();
});

/** Node's better-sqlite3 addon copied out of node_modules: stands in for Electron's build. */
function addonOutsideNodeModules(): string {
  const nodeAddon = join(
    dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
    'build',
    'Release',
    'better_sqlite3.node',
  );
  const addon = join(userDataDir, 'addon', 'better_sqlite3.node');
  mkdirSync(dirname(addon), { recursive: true });
  copyFileSync(nodeAddon, addon);
  return addon;
}

interface Harness {
  services: DesktopServices;
  call: (channel: string, input?: unknown) => Promise<IpcResult<unknown>>;
  value: <T = unknown>(channel: string, input?: unknown) => Promise<T>;
  events: { name: string; payload: unknown }[];
  shellCalls: {
    openExternal: string[];
    themes: string[];
    trays: TrayModel[];
    windowsShown: number;
    quits: number;
    clipboard: string[];
    notifications: { batch: readonly DesktopNotification[]; onClick: (n: DesktopNotification) => void }[];
    /** Times main asked the person whether to keep sign-ins without a keychain. */
    keychainQuestions: number;
  };
}

async function openServices(
  options: {
    secretStore?: AccountSecretStore;
    nativeBinding?: string;
    env?: Record<string, string>;
    /** The person's answer to main's keychain question (default: Cancel). */
    keepWithoutKeychain?: boolean;
  } = {},
): Promise<Harness> {
  const { gate, invoke } = gateWithInvoke(trustedPageUrlCheck([APP_ORIGIN]));
  const events: Harness['events'] = [];
  const window: WebContentsLike = {
    id: 3,
    isDestroyed: () => false,
    send: (channel, message) => {
      if (channel === EVENT_TRANSPORT_CHANNEL) events.push(message as Harness['events'][number]);
    },
    once: () => undefined,
  };
  gate.trust(window);
  const shellCalls: Harness['shellCalls'] = {
    openExternal: [],
    themes: [],
    trays: [],
    windowsShown: 0,
    quits: 0,
    clipboard: [],
    notifications: [],
    keychainQuestions: 0,
  };
  const browser = consentBrowser({ decision: 'approve' });
  const services = await createDesktopServices({
    userDataDir,
    secretStore:
      options.secretStore ??
      withEncryptionReport(new FileSecretStore(join(userDataDir, 'secrets.json')), true),
    gate,
    appInfo: { name: 'svc-desktop', version: '1.0.0-test', platform: process.platform },
    arch: process.arch,
    env: options.env ?? {
      SVC_BASE_URL: emulator.baseUrl,
      SVC_AUTH_URL: emulator.authUrl,
      SVC_CLIENT_ID: emulator.clientId,
    },
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    startDemo: () => startDemoServer(25),
    client: { retry: { baseDelayMs: 5, maxDelayMs: 40 } },
    shell: {
      openExternal: (url) => {
        shellCalls.openExternal.push(url);
        if (url.includes('/oauth/authorize')) browser.openUrl(url);
        return Promise.resolve();
      },
      applyTheme: (theme) => shellCalls.themes.push(theme),
      showNotifications: (batch, onClick) => shellCalls.notifications.push({ batch, onClick }),
      trayChanged: (model) => shellCalls.trays.push(model),
      writeClipboard: (text) => shellCalls.clipboard.push(text),
      confirmKeepWithoutKeychain: () => {
        shellCalls.keychainQuestions += 1;
        return Promise.resolve(options.keepWithoutKeychain ?? false);
      },
      showWindow: () => {
        shellCalls.windowsShown += 1;
      },
      quit: () => {
        shellCalls.quits += 1;
      },
    },
  });
  opened.push(services);
  const fromOurPage: InvokeEventLike = {
    sender: { id: 3 },
    senderFrame: { url: APP_ENTRY_URL, parent: null },
  };
  const call = async (channel: string, input?: unknown) => {
    return (await invoke(fromOurPage, { channel, input })) as IpcResult<unknown>;
  };
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const answer = await call(channel, input);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.type}: ${answer.error.message}`);
    return answer.value as T;
  };
  return { services, call, value, events, shellCalls };
}

async function closeServices(services: DesktopServices): Promise<void> {
  opened.splice(opened.indexOf(services), 1);
  await services.close();
}

const server = () => ({
  base_url: emulator.baseUrl,
  auth_url: emulator.authUrl,
  client_id: emulator.clientId,
});

describe('the desktop services behind the window', () => {
  test('every call of the contract has a handler: no screen is left without one in the real app', async () => {
    const { call } = await openServices();
    const unanswered: string[] = [];
    for (const channel of Object.keys(invokeChannels)) {
      const answer = await call(channel, undefined);
      if (!answer.ok && answer.error.type === 'unavailable') unanswered.push(channel);
    }
    expect(unanswered).toEqual([]);
  });

  test('an older app’s mirror is upgraded as the services start, and the window is told each step, then done', async () => {
    const first = await openServices();
    await first.value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    const mirrorPath = first.services.accounts.list()[0]?.mirror_path ?? '';
    await closeServices(first.services);
    await removeMirrorFiles(mirrorPath);
    await writeOlderMirror(mirrorPath, 5);

    const second = await openServices();

    const accountId = second.services.accounts.list()[0]?.id;
    const total = MIGRATIONS_AFTER_OLDER_MIRROR.length;
    // Told at the start and after each migration, then done.
    const steps = Array.from({ length: total + 1 }, (_, applied) => ({
      account_id: accountId,
      applied,
      total,
    }));
    expect(second.events.filter((e) => e.name === 'app:opening-changed').map((e) => e.payload)).toEqual([
      ...steps,
      null,
    ]);
    expect(await second.value('app:opening')).toBeNull();
    expect(second.services.accounts.runtime(accountId ?? '').mirror.tasks.get('tsk_5')?.task.title).toBe(
      'Task 5',
    );
  });

  test('a pasted token signs in through the gate; the account, its mirror and the sign-in outlive a restart', async () => {
    const first = await openServices();
    const account = await first.value<{ account_id: string; state: string }>('accounts:sign-in-token', {
      server: server(),
      token: emulator.tokens.live,
    });
    expect(account.state).toBe('signed-in');
    expect(first.events.some((e) => e.name === 'accounts:changed')).toBe(true);
    const mirrorPath = first.services.accounts.list()[0]?.mirror_path ?? '';
    expect(mirrorPath.startsWith(join(userDataDir, 'accounts'))).toBe(true);
    expect(existsSync(mirrorPath)).toBe(true);
    await closeServices(first.services);

    const second = await openServices();
    const list = await second.value<{ accounts: { account_id: string; state: string }[] }>('accounts:list');
    expect(list.accounts).toEqual([
      expect.objectContaining({ account_id: account.account_id, state: 'signed-in' }),
    ]);
    // The sign-in form starts from the configured service.
    expect(await second.value('accounts:server-defaults')).toEqual(server());
  });

  test("the attachments' space says what the signed-in account keeps and takes a new size through the gate", async () => {
    const { value, call, services } = await openServices();
    expect(await value('attachment-cache:get')).toEqual({ limit_bytes: 1024 ** 3, used_bytes: 0 });
    await value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    const mirrorFile = services.accounts.currentRuntime()?.mirror.file ?? '';
    AttachmentFiles.beside(mirrorFile).keep(new TextEncoder().encode('kept for offline'));
    expect(await value('attachment-cache:set', { limit_bytes: 256 * 1024 ** 2 })).toEqual({
      limit_bytes: 256 * 1024 ** 2,
      used_bytes: 16,
    });
    expect(await call('attachment-cache:set', { limit_bytes: -1 })).toMatchObject({
      ok: false,
      error: { type: 'invalid-input' },
    });
    expect(JSON.parse(readFileSync(join(userDataDir, 'settings.json'), 'utf8'))).toMatchObject({
      attachment_cache_bytes: 256 * 1024 ** 2,
    });
    await closeServices(services);
  });

  test('mirrors open through the nativeBinding main passes (Electron’s build)', async () => {
    const addon = addonOutsideNodeModules();
    const { value, services } = await openServices({ nativeBinding: addon });
    await value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    expect(services.accounts.currentRuntime()?.mirror.file).toContain(userDataDir);
    await closeServices(services);

    const missing = await openServices({ nativeBinding: join(userDataDir, 'not-built.node') }).then(
      () => 'opened',
      (error: unknown) => String(error),
    );
    // The saved account's mirror cannot open without the addon: the app says so instead of loading Node's build.
    expect(missing).toContain('not-built.node');
  });

  test('the browser sign-in opens the consent page through the shell and signs in when it is approved', async () => {
    const { value, shellCalls } = await openServices();
    const account = await value<{ state: string; username: string }>('accounts:start-oauth', {
      server: server(),
    });
    expect(account).toMatchObject({ state: 'signed-in', username: emulator.me.username });
    expect(shellCalls.openExternal).toHaveLength(1);
    expect(shellCalls.openExternal[0]?.startsWith(`${emulator.authUrl}/oauth/authorize?`)).toBe(true);
  });

  test('links leave the app only to a signed-in server’s pages; the demo emulator’s consent page may be http on this computer', async () => {
    const { call, value, shellCalls } = await openServices();
    const serverPage = `${emulator.baseUrl}/t/tsk_1`;
    // Signed out, no link leaves the app; signed in, the server's own pages do, and nothing else.
    expect(await call('external-link:open', { url: serverPage })).toMatchObject({
      ok: false,
      error: { type: 'url-refused' },
    });
    await value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    expect(await call('external-link:open', { url: serverPage })).toEqual({ ok: true, value: null });
    for (const url of ['https://example.com/help', 'file:///etc/passwd']) {
      const refused = await call('external-link:open', { url });
      expect(refused, url).toMatchObject({ ok: false, error: { type: 'url-refused' } });
    }
    expect(shellCalls.openExternal).toEqual([serverPage]);

    expect(
      [
        'https://svc.example/oauth/authorize?x=1',
        'http://127.0.0.1:4010/oauth/authorize',
        'http://[::1]:1/',
        'http://localhost:1/',
        'http://svc.example/oauth/authorize',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'smb://host/share',
        'https://user:pw@svc.example/',
        'not a url',
      ].map(isOpenableUrl),
    ).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });

  test('“Try the demo” starts the emulator with sample data and signs in to it; quitting stops it and drops the demo account', async () => {
    const { value, services } = await openServices({ env: {} });
    const account = await value<{ demo: boolean; state: string; server: { base_url: string } }>('demo:start');
    expect(account).toMatchObject({ demo: true, state: 'signed-in' });
    const demoHealth = await fetch(`${account.server.base_url}/v1/me`, {
      headers: { authorization: 'Bearer nobody' },
    });
    expect(demoHealth.status).toBe(401);
    const mirrorPath = services.accounts.current()?.mirror_path ?? '';
    expect(existsSync(mirrorPath)).toBe(true);
    await closeServices(services);
    await expect(fetch(`${account.server.base_url}/v1/me`)).rejects.toThrow();
    // Its server is gone: so are the demo account and its mirror, and the next start is clean.
    expect(existsSync(mirrorPath)).toBe(false);
    const reopened = await openServices({ env: {} });
    expect(reopened.services.accounts.list()).toEqual([]);
  });

  test('a demo account left by a run that did not quit (Ctrl-C, a crash) is dropped at the next start', async () => {
    const first = await openServices({ env: {} });
    await first.value('demo:start');
    const mirrorPath = first.services.accounts.current()?.mirror_path ?? '';
    // The run ends without closing: its accounts' files stay as they were.
    await first.services.accounts.close();
    const second = await openServices({ env: {} });
    expect(second.services.accounts.list()).toEqual([]);
    expect(existsSync(mirrorPath)).toBe(false);
  });

  test('`npm run demo` signs in to the demo at launch', async () => {
    expect(demoRequested({ SVC_DEMO: '1' })).toBe(true);
    expect(demoRequested({})).toBe(false);
    const { services } = await openServices({ env: {} });
    const account = await services.signInToDemo();
    expect(account).toMatchObject({ demo: true, current: true, state: 'signed-in' });
  });

  test('a clicked notification shows the window, switches to its account and opens its task', async () => {
    const { services, value, events, shellCalls } = await openServices();
    const first = await value<{ account_id: string }>('accounts:sign-in-token', {
      server: server(),
      token: emulator.tokens.live,
    });
    await value('accounts:sign-in-token', { server: server(), token: emulator.tokens.peer });
    expect(services.accounts.current()?.id).not.toBe(first.account_id);
    const notification: DesktopNotification = {
      tag: 'test',
      kind: 'summary',
      title: 'Assigned to you',
      body: 'A task',
      open: { accountId: first.account_id, taskId: 'task-1' },
      feedIds: [],
      count: 1,
    };
    await services.openFromNotification(notification);
    expect(shellCalls.windowsShown).toBe(1);
    expect(services.accounts.current()?.id).toBe(first.account_id);
    expect(events.at(-1)).toEqual({
      name: 'notification:open',
      payload: { account_id: first.account_id, task_id: 'task-1' },
    });
  });

  test('tray choices reach the window and the app: open, quit', async () => {
    const { services, shellCalls } = await openServices();
    expect(services.trayModel().menu.length).toBeGreaterThan(0);
    services.trayAction({ type: 'open', accountId: null });
    services.trayAction({ type: 'quit' });
    expect(shellCalls).toMatchObject({ windowsShown: 1, quits: 1 });
  });

  test('pausing from the tray stops “sync now” until resumed', async () => {
    const { services, call, value } = await openServices();
    await value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    services.trayAction({ type: 'pause' });
    await expect.poll(() => services.visibility.isPaused()).toBe(true);
    expect(await call('sync:now')).toMatchObject({ ok: false, error: { type: 'sync-paused' } });
    services.trayAction({ type: 'resume' });
    expect(await call('sync:now')).toEqual({ ok: true, value: null });
  });

  test('the theme preference is applied at start and when changed', async () => {
    const { value, shellCalls } = await openServices();
    await value('settings:set', { theme: 'dark' });
    expect(shellCalls.themes).toEqual(['system', 'dark']);
  });
});

describe('without a real keychain (Linux basic_text)', () => {
  const noKeychain = () =>
    withEncryptionReport(new FileSecretStore(join(userDataDir, 'secrets.json')), false);

  test('the sign-in is kept for the session only, and the screens are told so', async () => {
    const first = await openServices({ secretStore: noKeychain() });
    expect(await first.value('accounts:secret-storage')).toEqual({ persistence: 'session-only' });
    await first.value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    await closeServices(first.services);

    const second = await openServices({ secretStore: noKeychain() });
    const list = await second.value<{ accounts: { state: string }[] }>('accounts:list');
    expect(list.accounts.map((a) => a.state)).toEqual(['signed-out']);
  });

  test.each([
    {
      name: 'when the person opts in, the sign-in outlives a restart (and the choice is remembered)',
      keepWithoutKeychain: true,
      persistence: 'unencrypted-by-choice',
      after: 'signed-in',
    },
    {
      name: "the page alone cannot turn the keychain's protection off: main asks, and Cancel keeps the session-only storage",
      keepWithoutKeychain: false,
      persistence: 'session-only',
      after: 'signed-out',
    },
  ])('$name', async ({ keepWithoutKeychain, persistence, after }) => {
    const first = await openServices({ secretStore: noKeychain(), keepWithoutKeychain });
    expect(await first.value('accounts:keep-sign-ins', { keep: true })).toEqual({ persistence });
    expect(first.shellCalls.keychainQuestions).toBe(1);
    await first.value('accounts:sign-in-token', { server: server(), token: emulator.tokens.live });
    await closeServices(first.services);

    const second = await openServices({ secretStore: noKeychain() });
    expect(await second.value('accounts:secret-storage')).toEqual({ persistence });
    const list = await second.value<{ accounts: { state: string }[] }>('accounts:list');
    expect(list.accounts.map((a) => a.state)).toEqual([after]);
  });

  test('with a keychain the question does not arise', async () => {
    const { value } = await openServices({
      secretStore: withEncryptionReport(new MemorySecretStore(), true),
    });
    expect(await value('accounts:secret-storage')).toEqual({ persistence: 'encrypted' });
  });
});
