// A person's changes to one of the other collections (mirror.sections, sprints, goals, milestones):
// creates, edits and deletes queued through the outbox's kind for it
// (db/outbox/kinds/), and the collection as screens show it, with what still
// waits applied (a new one at once under its temporary id, marked `pending`).
import type { Database } from 'better-sqlite3';
import type { WritableKind } from '../../protocol/writable-kind';
import { COLLECTIONS, type OtherCollection } from './collections';
import { InvalidEditError, NotInMirrorError } from '../mirror-errors';
import type { MirrorTransactions } from '../mirror-transactions';
import type { Outbox } from '../outbox/outbox';
import { isTemporaryId, type OutboxState } from '../outbox/outbox-types';
import type { TaskObject } from '../tasks/task-columns';

/** A resource as screens read it, and while a change of it waits, that change's state. */
export type PendingResource = TaskObject & { pending?: OutboxState };

export class CollectionWrites {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
    private readonly outbox: Outbox,
    kind: WritableKind,
  ) {
    this.entityType = kind.entityType;
    this.collection = kind.collection as OtherCollection;
    this.parentField = kind.parentField;
  }

  readonly entityType: string;
  /** The mirrored collection its resources are stored in (what screens reload when it changes). */
  readonly collection: OtherCollection;
  /** The field naming the parent its routes need (a sprint's `team_id`), taken from a stored row. */
  private readonly parentField: string | null;

  /** Queues a new one; shown at once under a temporary id. `parentId`: what its routes need (a sprint's team). */
  create(fields: TaskObject, parentId: string | null = null): { id: string; opId: string } {
    if (this.parentField !== null && parentId === null)
      throw new InvalidEditError(this.parentField, 'is required to create one');
    return this.tx.write(() => {
      const created = this.outbox.queueNew(this.entityType, parentId, fields);
      return { id: created.entityId, opId: created.opId };
    });
  }

  /** Queues a merge-patch (sent with If-Match); folds into a change not sent yet. Null when it changes nothing. */
  edit(id: string, patch: TaskObject): { opId: string } | null {
    return this.tx.write(() => {
      const current = this.current(id);
      if (this.parentField !== null && current.parentId === null) throw new NotInMirrorError('resource', id);
      return this.outbox.queueEdit({ entityType: this.entityType, entityId: id, ...current }, patch);
    });
  }

  /** Queues a delete; one never sent is dropped with its create (null: nothing to send). */
  delete(id: string): { opId: string } | null {
    return this.tx.write(() => {
      const current = this.current(id);
      return this.outbox.queueRemoval(
        this.entityType,
        id,
        current.parentId,
        current.server !== null,
        current.etag,
        current.server ?? {},
      );
    });
  }

  /** One resource as screens show it (waiting changes applied), or undefined when there is none by that id. */
  get(id: string): PendingResource | undefined {
    const idField = COLLECTIONS[this.collection].idField;
    return this.list().find((resource) => resource[idField] === id);
  }

  /** The stored resources (of one scope when given) with waiting creates, edits and deletes applied. */
  list(scope?: string): PendingResource[] {
    return this.tx.read(() => {
      const spec = COLLECTIONS[this.collection];
      const rows = (
        scope === undefined
          ? this.db.prepare(`SELECT raw_json FROM ${spec.table} ORDER BY ${spec.idField}`).all()
          : this.db
              .prepare(`SELECT raw_json FROM ${spec.table} WHERE scope = ? ORDER BY ${spec.idField}`)
              .all(scope)
      ) as { raw_json: string }[];
      return this.withWaiting(rows, scope, () => true);
    });
  }

  /**
   * The resources whose lifted column `field` is `value` (a task's
   * attachments), read through its index, with waiting changes applied: a new
   * one is listed when its create names that value.
   */
  listWhere(field: string, value: string): PendingResource[] {
    const spec = COLLECTIONS[this.collection];
    if (!spec.columns.some(([column]) => column === field))
      throw new Error(`${spec.table} has no column ${field}`);
    return this.tx.read(() => {
      const rows = this.db
        .prepare(`SELECT raw_json FROM ${spec.table} WHERE ${field} = ? ORDER BY ${spec.idField}`)
        .all(value) as { raw_json: string }[];
      return this.withWaiting(rows, undefined, (resource) => resource[field] === value);
    });
  }

  /** Stored rows with the outbox's waiting changes of this kind applied; `keep` says which waiting ones belong. */
  private withWaiting(
    rows: readonly { raw_json: string }[],
    scope: string | undefined,
    keep: (resource: PendingResource) => boolean,
  ): PendingResource[] {
    const spec = COLLECTIONS[this.collection];
    const byId = new Map<string, PendingResource>();
    for (const row of rows) {
      const resource = JSON.parse(row.raw_json) as PendingResource;
      byId.set(String(resource[spec.idField]), resource);
    }
    for (const op of this.outbox.opsOfKind(this.entityType)) {
      if (op.kind === 'delete') {
        byId.delete(op.entityId);
        continue;
      }
      const resource =
        byId.get(op.entityId) ??
        (op.kind === 'create'
          ? {
              [spec.idField]: op.entityId,
              ...(this.parentField === null ? {} : { [this.parentField]: op.parentId }),
            }
          : null);
      if (resource === null) continue;
      // A new one under another parent than the scope asked for (another team's sprint) is not listed.
      if (op.kind === 'create' && scope !== undefined && this.parentField !== null && op.parentId !== scope)
        continue;
      const changed = { ...resource, ...op.patch, pending: op.state };
      if (keep(changed)) byId.set(op.entityId, changed);
      else byId.delete(op.entityId);
    }
    return [...byId.values()];
  }

  private current(id: string): {
    parentId: string | null;
    effective: TaskObject;
    server: TaskObject | null;
    etag: string | null;
  } {
    const spec = COLLECTIONS[this.collection];
    const ops = this.outbox.opsOf(this.entityType, id);
    if (ops.some((op) => op.kind === 'delete')) throw new NotInMirrorError('resource', id);
    const row = isTemporaryId(id)
      ? undefined
      : (this.db.prepare(`SELECT raw_json, etag FROM ${spec.table} WHERE ${spec.idField} = ?`).get(id) as
          { raw_json: string; etag: string | null } | undefined);
    if (row === undefined && !ops.some((op) => op.kind === 'create'))
      throw new NotInMirrorError('resource', id);
    const server = row === undefined ? null : (JSON.parse(row.raw_json) as TaskObject);
    let effective: TaskObject = { ...(server ?? {}) };
    for (const op of ops) effective = { ...effective, ...op.patch };
    const stored = this.parentField === null ? undefined : server?.[this.parentField];
    const parentId = ops[0]?.parentId ?? (typeof stored === 'string' ? stored : null);
    return { parentId, effective, server, etag: row?.etag ?? null };
  }
}
