// The outbox's kind of every collection kind (sections, sprints, goals,
// milestones), derived from its descriptor (protocol/writable-kind.ts): the
// server's answer is upserted as that collection's row (columns lifted, raw
// JSON kept), a delete removes it and unfiles its tasks, and a temporary
// resource is never stored (screens see it through CollectionWrites, which
// applies the outbox on read).
import type { Database } from 'better-sqlite3';
import type { z } from 'zod';
import { createFieldsOf, endingVerb, isDeletable, type WritableKind } from '../../../protocol/writable-kind';
import { InvalidEditError } from '../../mirror-errors';
import {
  checkResource,
  COLLECTIONS,
  columnValues,
  type OtherCollection,
} from '../../collections/collections';
import type { TaskObject } from '../../tasks/task-columns';
import type { TaskUnfiling } from '../../tasks/task-unfiling';
import type { MirrorWriteKind, OutboxOpKind } from './mirror-kind';

/**
 * An edit checked against the protocol's body schemas: the first issue becomes
 * a clear error naming its field (an unknown field names itself).
 */
function checkBySchemas(
  schemas: { create: z.ZodType; update: z.ZodType },
  patch: TaskObject,
  op: OutboxOpKind,
): void {
  if (op === 'delete') return;
  const parsed = (op === 'create' ? schemas.create : schemas.update).safeParse(patch);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const field =
    issue?.code === 'unrecognized_keys' ? String(issue.keys[0]) : String(issue?.path[0] ?? 'name');
  throw new InvalidEditError(field, issue?.message ?? 'is not valid');
}

export function collectionWriteKind(
  db: Database,
  now: () => string,
  kind: WritableKind,
  unfiling: TaskUnfiling,
): MirrorWriteKind {
  const table = COLLECTIONS[kind.collection as OtherCollection];
  // Refuses what the service would refuse for its shape; a kind without a delete refuses one.
  const schemas = { create: kind.schemas.create.strict(), update: kind.schemas.update.strict() };
  const checkEdit = (patch: TaskObject, op: OutboxOpKind): void => {
    if (op === 'delete' && !isDeletable(kind))
      throw new InvalidEditError(
        kind.entityType,
        `cannot be deleted (the service has none); ${endingVerb(kind)} it instead`,
      );
    checkBySchemas(schemas, patch, op);
  };
  const createBodyFields = createFieldsOf(kind);
  // The row's scope is the list it was pulled in: its parent's (a sprint's team), or '' for the organization's.
  const scopeOf = (resource: TaskObject, parentId: string | null): string => {
    if (kind.listedPer === 'organization' || kind.parentField === null) return '';
    const parent = resource[kind.parentField];
    return typeof parent === 'string' ? parent : (parentId ?? '');
  };
  // Its delete unfiles its tasks (gaps.md): on screen while it waits, in their server copies once taken.
  const field = kind.filesTasksBy;
  const afterRemove = (id: string): void => {
    if (field !== null) unfiling.deleted(field, id);
  };
  const afterOpsChanged = (id: string): void => {
    if (field !== null && isDeletable(kind)) unfiling.opsChanged(field, kind.entityType, id);
  };
  // One given up: what a waiting delete showed beside it comes back; a create never sent leaves the tasks filing under it.
  const afterGiveUp = (id: string): void => {
    if (field !== null) unfiling.givenUp(field, kind.entityType, id);
  };
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
    entityType: kind.entityType,
    table: table.table,
    idField: table.idField,
    checkEdit,
    foldIntoCreate(body, patch) {
      const create: TaskObject = { ...body };
      const later: TaskObject = {};
      for (const [field, value] of Object.entries(patch)) {
        if (createBodyFields.includes(field)) create[field] = value;
        else later[field] = value;
      }
      kind.foldIntoCreate?.(create, patch);
      return { create, later };
    },
    // Screens read these collections through CollectionWrites, which applies the outbox on read.
    refresh: afterOpsChanged,
    answeredId(server) {
      const checked = checkResource(table, server);
      if (checked instanceof Error) throw checked;
      return checked.id;
    },
    writeServerCopy(id, parentId, server, etag) {
      upsert.run(
        id,
        scopeOf(server, parentId),
        ...columnValues(table, server),
        etag,
        now(),
        JSON.stringify(server),
      );
    },
    renameRow: () => undefined,
    removeRow(id) {
      deleteRow(id);
      afterRemove(id);
    },
    markGone: () => undefined,
    dropGone(id, othersPending) {
      if (!othersPending) deleteRow(id);
      afterGiveUp(id);
    },
    afterDrop: afterGiveUp,
    takeBackForRecreate(row, values) {
      const current = {
        ...(stored(row.entity_id) ?? {}),
        ...(JSON.parse(row.patch) as TaskObject),
        ...(values ?? {}),
      };
      const body: TaskObject = {};
      for (const name of kind.recreateFields) if (current[name] !== undefined) body[name] = current[name];
      deleteRow(row.entity_id);
      return body;
    },
  };
}
