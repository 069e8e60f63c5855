// Connects AccountVisibility to Electron: the tray, native notifications, the
// clipboard for "copy diagnostics", the IPC handlers, and "closing the window
// keeps syncing in the tray". Called once from main/index.ts after the accounts opened.
import { join } from 'node:path';
import { app, type BrowserWindow, clipboard } from 'electron';
import type { Mirror } from '../../db/mirror';
import type { AccountManager } from '../../sync/accounts/account-manager';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import type { TrayAction } from '../../sync/notify/tray-model';
import type { IpcGate } from '../ipc/gate';
import { createAppTray } from '../tray/app-tray';
import { AccountVisibility } from './account-visibility';
import { showDesktopNotifications } from './desktop-notifications';
import { NotificationSettingsStore } from './notification-settings-store';

export interface VisibilityShellOptions {
  accounts: AccountManager<Mirror, SyncEngine>;
  gate: IpcGate;
  /** Shows (creating if needed) and focuses the main window. */
  showWindow: () => BrowserWindow;
  /** better-sqlite3 built for Electron, for the sync log files. */
  nativeBinding?: string;
}

export interface VisibilityShell {
  visibility: AccountVisibility;
  /** Call from the window's `close`: true when it was hidden instead (keep syncing in the tray). */
  hideInsteadOfClose(window: BrowserWindow): boolean;
  /** Quit was chosen (tray or app menu): windows close for real from now on. */
  quitting(): boolean;
  close(): void;
}

export function installVisibility(options: VisibilityShellOptions): VisibilityShell {
  const { accounts, gate } = options;
  let quitting = false;
  app.on('before-quit', () => {
    quitting = true;
  });

  const openAccount = async (accountId: string | null, taskId: string | null) => {
    options.showWindow();
    if (accountId !== null && accounts.current()?.id !== accountId) await accounts.switchTo(accountId);
    if (accountId !== null) gate.emit('notification:open', { account_id: accountId, task_id: taskId });
  };

  const visibility: AccountVisibility = new AccountVisibility({
    accounts,
    settings: new NotificationSettingsStore(join(app.getPath('userData'), 'notifications.json')),
    appName: app.getName(),
    appContext: () => ({
      app: app.getName(),
      version: app.getVersion(),
      platform: process.platform,
      arch: process.arch,
    }),
    display: (batch) =>
      showDesktopNotifications(batch, (notification) => {
        visibility.opened(notification);
        void openAccount(notification.open.accountId, notification.open.taskId).catch(() => {
          // The account may be gone since; the window is shown anyway.
        });
      }),
    trayChanged: (model) => tray.update(model),
    writeClipboard: (text) => clipboard.writeText(text),
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
  });

  const onAction = (action: TrayAction) => {
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
        void openAccount(action.accountId, null).catch(() => undefined);
        return;
      case 'quit':
        quitting = true;
        app.quit();
        return;
    }
  };
  const tray = createAppTray(visibility.tray(), onAction);
  gate.register(visibility.handlers());

  return {
    visibility,
    hideInsteadOfClose(window) {
      if (quitting || !visibility.keepRunningInTray()) return false;
      window.hide();
      return true;
    },
    quitting: () => quitting,
    close() {
      visibility.close();
      tray.destroy();
    },
  };
}
