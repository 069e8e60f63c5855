// An account's sync status as its sync events leave it: connection and why
// offline (rate-limited included), syncing, last synced, first-sync progress and
// what the last full sync could not sync or left out. One pure reducer; the
// status bar, the tray and the Sync screen's account panel are views of what it returns.
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

/**
 * An item of a list (or a whole single answer) a sync left out because it
 * broke the contract: its previous copy is kept. `id` null when it named none
 * it could be read by; `field` `(answer)` for a whole answer.
 */
export interface LeftOutItem {
  readonly collection: string;
  readonly id: string | null;
  readonly field: string;
  readonly reason: string;
}

/** Items left out that the status keeps by name; past it only counted (a hostile page may hold thousands). */
export const MAX_LEFT_OUT_NAMED = 50;

/** What was left out: the first MAX_LEFT_OUT_NAMED by name, and how many more. */
export interface LeftOut {
  readonly items: readonly LeftOutItem[];
  readonly more: number;
}

const NOTHING_LEFT_OUT: LeftOut = { items: [], more: 0 };

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
  /** What the last full sync left out, and what syncs since (or a task's own read) left out too. */
  readonly leftOut: LeftOut;
  /** What the sync in progress has left out so far: `leftOut` when it finishes. */
  readonly leftOutNow: LeftOut;
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
    leftOut: NOTHING_LEFT_OUT,
    leftOutNow: NOTHING_LEFT_OUT,
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
        leftOutNow: NOTHING_LEFT_OUT,
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
        // Hot and new pulls do not visit every collection: only a full one says what is unsynced,
        // or that an item left out before came whole this time.
        unsynced: state.fullSync ? event.summary.failed_collections : state.unsynced,
        leftOut: state.fullSync ? state.leftOutNow : withLeftOut(state.leftOut, state.leftOutNow),
        leftOutNow: NOTHING_LEFT_OUT,
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
            message:
              event.cause === 'budget'
                ? 'This minute’s share of the service’s requests is spent: sending goes on when the next begins.'
                : 'The service asked the app to slow down.',
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
    case 'item-skipped':
    case 'resource-skipped': {
      const item: LeftOutItem =
        event.type === 'item-skipped'
          ? { collection: event.collection, id: event.id, field: event.field, reason: event.reason }
          : {
              collection: event.collection,
              id: event.scope === '' ? null : event.scope,
              field: '(answer)',
              reason: event.error.message,
            };
      const one: LeftOut = { items: [item], more: 0 };
      // Outside a sync (a task opened and read on its own), it is left out now.
      return state.syncing
        ? { ...state, leftOutNow: withLeftOut(state.leftOutNow, one) }
        : { ...state, leftOut: withLeftOut(state.leftOut, one) };
    }
    default:
      return state;
  }
}

/** `into` with `added`'s items it does not name yet (same collection, id and field), the rest counted. */
function withLeftOut(into: LeftOut, added: LeftOut): LeftOut {
  if (added.items.length === 0 && added.more === 0) return into;
  const items = [...into.items];
  let more = into.more + added.more;
  for (const item of added.items) {
    const known = items.some(
      (seen) => seen.collection === item.collection && seen.id === item.id && seen.field === item.field,
    );
    if (known) continue;
    if (items.length < MAX_LEFT_OUT_NAMED) items.push(item);
    else more += 1;
  }
  return { items, more };
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
