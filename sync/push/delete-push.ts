// A delete sent only against the version the person deleted: one changed on
// the server since (a 412, or a version read for a delete queued without one)
// is held for the person rather than deleting a teammate's work unseen, unless
// only fields the service derives moved. Apart from the pass loop because
// holding is particular to deletes.
import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../api/api-client';
import { ProblemError } from '../api/errors';
import type { SyncEventListener } from '../events/sync-events';
import { pushKindOf } from './kinds/registry';
import type { PassState, PushOutcomes } from './push-outcomes';
import type { PushOp, PushStore, ServerTask } from './push-store';

export class DeletePush {
  constructor(
    private readonly store: PushStore,
    private readonly api: ApiClient,
    private readonly emit: SyncEventListener,
    private readonly outcomes: PushOutcomes,
  ) {}

  async pushDelete(op: PushOp, state: PassState): Promise<string> {
    let current = op;
    if (current.baseEtag === null) {
      try {
        const theirs = await this.outcomes.readServer(op, state);
        await this.store.landServerCopy(op, theirs);
        // Known without a version (a list page's item): what is read now may be a teammate's later
        // work, so it is deleted only when it is what the person deleted (a delete queued before that
        // was recorded carries no values: it goes as before).
        if (Object.keys(op.baseValues).length > 0 && !unchangedSinceDeleted(op, theirs)) {
          await this.holdDelete(op, theirs, state);
          return op.entityId;
        }
        current = { ...current, baseEtag: theirs.etag };
      } catch (error) {
        if (error instanceof ProblemError && error.status === 404) {
          await this.gone(op, state);
          return op.entityId;
        }
        await this.outcomes.failed(op, op, error, state);
        return op.entityId;
      }
    }
    const claimed = await this.store.start(current.opId);
    // Discarded by the person while the task was read: it stays.
    if (!claimed) return op.entityId;
    try {
      await this.remove(claimed, current.baseEtag, state);
      await this.gone(claimed, state);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) {
        // Already gone: what the person wanted.
        await this.gone(claimed, state);
      } else if (error instanceof ProblemError && error.status === 412) {
        await this.heldDelete(claimed, state);
      } else {
        await this.outcomes.failed(claimed, current, error, state);
      }
    }
    return op.entityId;
  }

  /** Sends the delete of `op`'s resource against the version `ifMatch` names. */
  private async remove(op: PushOp, ifMatch: string | null, state: PassState): Promise<void> {
    await pushKindOf(op.entityType).remove(this.api, op, this.outcomes.requestOptions(state, { ifMatch }));
  }

  /** The resource is deleted on the server (by this delete, or already): the operation is done. */
  private async gone(op: PushOp, state: PassState): Promise<void> {
    await this.store.settle(op.opId, null);
    this.outcomes.accepted(state, op, op.entityId);
  }

  /** Someone changed the task after the person deleted it: show them, do not delete their work unseen. */
  private async heldDelete(op: PushOp, state: PassState): Promise<void> {
    let theirs: ServerTask;
    try {
      theirs = await this.outcomes.readServer(op, state);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) {
        await this.gone(op, state);
        return;
      }
      await this.outcomes.failed(op, op, error, state);
      return;
    }
    await this.store.landServerCopy(op, theirs);
    if (unchangedSinceDeleted(op, theirs)) {
      // Nothing the person could see changed (an ETag moved on an unchanged body, or only counts the
      // service derives, such as tasks filed since): delete that version, once.
      try {
        await this.remove(op, theirs.etag, state);
        await this.gone(op, state);
        return;
      } catch (error) {
        if (!(error instanceof ProblemError && error.status === 412)) {
          await this.outcomes.failed(op, op, error, state);
          return;
        }
      }
    }
    await this.holdDelete(op, theirs, state);
  }

  /** The delete waits for the person against `theirs`, the version changed since they deleted it. */
  private async holdDelete(op: PushOp, theirs: ServerTask, state: PassState): Promise<void> {
    const problem = {
      status: 412,
      type: 'edited-remotely',
      detail:
        'The task changed on the server after you deleted it. Retry to delete the new version, or drop the delete to keep the task.',
      errors: [],
    };
    await this.store.holdDelete(op.opId, theirs, problem);
    state.summary.failed += 1;
    this.emit({
      type: 'push-failed',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      error: {
        kind: 'problem',
        type: 'edited-remotely',
        status: 412,
        operation: pushKindOf(op.entityType).deleteName,
        message: problem.detail,
      },
    });
  }
}

/**
 * The server's version is the one the person deleted (the delete's base,
 * every field they could see): equal but for fields the kind's service
 * derives (a goal's task counts), absent taken as null. A delete queued
 * without its base (an outbox older than bases of deletes) is never so.
 */
function unchangedSinceDeleted(op: PushOp, theirs: ServerTask): boolean {
  if (Object.keys(op.baseValues).length === 0) return false;
  const derived = pushKindOf(op.entityType).derivedFields ?? [];
  const fields = new Set([...Object.keys(op.baseValues), ...Object.keys(theirs.task)]);
  for (const field of fields) {
    if (derived.includes(field)) continue;
    if (!isDeepStrictEqual(op.baseValues[field] ?? null, theirs.task[field] ?? null)) return false;
  }
  return true;
}
