// A task history entry (`TaskHistoryInDB`): who did what to a task, each change
// in `metadata` as `{field, new, old}`. Documented: ids, action and author required.
import { z } from 'zod';
import { idField, optionalString } from './wire-fields';

/** One changed field. Its values are whatever the field holds, so they stay unknown. */
export const taskHistoryChangeSchema = z.looseObject({
  field: optionalString,
  new: z.unknown().optional(),
  old: z.unknown().optional(),
});
export type TaskHistoryChange = z.infer<typeof taskHistoryChangeSchema>;

export const taskHistoryEntrySchema = z.looseObject({
  history_id: idField,
  task_id: idField,
  action: z.string(),
  created_by: z.string(),
  created_at: optionalString,
  title: optionalString,
  metadata: z.array(taskHistoryChangeSchema).nullish(),
  hash_id: optionalString,
  updated_at: optionalString,
});
export type TaskHistoryEntry = z.infer<typeof taskHistoryEntrySchema>;
