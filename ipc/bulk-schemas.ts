// A change of many tasks at once, as the renderer asks it (main/ipc/bulk-handlers.ts):
// which tasks (ids, or everything a list query matches but some, never all the
// ids in the page), what changes, and how far sending it has got.
import { z } from 'zod';
import { listParentSchema, taskListQuerySchema, taskPatchSchema } from './screen-schemas';
import { localIdSchema, idSchema } from './id-schemas';

const tagSchema = z.string().trim().min(1).max(100);

/** Up to this many ids by name; beyond, a selection is "all the query matches but these". */
export const MAX_BULK_IDS = 20_000;

export const bulkTargetSchema = z.union([
  z.strictObject({ task_ids: z.array(idSchema).min(1).max(MAX_BULK_IDS) }),
  z.strictObject({
    query: taskListQuerySchema,
    /** Tasks the query matches that the person took out of the selection. */
    except: z.array(idSchema).max(MAX_BULK_IDS),
    parent: listParentSchema,
  }),
]);
export type BulkTargetInput = z.infer<typeof bulkTargetSchema>;

export const bulkChangeSchema = z.union([
  z.strictObject({
    /** Fields set on every task (the same merge-patch a single edit sends). */
    set: taskPatchSchema,
    tags_add: z.array(tagSchema).max(100).optional(),
    tags_remove: z.array(tagSchema).max(100).optional(),
  }),
  z.strictObject({ delete: z.literal(true) }),
]);
export type BulkChangeInput = z.infer<typeof bulkChangeSchema>;

export const bulkEditInputSchema = z.strictObject({ target: bulkTargetSchema, change: bulkChangeSchema });

const countSchema = z.number().int().min(0);

/** Queued: the change's id (its progress, its stop), and how many tasks it took. */
export const bulkQueuedSchema = z.strictObject({
  batch_id: z.string(),
  matched: countSchema,
  queued: countSchema,
  /** Tasks whose waiting change the change set back to the service's values (nothing queued, yet changed). */
  set_back: countSchema,
  unchanged: countSchema,
});
export type BulkQueued = z.infer<typeof bulkQueuedSchema>;

export const batchInputSchema = z.strictObject({ batch_id: localIdSchema });

/** "N of M sent": the change's operations by where they stand. */
export const bulkProgressSchema = z.strictObject({
  total: countSchema,
  sent: countSchema,
  waiting: countSchema,
  /** Stopped for the person: conflicts, refusals (shown among pending changes). */
  stopped: countSchema,
});
export type BulkProgress = z.infer<typeof bulkProgressSchema>;

export const bulkStoppedSchema = z.strictObject({ given_up: countSchema, progress: bulkProgressSchema });
