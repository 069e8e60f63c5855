// A clicked desktop notification: main has shown the window on its account;
// here the task opens over the person's tasks (or their list, for a group).
import { subscribe } from '../bridge/svc';
import { navigate, openTask, useView } from '../store/view-store';

/** Follows `notification:open` events; returns the function that stops. */
export function followNotificationClicks(): () => void {
  return subscribe('notification:open', ({ task_id }) => {
    if (task_id === null || useView.getState().view.kind === 'sync') {
      navigate({ kind: 'list', scope: { kind: 'my-tasks' } });
    }
    openTask(task_id);
  });
}
