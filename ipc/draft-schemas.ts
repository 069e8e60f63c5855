// The draft calls' shapes: what a person started writing and has not sent (a
// comment on a task, a reply to one of its comments, a new task's fields),
// kept in the account's mirror until sent or discarded (db/drafts/).
import { z } from 'zod';
import { idSchema } from './id-schemas';

// A comment's bound is 100 000 characters (two UTF-16 units at most each); a draft may be empty while written.
const textSchema = z.string().max(200_000);
const wordSchema = z.string().max(1000);

/** A new task's fields as its form holds them ('' for a choice not made). */
export const newTaskDraftFieldsSchema = z.strictObject({
  title: wordSchema,
  status: wordSchema,
  priority: wordSchema,
  project_id: wordSchema,
});
export type NewTaskDraftFields = z.infer<typeof newTaskDraftFieldsSchema>;

/** Which draft: one comment and one reply per comment on a task, one new task per account. */
export const draftKeySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('comment'), task_id: idSchema }),
  z.strictObject({ kind: z.literal('reply'), task_id: idSchema, reply_to: idSchema }),
  z.strictObject({ kind: z.literal('new-task') }),
]);
export type DraftKey = z.infer<typeof draftKeySchema>;

export const draftSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('comment'), task_id: idSchema, text: textSchema }),
  z.strictObject({ kind: z.literal('reply'), task_id: idSchema, reply_to: idSchema, text: textSchema }),
  z.strictObject({ kind: z.literal('new-task'), fields: newTaskDraftFieldsSchema }),
]);
export type Draft = z.infer<typeof draftSchema>;

export const draftListInputSchema = z.strictObject({ task_id: idSchema.optional() }).optional();
