// The pusher's port onto the SQLite mirror: each call is one of the mirror's
// transactions, so every step of a push is durable before the next begins.
import type { Mirror } from '../../db/mirror';
import type { OutboxOp } from '../../db/outbox';
import { writeWhenFree } from '../../db/write-when-free';
import type { PusherDeps } from '../engine/sync-parts';
import type { FieldValues, PushOp, PushStore } from './push-store';
import { Pusher, type PusherOptions } from './pusher';

function pushOpOf(op: OutboxOp): PushOp {
  return {
    seq: op.seq,
    opId: op.opId,
    entityType: op.entityType,
    entityId: op.entityId,
    parentId: op.parentId,
    kind: op.kind,
    patch: op.patch as FieldValues,
    baseEtag: op.baseEtag,
    baseValues: op.baseValues as FieldValues,
    state: op.state,
    attempts: op.attempts,
  };
}

export function mirrorPushStore(mirror: Mirror): PushStore {
  // The mirror is synchronous (better-sqlite3); each call is a short transaction.
  // Writes wait for the pull worker's write lock on a timer, not in SQLite's
  // busy handler: the pusher runs on the app's main thread.
  const write = <T>(work: () => T): Promise<T> => writeWhenFree(mirror, work);
  return {
    orgId: () => Promise.resolve(mirror.identity.account().orgId),
    ready: (limit) => Promise.resolve(mirror.outbox.ready(limit).map(pushOpOf)),
    start: (opId) => write(() => pushOpOf(mirror.outbox.start(opId))),
    unstart: (op) => write(() => mirror.outbox.unstart(op.opId, { state: op.state, attempts: op.attempts })),
    settle: (opId, answer) => write(() => mirror.outbox.settle(opId, answer)),
    landServerCopy: async (op, server) => {
      // A task's copy goes through the task list's page application (its columns and word index);
      // other kinds land where their kind says (db/outbox-kinds/).
      if (op.entityType === 'task') await write(() => mirror.tasks.applyServerCopy(server.task, server.etag));
      else await write(() => mirror.outbox.landServerCopy(op.opId, server));
    },
    rebase: (opId, rebase) => write(() => mirror.outbox.rebase(opId, rebase)),
    conflict: async (opId, conflict) => {
      await write(() => mirror.outbox.conflict(opId, conflict));
    },
    holdDelete: (opId, theirsEtag, problem) =>
      write(() => mirror.outbox.holdDelete(opId, theirsEtag, problem)),
    fail: (opId, state, problem) => write(() => mirror.outbox.fail(opId, state, problem)),
    unblockAll: () => write(() => mirror.outbox.unblockAll()),
    openConflictCount: () => Promise.resolve(mirror.outbox.openConflictCount()),
  };
}

/** The pusher over a mirror, in the shape the sync engine's `createPusher` takes. */
export function createMirrorPusher(
  deps: PusherDeps<Mirror>,
  options: Omit<PusherOptions, 'store' | 'api' | 'clock' | 'onEvent'> = {},
): Pusher {
  return new Pusher({
    ...options,
    store: mirrorPushStore(deps.mirror),
    api: deps.api,
    clock: deps.clock,
    onEvent: deps.onEvent,
  });
}
