// A writable kind whose mirror copy is a row of one of the other collections
// (sections; sprints, goals and milestones take the same shape): the server's
// answer is upserted as that collection's row (columns lifted, raw JSON kept),
// a delete removes it, and a temporary resource is never stored (screens see it
// through CollectionWrites, which applies the outbox on read).
import type { Database } from 'better-sqlite3';
import type { z } from 'zod';
import { InvalidEditError } from '../mirror-errors';
import { checkResource, COLLECTIONS, columnValues, type OtherCollection } from '../collections';
import type { TaskObject } from '../task-columns';
import type { MirrorWriteKind, OutboxOpKind } from './mirror-kind';

export interface CollectionKindSpec {
  entityType: string;
  collection: OtherCollection;
  /** Refuses what the service would refuse for its shape (the protocol's body schemas). */
  checkEdit(patch: TaskObject, kind: OutboxOpKind): void;
  /** The row's scope column from the resource (e.g. a sprint's team); '' for a collection listed whole. */
  scopeOf(resource: TaskObject, parentId: string | null): string;
  /** The fields a re-create sends, from the person's values or the row's. */
  createFields: readonly string[];
  /**
   * The fields its create body carries (the protocol's create schema): an edit
   * of one never sent folds those into the create, the rest waits as an update.
   */
  createBodyFields: readonly string[];
  /** How the create's body changes when an edit folds in besides taking its fields (a sprint's end date replaces its weeks). */
  foldRule?: (create: TaskObject, patch: TaskObject) => void;
  /** Its delete went through: what else the service changed with it (a goal's tasks unfiled). */
  afterRemove?: (id: string) => void;
  /** Its operations changed (one queued, retried, settled): what screens show beside it follows (a delete's tasks). */
  afterOpsChanged?: (id: string) => void;
  /** One of its operations was given up: what a waiting delete showed beside it comes back. */
  afterGiveUp?: (id: string) => void;
}

/**
 * An edit checked against the protocol's body schemas: the first issue becomes
 * a clear error naming its field (an unknown field names itself).
 */
export function checkBySchemas(
  schemas: { create: z.ZodType; update: z.ZodType },
  patch: TaskObject,
  kind: OutboxOpKind,
): void {
  if (kind === 'delete') return;
  const parsed = (kind === 'create' ? schemas.create : schemas.update).safeParse(patch);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const field =
    issue?.code === 'unrecognized_keys' ? String(issue.keys[0]) : String(issue?.path[0] ?? 'name');
  throw new InvalidEditError(field, issue?.message ?? 'is not valid');
}

export function collectionWriteKind(
  db: Database,
  now: () => string,
  spec: CollectionKindSpec,
): MirrorWriteKind {
  const table = COLLECTIONS[spec.collection];
  const columns = table.columns.map(([field]) => field);
  const upsert = db.prepare(
    `INSERT INTO ${table.table} (${[table.idField, 'scope', ...columns, 'etag', 'fetched_at', 'raw_json'].join(', ')})
     VALUES (${['?', '?', ...columns.map(() => '?'), '?', '?', '?'].join(', ')})
     ON CONFLICT (${table.idField}) DO UPDATE SET ${[...columns, 'etag', 'fetched_at', 'raw_json']
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  );
  const stored = (id: string): TaskObject | null => {
    const row = db.prepare(`SELECT raw_json FROM ${table.table} WHERE ${table.idField} = ?`).get(id) as
      { raw_json: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.raw_json) as TaskObject);
  };
  const deleteRow = (id: string): void => {
    db.prepare(`DELETE FROM ${table.table} WHERE ${table.idField} = ?`).run(id);
  };
  return {
    entityType: spec.entityType,
    table: table.table,
    idField: table.idField,
    checkEdit: (patch, kind) => spec.checkEdit(patch, kind),
    foldIntoCreate(body, patch) {
      const create: TaskObject = { ...body };
      const later: TaskObject = {};
      for (const [field, value] of Object.entries(patch)) {
        if (spec.createBodyFields.includes(field)) create[field] = value;
        else later[field] = value;
      }
      spec.foldRule?.(create, patch);
      return { create, later };
    },
    // Screens read these collections through CollectionWrites, which applies the outbox on read.
    refresh: (id) => spec.afterOpsChanged?.(id),
    answeredId(server) {
      const checked = checkResource(table, server);
      if (checked instanceof Error) throw checked;
      return checked.id;
    },
    writeServerCopy(id, parentId, server, etag) {
      upsert.run(
        id,
        spec.scopeOf(server, parentId),
        ...columnValues(table, server),
        etag,
        now(),
        JSON.stringify(server),
      );
    },
    renameRow: () => undefined,
    removeRow(id) {
      deleteRow(id);
      spec.afterRemove?.(id);
    },
    markGone: () => undefined,
    dropGone(id, othersPending) {
      if (!othersPending) deleteRow(id);
      spec.afterGiveUp?.(id);
    },
    afterDrop: (id) => spec.afterGiveUp?.(id),
    takeBackForRecreate(row, values) {
      const current = {
        ...(stored(row.entity_id) ?? {}),
        ...(JSON.parse(row.patch) as TaskObject),
        ...(values ?? {}),
      };
      const body: TaskObject = {};
      for (const field of spec.createFields) if (current[field] !== undefined) body[field] = current[field];
      deleteRow(row.entity_id);
      return body;
    },
  };
}
