// One account as the app's visibility follows it: its sync log file (fed by its
// API client and engine events), its notifier, and its status as the sync
// events left it (the runtime's, sync/accounts/account-status.ts). Opened and closed by
// AccountVisibility as accounts come, sign in and go.
import type { Mirror } from '../../db/mirror';
import { referenceNames } from '../../db/read-models/referenced-names';
import type { ApiClient } from '../../sync/api/api-client';
import type { AccountSyncState } from '../../sync/accounts/account-status';
import type { AccountRuntime } from '../../sync/accounts/account-runtime';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import type { SyncErrorInfo, SyncEvent } from '../../sync/events/sync-events';
import { Notifier, type NotifierOptions } from '../../services/notify/notifier';
import { SyncLog, syncLogFileFor } from '../../sync/sync-log/sync-log';
import { recordSyncActivity, recordSyncEvent } from '../../sync/sync-log/sync-log-recorder';

export type VisibleRuntime = AccountRuntime<Mirror, SyncEngine>;

/** What its notifier is given as it is (the rest of the notifier's options come from the account). */
type PassedToNotifier = Pick<NotifierOptions, 'settings' | 'display' | 'now' | 'utcOffsetMinutes'>;

export interface WatchedAccountOptions extends PassedToNotifier {
  /** Rows kept per account log. */
  logRows?: number;
  /** better-sqlite3 addon for Electron (main/native/sqlite-addon.ts). */
  nativeBinding?: string;
  /** The live set of known secrets (every account's tokens, current and previous): redacted by value. */
  secrets: () => readonly string[];
}

export class WatchedAccount {
  readonly log: SyncLog;
  readonly notifier: Notifier;
  private api: ApiClient | null = null;
  private stopApi: (() => void) | null = null;

  constructor(
    readonly runtime: VisibleRuntime,
    private readonly options: WatchedAccountOptions,
  ) {
    const identity = runtime.record.identity;
    this.log = new SyncLog(syncLogFileFor(runtime.mirror.file), {
      secrets: options.secrets,
      ...(options.logRows !== undefined ? { maxRows: options.logRows } : {}),
      ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    });
    this.notifier = new Notifier({
      accountId: runtime.id,
      me: { username: identity.username, user_id: identity.user_id },
      mirror: runtime.mirror,
      settings: options.settings,
      display: options.display,
      names: () => referenceNames(runtime.mirror),
      ...(options.now ? { now: options.now } : {}),
      ...(options.utcOffsetMinutes ? { utcOffsetMinutes: options.utcOffsetMinutes } : {}),
    });
  }

  /** The secrets its log and diagnostics redact by value, as known now. */
  secrets(): readonly string[] {
    return this.options.secrets();
  }

  /** The account's status as its sync events left it: the runtime's, the one every view reads. */
  get sync(): AccountSyncState {
    return this.runtime.sync;
  }

  /** Logs the requests of the session's API client (a new one after each sign-in); none while signed out. */
  followSession(): void {
    const api = this.runtime.session?.api ?? null;
    if (api === this.api) return;
    this.stopApi?.();
    this.api = api;
    this.stopApi = api === null ? null : recordSyncActivity(this.log, { api });
  }

  /** One engine event: logged, and shown as a notification when it calls for one (the runtime keeps the status). */
  syncEvent(event: SyncEvent): void {
    recordSyncEvent(this.log, event);
    this.notifier.handle(event);
  }

  /** Pushing the queued edits after a sign-in failed: only the log tells it (the edits stay queued). */
  pushFailed(error: SyncErrorInfo): void {
    this.log.add({
      level: 'error',
      kind: 'push',
      message: `pushing queued edits failed: ${error.message}`,
      detail: { error_kind: error.kind, problem_type: error.type },
    });
  }

  close(): void {
    this.stopApi?.();
    this.log.close();
  }
}
