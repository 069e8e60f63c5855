// A clicked desktop notification: main has shown the window on its account;
// here the task opens over the person's tasks (or their list, for a group), or
// the conflict view of a resource that is not a task (a section).
import { subscribe } from '../bridge/svc';
import { openConflictOf } from '../store/trust-store';
import { navigate, openTask, useView } from '../store/view-store';

/** Follows `notification:open` events; returns the function that stops. */
export function followNotificationClicks(): () => void {
  return subscribe('notification:open', ({ task_id, conflict }) => {
    if (conflict !== undefined) {
      openConflictOf(conflict);
      return;
    }
    if (task_id === null || useView.getState().view.kind === 'sync') {
      navigate({ kind: 'list', scope: { kind: 'my-tasks' } });
    }
    openTask(task_id);
  });
}
