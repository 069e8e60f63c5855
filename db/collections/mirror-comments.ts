// `mirror.comments`: a person's comments queued as the outbox's comment
// operations (db/outbox/kinds/comment.ts), and a task's threads as screens show
// them, with what still waits applied (a new comment at once, under its temporary id).
import type { Database } from 'better-sqlite3';
import { NotInMirrorError } from '../mirror-errors';
import type { MirrorTransactions } from '../mirror-transactions';
import type { Outbox } from '../outbox/outbox';
import { isTemporaryId, type OutboxOp, type OutboxState } from '../outbox/outbox-types';
import { COMMENT_ENTITY, findIn, storedComment } from '../outbox/kinds/comment';
import type { TaskObject } from '../tasks/task-columns';

/** A comment as screens read it: the service's fields, and while a change waits, its state. */
export interface CommentView extends TaskObject {
  comment_id: string;
  /** As the service sent them (absent when it sent none). */
  replies?: CommentView[];
  /** Set while one of its changes waits in the outbox (the strongest state of them). */
  pending?: OutboxState;
  /**
   * A delete of it the service refused or held waits for the person (retry or
   * drop it in the inspector): meanwhile it is neither edited nor deleted again.
   */
  delete_waiting?: true;
}

export class MirrorComments {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
    private readonly outbox: Outbox,
  ) {}

  /** Queues a comment on a task, or a reply to a comment (also one still queued); shown at once. */
  create(input: { taskId: string; content: string; parentCommentId?: string | null }): {
    commentId: string;
    opId: string;
  } {
    return this.tx.write(() => {
      const fields: TaskObject = { task_id: input.taskId, content: input.content };
      const parent = input.parentCommentId ?? null;
      if (parent !== null) {
        if (this.taskOf(parent) === null) throw new NotInMirrorError('comment', parent);
        fields.parent_comment_id = parent;
      }
      const created = this.outbox.queueNew(COMMENT_ENTITY, input.taskId, fields);
      return { commentId: created.entityId, opId: created.opId };
    });
  }

  /** Queues an edit of a comment's content (merge-patch, sent with If-Match). Null when it changes nothing. */
  edit(commentId: string, content: string): { opId: string } | null {
    return this.tx.write(() => {
      const current = this.current(commentId);
      return this.outbox.queueEdit(
        {
          entityType: COMMENT_ENTITY,
          entityId: commentId,
          parentId: current.taskId,
          effective: { content: current.content },
          server: current.server,
          etag: current.etag,
        },
        { content },
      );
    });
  }

  /** Queues a delete; a comment never sent is simply dropped with its create (null: nothing to send). */
  delete(commentId: string): { opId: string } | null {
    return this.tx.write(() => {
      const current = this.current(commentId);
      return this.outbox.queueRemoval(
        COMMENT_ENTITY,
        commentId,
        current.taskId,
        current.server !== null,
        current.etag,
        // The version deleted: a 412 whose re-read still shows it deletes again, only a change waits.
        current.server ?? {},
      );
    });
  }

  /**
   * A task's comment threads, oldest first, with what waits applied: a new
   * comment or reply shown under its temporary id, edits' content, deletes
   * hidden; each comment with a change waiting carries `pending`.
   */
  threads(taskId: string): CommentView[] {
    return this.tx.read(() => {
      const rows = this.db
        .prepare('SELECT raw_json FROM task_comments WHERE scope = ? ORDER BY created_at, comment_id')
        .all(taskId) as { raw_json: string }[];
      const threads = rows.map((r) => viewOf(JSON.parse(r.raw_json) as TaskObject));
      for (const op of this.outbox.opsUnder(COMMENT_ENTITY, taskId)) applyOp(threads, op);
      return threads;
    });
  }

  /**
   * A comment as the person sees it now (pending edits applied): its task, its
   * content and the comment it replies to; null when the mirror does not hold
   * it or its delete waits. What an undo of its edit or delete puts back.
   */
  read(commentId: string): { taskId: string; content: string; parentCommentId: string | null } | null {
    return this.tx.read(() => {
      let current;
      try {
        current = this.current(commentId);
      } catch (error) {
        if (error instanceof NotInMirrorError) return null;
        throw error;
      }
      if (current.taskId === null || typeof current.content !== 'string') return null;
      const create = this.outbox.opsOf(COMMENT_ENTITY, commentId).find((op) => op.kind === 'create');
      const stored = create === undefined ? storedComment(this.db, commentId) : null;
      const parent =
        create !== undefined
          ? create.patch.parent_comment_id
          : stored !== null && stored.node !== stored.thread
            ? stored.thread.comment_id
            : null;
      return {
        taskId: current.taskId,
        content: current.content,
        parentCommentId: typeof parent === 'string' ? parent : null,
      };
    });
  }

  /** Which task a comment belongs to (stored, or still queued); null when the mirror does not know it. */
  private taskOf(commentId: string): string | null {
    const queued = this.outbox.opsOf(COMMENT_ENTITY, commentId).find((op) => op.kind === 'create');
    if (queued) return queued.parentId;
    const stored = storedComment(this.db, commentId);
    if (!stored) return null;
    const task = stored.node.task_id ?? stored.thread.task_id;
    return typeof task === 'string' ? task : null;
  }

  private current(commentId: string): {
    taskId: string | null;
    content: unknown;
    server: TaskObject | null;
    etag: string | null;
  } {
    const ops = this.outbox.opsOf(COMMENT_ENTITY, commentId);
    if (ops.some((op) => op.kind === 'delete')) throw new NotInMirrorError('comment', commentId);
    const stored = isTemporaryId(commentId) ? null : storedComment(this.db, commentId);
    const create = ops.find((op) => op.kind === 'create');
    if (!stored && !create) throw new NotInMirrorError('comment', commentId);
    let content: unknown = stored?.node.content ?? create?.patch.content ?? null;
    for (const op of ops) if (op.kind === 'update' && 'content' in op.patch) content = op.patch.content;
    const task = stored?.node.task_id ?? stored?.thread.task_id ?? create?.parentId ?? null;
    return {
      taskId: typeof task === 'string' ? task : null,
      content,
      server: stored ? stored.node : null,
      // Only a thread's own row keeps an ETag; a reply's is read before it is sent.
      etag: stored && stored.row.comment_id === commentId ? stored.row.etag : null,
    };
  }
}

function viewOf(node: TaskObject): CommentView {
  const view: CommentView = { ...node, comment_id: String(node.comment_id) };
  if (Array.isArray(node.replies)) view.replies = (node.replies as TaskObject[]).map(viewOf);
  return view;
}

const STRENGTH: Readonly<Record<OutboxState, number>> = {
  done: 0,
  queued: 1,
  in_flight: 2,
  blocked: 3,
  failed: 4,
  conflict: 5,
};

function mark(node: CommentView, state: OutboxState): void {
  if (node.pending === undefined || STRENGTH[state] > STRENGTH[node.pending]) node.pending = state;
}

function applyOp(threads: CommentView[], op: OutboxOp): void {
  const found = findIn(threads, op.entityId) as {
    node: CommentView;
    siblings: CommentView[];
    index: number;
  } | null;
  if (op.kind === 'create') {
    if (found) return;
    const parent = typeof op.patch.parent_comment_id === 'string' ? op.patch.parent_comment_id : null;
    const node: CommentView = {
      comment_id: op.entityId,
      task_id: op.parentId,
      parent_comment_id: parent,
      content: op.patch.content ?? null,
      created_at: op.createdAt,
      replies: [],
      pending: op.state,
    };
    const holder = parent === null ? null : findIn(threads, parent);
    if (holder) {
      const parentNode = holder.node as CommentView;
      parentNode.replies = [...(parentNode.replies ?? []), node];
    } else threads.push(node);
    return;
  }
  if (!found) return;
  if (op.kind === 'delete') {
    // A delete the service refused (a member's of another's comment, 403) or
    // held (changed there since) leaves the comment where it was, marked, until
    // the person retries or drops it; one still waiting to be sent hides it.
    if (op.state === 'queued' || op.state === 'in_flight' || op.state === 'done') {
      found.siblings.splice(found.index, 1);
      return;
    }
    mark(found.node, op.state);
    found.node.delete_waiting = true;
    return;
  }
  if ('content' in op.patch) found.node.content = op.patch.content;
  mark(found.node, op.state);
}
