// Undo and redo of the person's own task changes of this session, kept in main
// (db/undo/undo-history.ts) so that every screen shows the same stack: what an
// undo and a redo would do now, as the labels the toast and the menu show.
import { z } from 'zod';

export const undoLabelsSchema = z.strictObject({
  /** "Undo status change", "Undo delete: re-creates the task with a new id"; null when there is nothing to undo. */
  undo: z.string().nullable(),
  redo: z.string().nullable(),
});
export type UndoLabels = z.infer<typeof undoLabelsSchema>;

/** An undo or a redo done (or not: nothing to do), with the labels after it. */
export const undoneSchema = z.strictObject({
  /** What was undone or redone ("Undo status change"); null when the stack was empty. */
  done: z.string().nullable(),
  labels: undoLabelsSchema,
  /**
   * A step of many tasks: the batch its changes were queued under, followed
   * and stopped as a bulk change's (tasks:bulk-progress, tasks:bulk-stop);
   * null for one task's step or when nothing is left to send.
   */
  batch: z.strictObject({ batch_id: z.string(), queued: z.number().int().min(0) }).nullable(),
});
export type Undone = z.infer<typeof undoneSchema>;
