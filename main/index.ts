// The Electron main process: a thin shell wiring the tested pieces to Electron
// (security policies, the IPC gate and its handlers, window placement,
// settings). Decisions live in those modules; this file only connects them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, session, shell } from 'electron';
import { APP_ID } from './app-id';
import { appHandlers } from './ipc/app-handlers';
import { createIpcGate } from './ipc/gate';
import { sqliteNativeBinding } from './native/sqlite-addon';
import { APP_ENTRY_URL, APP_ORIGIN, pageOrigin, trustedPageUrlCheck } from './security/app-protocol';
import { APP_CSP_DIRECTIVES, DEV_CSP_DIRECTIVES, serializeCsp } from './security/content-security-policy';
import {
  hardenSession,
  hardenWebContents,
  registerAppScheme,
  serveAppProtocol,
} from './security/harden-electron';
import { settingsHandlers } from './settings/settings-handlers';
import { SettingsStore } from './settings/settings-store';
import { bringToFront, openMainWindow } from './window/main-window';

// Under `electron-vite dev` the renderer comes from Vite's dev server; otherwise from app://.
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

function start(): void {
  let mainWindow: BrowserWindow | undefined;

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, pagePolicy));
  app.on('second-instance', () => {
    if (mainWindow && !mainWindow.isDestroyed()) bringToFront(mainWindow);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  void app.whenReady().then(() => {
    /** better-sqlite3 built for Electron: pass it as `nativeBinding` when the mirror is opened here. */
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
      app.quit();
      return;
    }

    const settings = new SettingsStore(join(app.getPath('userData'), 'settings.json'));
    nativeTheme.themeSource = settings.get().theme;

    hardenSession(session.defaultSession, pagePolicy);
    serveAppProtocol(
      session.defaultSession,
      join(import.meta.dirname, '../renderer'),
      pagePolicy.contentSecurityPolicy,
    );

    const gate = createIpcGate({
      ipcMain,
      isTrustedPageUrl: pagePolicy.isTrustedPageUrl,
      onInternalError: (channel, error) => {
        process.stderr.write(
          `ipc ${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      },
    });
    gate.register(
      appHandlers({
        appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
        openExternal: (url) => shell.openExternal(url),
      }),
    );
    gate.register(
      settingsHandlers({
        store: settings,
        applyTheme: (theme) => {
          nativeTheme.themeSource = theme;
        },
        emit: (event, payload) => gate.emit(event, payload),
      }),
    );

    const showWindow = () => {
      mainWindow = openMainWindow({
        url: devServerUrl ?? APP_ENTRY_URL,
        preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
        settings,
        devTools: !app.isPackaged,
        title: app.getName(),
      });
      gate.trust(mainWindow.webContents);
    };
    showWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) showWindow();
    });
  });
}
