// An account's sync status as its sync events leave it: connection and why
// offline (rate-limited included), syncing, last synced, first-sync progress and
// what the last full sync could not sync. One pure reducer; the status bar, the
// tray and the Sync screen's account panel are views of what it returns.
import type { CollectionFailure, SyncErrorInfo, SyncEvent } from '../events/sync-events';

/** What went wrong for an account; `retryAt` (ISO 8601) is when the service said to try again. */
export interface AccountSyncProblem {
  kind: string;
  type: string | null;
  message: string;
  retryAt: string | null;
}

export interface FirstSyncProgress {
  collection: string;
  itemsDone: number;
  estimatedTotal: number | null;
}

export interface AccountSyncState {
  readonly connection: 'online' | 'offline' | 'unknown';
  readonly problem: AccountSyncProblem | null;
  readonly syncing: boolean;
  readonly lastSyncedAt: string | null;
  /** While the account's first full sync runs: what it fetches and how far it got. */
  readonly firstSync: FirstSyncProgress | null;
  /** The sync in progress is a full one (its summary replaces `unsynced`). */
  readonly fullSync: boolean;
  /** What the last full sync could not sync. */
  readonly unsynced: readonly CollectionFailure[];
}

/** What the reducer needs besides the event: the time, and whether the task list ever completed. */
export interface AccountSyncContext {
  readonly nowMs: number;
  /** Read at `sync-started` only: the first sync is first until the task list completed once. */
  readonly firstSyncPending: () => boolean;
}

/** Before any event: nothing known but when the mirror last completed its task list. */
export function initialAccountSyncState(lastSyncedAt: string | null): AccountSyncState {
  return {
    connection: 'unknown',
    problem: null,
    syncing: false,
    lastSyncedAt,
    firstSync: null,
    fullSync: false,
    unsynced: [],
  };
}

/** The status after one sync event; the same object when the event changes nothing of it. */
export function reduceAccountSync(
  state: AccountSyncState,
  event: SyncEvent,
  context: AccountSyncContext,
): AccountSyncState {
  switch (event.type) {
    case 'sync-started':
      return {
        ...state,
        syncing: true,
        fullSync: event.tier === 'full',
        firstSync: context.firstSyncPending()
          ? { collection: 'organizations', itemsDone: 0, estimatedTotal: null }
          : state.firstSync,
      };
    case 'progress':
      if (state.firstSync === null) return state;
      return {
        ...state,
        firstSync: {
          collection: event.collection,
          itemsDone: event.itemsDone,
          estimatedTotal: event.estimatedTotal,
        },
      };
    case 'sync-finished':
      return {
        ...state,
        syncing: false,
        connection: 'online',
        problem: null,
        // Hot and new pulls do not visit every collection: only a full one says what is unsynced.
        unsynced: state.fullSync ? event.summary.failed_collections : state.unsynced,
        lastSyncedAt: new Date(context.nowMs).toISOString(),
        firstSync: null,
      };
    case 'sync-failed':
      return {
        ...state,
        syncing: false,
        problem: problemOf(event.error, context.nowMs),
        // Rate-limited: nothing goes out until the time the service named, as good as offline.
        connection:
          event.error.kind === 'network' || event.error.type === 'rate-limit' ? 'offline' : state.connection,
      };
    case 'online':
      return { ...state, connection: 'online', problem: null };
    case 'offline':
      return { ...state, connection: 'offline', problem: problemOf(event.error, context.nowMs) };
    case 'rate-limited':
      // The client waits on its own; the person sees why nothing moves, and until when.
      return {
        ...state,
        connection: 'offline',
        problem: problemOf(
          {
            kind: 'problem',
            type: 'rate-limit',
            status: 429,
            operation: null,
            message: 'The service asked the app to slow down.',
            retryAfterSeconds: event.retryAfterSeconds,
          },
          context.nowMs,
        ),
      };
    case 'rate-limit-lifted':
      if (state.problem?.type !== 'rate-limit') return state;
      return { ...state, connection: 'online', problem: null };
    case 'connection-lost':
      // The client is still retrying: offline is what the person sees, and why.
      return { ...state, connection: 'offline', problem: problemOf(event.error, context.nowMs) };
    case 'connection-back':
      // Only the loss it ends: a rate limit or a sign-in problem stays as it is.
      if (state.connection !== 'offline' || state.problem?.kind !== 'network') return state;
      return { ...state, connection: 'online', problem: null };
    case 'signed-out':
      return {
        ...state,
        syncing: false,
        connection: 'offline',
        problem: {
          kind: 'signed-out',
          type: event.reason,
          message: 'The service no longer accepts this sign-in.',
          retryAt: null,
        },
      };
    case 'pushed':
      return state.connection === 'online' ? state : { ...state, connection: 'online' };
    default:
      return state;
  }
}

/** A Retry-After becomes the time to try again. */
function problemOf(error: SyncErrorInfo, nowMs: number): AccountSyncProblem {
  const wait = error.retryAfterSeconds ?? null;
  return {
    kind: error.kind,
    type: error.type,
    message: error.message,
    retryAt: wait === null ? null : new Date(nowMs + wait * 1000).toISOString(),
  };
}
