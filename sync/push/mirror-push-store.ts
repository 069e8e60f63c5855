// The pusher's port onto the SQLite mirror: each call is one of the mirror's
// transactions, so every step of a push is durable before the next begins.
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import type { Mirror } from '../../db/mirror';
import { NotInMirrorError } from '../../db/mirror-errors';
import { type OutboxOp, sameJson } from '../../db/outbox/outbox-types';
import { writeWhenFree } from '../../db/write-when-free';
import type { PusherDeps } from '../events/sync-parts';
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
  // busy handler: the pusher runs on the app's main thread. Each is on disk
  // before the next step (an operation is durably in flight before its
  // request leaves), its log flushed off this thread (writeWhenFree).
  const write = <T>(work: () => T): Promise<T> => writeWhenFree(mirror, work);
  const stored = (opId: string): OutboxOp | null => {
    try {
      return mirror.outbox.op(opId);
    } catch (error) {
      if (error instanceof NotInMirrorError) return null;
      throw error;
    }
  };
  // Read in the same transaction as the write it guards: nothing can fold in between.
  const stillAsRead = (from: PushOp): boolean => {
    const now = stored(from.opId);
    return (
      now !== null &&
      now.state === from.state &&
      now.baseEtag === from.baseEtag &&
      sameJson(now.patch, from.patch) &&
      sameJson(now.baseValues, from.baseValues)
    );
  };
  const files = AttachmentFiles.beside(mirror.file);
  return {
    orgId: () => Promise.resolve(mirror.identity.account().orgId),
    contentOf: (sha256) => Promise.resolve(files.read(sha256)),
    ready: (limit) => Promise.resolve(mirror.outbox.ready(limit).map(pushOpOf)),
    current: (opId) => {
      const op = stored(opId);
      const sendable = op !== null && (op.state === 'queued' || op.state === 'in_flight');
      return Promise.resolve(sendable ? pushOpOf(op) : null);
    },
    start: async (opId) => {
      // Pushing a bulk change is tens of thousands of commits on this connection, which never
      // checkpoints: one look at the log's size an operation (Mirror.keepLogShort).
      await mirror.keepLogShort();
      return write(() => (stored(opId) === null ? null : pushOpOf(mirror.outbox.start(opId))));
    },
    unstart: (op) => write(() => mirror.outbox.unstart(op.opId, { state: op.state, attempts: op.attempts })),
    settle: (opId, answer) => write(() => mirror.outbox.settle(opId, answer)),
    landServerCopy: async (op, server) => {
      // A task's copy goes through the task list's page application (its columns and word index);
      // other kinds land where their kind says (db/outbox/kinds/).
      if (op.entityType === 'task') await write(() => mirror.tasks.applyServerCopy(server.task, server.etag));
      // (an operation the person discarded while it was read has no row left to tell where).
      else
        await write(() => {
          if (stored(op.opId) !== null) mirror.outbox.landServerCopy(op.opId, server);
        });
    },
    rebase: (opId, rebase, from) =>
      write(() => (stillAsRead(from) ? mirror.outbox.rebase(opId, rebase) : null)),
    conflict: (opId, conflict, from) =>
      write(() => {
        if (from !== undefined && !stillAsRead(from)) return false;
        mirror.outbox.conflict(opId, conflict);
        return true;
      }),
    holdDelete: (opId, theirs, problem) =>
      write(() => mirror.outbox.holdDelete(opId, theirs.etag, problem, theirs.task)),
    leaveOut: (opId, fields) =>
      write(() => {
        const again = mirror.outbox.leaveOutOfRecreate(opId, fields);
        return again === null ? null : pushOpOf(again);
      }),
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
