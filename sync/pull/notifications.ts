// Which remote changes the signed-in person hears about: tasks newly assigned
// to them, status changes on tasks they are assigned to or created, and new
// comments (and replies) on those tasks. Their own changes coming back are not
// news, and neither is anything the first full sync finds.
import type { ResourceChange, SyncNotification } from '../events/sync-events';

type Raw = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function isMine(task: Raw, username: string): boolean {
  return task.assignee === username || task.created_by === username;
}

/**
 * Notifications for task changes. `taskOf` gives the stored copy of a task
 * (for comments, whose change does not carry it).
 */
export function notificationsOf(
  changes: readonly ResourceChange[],
  username: string,
  taskOf: (taskId: string) => Raw | null,
): SyncNotification[] {
  const out: SyncNotification[] = [];
  const newComments = new Map<string, { count: number; by: string | null }>();
  for (const change of changes) {
    if (change.collection === 'tasks') {
      const task = change.resource;
      const by = text(task.updated_by);
      if (by === username || change.kind === 'deleted') continue;
      const base = { task_id: change.id, title: text(task.title) ?? '', by };
      if (change.kind === 'created') {
        if (task.assignee === username && task.created_by !== username) {
          out.push({ kind: 'task-assigned', ...base, detail: {} });
        }
        continue;
      }
      const assignee = change.fields.find((f) => f.field === 'assignee');
      if (assignee && assignee.after === username) {
        out.push({ kind: 'task-assigned', ...base, detail: { from: assignee.before } });
      }
      const status = change.fields.find((f) => f.field === 'status');
      if (status && isMine(task, username)) {
        out.push({ kind: 'task-status-changed', ...base, detail: { from: status.before, to: status.after } });
      }
      continue;
    }
    if (change.collection === 'task_comments' && change.kind !== 'deleted') {
      const taskId = text(change.resource.task_id);
      if (taskId === null) continue;
      const before =
        change.kind === 'updated'
          ? commentIds(change.fields.find((f) => f.field === 'replies')?.before)
          : new Set<string>();
      const fresh =
        change.kind === 'created'
          ? flatten(change.resource)
          : flatten({ replies: change.fields.find((f) => f.field === 'replies')?.after ?? [] }).filter(
              (c) => !before.has(text(c.comment_id) ?? ''),
            );
      for (const comment of fresh) {
        const author = text(comment.created_by);
        if (author === username) continue;
        const entry = newComments.get(taskId) ?? { count: 0, by: null };
        entry.count += 1;
        entry.by = author;
        newComments.set(taskId, entry);
      }
    }
  }
  for (const [taskId, { count, by }] of newComments) {
    const task = taskOf(taskId);
    if (!task || !isMine(task, username)) continue;
    out.push({
      kind: 'task-commented',
      task_id: taskId,
      title: text(task.title) ?? '',
      by,
      detail: { count },
    });
  }
  return out;
}

/** A comment and its replies, depth first (a new comment counts with every reply it arrived with). */
function flatten(comment: Raw): Raw[] {
  const out: Raw[] = comment.comment_id === undefined ? [] : [comment];
  const replies = Array.isArray(comment.replies) ? (comment.replies as unknown[]) : [];
  for (const reply of replies) {
    if (typeof reply === 'object' && reply !== null) out.push(...flatten(reply as Raw));
  }
  return out;
}

function commentIds(replies: unknown): Set<string> {
  const ids = new Set<string>();
  for (const c of flatten({ replies: Array.isArray(replies) ? replies : [] })) {
    const id = text(c.comment_id);
    if (id !== null) ids.add(id);
  }
  return ids;
}
