// The collection-write calls' shapes: create, edit or delete a section, sprint,
// goal or milestone. Fields are checked where the write is queued
// (db/outbox/kinds/, against the protocol's body schemas), so a refused one is
// told by field and loses nothing; here only their outer shape is held.
import { z } from 'zod';
import { COLLECTION_ENTITIES } from '../protocol/writable-kinds';
import { idSchema } from './id-schemas';

/** The kinds a person writes besides tasks and comments, by their outbox entity type (protocol/writable-kinds.ts). */
export const collectionKindSchema = z.enum(COLLECTION_ENTITIES);
export type CollectionKind = z.infer<typeof collectionKindSchema>;

// A body's fields by name; the kind's schema checks each (names, dates, bounds).
const fieldsSchema = z.record(z.string().min(1).max(100), z.unknown()).refine((fields) => {
  return Object.keys(fields).length <= 50;
}, 'has too many fields');

export const collectionCreateInputSchema = z.strictObject({
  kind: collectionKindSchema,
  /** The create body of gaps.md without `org_id` and without the route's parent id. */
  fields: fieldsSchema,
  /** What its routes need: a sprint's team, a goal's or milestone's project (a queued one by its temporary id). */
  parent_id: idSchema.nullable().optional(),
});

export const collectionEditInputSchema = z.strictObject({
  kind: collectionKindSchema,
  id: idSchema,
  /** A merge-patch of the update body's fields. */
  patch: fieldsSchema,
});

export const collectionDeleteInputSchema = z.strictObject({ kind: collectionKindSchema, id: idSchema });

/** A queued write: the resource's id (temporary, `local-…`, until created) and its operation (null: nothing to send). */
export const collectionQueuedSchema = z.object({ id: z.string(), op_id: z.string().nullable() });
export type CollectionQueued = z.infer<typeof collectionQueuedSchema>;
