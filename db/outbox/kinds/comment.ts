// Task comments as a writable kind of the outbox: edits checked with the
// protocol's body schemas, answers landing in their thread in task_comments (a
// thread is one row, its replies nested as the service lists them).
import type { Database } from 'better-sqlite3';
import {
  taskCommentCreateBodySchema,
  taskCommentReplyBodySchema,
  taskCommentUpdateBodySchema,
} from '../../../protocol/task-comment';
import { InvalidEditError, MalformedRowError } from '../../mirror-errors';
import type { TaskObject } from '../../tasks/task-columns';
import type { MirrorWriteKind } from './mirror-kind';

export const COMMENT_ENTITY = 'comment';

interface ThreadRow {
  comment_id: string;
  raw_json: string;
  etag: string | null;
}

function refuse(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): never {
  const issue = error.issues[0];
  throw new InvalidEditError(String(issue?.path[0] ?? 'content'), issue?.message ?? 'is not valid');
}

function checkCommentEdit(patch: TaskObject, kind: 'create' | 'update' | 'delete'): void {
  if (kind === 'update') {
    for (const field of Object.keys(patch)) {
      if (field !== 'content') throw new InvalidEditError(field, 'is not a field a person may change');
    }
    const parsed = taskCommentUpdateBodySchema.safeParse(patch);
    if (!parsed.success) refuse(parsed.error);
    return;
  }
  if (kind !== 'create') return;
  const { task_id: taskId, parent_comment_id: parent, ...body } = patch;
  if (typeof taskId !== 'string' || taskId === '') throw new InvalidEditError('task_id', 'is required');
  const parsed =
    parent === undefined || parent === null
      ? taskCommentCreateBodySchema.strict().safeParse({ task_id: taskId, ...body })
      : taskCommentReplyBodySchema.strict().safeParse({ parent_comment_id: parent, ...body });
  if (!parsed.success) refuse(parsed.error);
}

/** Finds a comment in a thread (depth first): the node and the list holding it. */
export function findIn(
  nodes: TaskObject[],
  id: string,
): { node: TaskObject; siblings: TaskObject[]; index: number } | null {
  for (const [index, node] of nodes.entries()) {
    if (node.comment_id === id) return { node, siblings: nodes, index };
    const replies = Array.isArray(node.replies) ? (node.replies as TaskObject[]) : [];
    const found = findIn(replies, id);
    if (found) return found;
  }
  return null;
}

/** The thread rows of a task's comments that may hold a comment (its id appears in their JSON). */
function threadsHolding(db: Database, id: string): ThreadRow[] {
  return db
    .prepare('SELECT comment_id, raw_json, etag FROM task_comments WHERE instr(raw_json, ?) > 0')
    .all(id) as ThreadRow[];
}

/** A stored comment: its thread's row, the thread, and the comment in it. */
export function storedComment(
  db: Database,
  id: string,
): { row: ThreadRow; thread: TaskObject; node: TaskObject; siblings: TaskObject[]; index: number } | null {
  for (const row of threadsHolding(db, id)) {
    const thread = JSON.parse(row.raw_json) as TaskObject;
    const found = findIn([thread], id);
    if (found) return { row, thread, ...found };
  }
  return null;
}

function saveThread(db: Database, rootId: string, thread: TaskObject): void {
  db.prepare('UPDATE task_comments SET raw_json = ? WHERE comment_id = ?').run(
    JSON.stringify(thread),
    rootId,
  );
}

export function commentWriteKind(db: Database, now: () => string): MirrorWriteKind {
  return {
    entityType: COMMENT_ENTITY,
    table: 'task_comments',
    idField: 'comment_id',
    checkEdit: checkCommentEdit,
    // Screens read a task's comments through mirror.comments, which applies the outbox on read.
    refresh: () => undefined,
    answeredId(server) {
      const id = (server as TaskObject | null)?.comment_id;
      if (typeof server !== 'object' || server === null || typeof id !== 'string' || id === '') {
        throw new MalformedRowError('task_comments', null, 'comment_id', 'must be a non-empty string');
      }
      return id;
    },
    writeServerCopy(commentId, taskId, server, etag) {
      const parent = server.parent_comment_id;
      if (typeof parent === 'string' && parent !== '') {
        // A reply lives inside its thread's row; a thread not mirrored yet brings it with the next pull.
        const holder = storedComment(db, parent);
        if (!holder) return;
        const existing = findIn([holder.thread], commentId);
        if (existing) existing.siblings[existing.index] = server;
        else {
          const replies = Array.isArray(holder.node.replies) ? (holder.node.replies as TaskObject[]) : [];
          holder.node.replies = [...replies, server];
        }
        saveThread(db, holder.row.comment_id, holder.thread);
        return;
      }
      const task = typeof server.task_id === 'string' ? server.task_id : taskId;
      db.prepare(
        `INSERT INTO task_comments (comment_id, scope, task_id, parent_comment_id, created_at, etag, fetched_at, raw_json)
         VALUES (?, ?, ?, NULL, ?, ?, ?, ?)
         ON CONFLICT (comment_id) DO UPDATE SET raw_json = excluded.raw_json, etag = excluded.etag,
           fetched_at = excluded.fetched_at, created_at = excluded.created_at`,
      ).run(
        commentId,
        task ?? '',
        task,
        typeof server.created_at === 'string' ? server.created_at : null,
        etag,
        now(),
        JSON.stringify(server),
      );
    },
    // A temporary comment is never stored in task_comments: nothing to rename.
    renameRow: () => undefined,
    removeRow(commentId) {
      const stored = storedComment(db, commentId);
      if (!stored) return;
      if (stored.row.comment_id === commentId) {
        db.prepare('DELETE FROM task_comments WHERE comment_id = ?').run(commentId);
        return;
      }
      stored.siblings.splice(stored.index, 1);
      saveThread(db, stored.row.comment_id, stored.thread);
    },
    // The server's thread list is the truth: a comment gone there goes with the next pull.
    markGone: () => undefined,
    dropGone(commentId, othersPending) {
      if (!othersPending) this.removeRow(commentId, null);
    },
    afterDrop: () => undefined,
    takeBackForRecreate(row, values) {
      const patch = JSON.parse(row.patch) as TaskObject;
      const stored = storedComment(db, row.entity_id);
      const content = values?.content ?? patch.content ?? stored?.node.content ?? '';
      return { task_id: row.parent_id, content };
    },
  };
}
