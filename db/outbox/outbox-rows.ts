// The outbox's rows as its parts share them (queue.ts, sending.ts,
// conflicts.ts): the prepared statements, the writable kinds that show an
// operation on screen (db/outbox/kinds/), an operation's row by id, and the
// reads callers make through Outbox. Apart so that each part holds one job and
// none of them reaches into another's; callers use Outbox (outbox.ts), not this.
import type { Database, Statement } from 'better-sqlite3';
import { InvalidEditError, NotInMirrorError } from '../mirror-errors';
import type { MirrorTransactions } from '../mirror-transactions';
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import { collectionWriteKind } from './kinds/collection-kind';
import { commentWriteKind } from './kinds/comment';
import type { MirrorWriteKind } from './kinds/mirror-kind';
import { taskWriteKind } from './kinds/task';
import { type OutboxCounts, outboxCountsOf } from './outbox-counts';
import type { OutboxRow } from '../schema';
import type { TaskObject } from '../tasks/task-columns';
import { type TaskOverlay, UNSETTLED_SQL } from '../tasks/task-overlay';
import type { TaskStore } from '../tasks/task-store';
import { TaskUnfiling } from '../tasks/task-unfiling';
import type { OutboxKind, OutboxOp, OutboxState } from './outbox-types';

export function opOf(row: OutboxRow): OutboxOp {
  return {
    seq: row.seq,
    opId: row.op_id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    parentId: row.parent_id,
    kind: row.kind as OutboxKind,
    patch: JSON.parse(row.patch) as TaskObject,
    baseEtag: row.base_etag,
    baseValues: JSON.parse(row.base_values) as TaskObject,
    state: row.state as OutboxState,
    attempts: row.attempts,
    lastProblem: row.last_problem === null ? null : (JSON.parse(row.last_problem) as unknown),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A kind's operations not done yet, oldest first (`opsOfKind`): through an index led by the kind, never another kind's rows. */
export const KIND_OPS_SQL = "SELECT * FROM outbox WHERE entity_type = ? AND state <> 'done' ORDER BY seq";

export class OutboxRows {
  readonly byOpId: Statement<[string], OutboxRow>;
  readonly insertOp: Statement<unknown[]>;
  readonly updatePatch: Statement<[string, string, string, string]>;
  readonly setState: Statement<[string, string | null, string, string]>;
  readonly deleteOp: Statement<[string]>;
  /** Marks an operation as a bulk change's, unless another bulk change's already. */
  readonly joinBatch: Statement<[string, string]>;
  readonly entityOpsOf: Statement<[string, string], OutboxRow>;
  /** How many of a JSON list of op ids are queued and never tried: the ones an undo can still call back. */
  private readonly countRecallable: Statement<[string], number>;
  /** Every writable kind, by the outbox's entity_type. */
  private readonly kinds: ReadonlyMap<string, MirrorWriteKind>;

  constructor(
    readonly db: Database,
    readonly tx: MirrorTransactions,
    readonly store: TaskStore,
    overlay: TaskOverlay,
    /** The running full task pass, whose number a task settled now is seen in (see PageApplication). */
    runningTaskPass: () => number | null,
  ) {
    this.byOpId = db.prepare('SELECT * FROM outbox WHERE op_id = ?');
    this.insertOp = db.prepare(
      `INSERT INTO outbox (op_id, entity_type, entity_id, parent_id, kind, patch, base_etag, base_values, state, attempts, created_at, updated_at, batch_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
    );
    this.joinBatch = db.prepare('UPDATE outbox SET batch_id = ? WHERE op_id = ? AND batch_id IS NULL');
    this.updatePatch = db.prepare(
      'UPDATE outbox SET patch = ?, base_values = ?, updated_at = ? WHERE op_id = ?',
    );
    this.setState = db.prepare(
      'UPDATE outbox SET state = ?, last_problem = ?, updated_at = ? WHERE op_id = ?',
    );
    this.deleteOp = db.prepare('DELETE FROM outbox WHERE op_id = ?');
    this.countRecallable = db
      .prepare<[string], number>(
        "SELECT count(*) FROM outbox WHERE op_id IN (SELECT value FROM json_each(?)) AND state = 'queued' AND attempts = 0",
      )
      .pluck();
    this.entityOpsOf = db.prepare(
      `SELECT * FROM outbox WHERE entity_type = ? AND entity_id = ? AND state IN ${UNSETTLED_SQL} ORDER BY seq`,
    );
    // A goal's, milestone's or section's delete unfiles its tasks: on screen while it waits, in their server copies once taken.
    const unfiling = new TaskUnfiling(db, store, overlay, () => this.now());
    this.kinds = new Map(
      [
        taskWriteKind(db, store, overlay, runningTaskPass),
        commentWriteKind(db, () => this.now()),
        ...COLLECTION_KINDS.map((kind) => collectionWriteKind(db, () => this.now(), kind, unfiling)),
      ].map((k) => [k.entityType, k]),
    );
  }

  now(): string {
    return this.tx.now();
  }

  /** Refuses an edit of a kind's resource the server would refuse for its shape (a screen's typed value, before it is queued). */
  checkEdit(entityType: string, patch: TaskObject, kind: OutboxKind): void {
    this.kind(entityType).checkEdit(patch, kind);
  }

  /** The kind of an operation's resource; one this version does not know is refused, never taken for a task. */
  kind(entityType: string): MirrorWriteKind {
    const kind = this.kinds.get(entityType);
    if (!kind) throw new InvalidEditError('entity_type', `'${entityType}' is not a kind this version writes`);
    return kind;
  }

  entityOps(row: { entity_type: string; entity_id: string }): OutboxRow[] {
    return this.entityOpsOf.all(row.entity_type, row.entity_id);
  }

  /** The queueing methods belong inside a write of mirror.tasks (with the effective-row update). */
  inWrite(what: string): void {
    if (!this.db.inTransaction) throw new Error(`outbox ${what} runs inside a mirror write (mirror.tasks)`);
  }

  /**
   * Outbox.someSent, in one read however many: an operation's row each (its
   * patch and base values parsed) took 76-99 ms for a bulk delete's 5 000 at
   * 100 000 tasks, the label of its undo asked after the change and twice an undo.
   */
  someSent(opIds: readonly string[]): boolean {
    const distinct = [...new Set(opIds)];
    if (distinct.length === 0) return false;
    return this.tx.read(() => this.countRecallable.get(JSON.stringify(distinct)) !== distinct.length);
  }

  row(opId: string): OutboxRow {
    const row = this.byOpId.get(opId);
    if (!row) throw new NotInMirrorError('operation', opId);
    return row;
  }

  op(opId: string): OutboxOp {
    return this.tx.read(() => opOf(this.row(opId)));
  }

  /** Unsettled operations of one resource, oldest first. */
  opsOf(entityType: string, entityId: string): OutboxOp[] {
    return this.tx.read(() => this.entityOpsOf.all(entityType, entityId).map(opOf));
  }

  /** Unsettled operations of a kind under one parent (a task's comments), oldest first. */
  opsUnder(entityType: string, parentId: string): OutboxOp[] {
    return this.tx.read(() =>
      (
        this.db
          .prepare(
            `SELECT * FROM outbox WHERE entity_type = ? AND parent_id = ? AND state IN ${UNSETTLED_SQL} ORDER BY seq`,
          )
          .all(entityType, parentId) as OutboxRow[]
      ).map(opOf),
    );
  }

  /**
   * Operations of a kind not done yet, oldest first, read through its index: a collection's list
   * applies them, and reading every operation instead parsed a bulk change's 38 000 task edits
   * on each of the workspace's lists, 3 s of main's CPU at a million tasks.
   */
  opsOfKind(entityType: string): OutboxOp[] {
    return this.tx.read(() => (this.db.prepare(KIND_OPS_SQL).all(entityType) as OutboxRow[]).map(opOf));
  }

  list(states?: readonly OutboxState[]): OutboxOp[] {
    return this.tx.read(() => {
      const rows =
        states === undefined
          ? (this.db.prepare('SELECT * FROM outbox ORDER BY seq').all() as OutboxRow[])
          : (this.db
              .prepare(
                `SELECT * FROM outbox WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY seq`,
              )
              .all(...states) as OutboxRow[]);
      return rows.map(opOf);
    });
  }

  /** How many edits wait, by what they wait for (db/outbox/outbox-counts.ts). */
  counts(): OutboxCounts {
    return this.tx.read(() => outboxCountsOf(this.db));
  }
}
