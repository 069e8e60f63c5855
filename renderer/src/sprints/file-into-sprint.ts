// Files a task into a sprint (a task edit of `sprint_id`, queued like any), from
// a drop on the sidebar or the palette's "File into sprint: …", and says so to
// screen readers.
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';

/** `title`: what the person saw of the task (a drag's text); the edit's answer names it when empty. */
export async function fileIntoSprint(
  taskId: string,
  title: string,
  sprint: Pick<SprintSummary, 'sprint_id' | 'name'>,
): Promise<void> {
  try {
    const detail = await invoke('task:edit', { task_id: taskId, patch: { sprint_id: sprint.sprint_id } });
    const named = title === '' ? detail.task.title : title;
    announce(`Filed ${named === '' ? 'the task' : `‘${named}’`} into sprint ‘${sprint.name}’.`);
  } catch (error) {
    showProblem(error, 'Filing the task into the sprint');
  }
}
