// The comment calls' shapes: write a comment or a reply, edit or delete one's
// own. Content bounds are checked again where the edit is queued (the
// protocol's body schemas, in characters), so a refused one loses nothing.
import { z } from 'zod';
import { idSchema } from './id-schemas';

// The service's bound is 100 000 characters; a character may take two UTF-16 units.
const contentSchema = z.string().min(1).max(200_000);

export const commentCreateInputSchema = z.strictObject({
  task_id: idSchema,
  content: contentSchema,
  /** The comment answered (also one still queued, by its temporary id). */
  parent_comment_id: idSchema.nullable().optional(),
});

export const commentEditInputSchema = z.strictObject({ comment_id: idSchema, content: contentSchema });

export const commentDeleteInputSchema = z.strictObject({ comment_id: idSchema });

/** A queued comment: its id (temporary, `local-…`, until it is sent) and its operation. */
export const commentQueuedSchema = z.object({ comment_id: z.string(), op_id: z.string().nullable() });
export type CommentQueued = z.infer<typeof commentQueuedSchema>;
