// Turns each account's sync events into what the screens show: its status
// (online or offline and why, syncing, last synced, pending, conflict and
// refused counts, first-sync progress, read-only, signed out, collections the
// last full sync could not sync, items it left out) and
// `mirror:changed` notes so lists reload what changed, and uploads' progress
// as the pusher paced it. No Electron here.
import type { OutboxCountSource } from '../../db/outbox/outbox-counts';
import { collectionOfEntity } from '../../protocol/writable-kinds';
import type { PassState } from '../../db/passes/sync-passes';
import type { AccountSyncState } from '../../sync/accounts/account-status';
import { collectionFailureLine, type SyncEvent } from '../../sync/events/sync-events';
import type { AttachmentUploadProgress } from '../../ipc/attachment-schemas';
import type { MirrorChanged, SyncProblem, SyncStatus } from '../../ipc/screen-schemas';

/** What the board reads of a mirror (db/'s Mirror has it). */
export interface StatusMirror extends OutboxCountSource {
  readonly passes: { state(collection: 'tasks', scope?: string): PassState | null };
}

export interface StatusAccount {
  readonly accountId: string;
  readonly mirror: StatusMirror;
  readonly signedIn: boolean;
  readonly readOnly: boolean;
  /** The account's status as its sync events left it (AccountRuntime.sync): the board shows it, never derives it. */
  readonly sync: AccountSyncState;
}

export interface SyncStatusBoardOptions {
  readonly emitStatus: (status: SyncStatus) => void;
  readonly emitChanged: (change: MirrorChanged) => void;
  /** An attachment's upload on its way (already paced by the pusher); none: not told. */
  readonly emitUploadProgress?: (progress: AttachmentUploadProgress) => void;
  /** Progress and pulled pages are told at most this often (ms). */
  readonly throttleMs?: number;
  /** Whether the person paused syncing (AccountVisibility decides; default never). */
  readonly paused?: () => boolean;
}

interface BoardAccount {
  /** The status the board last saw, to tell what an event changed. */
  seen: AccountSyncState;
  /** Collections a pull wrote since the last note to the screens. */
  pulled: Set<string>;
  pulledTimer: ReturnType<typeof setTimeout> | null;
  /**
   * Collections a later pull wrote pages into: its `changes` event tells what they changed when it
   * ends, so they are told as such only if it fails before that.
   */
  pulledUntold: Set<string>;
  statusTimer: ReturnType<typeof setTimeout> | null;
}

/** Collections a sync event's `collection` maps to in the mirror (`me` is not one). */
function mirrorCollection(collection: string): string | null {
  return collection === 'me' ? null : collection;
}

/**
 * What a push of one kind changed for the screens: a task's ids, or another
 * kind's collection (a comment's task is not known here: any task may refresh).
 * Tasks name sections, sprints, goals and milestones: a new id replacing a
 * temporary one in their fields, or a delete unfiling them, changes task rows too.
 */
function changedKind(
  entityType: string,
  ids: readonly string[],
): { collections: string[]; task_ids: string[] | null } {
  if (entityType === 'task') return { collections: ['tasks'], task_ids: [...new Set(ids)] };
  if (entityType === 'comment') return { collections: ['task_comments'], task_ids: null };
  return { collections: [collectionOfEntity(entityType), 'tasks'], task_ids: null };
}

export class SyncStatusBoard {
  private readonly states = new Map<string, BoardAccount>();
  private readonly throttleMs: number;

  constructor(private readonly options: SyncStatusBoardOptions) {
    this.throttleMs = options.throttleMs ?? 250;
  }

  private state(account: StatusAccount): BoardAccount {
    let state = this.states.get(account.accountId);
    if (!state) {
      state = {
        seen: account.sync,
        pulled: new Set(),
        pulledTimer: null,
        pulledUntold: new Set(),
        statusTimer: null,
      };
      this.states.set(account.accountId, state);
    }
    return state;
  }

  /** The account's status now. */
  status(account: StatusAccount): SyncStatus {
    const { sync } = account;
    const counts = account.mirror.outbox.counts();
    return {
      account_id: account.accountId,
      connection: account.signedIn ? sync.connection : 'offline',
      problem: syncProblemView(sync.problem),
      syncing: sync.syncing,
      last_synced_at: sync.lastSyncedAt,
      pending_count: counts.pending,
      conflict_count: counts.conflicts,
      failed_count: counts.failed,
      blocked_count: counts.blocked,
      first_sync:
        sync.firstSync === null
          ? null
          : {
              collection: sync.firstSync.collection,
              items_done: sync.firstSync.itemsDone,
              estimated_total: sync.firstSync.estimatedTotal,
            },
      read_only: account.readOnly,
      signed_out: !account.signedIn,
      paused: this.options.paused?.() ?? false,
      unsynced: sync.unsynced.map(collectionFailureLine),
      left_out: { items: [...sync.leftOut.items], more: sync.leftOut.more },
    };
  }

  /** Tells the screens the account's status now (e.g. after a local edit changed the pending count). */
  announce(account: StatusAccount): void {
    const state = this.state(account);
    if (state.statusTimer !== null) {
      clearTimeout(state.statusTimer);
      state.statusTimer = null;
    }
    this.options.emitStatus(this.status(account));
  }

  private announceSoon(account: StatusAccount): void {
    const state = this.state(account);
    if (state.statusTimer !== null) return;
    state.statusTimer = setTimeout(() => {
      state.statusTimer = null;
      this.options.emitStatus(this.status(account));
    }, this.throttleMs);
  }

  private changed(account: StatusAccount, change: Omit<MirrorChanged, 'account_id'>): void {
    this.options.emitChanged({ account_id: account.accountId, ...change });
  }

  /** A pull wrote pages: tell the screens, at most every `throttleMs`, so lists fill during a first sync. */
  private pulledInto(account: StatusAccount, collection: string): void {
    const state = this.state(account);
    state.pulled.add(collection);
    if (state.pulledTimer !== null) return;
    state.pulledTimer = setTimeout(() => {
      state.pulledTimer = null;
      const collections = [...state.pulled];
      state.pulled.clear();
      if (collections.length > 0) this.changed(account, { collections, task_ids: null, remapped: [] });
    }, this.throttleMs);
  }

  /** One sync event of the account: its status follows the reducer; the screens hear what changed. */
  onSyncEvent(account: StatusAccount, event: SyncEvent): void {
    const state = this.state(account);
    const previous = state.seen;
    state.seen = account.sync;
    switch (event.type) {
      case 'progress': {
        // Only a first sync's pages are news as such: a later pull's are told by its `changes`.
        const collection = mirrorCollection(event.collection);
        if (collection !== null && account.sync.firstSync !== null) this.pulledInto(account, collection);
        else if (collection !== null && event.pagesDone > event.notModified)
          state.pulledUntold.add(collection);
        if (account.sync.firstSync !== null) this.announceSoon(account);
        break;
      }
      case 'sync-finished':
        // A pull that received pages but changed nothing is no change: at a million tasks each such
        // poll had the screens recount the list and rescan every task's tags, seconds of main's CPU.
        // What a push settled is told by its own events (pushed, id-remapped, merged, conflict, …).
        state.pulledUntold.clear();
        if (previous.firstSync !== null || event.summary.changes > 0) {
          this.changed(account, {
            collections: [
              'tasks',
              'projects',
              'teams',
              'sprints',
              'goals',
              'milestones',
              'sections',
              'organization_members',
            ],
            task_ids: null,
            remapped: [],
          });
        }
        this.announce(account);
        break;
      case 'rate-limit-lifted':
      case 'connection-back':
        if (account.sync !== previous) this.announce(account);
        break;
      case 'changes': {
        const collections = [
          ...new Set(event.changes.map((c) => mirrorCollection(c.collection)).filter((c) => c !== null)),
        ];
        const taskIds = event.changes.filter((c) => c.collection === 'tasks').map((c) => c.id);
        this.changed(account, {
          collections,
          task_ids: taskIds.length > 500 || collections.some((c) => c !== 'tasks') ? null : taskIds,
          remapped: [],
        });
        break;
      }
      case 'pushed':
        this.changed(account, {
          ...changedKind(event.entityType, [event.entityId, event.serverId]),
          remapped: [],
        });
        // The pending count follows soon, once for a burst: a bulk change pushes thousands of edits,
        // and each status counts the outbox (at 50 000 waiting, ~3-6 ms of main's CPU a count).
        this.announceSoon(account);
        break;
      case 'merged':
        // The server's side of the fields it took is in the mirror now, whatever the resend does next.
        this.changed(account, { ...changedKind(event.entityType, [event.entityId]), remapped: [] });
        break;
      case 'id-remapped':
        this.changed(account, {
          ...changedKind(event.entityType, [event.from, event.to]),
          remapped: [{ from: event.from, to: event.to }],
        });
        break;
      case 'conflict':
      case 'push-failed':
      case 'left-out':
        this.changed(account, { ...changedKind(event.entityType, [event.entityId]), remapped: [] });
        this.announce(account);
        break;
      case 'read-only':
        this.changed(account, { collections: ['tasks'], task_ids: null, remapped: [] });
        this.announce(account);
        break;
      case 'blocked':
        // Its row's mark turns to blocked; the counts follow with the status (soon: a bulk edit blocks thousands).
        this.changed(account, { ...changedKind(event.entityType, [event.entityId]), remapped: [] });
        this.announceSoon(account);
        break;
      case 'sync-failed':
        // Its pages are in the mirror, but the changes event of its end never came.
        if (state.pulledUntold.size > 0) {
          this.changed(account, { collections: [...state.pulledUntold], task_ids: null, remapped: [] });
          state.pulledUntold.clear();
        }
        this.announce(account);
        break;
      case 'sync-started':
      case 'online':
      case 'offline':
      case 'rate-limited':
      case 'connection-lost':
      case 'signed-out':
        this.announce(account);
        break;
      case 'resource-skipped':
      case 'item-skipped':
        // The account's status now names it (account-status.ts): the Sync screen shows it.
        this.announceSoon(account);
        break;
      case 'upload-progress':
        if (event.entityType === 'attachment') {
          this.options.emitUploadProgress?.({
            account_id: account.accountId,
            attachment_id: event.entityId,
            op_id: event.opId,
            sent_bytes: event.sentBytes,
            total_bytes: event.totalBytes,
          });
        }
        break;
      case 'poll-scheduled':
        break;
    }
  }

  /** Stops the timers of an account (signed out or closed). */
  forget(accountId: string): void {
    const state = this.states.get(accountId);
    if (!state) return;
    if (state.pulledTimer !== null) clearTimeout(state.pulledTimer);
    if (state.statusTimer !== null) clearTimeout(state.statusTimer);
    this.states.delete(accountId);
  }

  close(): void {
    for (const accountId of [...this.states.keys()]) this.forget(accountId);
  }
}

/** What the screens show of an account's sync problem (the status bar, the tray's panel alike). */
export function syncProblemView(problem: AccountSyncState['problem']): SyncProblem | null {
  return problem === null
    ? null
    : { kind: problem.kind, type: problem.type, message: problem.message, retry_at: problem.retryAt };
}
