// What makes each account's sync visible outside the screens, with no Electron:
// a sync log file per account fed by its API client and engine events, a
// notifier deciding desktop notifications, the tray model from every account's
// state and counts, pause/resume and sync now, and the IPC handlers for the
// log, diagnostics and notification settings. main/tray and
// main/notifications/desktop-notifications only display what this decides.
import type { Mirror } from '../../db/mirror';
import { type OutboxCounts, outboxCounts } from '../../db/outbox-counts';
import { MirrorStorageError } from '../../db/mirror-errors';
import type { ApiClient } from '../../sync/api/api-client';
import type { AccountManager } from '../../sync/accounts/account-manager';
import {
  type AccountSyncState,
  initialAccountSyncState,
  reduceAccountSync,
} from '../../sync/accounts/account-status';
import type { AccountRuntime } from '../../sync/accounts/account-runtime';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import type { SyncEvent } from '../../sync/engine/sync-events';
import type { DesktopNotification } from '../../sync/notify/notification-decisions';
import { Notifier } from '../../sync/notify/notifier';
import {
  offlineReasonWords,
  type TrayAccount,
  type TrayModel,
  trayModel,
} from '../../sync/notify/tray-model';
import { diagnosticsReport } from '../../sync/sync-log/diagnostics-report';
import { SyncLog, syncLogFileFor } from '../../sync/sync-log/sync-log';
import { recordSyncActivity, recordSyncEvent } from '../../sync/sync-log/sync-log-recorder';
import { IpcHandlerError, type IpcHandlers } from '../ipc/gate';
import type { SyncAccountsView, SyncAccountView } from '../ipc/visibility-schemas';
import type { NotificationSettingsStore } from './notification-settings-store';

type Runtime = AccountRuntime<Mirror, SyncEngine>;

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

interface Watched {
  runtime: Runtime;
  log: SyncLog;
  notifier: Notifier;
  api: ApiClient | null;
  stopApi: (() => void) | null;
  /** The account's status as its sync events left it (sync/accounts/account-status.ts). */
  sync: AccountSyncState;
}

export class AccountVisibility {
  private readonly watched = new Map<string, Watched>();
  private readonly stop: () => void;
  private trayTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly options: AccountVisibilityOptions) {
    this.stop = options.accounts.subscribe((event) => {
      if (event.type === 'accounts-changed') this.refreshAccounts();
      else if (event.event.type === 'sync') this.syncEvent(event.account_id, event.event.event);
      else
        this.watched.get(event.account_id)?.log.add({
          level: 'error',
          kind: 'push',
          message: `pushing queued edits failed: ${event.event.error.message}`,
          detail: { error_kind: event.event.error.kind, problem_type: event.event.error.type },
        });
    });
    this.refreshAccounts();
  }

  /** The account's notifier (the host calls `opened` on a click). */
  opened(notification: DesktopNotification): void {
    this.watched.get(notification.open.accountId)?.notifier.opened(notification);
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
    return trayModel({
      appName: this.options.appName,
      accounts: this.trayAccounts(),
      paused: this.isPaused(),
    });
  }

  private trayAccounts(): TrayAccount[] {
    const accounts: TrayAccount[] = [];
    for (const w of this.watched.values()) {
      let counts: OutboxCounts;
      let organization: string | null;
      const identity = w.runtime.record.identity;
      try {
        counts = outboxCounts(w.runtime.mirror);
        organization = organizationName(w.runtime.mirror, identity.org_id);
      } catch (error) {
        // An account whose mirror closed before the accounts event reached us
        // (signed out, dropped, shutting down) has left: the tray skips it,
        // and a timer's tray update never throws in the main process.
        if (error instanceof MirrorStorageError && error.problem === 'closed') continue;
        throw error;
      }
      const status = w.runtime.status;
      accounts.push({
        accountId: w.runtime.id,
        label: `${identity.username}${organization === null ? '' : ` · ${organization}`}`,
        state: status.state,
        connection: w.sync.connection,
        offlineReason: w.sync.problem === null ? null : offlineReasonWords(w.sync.problem, this.utcOffset()),
        syncing: w.sync.syncing,
        pending: counts.pending,
        conflicts: counts.conflicts,
        failed: counts.failed,
        unseen: w.notifier.unseenCount(),
      });
    }
    return accounts;
  }

  private utcOffset(): number {
    const now = this.options.now?.() ?? Date.now();
    return this.options.utcOffsetMinutes?.(now) ?? -new Date(now).getTimezoneOffset();
  }

  /** Every account for the account panel: the tray's line of it, its problem, and each collection's freshness. */
  accountsView(): SyncAccountsView {
    const lines = new Map(this.trayAccounts().map((line) => [line.accountId, line]));
    const currentId = this.options.accounts.current()?.id ?? null;
    const accounts: SyncAccountView[] = [];
    for (const w of this.watched.values()) {
      const line = lines.get(w.runtime.id);
      if (!line) continue;
      accounts.push({
        account_id: line.accountId,
        label: line.label,
        current: line.accountId === currentId,
        state: line.state,
        connection: line.connection,
        problem:
          w.sync.problem === null
            ? null
            : {
                kind: w.sync.problem.kind,
                type: w.sync.problem.type,
                message: w.sync.problem.message,
                retry_at: w.sync.problem.retryAt,
              },
        syncing: line.syncing,
        session_ends_at: w.runtime.record.session_ends_at ?? null,
        last_synced_at: w.sync.lastSyncedAt ?? w.runtime.mirror.passState('tasks')?.completedAt ?? null,
        pending: line.pending,
        conflicts: line.conflicts,
        failed: line.failed,
        unseen: line.unseen,
        collections: w.log.collections().map((c) => ({
          collection: c.collection,
          checked_at: c.checkedAt,
          changed_at: c.changedAt,
        })),
      });
    }
    return { paused: this.isPaused(), accounts };
  }

  /** The account's log; throws `account-not-found` for an unknown one. */
  log(accountId: string | null | undefined): { accountId: string; log: SyncLog } {
    const id = accountId ?? this.options.accounts.current()?.id ?? null;
    const watched = id === null ? undefined : this.watched.get(id);
    if (!watched || id === null) throw new IpcHandlerError('account-not-found', 'No such account.');
    return { accountId: id, log: watched.log };
  }

  diagnostics(accountId: string | null | undefined): string {
    const { accountId: id, log } = this.log(accountId);
    const runtime = this.options.accounts.runtime(id);
    const identity = runtime.record.identity;
    const people = [identity.username, identity.user_id, identity.email ?? ''];
    for (const member of runtime.mirror.resources('organization_members')) {
      for (const key of ['username', 'email', 'user_id', 'display_name', 'name']) {
        const value = member[key];
        if (typeof value === 'string') people.push(value);
      }
    }
    const tray = this.tray().menu;
    const status = runtime.status;
    return diagnosticsReport({
      entries: log.query({ limit: 1000 }).entries,
      context: {
        ...this.options.appContext(),
        account: identity.username,
        base_url: runtime.record.base_url,
        state: status.state,
        queued_edits: status.queued_edits,
        paused: this.isPaused(),
        tray: tray[0]?.kind === 'action' ? tray[0].label : null,
      },
      people,
      secrets: [],
      salt: log.salt,
      generatedAt: new Date(this.options.now?.() ?? Date.now()).toISOString(),
    });
  }

  handlers(): IpcHandlers {
    return {
      'sync-log:query': (input) => {
        const { accountId, log } = this.log(input.account_id);
        const page = log.query({
          ...(input.text !== undefined ? { text: input.text } : {}),
          ...(input.levels !== undefined ? { levels: input.levels } : {}),
          ...(input.kinds !== undefined ? { kinds: input.kinds } : {}),
          ...(input.before_id !== undefined ? { beforeId: input.before_id } : {}),
          ...(input.limit !== undefined ? { limit: input.limit } : {}),
        });
        return {
          account_id: accountId,
          next_before_id: page.nextBeforeId,
          entries: page.entries.map((e) => ({
            id: e.id,
            at: e.at,
            level: e.level,
            kind: e.kind,
            message: e.message,
            method: e.method,
            path: e.path,
            status: e.status,
            duration_ms: e.durationMs,
            request_id: e.requestId,
            operation: e.operation,
            detail: e.detail,
          })),
        };
      },
      'sync-log:copy-diagnostics': (input) => {
        const text = this.diagnostics(input?.account_id);
        const write = this.options.writeClipboard;
        if (write) write(text);
        return { text, copied: write !== undefined };
      },
      'sync:accounts': () => this.accountsView(),
      'sync:pause': async () => {
        await this.pause();
        return { paused: true };
      },
      'sync:resume': () => {
        this.resume();
        return { paused: false };
      },
      'notification-settings:get': () => this.options.settings.get(),
      'notification-settings:set': (patch) => {
        try {
          return this.options.settings.update(patch);
        } catch {
          throw new IpcHandlerError('invalid-settings', 'These notification settings cannot be saved.');
        }
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stop();
    if (this.trayTimer) clearTimeout(this.trayTimer);
    for (const w of this.watched.values()) {
      w.stopApi?.();
      w.log.close();
    }
    this.watched.clear();
  }

  // ---- internals ------------------------------------------------------------------

  /** Opens logs and notifiers for new accounts, follows session changes, closes what left. */
  private refreshAccounts(): void {
    if (this.closed) return;
    const listed = new Set(this.options.accounts.list().map((a) => a.id));
    for (const [id, w] of this.watched) {
      if (listed.has(id)) continue;
      w.stopApi?.();
      w.log.close();
      this.watched.delete(id);
    }
    for (const id of listed) {
      let runtime: Runtime;
      try {
        runtime = this.options.accounts.runtime(id);
      } catch {
        continue;
      }
      let w = this.watched.get(id);
      if (!w || w.runtime !== runtime) {
        if (w) {
          w.stopApi?.();
          w.log.close();
        }
        w = this.watch(runtime);
        this.watched.set(id, w);
      }
      const api = runtime.session?.api ?? null;
      if (api !== w.api) {
        w.stopApi?.();
        w.api = api;
        w.stopApi = api === null ? null : recordSyncActivity(w.log, { api });
        if (api === null) w.sync = { ...w.sync, connection: 'unknown' };
      }
    }
    this.scheduleTray();
  }

  private watch(runtime: Runtime): Watched {
    const identity = runtime.record.identity;
    const log = new SyncLog(syncLogFileFor(runtime.mirror.file), {
      ...(this.options.logRows !== undefined ? { maxRows: this.options.logRows } : {}),
      ...(this.options.nativeBinding !== undefined ? { nativeBinding: this.options.nativeBinding } : {}),
    });
    const notifier = new Notifier({
      accountId: runtime.id,
      me: { username: identity.username, user_id: identity.user_id },
      mirror: runtime.mirror,
      settings: () => this.options.settings.get(),
      display: (batch) => this.options.display(batch),
      ...(this.options.now ? { now: this.options.now } : {}),
      ...(this.options.utcOffsetMinutes ? { utcOffsetMinutes: this.options.utcOffsetMinutes } : {}),
    });
    return {
      runtime,
      log,
      notifier,
      api: null,
      stopApi: null,
      sync: initialAccountSyncState(null),
    };
  }

  private syncEvent(accountId: string, event: SyncEvent): void {
    const w = this.watched.get(accountId);
    if (!w) return;
    recordSyncEvent(w.log, event);
    w.notifier.handle(event);
    w.sync = reduceAccountSync(w.sync, event, {
      nowMs: this.options.now?.() ?? Date.now(),
      firstSyncPending: () => w.runtime.mirror.passState('tasks')?.completedAt == null,
    });
    // Progress and poll plans change nothing the tray shows.
    if (event.type !== 'progress' && event.type !== 'poll-scheduled') this.scheduleTray();
  }

  private scheduleTray(): void {
    if (this.closed || this.trayTimer) return;
    this.trayTimer = setTimeout(() => {
      this.trayTimer = null;
      if (!this.closed) this.options.trayChanged(this.tray());
    }, this.options.trayDelayMs ?? 300);
  }
}

/** The organization's name as mirrored, else its id (null without one). */
function organizationName(mirror: Mirror, orgId: string | null): string | null {
  if (orgId === null) return null;
  const name = mirror.resources('organizations').find((o) => o.org_id === orgId)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : orgId;
}
