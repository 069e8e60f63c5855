// The Electron main process: a thin shell wiring the tested pieces to Electron
// (security policies, the IPC gate, the desktop services with their accounts
// and handlers, tray and notifications, window placement). Decisions live in
// those modules (desktop-services.ts holds the rest, tested in Node); this file
// only connects them.
import { confirmKeepWithoutKeychain } from './auth/keep-without-keychain-dialog';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  nativeTheme,
  net,
  powerMonitor,
  session,
  shell as electronShell,
  type OpenDialogOptions,
} from 'electron';
import { APP_ID } from './app-id';
import { appShutdown } from './app-shutdown';
import { safeStorageSecretStore } from './auth/safe-storage-secret-store';
import { createDesktopServices, demoRequested, type DesktopServices, openSettings } from './desktop-services';
import { appUpdates } from './updates/app-updates';
import { createIpcGate } from './ipc/gate';
import { LinkInbox } from './links/link-inbox';
import { watchNetwork } from './network-watch';
import { BUILT_IN_ADDON_DIGESTS } from './native/built-in-addon-digests';
import { addonDigestFor, checkAddonDigest, sqliteNativeBinding } from './native/sqlite-addon';
import { showDesktopNotifications } from './notifications/desktop-notifications';
import { APP_ENTRY_URL, APP_ORIGIN, pageOrigin, trustedPageUrlCheck } from './security/app-protocol';
import { APP_CSP_DIRECTIVES, DEV_CSP_DIRECTIVES, serializeCsp } from './security/content-security-policy';
import {
  hardenSession,
  hardenWebContents,
  registerAppScheme,
  serveAppProtocol,
} from './security/harden-electron';
import { type AppTray, createAppTray } from './tray/app-tray';
import { bringToFront, openMainWindow } from './window/main-window';
import { LINK_SCHEME, linkInCommandLine } from '../services/links/task-link';

// Under `electron-vite dev` the renderer comes from Vite's dev server; otherwise from app://.
// Only then is the dev CSP used (see content-security-policy.ts for why it differs).
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const devServerOrigin = devServerUrl === undefined ? null : pageOrigin(devServerUrl);
const pagePolicy = {
  isTrustedPageUrl: trustedPageUrlCheck(
    devServerOrigin === null ? [APP_ORIGIN] : [APP_ORIGIN, devServerOrigin],
  ),
  contentSecurityPolicy: serializeCsp(devServerUrl === undefined ? APP_CSP_DIRECTIVES : DEV_CSP_DIRECTIVES),
};

registerAppScheme();
app.enableSandbox();
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

if (app.requestSingleInstanceLock()) {
  start();
} else {
  app.quit();
}

function logError(what: string, error: unknown): void {
  process.stderr.write(
    `${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
}

function start(): void {
  let mainWindow: BrowserWindow | undefined;
  let services: DesktopServices | undefined;
  let tray: AppTray | undefined;
  // The handler of svc-desktop:// links (the first instance only); from a checkout Electron needs the app's path too.
  if (process.defaultApp && process.argv[1] !== undefined) {
    app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(LINK_SCHEME);
  }
  // Links arrive before the services can route them (macOS: open-url before ready; else argv).
  const links = new LinkInbox();
  links.receive(linkInCommandLine(process.argv));
  app.on('open-url', (event, url) => {
    event.preventDefault();
    links.receive(url);
  });

  const shutdown = appShutdown({
    close: async () => {
      await services?.close();
      tray?.destroy();
    },
    quit: () => app.quit(),
    onCloseError: (error) => logError('closing the accounts failed', error),
  });
  app.on('before-quit', (event) => shutdown.beforeQuit(event));
  app.on('web-contents-created', (_event, contents) =>
    // Links open only to the accounts signed in when one is followed (none before the services start).
    hardenWebContents(contents, pagePolicy, () => services?.linkOrigins() ?? []),
  );
  app.on('second-instance', (_event, argv) => {
    if (mainWindow && !mainWindow.isDestroyed()) bringToFront(mainWindow);
    links.receive(linkInCommandLine(argv));
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  void app.whenReady().then(async () => {
    /** better-sqlite3 built for Electron: node_modules holds Node's build, which Electron refuses. */
    const sqliteAddon = sqliteNativeBinding({
      isPackaged: app.isPackaged,
      appPath: app.getAppPath(),
      resourcesPath: process.resourcesPath,
      platform: process.platform,
      arch: process.arch,
    });
    if (!existsSync(sqliteAddon)) {
      dialog.showErrorBox(
        'SQLite is not built for Electron',
        `${sqliteAddon} is missing. From a checkout, \`npm run native:electron\` builds it (\`npm start\` does so first).`,
      );
      app.exit(1);
      return;
    }
    // Outside the asar, so asar integrity does not cover it: its SHA-256 must be the one built in.
    const addonCheck = checkAddonDigest({
      file: sqliteAddon,
      expected: addonDigestFor(BUILT_IN_ADDON_DIGESTS, process.platform, process.arch),
      isPackaged: app.isPackaged,
    });
    if (!addonCheck.ok) {
      dialog.showErrorBox('The SQLite addon was refused', addonCheck.reason);
      app.exit(1);
      return;
    }

    hardenSession(session.defaultSession, pagePolicy);
    serveAppProtocol(
      session.defaultSession,
      join(import.meta.dirname, '../renderer'),
      pagePolicy.contentSecurityPolicy,
    );

    // The window opens before the accounts (an older app's mirror may take seconds to upgrade):
    // its calls wait at the gate until the services registered their handlers.
    let servicesSettled!: () => void;
    const gate = createIpcGate({
      ipcMain,
      isTrustedPageUrl: pagePolicy.isTrustedPageUrl,
      onInternalError: (channel, error) => logError(`ipc ${channel} failed`, error),
      startup: new Promise<void>((settle) => (servicesSettled = settle)),
    });
    const settings = openSettings(app.getPath('userData'));

    const showWindow = (): BrowserWindow => {
      if (mainWindow && !mainWindow.isDestroyed()) {
        bringToFront(mainWindow);
        return mainWindow;
      }
      const window = openMainWindow({
        url: devServerUrl ?? APP_ENTRY_URL,
        preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
        settings,
        devTools: !app.isPackaged,
        title: app.getName(),
        // Trusted before its page loads, so no call of the page meets an untrusted sender.
        beforeLoad: (created) => gate.trust(created.webContents),
      });
      window.on('close', (event) => {
        // Closing the window keeps syncing in the tray, when the person chose so.
        if (!shutdown.quitting() && services?.keepRunningInTray()) {
          event.preventDefault();
          window.hide();
        }
      });
      mainWindow = window;
      return window;
    };

    // macOS: clicking the dock icon shows the window again, also while the accounts still open
    // (an older app's mirror upgrading), so registered before they start, not after.
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0 || mainWindow?.isVisible() === false) showWindow();
    });

    try {
      // Started, then the window shown while it opens the accounts (it registers `app:opening` first).
      const starting = createDesktopServices({
        userDataDir: app.getPath('userData'),
        settings,
        // After whenReady: before it, Linux reports no storage backend (see safe-storage-secret-store.ts).
        secretStore: safeStorageSecretStore(),
        gate,
        appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
        arch: process.arch,
        env: process.env,
        nativeBinding: sqliteAddon,
        // Built beside index.js by electron.vite.config.ts (its own entry: a worker loads a file).
        pullWorkerUrl: new URL('./pull-store-worker.js', import.meta.url),
        upgradeWorkerUrl: new URL('./mirror-upgrade-worker.js', import.meta.url),
        // The emulator is only loaded when the demo is asked for: a chunk of its own.
        startDemo: () => import('./ipc/demo-server').then((demo) => demo.startDemoServer()),
        // electron-updater only updates a packaged app (a checkout has no feed to install from).
        ...(app.isPackaged
          ? {
              followUpdates: appUpdates({
                beforeInstall: () => services?.close() ?? Promise.resolve(),
                log: (line) => process.stderr.write(`${line}\n`),
              }),
            }
          : {}),
        shell: {
          openExternal: (url) => electronShell.openExternal(url),
          applyTheme: (theme) => {
            nativeTheme.themeSource = theme;
          },
          showNotifications: showDesktopNotifications,
          trayChanged: (model) => tray?.update(model),
          // Electron 45 returns a promise; a failed copy has nothing to undo.
          writeClipboard: (text) => void clipboard.writeText(text),
          confirmKeepWithoutKeychain: () => confirmKeepWithoutKeychain(mainWindow),
          pickFiles: async () => {
            const options: OpenDialogOptions = {
              title: 'Attach files',
              properties: ['openFile', 'multiSelections'],
            };
            const picked = mainWindow
              ? await dialog.showOpenDialog(mainWindow, options)
              : await dialog.showOpenDialog(options);
            return picked.canceled ? [] : picked.filePaths;
          },
          // Only ever a copy in the app's private folder that passed attachment-open.ts's checks.
          openPath: (path) => electronShell.openPath(path),
          showWindow: () => void showWindow(),
          quit: () => app.quit(),
        },
      });
      // The person's theme from the first frame (the services apply it again as they start).
      nativeTheme.themeSource = settings.get().theme;
      showWindow();
      services = await starting;
    } catch (error) {
      logError('opening the accounts failed', error);
      dialog.showErrorBox(
        'The app could not open its data',
        `${error instanceof Error ? error.message : String(error)}\n\nData folder: ${app.getPath('userData')}`,
      );
      app.exit(1);
      return;
    } finally {
      servicesSettled();
    }

    const running = services;
    tray = createAppTray(running.trayModel(), (action) => running.trayAction(action));
    // Sync catches up when the network comes back or the computer wakes, not at its next timer.
    watchNetwork(
      () => net.isOnline(),
      () => running.accounts.networkChanged(),
    );
    powerMonitor.on('resume', () => running.accounts.woke());
    links.deliverTo((raw) => {
      running.openLink(raw).catch((error: unknown) => logError('opening a link failed', error));
    });
    if (demoRequested(process.env)) {
      running.signInToDemo().catch((error: unknown) => {
        logError('starting the demo failed', error);
        dialog.showErrorBox(
          'The demo could not start',
          error instanceof Error ? error.message : String(error),
        );
      });
    }
  });
}
