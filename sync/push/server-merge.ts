// A 412 settled: the server's version read and the operation merged into it
// per field against the edit's base, sent again rebased, settled when the
// server has it already, or left as a conflict for the person. Apart from the
// pass loop because it is the one place that merges; updates come here after a
// 412, and edits known without a version before their first PATCH.
import type { SyncEventListener } from '../events/sync-events';
import { threeWayMerge } from '../merge/three-way-merge';
import { isGone } from './push-failure';
import type { PassState, PushOutcomes } from './push-outcomes';
import type { FieldValues, PushOp, PushStore, ServerTask } from './push-store';

export class ServerMerge {
  constructor(
    private readonly store: PushStore,
    private readonly emit: SyncEventListener,
    private readonly outcomes: PushOutcomes,
    /** Merges of one operation in one pass before it waits for the next. */
    private readonly maxRebases: number,
  ) {}

  /**
   * Reads the server's version and merges the operation into it per field.
   * Returns the operation to send now (rebased), or null when it is settled,
   * in conflict, could not be read (recorded on it), or is set aside for the
   * next pass.
   */
  async mergeWithServer(op: PushOp, state: PassState): Promise<PushOp | null> {
    let theirs: ServerTask;
    try {
      theirs = await this.outcomes.readServer(op, state);
    } catch (error) {
      if (isGone(error)) {
        await this.outcomes.deletedRemotely(op, error, state);
        return null;
      }
      await this.outcomes.failed(op, op, error, state);
      return null;
    }
    await this.store.landServerCopy(op, theirs);
    // An operation never sent takes in the person's edits while the read is under way (it was
    // not claimed, unlike one whose PATCH met a 412): its merge is written only if it still
    // stands as merged, else it is merged again as it is now, so the later edit goes too.
    let current: PushOp | null = op;
    for (let merges = 0; current !== null; merges++) {
      if (merges === this.maxRebases) {
        // The person keeps editing it: it waits, with every edit, for the next pass.
        state.parked.add(op.entityId);
        return null;
      }
      const merged = await this.mergeInto(current, theirs, state);
      if (merged !== 'changed') return merged;
      current = await this.store.current(op.opId);
    }
    return null;
  }

  /** One merge of `op` into `theirs`, written unless `op` changed meanwhile ('changed'); see mergeWithServer. */
  private async mergeInto(
    op: PushOp,
    theirs: ServerTask,
    state: PassState,
  ): Promise<PushOp | null | 'changed'> {
    const merge = threeWayMerge({ base: op.baseValues, mine: op.patch, theirs: theirs.task });
    const baseOf = (fields: Iterable<string>): FieldValues => {
      const out: FieldValues = {};
      for (const field of fields) out[field] = theirs.task[field] ?? null;
      return out;
    };
    if (merge.conflicts.length > 0) {
      const patch: FieldValues = { ...merge.rebased };
      for (const conflict of merge.conflicts) patch[conflict.field] = conflict.mine;
      const recorded = await this.store.conflict(
        op.opId,
        {
          deleted: false,
          theirsEtag: theirs.etag,
          fields: merge.conflicts,
          patch,
          baseValues: baseOf(Object.keys(merge.rebased)),
          merged: {
            rebased: Object.keys(merge.rebased),
            taken: Object.keys(merge.taken),
            settled: Object.keys(merge.settled),
          },
        },
        op,
      );
      if (!recorded) return 'changed';
      state.summary.conflicts += merge.conflicts.length;
      this.emit({
        type: 'conflict',
        opId: op.opId,
        entityType: op.entityType,
        entityId: op.entityId,
        conflict: 'edited',
        fields: merge.conflicts.map((c) => c.field),
      });
      return null;
    }
    const opId = await this.store.rebase(
      op.opId,
      { baseEtag: theirs.etag, patch: merge.rebased, baseValues: baseOf(Object.keys(merge.rebased)) },
      op,
    );
    if (opId === null) return 'changed';
    this.emit({
      type: 'merged',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      rebased: Object.keys(merge.rebased),
      taken: Object.keys(merge.taken),
      settled: Object.keys(merge.settled),
    });
    if (Object.keys(merge.rebased).length === 0) {
      // Everything I changed is on the server already (settled, or a retry of a write that had landed).
      this.outcomes.accepted(state, op, op.entityId);
      return null;
    }
    return {
      ...op,
      opId,
      patch: merge.rebased,
      baseEtag: theirs.etag,
      baseValues: baseOf(Object.keys(merge.rebased)),
    };
  }
}
