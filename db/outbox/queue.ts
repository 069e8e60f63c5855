// Queueing: how a person's change enters the outbox and waits there until it is
// sent. Creates under a temporary id, edits coalesced into what was never sent
// (a field set back to its base drops out), deletes that cancel what never
// reached the server, a changed body queued again under a new key, and an
// operation given up. Each runs inside a mirror write, with the kind's row
// updated so that screens show the change at once.
import { randomUUID } from 'node:crypto';
import { InvalidEditError, NotInMirrorError } from '../mirror-errors';
import type { MirrorWriteKind } from './kinds/mirror-kind';
import type { OutboxRow } from '../schema';
import type { TaskObject } from '../tasks/task-columns';
import { effectiveTaskOf, serverTaskOf, type StoredTask } from '../tasks/task-store';
import type { OutboxRows } from './outbox-rows';
import { type EditTarget, isTemporaryId, sameJson, TEMPORARY_ID_PREFIX } from './outbox-types';

function pick(source: TaskObject | null, fields: Iterable<string>): TaskObject {
  const out: TaskObject = {};
  for (const field of fields) out[field] = source?.[field] ?? null;
  return out;
}

export class OutboxQueue {
  /** The bulk change being queued (see inBatch); null for a single edit. */
  private batchId: string | null = null;

  constructor(private readonly rows: OutboxRows) {}

  /**
   * Runs `work` (queueing calls) as part of bulk change `batchId`: every
   * operation it queues is marked with it, and an edit never sent that it
   * folds into joins it unless another bulk change's already, so the change is
   * one unit to follow, stop or undo. Inside a mirror write.
   */
  inBatch<T>(batchId: string, work: () => T): T {
    this.rows.inWrite('inBatch');
    const outer = this.batchId;
    this.batchId = batchId;
    try {
      return work();
    } finally {
      this.batchId = outer;
    }
  }

  /** Queues a new task; its row shows at once under a temporary id. Inside mirror.tasks' write. */
  queueCreate(fields: TaskObject): { taskId: string; opId: string } {
    this.rows.inWrite('queueCreate');
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
    this.rows.inWrite('queueNew');
    const kind = this.rows.kind(entityType);
    kind.checkEdit(fields, 'create');
    const entityId = `${TEMPORARY_ID_PREFIX}${randomUUID()}`;
    const opId = this.insertQueued(entityType, entityId, parentId, 'create', {
      patch: JSON.stringify(fields),
      baseEtag: null,
      baseValues: '{}',
    });
    kind.refresh(entityId);
    return { entityId, opId };
  }

  /**
   * Queues an edit of a task; shown at once. Folds into the entity's last
   * operation while that one was never sent; fields set back to their base
   * value drop out. Returns null when nothing is left to send. Inside mirror.tasks' write.
   */
  queueUpdate(
    taskId: string,
    patch: TaskObject,
    /** The task's row as the caller just read it in this write (a bulk change): not read again. */
    known?: StoredTask,
  ): { opId: string } | null {
    this.rows.inWrite('queueUpdate');
    this.rows.kind('task').checkEdit(patch, 'update');
    const row = known ?? this.rows.store.byId(taskId);
    if (!row || row.hidden) throw new NotInMirrorError('task', taskId);
    return this.queueEdit(
      {
        entityType: 'task',
        entityId: taskId,
        parentId: null,
        effective: effectiveTaskOf(row),
        server: serverTaskOf(row),
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
    this.rows.inWrite('queueEdit');
    const kind = this.rows.kind(target.entityType);
    kind.checkEdit(patch, 'update');
    const { entityType, entityId, effective, server } = target;
    const at = this.rows.now();
    const unsettled = this.rows.entityOpsOf.all(entityType, entityId);
    const waitingCreate = unsettled.find(
      (op) => op.kind === 'create' && op.state === 'queued' && op.attempts === 0,
    );
    const toSend = waitingCreate ? this.foldIntoCreate(kind, waitingCreate, patch, at) : patch;
    if (waitingCreate && Object.keys(toSend).length === 0) {
      kind.refresh(entityId);
      return { opId: waitingCreate.op_id };
    }
    // The newest of those read above (folding into a create changed only the create's body, never taken below).
    const last = unsettled.at(-1);

    // An update never sent takes the edit in; a create never sent took what it can carry above.
    if (last && last.state === 'queued' && last.attempts === 0 && last.kind === 'update') {
      const merged = JSON.parse(last.patch) as TaskObject;
      const base = JSON.parse(last.base_values) as TaskObject;
      // Set back to its base, a field an earlier change also carries (one on its way) still goes: once
      // that lands the server no longer has the base (status keys 2 3 4 1 3 pressed fast ended
      // Completed, the third key's, on the server).
      const carriedBefore = new Set(
        unsettled
          .filter((op) => op.seq < last.seq)
          .flatMap((op) => Object.keys(JSON.parse(op.patch) as TaskObject)),
      );
      for (const [field, value] of Object.entries(toSend)) {
        // Behind a create never sent there is no server value to fall back to: the field stays to send.
        if (server !== null && !(field in merged)) base[field] = server[field] ?? null;
        merged[field] = value;
        if (field in base && !carriedBefore.has(field) && sameJson(value, base[field])) {
          delete merged[field];
          delete base[field];
        }
      }
      if (Object.keys(merged).length === 0) this.rows.deleteOp.run(last.op_id);
      else {
        this.rows.updatePatch.run(JSON.stringify(merged), JSON.stringify(base), at, last.op_id);
        if (this.batchId !== null) this.rows.joinBatch.run(this.batchId, last.op_id);
      }
      kind.refresh(entityId);
      return Object.keys(merged).length === 0 ? null : { opId: last.op_id };
    }

    const changed: TaskObject = {};
    for (const [field, value] of Object.entries(toSend)) {
      if (!sameJson(value, effective[field] ?? null)) changed[field] = value;
    }
    if (Object.keys(changed).length === 0) return null;
    const opId = this.insertQueued(
      entityType,
      entityId,
      target.parentId,
      'update',
      {
        patch: JSON.stringify(changed),
        baseEtag: server === null ? null : target.etag,
        baseValues: JSON.stringify(server === null ? {} : pick(server, Object.keys(changed))),
      },
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
    const behind = this.rows.entityOpsOf
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
      this.rows.updatePatch.run(JSON.stringify(folded.create), create.base_values, at, create.op_id);
    return { ...folded.later, ...rest };
  }

  /**
   * Queues a delete; the task disappears from lists at once. A task that
   * never reached the server is simply dropped (null: nothing to send).
   * The server copy the person deleted is its base: a 412 whose re-read
   * still shows it deletes again, only a change asks them. Inside mirror.tasks' write.
   */
  queueDelete(taskId: string): { opId: string } | null {
    this.rows.inWrite('queueDelete');
    const row = this.rows.store.byId(taskId);
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
    this.rows.inWrite('queueRemoval');
    const kind = this.rows.kind(entityType);
    // A kind the service cannot delete (sprints) refuses here, before anything is queued.
    kind.checkEdit({}, 'delete');
    const ops = this.rows.entityOpsOf.all(entityType, entityId);
    const unsent = (op: OutboxRow) => op.state === 'queued' && op.attempts === 0;
    if (!onServer && ops.every(unsent)) {
      for (const op of ops) this.rows.deleteOp.run(op.op_id);
      kind.refresh(entityId);
      return null;
    }
    // Unsent edits of a resource about to be deleted are moot.
    for (const op of ops) if (op.kind === 'update' && unsent(op)) this.rows.deleteOp.run(op.op_id);
    const opId = this.insertQueued(entityType, entityId, parentId, 'delete', {
      patch: '{}',
      baseEtag: etag,
      baseValues: JSON.stringify(base),
    });
    kind.refresh(entityId);
    return { opId };
  }

  /** Queues one operation under a new key (its idempotency key), created and last changed `at`. */
  private insertQueued(
    entityType: string,
    entityId: string,
    parentId: string | null,
    kind: 'create' | 'update' | 'delete',
    body: { patch: string; baseEtag: string | null; baseValues: string },
    at = this.rows.now(),
  ): string {
    const opId = randomUUID();
    this.rows.insertOp.run(
      opId,
      entityType,
      entityId,
      parentId,
      kind,
      body.patch,
      body.baseEtag,
      body.baseValues,
      at,
      at,
      this.batchId,
    );
    return opId;
  }

  /** The operation back in the queue with a changed body: under a new key, for the service never saw this body. */
  queueAgain(row: OutboxRow, body: TaskObject): string {
    const opId = randomUUID();
    this.rows.db
      .prepare(
        "UPDATE outbox SET op_id = ?, patch = ?, state = 'queued', attempts = 0, updated_at = ? WHERE op_id = ?",
      )
      .run(opId, JSON.stringify(body), this.rows.now(), row.op_id);
    this.rows.kind(row.entity_type).refresh(row.entity_id);
    return opId;
  }

  /** Gives up an operation: its change disappears from the effective row. */
  drop(opId: string): void {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      this.rows.deleteOp.run(opId);
      // A create given up: what waits behind it (an edit under its temporary id) could never be sent.
      if (row.kind === 'create' && isTemporaryId(row.entity_id))
        for (const op of this.rows.entityOps(row)) this.rows.deleteOp.run(op.op_id);
      this.rows.kind(row.entity_type).afterDrop(row.entity_id, this.rows.entityOps(row).length > 0);
    });
  }
}
