// Everything the desktop app runs behind its window, without Electron: the
// accounts (mirrors, sessions, sync engines) in the user-data folder, the
// settings, sync made visible (tray model, notifications, sync log) and every
// IPC handler on the gate. main/index.ts builds it with Electron's pieces
// (safeStorage, shell, Notification, Tray); desktop-services.test.ts in Node.
import { originsOf, urlWithoutCredentials } from './security/page-policy';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mirror } from '../db/mirror';
import { AccountManager, type AccountManagerOptions } from '../sync/accounts/account-manager';
import type { AccountSecretStore } from '../sync/accounts/account-secrets';
import { type ServerSettings, serverDefaultsFromEnvironment } from '../sync/accounts/server-settings';
import { isLoopbackHost } from '../sync/auth/auth-url';
import type { SyncEngine } from '../sync/engine/sync-engine';
import type { DesktopNotification } from '../services/notify/notification-decisions';
import type { TrayAction, TrayModel } from '../services/notify/tray-model';
import type { UpdateController, UpdateControllerOptions } from '../services/updates/update-controller';
import { outboxPendingOf, type OutboxSource } from '../services/updates/update-outbox';
import { withUpdateLine } from '../services/updates/update-tray';
import { appHandlers } from './ipc/app-handlers';
import type { AppInfo, ThemePreference } from '../ipc/contract';
import type { StartedDemo } from './ipc/demo-server';
import type { IpcGate } from './ipc/gate';
import type { LinkRequest } from '../ipc/link-schemas';
import { createLinkService } from './links/link-service';
import { createScreenBackend, type ScreenBackend } from './ipc/screen-backend';
import { openingReport } from './ipc/opening-handlers';
import { AttachmentFiles } from '../db/attachments/attachment-files';
import { DEFAULT_ATTACHMENT_CACHE_BYTES } from '../sync/attachments/attachment-cache';
import type { AccountSummary } from '../ipc/screen-schemas';
import { AccountVisibility } from './notifications/account-visibility';
import { NotificationSettingsStore } from './notifications/notification-settings-store';
import { settingsHandlers } from './settings/settings-handlers';
import { SettingsStore } from './settings/settings-store';
import { updateHandlers } from './updates/update-handlers';

/** What only Electron can do, handed in by main/index.ts (tests pass recorders). */
export interface DesktopShell {
  /** `shell.openExternal`; only ever called with URLs checked here (see {@link isOpenableUrl}). */
  openExternal(url: string): Promise<void>;
  /** `nativeTheme.themeSource`. */
  applyTheme(theme: ThemePreference): void;
  /** Native notifications; `onClick` when one is clicked. */
  showNotifications(
    batch: readonly DesktopNotification[],
    onClick: (notification: DesktopNotification) => void,
  ): void;
  /** The tray icon and menu follow this model. */
  trayChanged(model: TrayModel): void;
  writeClipboard(text: string): void;
  /**
   * Asks the person, in main's own dialog, whether to keep sign-ins on this
   * computer without a keychain (a fixed, public key protects them): true when
   * they agree. The renderer asks to, but only the person decides.
   */
  confirmKeepWithoutKeychain(): Promise<boolean>;
  /** Main's file picker for attachments (several files): the paths picked, none when cancelled. */
  pickFiles?(): Promise<string[]>;
  /** `shell.openPath`: '' when the default app opened it, else why not. */
  openPath?(path: string): Promise<string>;
  /** Shows (creating if needed) and focuses the main window. */
  showWindow(): void;
  /** Quits the app (its before-quit closes these services). */
  quit(): void;
}

/** What the update controller gets from the services. */
export interface UpdateWiring extends Pick<UpdateControllerOptions, 'outbox' | 'syncNow' | 'onChange'> {
  /** settings.json's `update_feed_url`, unchecked; null: electron-builder.yml's feed. */
  readonly feedUrl: string | null;
}

export interface DesktopServicesOptions {
  /** `app.getPath('userData')`: accounts/, settings.json, notifications.json. */
  readonly userDataDir: string;
  /** Where secrets are kept between runs (main: safeStorage; it says whether that is a real keychain). */
  readonly secretStore: AccountSecretStore;
  readonly gate: IpcGate;
  readonly appInfo: AppInfo;
  /** For `appContext` in diagnostics. */
  readonly arch: string;
  readonly shell: DesktopShell;
  /**
   * "Try the demo": starts the local emulator with sample data. Main imports
   * it on demand (a chunk of its own: the emulator is not loaded otherwise).
   */
  readonly startDemo: () => Promise<StartedDemo>;
  /** Server defaults (`SVC_BASE_URL`, `SVC_AUTH_URL`, `SVC_CLIENT_ID`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** better-sqlite3 built for Electron, for mirrors, pull workers and sync logs. */
  readonly nativeBinding?: string;
  /** The bundled pull worker (out/main/pull-store-worker.js). */
  readonly pullWorkerUrl?: URL;
  /** The bundled upgrade worker (out/main/mirror-upgrade-worker.js): an older app's mirror migrates there. */
  readonly upgradeWorkerUrl?: URL;
  /** settings.json, when main opened it already (for the window, shown before the accounts open); default: opened here. */
  readonly settings?: SettingsStore;
  /**
   * The updater followed by its controller (main/updates/app-updates.ts builds it
   * around electron-updater); absent, updates are off (tests, the browser host).
   */
  readonly followUpdates?: (wiring: UpdateWiring) => UpdateController;
  /** Tests only: API client settings for every account. */
  readonly client?: AccountManagerOptions['client'];
  /** Tests only: how long a browser sign-in waits for its redirect (default: the flow's 5 minutes). */
  readonly signInTimeoutMs?: number;
}

export interface DesktopServices {
  readonly accounts: AccountManager<Mirror, SyncEngine>;
  readonly settings: SettingsStore;
  readonly backend: ScreenBackend;
  readonly visibility: AccountVisibility;
  /** The initial tray model (the tray is created after the services). */
  trayModel(): TrayModel;
  /** A tray menu choice. */
  trayAction(action: TrayAction): void;
  /** Shows the window on this account and, with a task, opens it there (a notification was clicked). */
  openFromNotification(notification: DesktopNotification): Promise<void>;
  /** The app was opened with a link (untrusted, as the OS handed it): see main/links/link-service.ts. */
  openLink(raw: string): Promise<LinkRequest>;
  /** Whether closing the window should hide it instead (keep syncing in the tray). */
  keepRunningInTray(): boolean;
  /** The origins a link in the app may open in the browser: each signed-in account's API and sign-in server. */
  linkOrigins(): string[];
  /** What `npm run demo` does at launch: "Try the demo" without the click. */
  signInToDemo(): Promise<AccountSummary>;
  /** Stops engines, closes mirrors and sync logs, drops demo accounts and stops the demo server. Idempotent. */
  close(): Promise<void>;
}

/**
 * Whether main may hand `url` to the OS to open: only web pages, and plain
 * http only on this computer (the emulator's consent page). The OAuth flow
 * already allows nothing but the configured server's authorize page, and
 * `external-link:open` nothing but https; this is the last check before the OS.
 */
export function isOpenableUrl(url: string): boolean {
  const parsed = urlWithoutCredentials(url);
  if (parsed === null) return false;
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}

/** The app's settings file in the user-data folder. */
export function openSettings(userDataDir: string): SettingsStore {
  return new SettingsStore(join(userDataDir, 'settings.json'));
}

export async function createDesktopServices(options: DesktopServicesOptions): Promise<DesktopServices> {
  const { gate, shell } = options;
  const openUrl = async (url: string) => {
    if (!isOpenableUrl(url)) throw new Error('only web pages may be opened in the browser');
    await shell.openExternal(url);
  };

  // Before the accounts open, and before this function first waits: main opens the
  // window meanwhile, and its page asks at once whether a mirror is being upgraded.
  const opening = openingReport((event, payload) => gate.emit(event, payload));
  gate.register(opening.handlers);
  const settings = options.settings ?? openSettings(options.userDataDir);
  shell.applyTheme(settings.get().theme);

  const envDefaults = serverDefaultsFromEnvironment(options.env);
  const accounts = await AccountManager.open<Mirror, SyncEngine>({
    directory: join(options.userDataDir, 'accounts'),
    secrets: options.secretStore,
    defaults: envDefaults,
    startEngines: true,
    attachmentCacheBytes: () => settings.get().attachment_cache_bytes ?? DEFAULT_ATTACHMENT_CACHE_BYTES,
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.pullWorkerUrl !== undefined ? { pullWorkerUrl: options.pullWorkerUrl } : {}),
    ...(options.upgradeWorkerUrl !== undefined ? { upgradeWorkerUrl: options.upgradeWorkerUrl } : {}),
    onMirrorUpgrade: (accountId, upgrade) => opening.mirrorUpgrade(accountId, upgrade),
    ...(options.client !== undefined ? { client: options.client } : {}),
    ...(options.signInTimeoutMs !== undefined ? { signInTimeoutMs: options.signInTimeoutMs } : {}),
  });

  // Demo accounts left by a run that ended without quitting (Ctrl-C on `npm run demo`, a
  // crash): their emulator died with it. Dropped, as a clean quit would have.
  const demoServersFile = join(options.userDataDir, 'demo-servers.json');
  await dropDemoAccounts(accounts, await readDemoServers(demoServersFile));
  await rm(demoServersFile, { force: true });

  /** The sign-in form starts from the configured service, else from the account last shown. */
  const serverDefaults = (): Partial<ServerSettings> => {
    const current = accounts.current();
    if (envDefaults.base_url !== undefined || current === null) return envDefaults;
    return { base_url: current.base_url, auth_url: current.auth_url, client_id: current.client_id };
  };

  const demos: StartedDemo[] = [];
  const backend = createScreenBackend({
    accounts,
    emit: (event, payload) => gate.emit(event, payload),
    serverDefaults,
    openUrl,
    confirmKeepWithoutKeychain: () => shell.confirmKeepWithoutKeychain(),
    startDemo: async () => {
      const demo = await options.startDemo();
      demos.push(demo);
      await writeFile(demoServersFile, JSON.stringify(demos.map((d) => d.server.base_url)));
      return { server: demo.server, token: demo.token };
    },
    paused: () => accounts.isPaused(),
    inboxRead: () => visibility.inboxRead(),
    ...(shell.pickFiles ? { pickFiles: () => shell.pickFiles?.() ?? Promise.resolve([]) } : {}),
    ...(shell.openPath ? { openPath: (path: string) => shell.openPath?.(path) ?? Promise.resolve('') } : {}),
  });

  const openFromNotification = async ({ open }: DesktopNotification) => {
    shell.showWindow();
    if (accounts.current()?.id !== open.accountId) await accounts.switchTo(open.accountId);
    gate.emit('notification:open', {
      account_id: open.accountId,
      task_id: open.taskId,
      ...(open.conflict
        ? { conflict: { entity_type: open.conflict.entityType, entity_id: open.conflict.entityId } }
        : {}),
    });
  };

  let updates: UpdateController | null = null;
  const visibility: AccountVisibility = new AccountVisibility({
    accounts,
    settings: new NotificationSettingsStore(join(options.userDataDir, 'notifications.json')),
    appName: options.appInfo.name,
    appContext: () => ({
      app: options.appInfo.name,
      version: options.appInfo.version,
      platform: options.appInfo.platform,
      arch: options.arch,
    }),
    display: (batch) =>
      shell.showNotifications(batch, (notification) => {
        visibility.opened(notification);
        openFromNotification(notification).catch(() => {
          // The account may be gone since; the window is shown anyway.
        });
      }),
    trayChanged: (model) => shell.trayChanged(withUpdateLine(model, updates?.status() ?? null)),
    writeClipboard: (text) => shell.writeClipboard(text),
    onPausedChange: () => backend.announceStatus(),
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
  });

  const linkOrigins = () =>
    originsOf(accounts.list().flatMap((account) => [account.base_url, account.auth_url]));
  gate.register(appHandlers({ appInfo: options.appInfo, openExternal: openUrl, linkOrigins }));
  gate.register(
    settingsHandlers({
      store: settings,
      applyTheme: (theme) => shell.applyTheme(theme),
      emit: (event, payload) => gate.emit(event, payload),
      attachmentBytesKept: () => {
        const runtime = accounts.currentRuntime();
        return runtime?.session ? AttachmentFiles.beside(runtime.mirror.file).use().bytes : 0;
      },
    }),
  );
  for (const handlers of backend.handlers) gate.register(handlers);
  gate.register(visibility.handlers());
  const links = createLinkService({
    accounts,
    announce: () => gate.emit('link:received', null),
    showWindow: () => shell.showWindow(),
    writeClipboard: (text) => shell.writeClipboard(text),
  });
  gate.register(links.handlers);

  /** Every account's mirror: a restart to update waits for what they are sending. */
  const mirrors = (): OutboxSource[] =>
    accounts.list().flatMap((account) => {
      try {
        return [accounts.runtime(account.id).mirror];
      } catch {
        return []; // Left since the list was read.
      }
    });
  updates =
    options.followUpdates?.({
      feedUrl: settings.get().update_feed_url ?? null,
      outbox: () => outboxPendingOf(mirrors()),
      syncNow: () => visibility.syncNow(),
      onChange: (status) => {
        gate.emit('updates:status-changed', status);
        shell.trayChanged(withUpdateLine(visibility.tray(), status));
      },
    }) ?? null;
  gate.register(updateHandlers(updates));
  updates?.start();

  let closing: Promise<void> | null = null;
  return {
    accounts,
    settings,
    backend,
    visibility,
    trayModel: () => withUpdateLine(visibility.tray(), updates?.status() ?? null),
    trayAction(action) {
      switch (action.type) {
        case 'sync-now':
          visibility.syncNow();
          return;
        case 'pause':
          void visibility.pause();
          return;
        case 'resume':
          visibility.resume();
          return;
        case 'open':
          shell.showWindow();
          if (action.accountId !== null && accounts.current()?.id !== action.accountId) {
            accounts.switchTo(action.accountId).catch(() => undefined);
          }
          return;
        case 'restart-to-update':
          updates?.restartToUpdate();
          return;
        case 'quit':
          shell.quit();
          return;
      }
    },
    openFromNotification,
    openLink: (raw) => links.open(raw),
    keepRunningInTray: () => visibility.keepRunningInTray(),
    linkOrigins,
    signInToDemo: () => backend.signInToDemo(),
    close() {
      closing ??= (async () => {
        updates?.stop();
        visibility.close();
        backend.close();
        // A demo account does not outlive its server (an emulator in this process,
        // fresh at every start): dropped with its mirror, so the next demo starts clean
        // and the switcher lists no account whose server is gone.
        await dropDemoAccounts(
          accounts,
          demos.map((demo) => demo.server.base_url),
        );
        // Stops every engine (and its pull worker) and closes every mirror.
        await accounts.close();
        for (const demo of demos.splice(0)) await demo.stop();
        await rm(demoServersFile, { force: true });
      })();
      return closing;
    },
  };
}

async function readDemoServers(file: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return Array.isArray(parsed) ? parsed.filter((url): url is string => typeof url === 'string') : [];
  } catch {
    return [];
  }
}

/** Signs out of the accounts on these (demo) servers, dropping their mirrors. */
async function dropDemoAccounts(
  accounts: DesktopServices['accounts'],
  servers: readonly string[],
): Promise<void> {
  const demoServers = new Set(servers);
  for (const account of accounts.list().filter((a) => demoServers.has(a.base_url))) {
    await accounts.signOut(account.id, { keepQueuedEdits: false }).catch(() => undefined);
  }
}

/** `npm run demo` sets SVC_DEMO=1, so the app signs in to the demo at launch. */
export function demoRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  return env['SVC_DEMO'] === '1';
}
