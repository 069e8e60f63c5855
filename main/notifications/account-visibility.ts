// What makes each account's sync visible outside the screens, with no Electron:
// follows the account manager (opening a WatchedAccount per account: log,
// notifier, status), keeps the tray model current, and answers the account
// panel, diagnostics and pause through visibility-handlers.ts. main/tray and
// desktop-notifications.ts only display what this decides.
import type { Mirror } from '../../db/mirror';
import type { AccountManager } from '../../sync/accounts/account-manager';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import type { DesktopNotification } from '../../services/notify/notification-decisions';
import { type TrayAccount, type TrayModel, trayModel } from '../../services/notify/tray-model';
import type { SyncLog } from '../../sync/sync-log/sync-log';
import { IpcHandlerError, type IpcHandlers } from '../ipc/gate';
import type { SyncAccountsView, SyncAccountView } from '../../ipc/visibility-schemas';
import { accountDiagnostics } from './account-diagnostics';
import { accountPanelEntry } from './account-panel';
import type { NotificationSettingsStore } from './notification-settings-store';
import { trayLine } from './tray-lines';
import { visibilityHandlers } from './visibility-handlers';
import { type VisibleRuntime, WatchedAccount } from './watched-account';

export interface AccountVisibilityOptions {
  accounts: AccountManager<Mirror, SyncEngine>;
  settings: NotificationSettingsStore;
  appName: string;
  /** Facts for the diagnostics header (version, platform). */
  appContext: () => Readonly<Record<string, string | number | boolean | null>>;
  /** Shows notifications (main: Electron's Notification). */
  display: (notifications: readonly DesktopNotification[]) => void;
  /** The tray should show this (called after changes, at most every `trayDelayMs`). */
  trayChanged: (model: TrayModel) => void;
  /** Main: Electron's clipboard.writeText; absent: diagnostics are only returned. */
  writeClipboard?: (text: string) => void;
  now?: () => number;
  utcOffsetMinutes?: (nowMs: number) => number;
  /** Rows kept per account log. */
  logRows?: number;
  /** better-sqlite3 addon for Electron (main/native/sqlite-addon.ts). */
  nativeBinding?: string;
  trayDelayMs?: number;
  /** Sync was paused or resumed (the screens' status shows it). */
  onPausedChange?: (paused: boolean) => void;
}

export class AccountVisibility {
  private readonly watched = new Map<string, WatchedAccount>();
  private readonly stop: () => void;
  private trayTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly options: AccountVisibilityOptions) {
    this.stop = options.accounts.subscribe((event) => {
      if (event.type === 'accounts-changed') {
        this.refreshAccounts();
        return;
      }
      const watched = this.watched.get(event.account_id);
      if (!watched) return;
      if (event.event.type === 'push-failed') {
        watched.pushFailed(event.event.error);
        return;
      }
      const syncEvent = event.event.event;
      watched.syncEvent(syncEvent);
      // Progress and poll plans change nothing the tray shows.
      if (syncEvent.type !== 'progress' && syncEvent.type !== 'poll-scheduled') this.scheduleTray();
    });
    this.refreshAccounts();
  }

  /** The account's notifier (the host calls `opened` on a click). */
  opened(notification: DesktopNotification): void {
    this.watched.get(notification.open.accountId)?.notifier.opened(notification);
    this.scheduleTray();
  }

  /** Inbox entries were marked read in the app: the tray's unread count follows. */
  inboxRead(): void {
    this.scheduleTray();
  }

  isPaused(): boolean {
    return this.options.accounts.isPaused();
  }

  /** Stops every account's polling (queued edits stay queued) until resumed: the account manager owns it. */
  async pause(): Promise<void> {
    const stopped = this.options.accounts.pause();
    this.scheduleTray();
    this.options.onPausedChange?.(true);
    await stopped;
  }

  resume(): void {
    this.options.accounts.resume();
    this.scheduleTray();
    this.options.onPausedChange?.(false);
  }

  /** Every signed-in account syncs now (unless paused). */
  syncNow(): void {
    if (this.isPaused()) return;
    for (const w of this.watched.values()) {
      void w.runtime.session?.engine?.syncNow().catch(() => {
        // The failure is an event: logged and shown in the account's status.
      });
    }
  }

  keepRunningInTray(): boolean {
    return this.options.settings.get().keep_running_in_tray;
  }

  tray(): TrayModel {
    return trayModel({ appName: this.options.appName, accounts: this.trayLines(), paused: this.isPaused() });
  }

  private trayLines(): TrayAccount[] {
    const offset = this.utcOffset();
    return [...this.watched.values()].map((w) => trayLine(w, offset)).filter((line) => line !== null);
  }

  private utcOffset(): number {
    const now = this.options.now?.() ?? Date.now();
    return this.options.utcOffsetMinutes?.(now) ?? -new Date(now).getTimezoneOffset();
  }

  /** Every account for the account panel: the tray's line of it, its problem, and each collection's freshness. */
  accountsView(): SyncAccountsView {
    const offset = this.utcOffset();
    const currentId = this.options.accounts.current()?.id ?? null;
    const accounts: SyncAccountView[] = [];
    for (const w of this.watched.values()) {
      const line = trayLine(w, offset);
      if (line) accounts.push(accountPanelEntry(w, line, line.accountId === currentId));
    }
    return { paused: this.isPaused(), accounts };
  }

  /** The account's log; throws `account-not-found` for an unknown one. */
  log(accountId: string | null | undefined): { accountId: string; log: SyncLog } {
    const { watched } = this.account(accountId);
    return { accountId: watched.runtime.id, log: watched.log };
  }

  diagnostics(accountId: string | null | undefined): string {
    const { watched } = this.account(accountId);
    const headline = this.tray().menu[0];
    return accountDiagnostics(watched, {
      appContext: this.options.appContext(),
      paused: this.isPaused(),
      trayHeadline: headline?.kind === 'action' ? headline.label : null,
      generatedAt: new Date(this.options.now?.() ?? Date.now()).toISOString(),
    });
  }

  handlers(): IpcHandlers {
    return visibilityHandlers(this, this.options.settings, this.options.writeClipboard);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stop();
    if (this.trayTimer) clearTimeout(this.trayTimer);
    for (const w of this.watched.values()) w.close();
    this.watched.clear();
  }

  // ---- internals ------------------------------------------------------------------

  /** The account asked for, else the current one; `account-not-found` when there is none. */
  private account(accountId: string | null | undefined): { watched: WatchedAccount } {
    const id = accountId ?? this.options.accounts.current()?.id ?? null;
    const watched = id === null ? undefined : this.watched.get(id);
    if (!watched) throw new IpcHandlerError('account-not-found', 'No such account.');
    return { watched };
  }

  /** Opens logs and notifiers for new accounts, follows session changes, closes what left. */
  private refreshAccounts(): void {
    if (this.closed) return;
    const listed = new Set(this.options.accounts.list().map((a) => a.id));
    for (const [id, w] of this.watched) {
      if (listed.has(id)) continue;
      w.close();
      this.watched.delete(id);
    }
    for (const id of listed) {
      let runtime: VisibleRuntime;
      try {
        runtime = this.options.accounts.runtime(id);
      } catch {
        continue;
      }
      let w = this.watched.get(id);
      if (!w || w.runtime !== runtime) {
        w?.close();
        w = new WatchedAccount(runtime, {
          settings: () => this.options.settings.get(),
          secrets: () => this.options.accounts.knownSecrets(),
          display: (batch) => this.options.display(batch),
          ...(this.options.now ? { now: this.options.now } : {}),
          ...(this.options.utcOffsetMinutes ? { utcOffsetMinutes: this.options.utcOffsetMinutes } : {}),
          ...(this.options.logRows !== undefined ? { logRows: this.options.logRows } : {}),
          ...(this.options.nativeBinding !== undefined ? { nativeBinding: this.options.nativeBinding } : {}),
        });
        this.watched.set(id, w);
      }
      w.followSession();
    }
    this.scheduleTray();
  }

  private scheduleTray(): void {
    if (this.closed || this.trayTimer) return;
    this.trayTimer = setTimeout(() => {
      this.trayTimer = null;
      if (!this.closed) this.options.trayChanged(this.tray());
    }, this.options.trayDelayMs ?? 300);
  }
}
