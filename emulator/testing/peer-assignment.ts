// The peer assigning me someone else's task on the server: what makes a
// task-assigned entry (a notification, an inbox line) come on the next poll.
import type { TaskRecord } from '../records';
import type { RunningEmulator } from '../start';

/** The peer assigns me a seeded task neither assigned to me nor made by me: that task, as it was. */
export function peerAssignsMeATask(emulator: RunningEmulator): TaskRecord {
  const me = emulator.me.username;
  const task = emulator.control.tasks().find((t) => t.assignee !== me && t.created_by !== me);
  if (!task) throw new Error('the seed has no task of someone else');
  emulator.control.peerEdit(task.task_id, { assignee: me });
  return task;
}
