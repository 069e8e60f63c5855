// Turns each account's sync events into what the screens show: its status
// (online or offline and why, syncing, last synced, pending, conflict and
// refused counts, first-sync progress, read-only, signed out, collections the
// last full sync could not sync) and
// `mirror:changed` notes so lists reload what changed. No Electron here.
import { UNSETTLED_STATES } from '../../db/task-overlay';
import type { OutboxOp, OutboxState } from '../../db/outbox';
import type { PassState } from '../../db/sync-passes';
import type { CollectionFailure, SyncErrorInfo, SyncEvent } from '../../sync/engine/sync-events';
import type { MirrorChanged, SyncStatus, UnsyncedCollection } from './screen-schemas';

/** What the board reads of a mirror (db/'s Mirror has it). */
export interface StatusMirror {
  outboxOps(states?: readonly OutboxState[]): OutboxOp[];
  passState(collection: 'tasks', scope?: string): PassState | null;
}

export interface StatusAccount {
  readonly accountId: string;
  readonly mirror: StatusMirror;
  readonly signedIn: boolean;
  readonly readOnly: boolean;
}

export interface SyncStatusBoardOptions {
  readonly emitStatus: (status: SyncStatus) => void;
  readonly emitChanged: (change: MirrorChanged) => void;
  readonly now?: () => Date;
  /** Progress and pulled pages are told at most this often (ms). */
  readonly throttleMs?: number;
  /** Whether the person paused syncing (AccountVisibility decides; default never). */
  readonly paused?: () => boolean;
}

interface AccountSyncState {
  connection: SyncStatus['connection'];
  problem: SyncStatus['problem'];
  syncing: boolean;
  lastSyncedAt: string | null;
  firstSync: SyncStatus['first_sync'];
  /** The sync in progress is a full one (its summary replaces `unsynced`). */
  fullSync: boolean;
  unsynced: UnsyncedCollection[];
  /** Collections a pull wrote since the last note to the screens. */
  pulled: Set<string>;
  pulledTimer: ReturnType<typeof setTimeout> | null;
  statusTimer: ReturnType<typeof setTimeout> | null;
}

/** Collections a sync event's `collection` maps to in the mirror (`me` is not one). */
function mirrorCollection(collection: string): string | null {
  return collection === 'me' ? null : collection;
}

export class SyncStatusBoard {
  private readonly states = new Map<string, AccountSyncState>();
  private readonly now: () => Date;
  private readonly throttleMs: number;

  constructor(private readonly options: SyncStatusBoardOptions) {
    this.now = options.now ?? (() => new Date());
    this.throttleMs = options.throttleMs ?? 250;
  }

  private state(account: StatusAccount): AccountSyncState {
    let state = this.states.get(account.accountId);
    if (!state) {
      const tasks = account.mirror.passState('tasks');
      state = {
        connection: 'unknown',
        problem: null,
        syncing: false,
        lastSyncedAt: tasks?.completedAt ?? null,
        firstSync: null,
        fullSync: false,
        unsynced: [],
        pulled: new Set(),
        pulledTimer: null,
        statusTimer: null,
      };
      this.states.set(account.accountId, state);
    }
    return state;
  }

  /** The account's status now. */
  status(account: StatusAccount): SyncStatus {
    const state = this.state(account);
    const ops = account.mirror.outboxOps(UNSETTLED_STATES);
    const count = (states: readonly string[]) => ops.filter((op) => states.includes(op.state)).length;
    return {
      account_id: account.accountId,
      connection: account.signedIn ? state.connection : 'offline',
      problem: state.problem,
      syncing: state.syncing,
      last_synced_at: state.lastSyncedAt,
      pending_count: count(['queued', 'in_flight']),
      conflict_count: count(['conflict']),
      failed_count: count(['failed', 'blocked']),
      first_sync: state.firstSync,
      read_only: account.readOnly,
      signed_out: !account.signedIn,
      paused: this.options.paused?.() ?? false,
      unsynced: state.unsynced,
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

  /** One sync event of the account. */
  onSyncEvent(account: StatusAccount, event: SyncEvent): void {
    const state = this.state(account);
    switch (event.type) {
      case 'sync-started': {
        state.syncing = true;
        state.fullSync = event.tier === 'full';
        const tasks = account.mirror.passState('tasks');
        if (tasks === null || tasks.completedAt === null) {
          state.firstSync = { collection: 'organizations', items_done: 0, estimated_total: null };
        }
        this.announce(account);
        break;
      }
      case 'progress': {
        const collection = mirrorCollection(event.collection);
        if (collection !== null) this.pulledInto(account, collection);
        if (state.firstSync !== null) {
          state.firstSync = {
            collection: event.collection,
            items_done: event.itemsDone,
            estimated_total: event.estimatedTotal,
          };
          this.announceSoon(account);
        }
        break;
      }
      case 'sync-finished':
        state.syncing = false;
        state.connection = 'online';
        state.problem = null;
        // Hot and new pulls do not visit every collection: only a full one says what is unsynced.
        if (state.fullSync) state.unsynced = event.summary.failed_collections.map(unsyncedOf);
        state.lastSyncedAt = this.now().toISOString();
        if (state.firstSync !== null || event.summary.changes > 0 || event.summary.pulled > 0) {
          this.changed(account, {
            collections: [
              'tasks',
              'projects',
              'teams',
              'sprints',
              'goals',
              'sections',
              'organization_members',
            ],
            task_ids: null,
            remapped: [],
          });
        }
        state.firstSync = null;
        this.announce(account);
        break;
      case 'sync-failed':
        state.syncing = false;
        state.problem = this.problemOf(event.error);
        // Rate-limited: nothing goes out until the time the service named, as good as offline.
        if (event.error.kind === 'network' || event.error.type === 'rate-limit') state.connection = 'offline';
        this.announce(account);
        break;
      case 'online':
        state.connection = 'online';
        state.problem = null;
        this.announce(account);
        break;
      case 'offline':
        state.connection = 'offline';
        state.problem = this.problemOf(event.error);
        this.announce(account);
        break;
      case 'rate-limited':
        // The client waits on its own; the person sees why nothing moves, and until when.
        state.connection = 'offline';
        state.problem = this.problemOf({
          kind: 'problem',
          type: 'rate-limit',
          status: 429,
          operation: null,
          message: 'The service asked the app to slow down.',
          retryAfterSeconds: event.retryAfterSeconds,
        });
        this.announce(account);
        break;
      case 'rate-limit-lifted':
        if (state.problem?.type === 'rate-limit') {
          state.connection = 'online';
          state.problem = null;
          this.announce(account);
        }
        break;
      case 'signed-out':
        state.syncing = false;
        state.problem = {
          kind: 'signed-out',
          type: event.reason,
          message: 'The service no longer accepts this sign-in.',
          retry_at: null,
        };
        this.announce(account);
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
        state.connection = 'online';
        this.changed(account, {
          collections: ['tasks'],
          task_ids: [...new Set([event.entityId, event.serverId])],
          remapped: [],
        });
        this.announce(account);
        break;
      case 'id-remapped':
        this.changed(account, {
          collections: ['tasks'],
          task_ids: [event.from, event.to],
          remapped: [{ from: event.from, to: event.to }],
        });
        break;
      case 'conflict':
      case 'push-failed':
        this.changed(account, { collections: ['tasks'], task_ids: [event.entityId], remapped: [] });
        this.announce(account);
        break;
      case 'read-only':
        this.changed(account, { collections: ['tasks'], task_ids: null, remapped: [] });
        this.announce(account);
        break;
      case 'poll-scheduled':
        break;
    }
  }

  /** What the screens show of a failure; a Retry-After becomes the time to try again. */
  private problemOf(error: SyncErrorInfo): NonNullable<SyncStatus['problem']> {
    const wait = error.retryAfterSeconds ?? null;
    return {
      kind: error.kind,
      type: error.type,
      message: error.message,
      retry_at: wait === null ? null : new Date(this.now().getTime() + wait * 1000).toISOString(),
    };
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

function unsyncedOf(failure: CollectionFailure): UnsyncedCollection {
  return {
    collection: failure.collection,
    scope: failure.scope,
    skipped_because: failure.skippedBecause,
    kind: failure.error.kind,
    type: failure.error.type,
    status: failure.error.status,
    message: failure.error.message,
  };
}
