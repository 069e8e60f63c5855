// What the pending-changes inspector and the conflict view send and read: each
// queued operation with its before/after values and the server's last answer,
// and a task's conflicts per field with what merged cleanly. No Electron here.
import { z } from 'zod';
import { idSchema, localIdSchema, taskIdInputSchema } from './id-schemas';

/** The states a person sees; `sending` is the outbox's `in_flight`. */
export const pendingStateSchema = z.enum(['queued', 'sending', 'conflict', 'failed', 'blocked']);
export type PendingState = z.infer<typeof pendingStateSchema>;

export const fieldChangeSchema = z.object({
  field: z.string(),
  /** The server's value when the edit was made (null for a create). */
  before: z.unknown(),
  after: z.unknown(),
});
export type FieldChangeView = z.infer<typeof fieldChangeSchema>;

/** The server's last answer to an operation, as recorded (null when it has none). */
export const serverAnswerSchema = z.object({
  status: z.number().nullable(),
  /** The problem type's short name (`validation`, `test-token-read-only`, `edited-remotely`, …), or the error's kind. */
  type: z.string().nullable(),
  detail: z.string().nullable(),
  /** Per-field complaints (a 422's `errors`), the field being the last part of `loc`. */
  errors: z.array(z.object({ field: z.string().nullable(), message: z.string() })),
});
export type ServerAnswer = z.infer<typeof serverAnswerSchema>;

/** Names of what ids point at, by id (db/referenced-names): shown in place of the ids; an id not in it is shown as is. */
const namesSchema = z.record(z.string(), z.string()).optional();

/**
 * The stopped change (read-only, refused, in conflict) a queued one is held behind
 * until the person settles it (db/outbox/outbox-waits): a task filed into a sprint whose
 * create is read-only names that create. Retry and discard belong to that change.
 */
export const waitsOnSchema = z.object({
  op_id: z.string(),
  kind: z.enum(['create', 'update', 'delete']),
  entity_type: z.string(),
  entity_id: z.string(),
  /** The resource's name or title (a sprint's name, a task's title); null when unknown. */
  name: z.string().nullable(),
  state: z.enum(['conflict', 'failed', 'blocked']),
});
export type WaitsOnView = z.infer<typeof waitsOnSchema>;

/** Which change, and what it is to: the same words in a pending change and in a conflict view. */
const changeSubjectShape = {
  op_id: z.string(),
  /** What the change is to: absent for a task, else its kind ('comment'); `task_id` is then its task's. */
  entity_type: z.string().optional(),
  /** The comment's or section's id (a temporary one until it is sent); absent for a task. */
  entity_id: z.string().optional(),
  /** A section's name as shown now (its waiting rename applied); absent for a task or comment. */
  entity_name: z.string().nullable().optional(),
  task_id: z.string(),
  /** The task's title as shown now (null when the mirror no longer has it). */
  task_title: z.string().nullable(),
};

export const pendingChangeSchema = z.object({
  ...changeSubjectShape,
  kind: z.enum(['create', 'update', 'delete']),
  state: pendingStateSchema,
  changes: z.array(fieldChangeSchema),
  /**
   * Names of what its values point at, by id (a project, section, sprint, goal, milestone, parent
   * task, a reply's parent comment; queued ones too; db/referenced-names); absent when it names none.
   */
  names: namesSchema,
  attempts: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  last_answer: serverAnswerSchema.nullable(),
  /** What it is held behind; null when nothing stopped is ahead of it (it goes when the server can be reached). */
  waits_on: waitsOnSchema.nullable(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

export const pendingChangesSchema = z.object({ changes: z.array(pendingChangeSchema) });
export type PendingChanges = z.infer<typeof pendingChangesSchema>;

export const retryInputSchema = z.strictObject({
  op_id: localIdSchema,
  /**
   * New values for the operation's fields (the person's edit of a refused change):
   * checked in the handler as a task patch for a task, by its kind with the whole body otherwise.
   */
  patch: z.record(z.string(), z.unknown()).optional(),
});

export const conflictFieldSchema = z.object({
  conflict_id: z.string(),
  field: z.string(),
  base: z.unknown(),
  mine: z.unknown(),
  theirs: z.unknown(),
});
export type ConflictFieldView = z.infer<typeof conflictFieldSchema>;

/** A field of my edit that needed nobody: still sent (`rebased`), theirs kept (`taken`), or the same on both sides (`settled`). */
export const mergedFieldSchema = z.object({
  field: z.string(),
  how: z.enum(['rebased', 'taken', 'settled']),
  value: z.unknown(),
});
export type MergedFieldView = z.infer<typeof mergedFieldSchema>;

export const conflictViewSchema = z.object({
  /** As in a pending change: absent for a task, else its kind, id and (a section's) name; `task_id` is a comment's task. */
  ...changeSubjectShape,
  /** Names of what the three versions, the merged values and the draft point at, by id. */
  names: namesSchema,
  /** `edited`: fields changed on both sides; `gone`: deleted on the server or no longer readable. */
  kind: z.enum(['edited', 'gone']),
  fields: z.array(conflictFieldSchema),
  merged: z.array(mergedFieldSchema),
  /** For `gone`: the edit kept as a draft, and the task as it would be re-created. */
  gone: z
    .object({
      conflict_id: z.string(),
      /** 404 (deleted) or 403 (no longer readable), when the server said. */
      status: z.number().nullable(),
      draft: z.record(z.string(), z.unknown()),
      task: z.record(z.string(), z.unknown()),
      /** What re-creating it leaves out, in words (references the person can no longer use). */
      left_out: z.array(z.string()),
    })
    .nullable(),
});
export type ConflictView = z.infer<typeof conflictViewSchema>;

export const conflictChoiceSchema = z.union([
  z.strictObject({ conflict_id: localIdSchema, take: z.enum(['mine', 'theirs']) }),
  /** A typed value for one field (checked like an edit of that field). */
  z.strictObject({ conflict_id: localIdSchema, value: z.unknown() }),
]);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

/** Whose conflicts to show: a task's (as before the kinds), or any kind's resource by kind and id. */
export const conflictTargetSchema = z.union([
  taskIdInputSchema,
  z.strictObject({ entity_type: z.string().min(1).max(50), entity_id: idSchema }),
]);
export type ConflictTarget = z.infer<typeof conflictTargetSchema>;

export const resolveInputSchema = z.strictObject({
  op_id: localIdSchema,
  choices: z.array(conflictChoiceSchema).min(1).max(100),
});

export const resolvedSchema = z.object({
  /** The task after: a re-created task's new id, or null when the task is gone for good (a comment's: its task; a section's: null). */
  task_id: z.string().nullable(),
});
