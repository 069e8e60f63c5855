// The outbox of local changes, for every writable kind of resource (tasks,
// comments; each kind's checks and mirror rows in outbox-kinds/): queueing
// (with coalescing of edits not yet sent), the states an operation moves
// through while the sync engine pushes it, conflicts and their resolution, and
// the replacement of a temporary id by the server's. `mirror.outbox` is this
// class: each public method is one of the mirror's transactions (a read, or a
// write with its effective-row update); the queueing methods run inside mirror.tasks'.
import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { InvalidEditError, MalformedRowError, NotInMirrorError, OutboxStateError } from '../mirror-errors';
import type { MirrorTransactions } from '../mirror-transactions';
import { commentWriteKind } from '../outbox-kinds/comment';
import { goalWriteKind } from '../outbox-kinds/goal';
import { milestoneWriteKind } from '../outbox-kinds/milestone';
import { sectionWriteKind } from '../outbox-kinds/section';
import { sprintWriteKind } from '../outbox-kinds/sprint';
import type { MirrorWriteKind } from '../outbox-kinds/mirror-kind';
import { isTaskReference } from '../recreate-references';
import { taskWriteKind } from '../outbox-kinds/task';
import { type OutboxCounts, outboxCountsOf } from './outbox-counts';
import type { ConflictsTable, OutboxRow } from '../schema';
import type { TaskObject } from '../task-columns';
import { type TaskOverlay, UNSETTLED_SQL } from '../task-overlay';
import type { TaskStore } from '../task-store';
import { TaskUnfiling } from '../task-unfiling';

export type OutboxState = 'queued' | 'in_flight' | 'done' | 'conflict' | 'failed' | 'blocked';
export type OutboxKind = 'create' | 'update' | 'delete';

/** A queued change as the sync engine sees it. */
export interface OutboxOp {
  seq: number;
  /** Send as the `Idempotency-Key`. */
  opId: string;
  /** The kind of resource: 'task' or 'comment'. */
  entityType: string;
  /** The resource's id; a `local-…` temporary id until its create is done. */
  entityId: string;
  /** The parent its routes and screens need (a comment's task); null for a task. */
  parentId: string | null;
  kind: OutboxKind;
  /** The merge-patch (for a create, the body without `org_id`). */
  patch: TaskObject;
  /** Send as `If-Match`; null when unknown (read the task first) or for a create. */
  baseEtag: string | null;
  /** The server's values of the patched fields when the edit was made: the merge base on 412. */
  baseValues: TaskObject;
  state: OutboxState;
  attempts: number;
  lastProblem: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface FieldConflict {
  field: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** An open (or settled) disagreement between a local edit and the server, for one field. */
export interface Conflict extends FieldConflict {
  conflictId: string;
  opId: string;
  entityType: string;
  entityId: string;
  theirsEtag: string | null;
  state: 'open' | 'resolved';
  resolution: ConflictResolution | null;
  createdAt: string;
  resolvedAt: string | null;
}

/** Keep my value, take theirs, or settle on a new one. */
export type ConflictResolution = { take: 'mine' } | { take: 'theirs' } | { value: unknown };

/** The field of a conflict that stands for "the task was deleted on the server". */
export const DELETED_REMOTELY = '*';

export const TEMPORARY_ID_PREFIX = 'local-';

export function isTemporaryId(id: unknown): boolean {
  return typeof id === 'string' && id.startsWith(TEMPORARY_ID_PREFIX);
}

/** Structural equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return a === b || (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function opOf(row: OutboxRow): OutboxOp {
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

function pick(source: TaskObject | null, fields: Iterable<string>): TaskObject {
  const out: TaskObject = {};
  for (const field of fields) out[field] = source?.[field] ?? null;
  return out;
}

function replaceIdIn(object: TaskObject, from: string, to: string): TaskObject {
  const out: TaskObject = {};
  for (const [k, v] of Object.entries(object)) out[k] = v === from ? to : v;
  return out;
}

/** What a 412's per-field merge did besides the conflicts, so the person can see it (field names). */
export interface MergeOutcome {
  /** Changed only here: still to send on top of their version. */
  rebased: string[];
  /** Changed only on the server: their value stands. */
  taken: string[];
  /** Changed to the same value on both sides: nothing left to send. */
  settled: string[];
}

/** How an operation came into conflict (see {@link Outbox.conflict}). */
export type ConflictInput =
  | {
      deleted: false;
      theirsEtag: string | null;
      fields: readonly FieldConflict[];
      patch?: TaskObject;
      baseValues?: TaskObject;
      /** Kept as the operation's last problem (a 412 with its merge), shown beside the conflicts. */
      merged?: MergeOutcome;
    }
  | {
      deleted: true;
      /** The server's answer that said so (404, or 403 when the task became unreadable), kept as its last problem. */
      problem?: unknown;
    };

/** The last problem an operation in conflict keeps after a 412 whose merge left conflicts. */
export function editedRemotelyProblem(merged: MergeOutcome): Record<string, unknown> {
  return {
    status: 412,
    type: 'edited-remotely',
    detail: 'The task changed on the server since this edit was made.',
    errors: [],
    merge: merged,
  };
}

/** The last problem of an edit parked because a complete pass of the task list no longer returned its task. */
export const GONE_FROM_LIST_PROBLEM = {
  status: 404,
  type: 'not-found',
  detail: 'The task is no longer on the server: a complete sync of the task list did not return it.',
  errors: [],
} as const;

/** An edit parked as a deleted-remotely conflict because a pull found its task gone: what announcing it needs. */
export interface ParkedEdit {
  opId: string;
  taskId: string;
  /** The fields the edit sets (all of them go with the task, as a push's 404 tells it). */
  fields: string[];
}

/** A server answer to a create or an update: the task and its ETag. */
export interface ServerAnswer {
  task: unknown;
  etag: string | null;
}

/** What the outbox knows of a resource when an edit or delete of it is queued. */
export interface EditTarget {
  entityType: string;
  entityId: string;
  parentId: string | null;
  /** Its values as screens show them (pending edits applied). */
  effective: TaskObject;
  /** The server's copy; null while it was never on the server. */
  server: TaskObject | null;
  /** The server copy's ETag (If-Match); null when unknown. */
  etag: string | null;
}

export class Outbox {
  private readonly byOpId: Statement<[string], OutboxRow>;
  private readonly lastUnsettled: Statement<[string, string], OutboxRow>;
  private readonly insertOp: Statement<unknown[]>;
  private readonly updatePatch: Statement<[string, string, string, string]>;
  private readonly setState: Statement<[string, string | null, string, string]>;
  private readonly deleteOp: Statement<[string]>;
  private readonly entityOpsOf: Statement<[string, string], OutboxRow>;
  /** Every writable kind, by the outbox's entity_type. */
  private readonly kinds: ReadonlyMap<string, MirrorWriteKind>;

  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
    private readonly store: TaskStore,
    overlay: TaskOverlay,
    /** The running full task pass, whose number a task settled now is seen in (see PageApplication). */
    runningTaskPass: () => number | null,
  ) {
    this.byOpId = db.prepare('SELECT * FROM outbox WHERE op_id = ?');
    this.lastUnsettled = db.prepare(
      `SELECT * FROM outbox WHERE entity_type = ? AND entity_id = ? AND state IN ${UNSETTLED_SQL}
        ORDER BY seq DESC LIMIT 1`,
    );
    this.insertOp = db.prepare(
      `INSERT INTO outbox (op_id, entity_type, entity_id, parent_id, kind, patch, base_etag, base_values, state, attempts, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
    );
    this.updatePatch = db.prepare(
      'UPDATE outbox SET patch = ?, base_values = ?, updated_at = ? WHERE op_id = ?',
    );
    this.setState = db.prepare(
      'UPDATE outbox SET state = ?, last_problem = ?, updated_at = ? WHERE op_id = ?',
    );
    this.deleteOp = db.prepare('DELETE FROM outbox WHERE op_id = ?');
    this.entityOpsOf = db.prepare(
      `SELECT * FROM outbox WHERE entity_type = ? AND entity_id = ? AND state IN ${UNSETTLED_SQL} ORDER BY seq`,
    );
    // A goal's, milestone's or section's delete unfiles its tasks: on screen while it waits, in their server copies once taken.
    const unfiling = new TaskUnfiling(db, store, overlay, () => this.now());
    this.kinds = new Map(
      [
        taskWriteKind(db, store, overlay, runningTaskPass),
        commentWriteKind(db, () => this.now()),
        sectionWriteKind(db, () => this.now(), unfiling),
        sprintWriteKind(db, () => this.now(), unfiling),
        goalWriteKind(db, () => this.now(), unfiling),
        milestoneWriteKind(db, () => this.now(), unfiling),
      ].map((k) => [k.entityType, k]),
    );
  }

  private now(): string {
    return this.tx.now();
  }

  /** Refuses an edit of a kind's resource the server would refuse for its shape (a screen's typed value, before it is queued). */
  checkEdit(entityType: string, patch: TaskObject, kind: OutboxKind): void {
    this.kind(entityType).checkEdit(patch, kind);
  }

  /** The kind of an operation's resource; one this version does not know is refused, never taken for a task. */
  private kind(entityType: string): MirrorWriteKind {
    const kind = this.kinds.get(entityType);
    if (!kind) throw new InvalidEditError('entity_type', `'${entityType}' is not a kind this version writes`);
    return kind;
  }

  private entityOps(row: { entity_type: string; entity_id: string }): OutboxRow[] {
    return this.entityOpsOf.all(row.entity_type, row.entity_id);
  }

  /** The queueing methods belong inside a write of mirror.tasks (with the effective-row update). */
  private inWrite(what: string): void {
    if (!this.db.inTransaction) throw new Error(`outbox ${what} runs inside a mirror write (mirror.tasks)`);
  }

  private row(opId: string): OutboxRow {
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

  /** Queues a new task; its row shows at once under a temporary id. Inside mirror.tasks' write. */
  queueCreate(fields: TaskObject): { taskId: string; opId: string } {
    this.inWrite('queueCreate');
    if (typeof fields.title !== 'string') throw new InvalidEditError('title', 'is required');
    const created = this.queueNew('task', null, fields);
    return { taskId: created.entityId, opId: created.opId };
  }

  /** Queues a create of any kind under a temporary id; the kind's screens show it at once. Inside a mirror write. */
  queueNew(
    entityType: string,
    parentId: string | null,
    fields: TaskObject,
  ): { entityId: string; opId: string } {
    this.inWrite('queueNew');
    const kind = this.kind(entityType);
    kind.checkEdit(fields, 'create');
    const entityId = `${TEMPORARY_ID_PREFIX}${randomUUID()}`;
    const opId = randomUUID();
    const at = this.now();
    this.insertOp.run(
      opId,
      entityType,
      entityId,
      parentId,
      'create',
      JSON.stringify(fields),
      null,
      '{}',
      at,
      at,
    );
    kind.refresh(entityId);
    return { entityId, opId };
  }

  /**
   * Queues an edit of a task; shown at once. Folds into the entity's last
   * operation while that one was never sent; fields set back to their base
   * value drop out. Returns null when nothing is left to send. Inside mirror.tasks' write.
   */
  queueUpdate(taskId: string, patch: TaskObject): { opId: string } | null {
    this.inWrite('queueUpdate');
    this.kind('task').checkEdit(patch, 'update');
    const row = this.store.byId(taskId);
    if (!row || row.hidden) throw new NotInMirrorError('task', taskId);
    return this.queueEdit(
      {
        entityType: 'task',
        entityId: taskId,
        parentId: null,
        effective: JSON.parse(row.local_json ?? (row.server_json as string)) as TaskObject,
        server: row.server_json === null ? null : (JSON.parse(row.server_json) as TaskObject),
        etag: row.etag,
      },
      patch,
    );
  }

  /**
   * Queues an edit of any kind (see queueUpdate), the resource as its kind
   * reads it from the mirror. Inside a mirror write.
   */
  queueEdit(target: EditTarget, patch: TaskObject): { opId: string } | null {
    this.inWrite('queueEdit');
    const kind = this.kind(target.entityType);
    kind.checkEdit(patch, 'update');
    const { entityType, entityId, effective, server } = target;
    const at = this.now();
    const waitingCreate = this.entityOpsOf
      .all(entityType, entityId)
      .find((op) => op.kind === 'create' && op.state === 'queued' && op.attempts === 0);
    const toSend = waitingCreate ? this.foldIntoCreate(kind, waitingCreate, patch, at) : patch;
    if (waitingCreate && Object.keys(toSend).length === 0) {
      kind.refresh(entityId);
      return { opId: waitingCreate.op_id };
    }
    const last = this.lastUnsettled.get(entityType, entityId);

    // An update never sent takes the edit in; a create never sent took what it can carry above.
    if (last && last.state === 'queued' && last.attempts === 0 && last.kind === 'update') {
      const merged = JSON.parse(last.patch) as TaskObject;
      const base = JSON.parse(last.base_values) as TaskObject;
      for (const [field, value] of Object.entries(toSend)) {
        // Behind a create never sent there is no server value to fall back to: the field stays to send.
        if (server !== null && !(field in merged)) base[field] = server[field] ?? null;
        merged[field] = value;
        if (field in base && sameJson(value, base[field])) {
          delete merged[field];
          delete base[field];
        }
      }
      if (Object.keys(merged).length === 0) this.deleteOp.run(last.op_id);
      else this.updatePatch.run(JSON.stringify(merged), JSON.stringify(base), at, last.op_id);
      kind.refresh(entityId);
      return Object.keys(merged).length === 0 ? null : { opId: last.op_id };
    }

    const changed: TaskObject = {};
    for (const [field, value] of Object.entries(toSend)) {
      if (!sameJson(value, effective[field] ?? null)) changed[field] = value;
    }
    if (Object.keys(changed).length === 0) return null;
    const opId = randomUUID();
    this.insertOp.run(
      opId,
      entityType,
      entityId,
      target.parentId,
      'update',
      JSON.stringify(changed),
      server === null ? null : target.etag,
      JSON.stringify(server === null ? {} : pick(server, Object.keys(changed))),
      at,
      at,
    );
    kind.refresh(entityId);
    return { opId };
  }

  /**
   * Folds what a create never sent can carry into its body (the kind decides:
   * a sprint's status cannot go with its create, an end date chosen later
   * replaces its weeks) and returns the rest, to be queued as an update sent
   * after the create with the server's id. A field an update already waiting
   * behind the create holds stays there, so that it is not overtaken. The
   * create's new body is checked as a create: what the service would refuse is
   * refused here, before anything changes.
   */
  private foldIntoCreate(
    kind: MirrorWriteKind,
    create: OutboxRow,
    patch: TaskObject,
    at: string,
  ): TaskObject {
    const behind = this.entityOpsOf
      .all(create.entity_type, create.entity_id)
      .filter((op) => op.seq > create.seq && op.kind === 'update');
    const heldBehind = new Set(behind.flatMap((op) => Object.keys(JSON.parse(op.patch) as TaskObject)));
    const foldable: TaskObject = {};
    const rest: TaskObject = {};
    for (const [field, value] of Object.entries(patch)) {
      if (heldBehind.has(field)) rest[field] = value;
      else foldable[field] = value;
    }
    const body = JSON.parse(create.patch) as TaskObject;
    const folded = kind.foldIntoCreate
      ? kind.foldIntoCreate(body, foldable)
      : { create: { ...body, ...foldable }, later: {} };
    kind.checkEdit(folded.create, 'create');
    if (!sameJson(folded.create, body))
      this.updatePatch.run(JSON.stringify(folded.create), create.base_values, at, create.op_id);
    return { ...folded.later, ...rest };
  }

  /**
   * Queues a delete; the task disappears from lists at once. A task that
   * never reached the server is simply dropped (null: nothing to send).
   * The server copy the person deleted is its base: a 412 whose re-read
   * still shows it deletes again, only a change asks them. Inside mirror.tasks' write.
   */
  queueDelete(taskId: string): { opId: string } | null {
    this.inWrite('queueDelete');
    const row = this.store.byId(taskId);
    if (!row || row.hidden) throw new NotInMirrorError('task', taskId);
    const server = row.server_json === null ? {} : (JSON.parse(row.server_json) as TaskObject);
    return this.queueRemoval('task', taskId, null, row.server_json !== null, row.etag, server);
  }

  /**
   * Queues a delete of any kind (see queueDelete): a resource never on the
   * server and never sent cancels with its create. Inside a mirror write.
   */
  queueRemoval(
    entityType: string,
    entityId: string,
    parentId: string | null,
    onServer: boolean,
    etag: string | null,
    /** The version deleted, as the mirror has it (a collection's row): told apart from one changed since. */
    base: TaskObject = {},
  ): { opId: string } | null {
    this.inWrite('queueRemoval');
    const kind = this.kind(entityType);
    // A kind the service cannot delete (sprints) refuses here, before anything is queued.
    kind.checkEdit({}, 'delete');
    const ops = this.entityOpsOf.all(entityType, entityId);
    const unsent = (op: OutboxRow) => op.state === 'queued' && op.attempts === 0;
    if (!onServer && ops.every(unsent)) {
      for (const op of ops) this.deleteOp.run(op.op_id);
      kind.refresh(entityId);
      return null;
    }
    // Unsent edits of a resource about to be deleted are moot.
    for (const op of ops) if (op.kind === 'update' && unsent(op)) this.deleteOp.run(op.op_id);
    const opId = randomUUID();
    const at = this.now();
    this.insertOp.run(
      opId,
      entityType,
      entityId,
      parentId,
      'delete',
      '{}',
      etag,
      JSON.stringify(base),
      at,
      at,
    );
    kind.refresh(entityId);
    return { opId };
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

  /**
   * Operations that may be sent now, oldest first: for each entity only its
   * oldest unsettled operation, and only while queued or in flight (an
   * in-flight one after a restart is re-sent with the same key). An operation
   * that refers to another task's temporary id waits for that create. Creates
   * under one parent (comments on a task, sections in a scope) leave in the
   * order they were written, so the service lists them as the person wrote
   * them; one that stopped (failed, blocked) holds the others up no longer.
   */
  ready(limit = 100): OutboxOp[] {
    return this.tx.read(() => {
      const rows = this.db
        .prepare(
          `SELECT * FROM outbox o WHERE o.state IN ('queued', 'in_flight')
           AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_type = o.entity_type AND p.entity_id = o.entity_id
                            AND p.seq < o.seq AND p.state IN ${UNSETTLED_SQL})
           AND NOT (o.kind = 'create' AND o.parent_id IS NOT NULL AND EXISTS (
                 SELECT 1 FROM outbox c WHERE c.entity_type = o.entity_type AND c.parent_id = o.parent_id
                   AND c.kind = 'create' AND c.seq < o.seq AND c.state IN ('queued', 'in_flight')))
         ORDER BY o.seq`,
        )
        .iterate() as IterableIterator<OutboxRow>;
      const ready: OutboxOp[] = [];
      for (const row of rows) {
        const op = opOf(row);
        if (isTemporaryId(op.entityId) && op.kind !== 'create') continue;
        if (Object.values(op.patch).some(isTemporaryId)) continue;
        ready.push(op);
        if (ready.length >= limit) break;
      }
      return ready;
    });
  }

  /** The engine is about to send it: in flight, one more attempt. Durable before the request leaves. */
  start(opId: string): OutboxOp {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state !== 'queued' && row.state !== 'in_flight')
        throw new OutboxStateError(opId, row.state, 'send it');
      this.db
        .prepare(
          "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, updated_at = ? WHERE op_id = ?",
        )
        .run(this.now(), opId);
      return this.op(opId);
    });
  }

  /**
   * The server accepted the operation. A create's temporary id is replaced by
   * the server's everywhere (its row, its queued operations, references from
   * other tasks' pending edits); the answer becomes the task's server copy and
   * later operations made against the same version are rebased onto the new one.
   * Returns the task id after the operation (the server's id for a create).
   */
  settle(opId: string, answer: ServerAnswer | null): string {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state === 'done') return row.entity_id;
      const kind = this.kind(row.entity_type);
      if (row.kind === 'delete') {
        this.setState.run('done', null, this.now(), opId);
        for (const op of this.entityOps(row)) this.setState.run('done', null, this.now(), op.op_id);
        kind.removeRow(row.entity_id, row.parent_id);
        return row.entity_id;
      }
      if (!answer)
        throw new OutboxStateError(opId, row.state, 'settle a create or update without the server answer');
      const serverId = kind.answeredId(answer.task);
      const server = answer.task as TaskObject;
      if (row.kind === 'update' && serverId !== row.entity_id) {
        throw new MalformedRowError(
          kind.table,
          serverId,
          kind.idField,
          `answers for ${row.entity_id}, not for it`,
        );
      }
      let taskId = row.entity_id;
      if (row.kind === 'create' && serverId !== taskId) {
        this.remapTemporaryId(kind, taskId, serverId);
        taskId = serverId;
      }
      this.setState.run('done', null, this.now(), opId);

      const sentPatch = JSON.parse(row.patch) as TaskObject;
      for (const later of this.entityOpsOf.all(row.entity_type, taskId)) {
        if (later.kind === 'delete') {
          if (later.base_etag === null || later.base_etag === row.base_etag) {
            this.db.prepare('UPDATE outbox SET base_etag = ? WHERE op_id = ?').run(answer.etag, later.op_id);
          }
          continue;
        }
        if (later.kind !== 'update') continue;
        // Made against the version this operation changed (or against no server copy yet): the answer is its base now.
        if (later.base_etag !== row.base_etag) continue;
        const patch = JSON.parse(later.patch) as TaskObject;
        const base = JSON.parse(later.base_values) as TaskObject;
        for (const field of Object.keys(patch)) {
          if (row.kind === 'create' || field in sentPatch) base[field] = server[field] ?? null;
        }
        this.db
          .prepare('UPDATE outbox SET base_etag = ?, base_values = ? WHERE op_id = ?')
          .run(answer.etag, JSON.stringify(base), later.op_id);
      }
      kind.writeServerCopy(taskId, row.parent_id, server, answer.etag);
      return taskId;
    });
  }

  /**
   * A version of an operation's resource read while pushing (a 412's merge)
   * becomes its copy in the mirror. Tasks land through mirror.tasks.applyServerCopy.
   */
  landServerCopy(opId: string, answer: ServerAnswer): void {
    return this.tx.write(() => {
      const row = this.row(opId);
      const kind = this.kind(row.entity_type);
      if (kind.answeredId(answer.task) !== row.entity_id) return;
      kind.writeServerCopy(row.entity_id, row.parent_id, answer.task as TaskObject, answer.etag);
    }, 'server');
  }

  private remapTemporaryId(kind: MirrorWriteKind, from: string, to: string): void {
    kind.renameRow(from, to);
    const type = kind.entityType;
    this.db
      .prepare('UPDATE outbox SET entity_id = ? WHERE entity_type = ? AND entity_id = ?')
      .run(to, type, from);
    this.db
      .prepare('UPDATE conflicts SET entity_id = ? WHERE entity_type = ? AND entity_id = ?')
      .run(to, type, from);
    // Temporary ids are unique across kinds: a parent named by its temporary id (a new task's comments) follows.
    this.db.prepare('UPDATE outbox SET parent_id = ? WHERE parent_id = ?').run(to, from);
    // Other pending edits naming the temporary id (a subtask of a new task, a reply to a new comment): point them at the real one.
    const referring = this.db
      .prepare(
        `SELECT op_id, entity_type, entity_id, patch, base_values FROM outbox
          WHERE state IN ${UNSETTLED_SQL} AND (instr(patch, ?) > 0 OR instr(base_values, ?) > 0)`,
      )
      .all(from, from) as OutboxRow[];
    const touched = new Map<string, MirrorWriteKind>();
    for (const op of referring) {
      const patch = replaceIdIn(JSON.parse(op.patch) as TaskObject, from, to);
      const base = replaceIdIn(JSON.parse(op.base_values) as TaskObject, from, to);
      this.updatePatch.run(JSON.stringify(patch), JSON.stringify(base), this.now(), op.op_id);
      touched.set(`${op.entity_type}\u0000${op.entity_id}`, this.kind(op.entity_type));
    }
    for (const [key, other] of touched) {
      const id = key.slice(key.indexOf('\u0000') + 1);
      if (!(other === kind && id === to)) other.refresh(id);
    }
    kind.refresh(to);
  }

  /**
   * The operation did not go through: `failed` (the server refused it, e.g.
   * 422; editable and retryable), `blocked` (not allowed, e.g. a read-only
   * token), or back to `queued` (a transient failure; it will be sent again
   * with the same key).
   */
  fail(opId: string, state: 'failed' | 'blocked' | 'queued', problem: unknown): void {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state === 'done') throw new OutboxStateError(opId, row.state, `mark it ${state}`);
      this.setState.run(state, problem === undefined ? null : JSON.stringify(problem), this.now(), opId);
    });
  }

  /** A failed or blocked operation goes back to the queue (under a new key if its body changes). */
  retry(opId: string, patch?: TaskObject): string {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state !== 'failed' && row.state !== 'blocked')
        throw new OutboxStateError(opId, row.state, 'retry it');
      if (patch === undefined) {
        this.setState.run('queued', row.last_problem, this.now(), opId);
        return opId;
      }
      // The whole body is checked: a kind's create has fields that must go together (a section's scope).
      const body = { ...(JSON.parse(row.patch) as TaskObject), ...patch };
      this.kind(row.entity_type).checkEdit(body, row.kind as OutboxKind);
      return this.queueAgain(row, body);
    });
  }

  /** The operation back in the queue with a changed body: under a new key, for the service never saw this body. */
  private queueAgain(row: OutboxRow, body: TaskObject): string {
    const opId = randomUUID();
    this.db
      .prepare(
        "UPDATE outbox SET op_id = ?, patch = ?, state = 'queued', attempts = 0, updated_at = ? WHERE op_id = ?",
      )
      .run(opId, JSON.stringify(body), this.now(), row.op_id);
    this.kind(row.entity_type).refresh(row.entity_id);
    return opId;
  }

  /**
   * After a 412 whose merge left only fields the person changed: send them
   * again against the current version. A different body goes under a new key.
   */
  rebase(
    opId: string,
    rebase: { baseEtag: string | null; patch?: TaskObject; baseValues?: TaskObject },
  ): string {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state === 'done') throw new OutboxStateError(opId, row.state, 'rebase it');
      const oldPatch = JSON.parse(row.patch) as TaskObject;
      const patch = rebase.patch ?? oldPatch;
      const base = { ...(JSON.parse(row.base_values) as TaskObject), ...(rebase.baseValues ?? {}) };
      for (const field of Object.keys(base)) if (!(field in patch)) delete base[field];
      const at = this.now();
      if (Object.keys(patch).length === 0) {
        this.setState.run('done', null, at, opId);
        this.kind(row.entity_type).refresh(row.entity_id);
        return opId;
      }
      const newId = sameJson(patch, oldPatch) ? opId : randomUUID();
      this.db
        .prepare(
          "UPDATE outbox SET op_id = ?, patch = ?, base_etag = ?, base_values = ?, state = 'queued', updated_at = ? WHERE op_id = ?",
        )
        .run(newId, JSON.stringify(patch), rebase.baseEtag, JSON.stringify(base), at, opId);
      this.kind(row.entity_type).refresh(row.entity_id);
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
    return this.tx.write(() => this.recordConflict(opId, conflict));
  }

  private recordConflict(opId: string, conflict: ConflictInput): Conflict[] {
    const row = this.row(opId);
    if (row.state === 'done') throw new OutboxStateError(opId, row.state, 'record a conflict on it');
    const at = this.now();
    const oldPatch = JSON.parse(row.patch) as TaskObject;
    const oldBase = JSON.parse(row.base_values) as TaskObject;
    const list: readonly FieldConflict[] = conflict.deleted
      ? [{ field: DELETED_REMOTELY, base: oldBase, mine: oldPatch, theirs: null }]
      : conflict.fields;
    const insert = this.db.prepare(
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
      this.setState.run('conflict', problem, at, opId);
      this.kind(row.entity_type).markGone(row.entity_id);
    } else {
      const patch: TaskObject = { ...(conflict.patch ?? oldPatch) };
      const base: TaskObject = { ...oldBase, ...(conflict.baseValues ?? {}) };
      for (const c of conflict.fields) {
        patch[c.field] = c.mine ?? null;
        base[c.field] = c.theirs ?? null;
      }
      for (const field of Object.keys(base)) if (!(field in patch)) delete base[field];
      this.db
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
    this.kind(row.entity_type).refresh(row.entity_id);
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
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.kind !== 'delete' || row.state === 'done')
        throw new OutboxStateError(opId, row.state, 'hold it as a delete');
      this.db
        .prepare(
          "UPDATE outbox SET state = 'failed', base_etag = ?, base_values = ?, last_problem = ?, updated_at = ? WHERE op_id = ?",
        )
        .run(
          theirsEtag,
          theirs === undefined ? row.base_values : JSON.stringify(theirs),
          JSON.stringify(problem ?? null),
          this.now(),
          opId,
        );
    });
  }

  /** Puts an operation back exactly as before `start` (a request that certainly never left). */
  unstart(opId: string, before: { state: OutboxState; attempts: number }): void {
    return this.tx.write(() => {
      const row = this.row(opId);
      if (row.state !== 'in_flight') throw new OutboxStateError(opId, row.state, 'put it back');
      this.db
        .prepare('UPDATE outbox SET state = ?, attempts = ?, updated_at = ? WHERE op_id = ?')
        .run(before.state, before.attempts, this.now(), opId);
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
    this.inWrite('parkStoppedEditsOfGoneTask');
    const parked: ParkedEdit[] = [];
    for (const row of this.entityOpsOf.all('task', taskId)) {
      if (row.kind !== 'update' || (row.state !== 'failed' && row.state !== 'blocked')) continue;
      this.recordConflict(row.op_id, { deleted: true, problem: GONE_FROM_LIST_PROBLEM });
      parked.push({ opId: row.op_id, taskId, fields: Object.keys(JSON.parse(row.patch) as TaskObject) });
    }
    return parked;
  }

  /** Blocked operations go back to the queue (the account may have become writable). Returns how many. */
  unblockAll(): number {
    return this.tx.write(() => {
      return this.db
        .prepare("UPDATE outbox SET state = 'queued', updated_at = ? WHERE state = 'blocked'")
        .run(this.now()).changes;
    });
  }

  openConflictCount(): number {
    return this.tx.read(() => {
      return (
        this.db.prepare("SELECT count(*) AS n FROM conflicts WHERE state = 'open'").get() as { n: number }
      ).n;
    });
  }

  private conflictById(conflictId: string): Conflict {
    const row = this.db.prepare('SELECT * FROM conflicts WHERE conflict_id = ?').get(conflictId) as
      ConflictRowJson | undefined;
    if (!row) throw new NotInMirrorError('conflict', conflictId);
    return conflictOf(row);
  }

  /** How many edits wait, by what they wait for (db/outbox-counts.ts). */
  counts(): OutboxCounts {
    return this.tx.read(() => outboxCountsOf(this.db));
  }

  conflicts(state?: 'open' | 'resolved'): Conflict[] {
    return this.tx.read(() => {
      const rows = (
        state === undefined
          ? this.db.prepare('SELECT * FROM conflicts ORDER BY created_at, rowid').all()
          : this.db.prepare('SELECT * FROM conflicts WHERE state = ? ORDER BY created_at, rowid').all(state)
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
    return this.tx.write(() => {
      const conflict = this.conflictById(conflictId);
      if (conflict.state !== 'open') return conflict;
      const row = this.row(conflict.opId);
      const at = this.now();
      this.db
        .prepare(
          "UPDATE conflicts SET state = 'resolved', resolution = ?, resolved_at = ? WHERE conflict_id = ?",
        )
        .run(JSON.stringify(resolution), at, conflictId);
      const patch = JSON.parse(row.patch) as TaskObject;
      const base = JSON.parse(row.base_values) as TaskObject;

      if (conflict.field === DELETED_REMOTELY) {
        if ('take' in resolution && resolution.take === 'theirs') {
          this.setState.run('done', null, at, row.op_id);
          this.kind(row.entity_type).dropGone(row.entity_id, this.entityOps(row).length > 0);
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
      const open = this.db
        .prepare("SELECT count(*) AS n FROM conflicts WHERE op_id = ? AND state = 'open'")
        .get(row.op_id) as { n: number };
      if (open.n > 0) {
        this.updatePatch.run(JSON.stringify(patch), JSON.stringify(base), at, row.op_id);
      } else if (Object.keys(patch).length === 0) {
        this.updatePatch.run('{}', '{}', at, row.op_id);
        this.setState.run('done', null, at, row.op_id);
      } else {
        this.db
          .prepare(
            "UPDATE outbox SET op_id = ?, patch = ?, base_values = ?, state = 'queued', attempts = 0, updated_at = ? WHERE op_id = ?",
          )
          .run(randomUUID(), JSON.stringify(patch), JSON.stringify(base), at, row.op_id);
      }
      this.kind(row.entity_type).refresh(row.entity_id);
      return this.conflictById(conflictId);
    });
  }

  /** The person keeps a resource deleted on the server: it comes back as a new one with its current values. */
  private recreate(row: OutboxRow, values: TaskObject | null): void {
    const body = this.kind(row.entity_type).takeBackForRecreate(row, values);
    const at = this.now();
    for (const op of this.entityOps(row)) this.setState.run('done', null, at, op.op_id);
    const created = this.queueNew(row.entity_type, row.parent_id, body);
    this.db
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
    return this.tx.write(() => {
      const row = this.byOpId.get(opId);
      if (row?.kind !== 'create' || row.entity_type !== 'task' || fields.length === 0) return null;
      if (row.state !== 'queued' && row.state !== 'in_flight') return null;
      const recreated = this.db
        .prepare("SELECT 1 FROM conflicts WHERE entity_id = ? AND field = ? AND state = 'resolved' LIMIT 1")
        .get(row.entity_id, DELETED_REMOTELY);
      if (recreated === undefined) return null;
      const patch = JSON.parse(row.patch) as TaskObject;
      if (!fields.every((field) => isTaskReference(field) && Object.hasOwn(patch, field))) return null;
      for (const field of fields) delete patch[field];
      return opOf(this.row(this.queueAgain(row, patch)));
    });
  }

  /** Gives up an operation: its change disappears from the effective row. */
  drop(opId: string): void {
    return this.tx.write(() => {
      const row = this.row(opId);
      this.deleteOp.run(opId);
      // A create given up: what waits behind it (an edit under its temporary id) could never be sent.
      if (row.kind === 'create' && isTemporaryId(row.entity_id))
        for (const op of this.entityOps(row)) this.deleteOp.run(op.op_id);
      this.kind(row.entity_type).afterDrop(row.entity_id, this.entityOps(row).length > 0);
    });
  }
}
