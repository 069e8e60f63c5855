// Conflicts: what a 412 leaves (fields rebased onto the server's version, a
// delete held against the newer one, or fields changed on both sides parked as
// conflicts), a task gone from the server (a push's 404, a pull that no longer
// lists it), and the person's resolution of each conflict, down to re-creating
// a task deleted on the server. Apart from sending: these wait for the person.
import { randomUUID } from 'node:crypto';
import { NotInMirrorError, OutboxStateError } from '../mirror-errors';
import { isTaskReference } from '../tasks/recreate-references';
import type { ConflictsTable, OutboxRow } from '../schema';
import type { TaskObject } from '../tasks/task-columns';
import { opOf, type OutboxRows } from './outbox-rows';
import {
  type Conflict,
  type ConflictInput,
  type ConflictResolution,
  DELETED_REMOTELY,
  editedRemotelyProblem,
  type FieldConflict,
  GONE_FROM_LIST_PROBLEM,
  type OutboxOp,
  type ParkedEdit,
  sameJson,
} from './outbox-types';
import type { OutboxQueue } from './queue';

/** A `conflicts` row as raw SQL returns it. */
type ConflictRowJson = ConflictsTable;

function conflictOf(row: ConflictRowJson): Conflict {
  return {
    conflictId: row.conflict_id,
    opId: row.op_id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    field: row.field,
    base: JSON.parse(row.base) as unknown,
    mine: JSON.parse(row.mine) as unknown,
    theirs: JSON.parse(row.theirs) as unknown,
    theirsEtag: row.theirs_etag,
    state: row.state as Conflict['state'],
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as ConflictResolution),
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
  };
}

export class OutboxConflicts {
  constructor(
    private readonly rows: OutboxRows,
    private readonly queue: OutboxQueue,
  ) {}

  /**
   * After a 412 whose merge left only fields the person changed: send them
   * again against the current version. A different body goes under a new key.
   */
  rebase(
    opId: string,
    rebase: { baseEtag: string | null; patch?: TaskObject; baseValues?: TaskObject },
  ): string {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state === 'done') throw new OutboxStateError(opId, row.state, 'rebase it');
      const oldPatch = JSON.parse(row.patch) as TaskObject;
      const patch = rebase.patch ?? oldPatch;
      const base = { ...(JSON.parse(row.base_values) as TaskObject), ...(rebase.baseValues ?? {}) };
      for (const field of Object.keys(base)) if (!(field in patch)) delete base[field];
      const at = this.rows.now();
      if (Object.keys(patch).length === 0) {
        this.rows.setState.run('done', null, at, opId);
        this.rows.kind(row.entity_type).refresh(row.entity_id);
        return opId;
      }
      const newId = sameJson(patch, oldPatch) ? opId : randomUUID();
      this.rows.db
        .prepare(
          "UPDATE outbox SET op_id = ?, patch = ?, base_etag = ?, base_values = ?, state = 'queued', updated_at = ? WHERE op_id = ?",
        )
        .run(newId, JSON.stringify(patch), rebase.baseEtag, JSON.stringify(base), at, opId);
      this.rows.kind(row.entity_type).refresh(row.entity_id);
      return newId;
    });
  }

  /**
   * Parks an operation for the person. `fields`: changed on both sides (base,
   * mine, theirs); `patch` / `baseValues`: what is still to send besides them
   * after the merge (default: the operation's own), against `theirsEtag`.
   * `deleted`: the task is gone from the server (one conflict on
   * {@link DELETED_REMOTELY}). The effective row keeps showing mine.
   */
  conflict(opId: string, conflict: ConflictInput): Conflict[] {
    return this.rows.tx.write(() => this.recordConflict(opId, conflict));
  }

  private recordConflict(opId: string, conflict: ConflictInput): Conflict[] {
    const row = this.rows.row(opId);
    if (row.state === 'done') throw new OutboxStateError(opId, row.state, 'record a conflict on it');
    const at = this.rows.now();
    const oldPatch = JSON.parse(row.patch) as TaskObject;
    const oldBase = JSON.parse(row.base_values) as TaskObject;
    const list: readonly FieldConflict[] = conflict.deleted
      ? [{ field: DELETED_REMOTELY, base: oldBase, mine: oldPatch, theirs: null }]
      : conflict.fields;
    const insert = this.rows.db.prepare(
      `INSERT INTO conflicts (conflict_id, op_id, entity_type, entity_id, field, base, mine, theirs, theirs_etag, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
    );
    const theirsEtag = conflict.deleted ? null : conflict.theirsEtag;
    const ids: string[] = [];
    for (const c of list) {
      const id = randomUUID();
      ids.push(id);
      insert.run(
        id,
        opId,
        row.entity_type,
        row.entity_id,
        c.field,
        JSON.stringify(c.base ?? null),
        JSON.stringify(c.mine ?? null),
        JSON.stringify(c.theirs ?? null),
        theirsEtag,
        at,
      );
    }
    if (conflict.deleted) {
      const problem = conflict.problem === undefined ? null : JSON.stringify(conflict.problem);
      this.rows.setState.run('conflict', problem, at, opId);
      this.rows.kind(row.entity_type).markGone(row.entity_id);
    } else {
      const patch: TaskObject = { ...(conflict.patch ?? oldPatch) };
      const base: TaskObject = { ...oldBase, ...(conflict.baseValues ?? {}) };
      for (const c of conflict.fields) {
        patch[c.field] = c.mine ?? null;
        base[c.field] = c.theirs ?? null;
      }
      for (const field of Object.keys(base)) if (!(field in patch)) delete base[field];
      this.rows.db
        .prepare(
          "UPDATE outbox SET state = 'conflict', patch = ?, base_etag = ?, base_values = ?, last_problem = ?, updated_at = ? WHERE op_id = ?",
        )
        .run(
          JSON.stringify(patch),
          theirsEtag,
          JSON.stringify(base),
          conflict.merged === undefined
            ? row.last_problem
            : JSON.stringify(editedRemotelyProblem(conflict.merged)),
          at,
          opId,
        );
    }
    this.rows.kind(row.entity_type).refresh(row.entity_id);
    return ids.map((id) => this.conflictById(id));
  }

  /**
   * A delete refused with 412 (the task changed after the person deleted it):
   * it waits as `failed`, now against the newer version; retrying deletes that
   * version, dropping it keeps the task.
   */
  holdDelete(
    opId: string,
    theirsEtag: string | null,
    problem: unknown,
    /** The new version's values: retried, the delete is of that version (its base). */
    theirs?: TaskObject,
  ): void {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.kind !== 'delete' || row.state === 'done')
        throw new OutboxStateError(opId, row.state, 'hold it as a delete');
      this.rows.db
        .prepare(
          "UPDATE outbox SET state = 'failed', base_etag = ?, base_values = ?, last_problem = ?, updated_at = ? WHERE op_id = ?",
        )
        .run(
          theirsEtag,
          theirs === undefined ? row.base_values : JSON.stringify(theirs),
          JSON.stringify(problem ?? null),
          this.rows.now(),
          opId,
        );
    });
  }

  /**
   * A complete pull no longer lists the task: its edits that already stopped (failed, blocked) become the
   * same deleted-remotely conflict a push meets on a 404, so the person is offered re-create, copy or drop
   * now instead of a retry that can only find it gone. Queued and in-flight edits are left to the push,
   * which may be holding them; a stopped delete is left alone (the server already did what it asked).
   * Returns the operations parked, for the pull to announce. Inside the page application's write.
   */
  parkStoppedEditsOfGoneTask(taskId: string): ParkedEdit[] {
    this.rows.inWrite('parkStoppedEditsOfGoneTask');
    const parked: ParkedEdit[] = [];
    for (const row of this.rows.entityOpsOf.all('task', taskId)) {
      if (row.kind !== 'update' || (row.state !== 'failed' && row.state !== 'blocked')) continue;
      this.recordConflict(row.op_id, { deleted: true, problem: GONE_FROM_LIST_PROBLEM });
      parked.push({ opId: row.op_id, taskId, fields: Object.keys(JSON.parse(row.patch) as TaskObject) });
    }
    return parked;
  }

  openConflictCount(): number {
    return this.rows.tx.read(() => {
      return (
        this.rows.db.prepare("SELECT count(*) AS n FROM conflicts WHERE state = 'open'").get() as {
          n: number;
        }
      ).n;
    });
  }

  private conflictById(conflictId: string): Conflict {
    const row = this.rows.db.prepare('SELECT * FROM conflicts WHERE conflict_id = ?').get(conflictId) as
      ConflictRowJson | undefined;
    if (!row) throw new NotInMirrorError('conflict', conflictId);
    return conflictOf(row);
  }

  conflicts(state?: 'open' | 'resolved'): Conflict[] {
    return this.rows.tx.read(() => {
      const rows = (
        state === undefined
          ? this.rows.db.prepare('SELECT * FROM conflicts ORDER BY created_at, rowid').all()
          : this.rows.db
              .prepare('SELECT * FROM conflicts WHERE state = ? ORDER BY created_at, rowid')
              .all(state)
      ) as ConflictRowJson[];
      return rows.map(conflictOf);
    });
  }

  /**
   * Settles one conflict. When the operation has no open conflict left it
   * re-enters the queue under a new key (its body changed), or is done when
   * nothing is left to send. "Mine" on a task deleted remotely re-creates it.
   */
  resolve(conflictId: string, resolution: ConflictResolution): Conflict {
    return this.rows.tx.write(() => {
      const conflict = this.conflictById(conflictId);
      if (conflict.state !== 'open') return conflict;
      const row = this.rows.row(conflict.opId);
      const at = this.rows.now();
      this.rows.db
        .prepare(
          "UPDATE conflicts SET state = 'resolved', resolution = ?, resolved_at = ? WHERE conflict_id = ?",
        )
        .run(JSON.stringify(resolution), at, conflictId);
      const patch = JSON.parse(row.patch) as TaskObject;
      const base = JSON.parse(row.base_values) as TaskObject;

      if (conflict.field === DELETED_REMOTELY) {
        if ('take' in resolution && resolution.take === 'theirs') {
          this.rows.setState.run('done', null, at, row.op_id);
          this.rows.kind(row.entity_type).dropGone(row.entity_id, this.rows.entityOps(row).length > 0);
        } else {
          this.recreate(row, 'value' in resolution ? (resolution.value as TaskObject) : null);
        }
        return this.conflictById(conflictId);
      }

      if ('value' in resolution) patch[conflict.field] = resolution.value;
      else if (resolution.take === 'theirs') {
        delete patch[conflict.field];
        delete base[conflict.field];
      }
      const open = this.rows.db
        .prepare("SELECT count(*) AS n FROM conflicts WHERE op_id = ? AND state = 'open'")
        .get(row.op_id) as { n: number };
      if (open.n > 0) {
        this.rows.updatePatch.run(JSON.stringify(patch), JSON.stringify(base), at, row.op_id);
      } else if (Object.keys(patch).length === 0) {
        this.rows.updatePatch.run('{}', '{}', at, row.op_id);
        this.rows.setState.run('done', null, at, row.op_id);
      } else {
        this.rows.db
          .prepare(
            "UPDATE outbox SET op_id = ?, patch = ?, base_values = ?, state = 'queued', attempts = 0, updated_at = ? WHERE op_id = ?",
          )
          .run(randomUUID(), JSON.stringify(patch), JSON.stringify(base), at, row.op_id);
      }
      this.rows.kind(row.entity_type).refresh(row.entity_id);
      return this.conflictById(conflictId);
    });
  }

  /** The person keeps a resource deleted on the server: it comes back as a new one with its current values. */
  private recreate(row: OutboxRow, values: TaskObject | null): void {
    const body = this.rows.kind(row.entity_type).takeBackForRecreate(row, values);
    const at = this.rows.now();
    for (const op of this.rows.entityOps(row)) this.rows.setState.run('done', null, at, op.op_id);
    const created = this.queue.queueNew(row.entity_type, row.parent_id, body);
    this.rows.db
      .prepare("UPDATE conflicts SET entity_id = ? WHERE op_id = ? AND state = 'resolved'")
      .run(created.entityId, row.op_id);
  }

  /**
   * A re-create ("mine" on a task deleted on the server) the service refused
   * (422) for references it carries: a project archived since the last pull,
   * or archived with its status left out of the list (the contract lets it
   * be absent), so the mirror could not leave it out beforehand. Like the
   * references the mirror knew of, they are left out and the task is sent
   * again under a new key (its body changed). Returns the operation after,
   * or null, writing nothing, when it is not such a re-create or a field is
   * not a reference it sends: that refusal waits for the person.
   */
  leaveOutOfRecreate(opId: string, fields: readonly string[]): OutboxOp | null {
    return this.rows.tx.write(() => {
      const row = this.rows.byOpId.get(opId);
      if (row?.kind !== 'create' || row.entity_type !== 'task' || fields.length === 0) return null;
      if (row.state !== 'queued' && row.state !== 'in_flight') return null;
      const recreated = this.rows.db
        .prepare("SELECT 1 FROM conflicts WHERE entity_id = ? AND field = ? AND state = 'resolved' LIMIT 1")
        .get(row.entity_id, DELETED_REMOTELY);
      if (recreated === undefined) return null;
      const patch = JSON.parse(row.patch) as TaskObject;
      if (!fields.every((field) => isTaskReference(field) && Object.hasOwn(patch, field))) return null;
      for (const field of fields) delete patch[field];
      return opOf(this.rows.row(this.queue.queueAgain(row, patch)));
    });
  }
}
