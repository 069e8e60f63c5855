// A task's place among others as its editor shows it: the task it is a
// sub-task of (opened from the editor) and its own sub-tasks with how many are
// done, from the mirror (offline edits included).
import { z } from 'zod';
import type { Mirror } from '../mirror';
import { textOf } from '../../protocol/wire-fields';

/** The parent named by `parent_task_id`; `title` and `status` null when the mirror does not show it (deleted, or not readable). */
export const parentTaskSchema = z.object({
  task_id: z.string(),
  title: z.string().nullable(),
  status: z.string().nullable(),
});

export const subTaskSchema = z.object({
  task_id: z.string(),
  title: z.string(),
  status: z.string(),
  /** An edit of it waits to be sent (a sub-task added offline, say). */
  pending: z.boolean(),
});

export const taskFamilySchema = z.object({
  parent: parentTaskSchema.nullable(),
  sub_tasks: z.array(subTaskSchema),
  /** How many of `sub_tasks` are completed. */
  sub_tasks_done: z.number().int(),
});
export type TaskFamily = z.infer<typeof taskFamilySchema>;

export function taskFamily(mirror: Mirror, taskId: string, parentId: string | null): TaskFamily {
  const subTasks = mirror.tasks.subTasks(taskId);
  let parent: TaskFamily['parent'] = null;
  if (parentId !== null) {
    const found = mirror.tasks.get(parentId);
    const shown = found !== null && !found.hidden;
    parent = {
      task_id: parentId,
      title: shown ? textOf(found.task.title) : null,
      status: shown ? textOf(found.task.status) : null,
    };
  }
  return {
    parent,
    sub_tasks: subTasks,
    sub_tasks_done: subTasks.filter((task) => task.status === 'completed').length,
  };
}
