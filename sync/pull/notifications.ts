// Which remote changes the signed-in person hears about: tasks newly assigned
// to them, status changes on tasks they are assigned to or created, new
// comments (and replies) on those tasks, replies in a thread they wrote in on
// any task (a thread they follow), and comments anywhere that mention them.
// Their own changes coming back are not news, and neither is anything the
// first full sync finds. Each carries the key of the change it stands for (the
// task's version, the comments' ids), so meeting it again adds nothing to the inbox.
import type { ResourceChange, SyncNotification } from '../events/sync-events';

type Raw = Readonly<Record<string, unknown>>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The version of a task a change brought: what tells this change from a later one of the same field. */
function versionOf(change: ResourceChange): string {
  const task = change.resource;
  return text(task.updated_at) ?? text(task.etag) ?? JSON.stringify(change.fields);
}

/** Whether a comment mentions the person (the service's `mentions`, else an `@username` in its text). */
function mentions(comment: Raw, username: string): boolean {
  if (Array.isArray(comment.mentions)) {
    return comment.mentions.some(
      (m) => typeof m === 'object' && m !== null && (m as Raw).username === username,
    );
  }
  const content = text(comment.content) ?? '';
  return new RegExp(`(^|[^\\w@])@${username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(content);
}

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
  const newComments = new Map<string, { count: number; by: string | null; ids: string[] }>();
  const mentioned: { taskId: string; comment: Raw }[] = [];
  /** Tasks with a thread the person wrote in before this change: they follow it. */
  const followed = new Set<string>();
  for (const change of changes) {
    if (change.collection === 'tasks') {
      const task = change.resource;
      const by = text(task.updated_by);
      if (by === username || change.kind === 'deleted') continue;
      const base = { task_id: change.id, title: text(task.title) ?? '', by };
      const version = versionOf(change);
      if (change.kind === 'created') {
        if (task.assignee === username && task.created_by !== username) {
          out.push({
            kind: 'task-assigned',
            ...base,
            detail: {},
            key: `task-assigned:${change.id}:${version}`,
          });
        }
        continue;
      }
      const assignee = change.fields.find((f) => f.field === 'assignee');
      if (assignee && assignee.after === username) {
        out.push({
          kind: 'task-assigned',
          ...base,
          detail: { from: assignee.before },
          key: `task-assigned:${change.id}:${version}`,
        });
      }
      const status = change.fields.find((f) => f.field === 'status');
      if (status && isMine(task, username)) {
        out.push({
          kind: 'task-status-changed',
          ...base,
          detail: { from: status.before, to: status.after },
          key: `task-status-changed:${change.id}:${version}`,
        });
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
      const threadBefore = [
        change.resource,
        ...flatten({ replies: change.fields.find((f) => f.field === 'replies')?.before ?? [] }),
      ];
      if (change.kind === 'updated' && threadBefore.some((c) => c.created_by === username))
        followed.add(taskId);
      for (const comment of fresh) {
        const author = text(comment.created_by);
        if (author === username) continue;
        if (mentions(comment, username)) mentioned.push({ taskId, comment });
        const entry = newComments.get(taskId) ?? { count: 0, by: null, ids: [] };
        entry.count += 1;
        entry.by = author;
        entry.ids.push(text(comment.comment_id) ?? '');
        newComments.set(taskId, entry);
      }
    }
  }
  for (const [taskId, { count, by, ids }] of newComments) {
    const task = taskOf(taskId);
    if (!followed.has(taskId) && (!task || !isMine(task, username))) continue;
    out.push({
      kind: 'task-commented',
      task_id: taskId,
      title: text(task?.title) ?? '',
      by,
      detail: { count },
      key: `task-commented:${taskId}:${ids.sort().join(',')}`,
    });
  }
  // A mention is news on any task, mine or not.
  for (const { taskId, comment } of mentioned) {
    const commentId = text(comment.comment_id) ?? '';
    out.push({
      kind: 'task-mentioned',
      task_id: taskId,
      title: text(taskOf(taskId)?.title) ?? '',
      by: text(comment.created_by),
      detail: { comment_id: commentId, excerpt: (text(comment.content) ?? '').slice(0, 200) },
      key: `task-mentioned:${commentId}`,
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
