// What a push tells the person's inbox: an edit of theirs that met a conflict,
// or one the service refused (422), on a task or a comment on it. Each keyed by
// the operation and what happened to it, so a push that meets the same again
// (a retry, a restart) adds nothing. Desktop notifications of conflicts are the
// notifier's (services/notify); these entries are only kept, never announced.
import type { Mirror } from '../../db/mirror';
import type { NewNotification } from '../../db/passes/change-feed';
import type { SyncEvent } from '../events/sync-events';

/** The feed entry a push event stands for, null for other events and kinds not on a task. */
export function inboxEntryOfPush(
  event: SyncEvent,
  mirror: Pick<Mirror, 'tasks' | 'outbox'>,
  forUser: string,
): NewNotification | null {
  if (event.type !== 'conflict' && event.type !== 'push-failed') return null;
  if (event.entityType !== 'task' && event.entityType !== 'comment') return null;
  let taskId = event.entityId;
  if (event.entityType === 'comment') {
    try {
      taskId = mirror.outbox.op(event.opId).parentId ?? '';
    } catch {
      // The operation went meanwhile: no task to open.
      return null;
    }
    if (taskId === '') return null;
  }
  const title = mirror.tasks.get(taskId)?.task.title;
  const base = {
    entityType: 'task',
    entityId: taskId,
    forUser,
  };
  const summary = { title: typeof title === 'string' ? title : '', by: null, of: event.entityType };
  if (event.type === 'conflict') {
    return {
      ...base,
      kind: 'task-conflict',
      summary: { ...summary, conflict: event.conflict, fields: event.fields },
      key: `task-conflict:${event.opId}:${event.conflict}:${event.fields.join(',')}`,
    };
  }
  return {
    ...base,
    kind: 'task-refused',
    summary: { ...summary, message: event.error.message, status: event.error.status },
    key: `task-refused:${event.opId}:${event.error.status ?? ''}:${event.error.type ?? ''}`,
  };
}
