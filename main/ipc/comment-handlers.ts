// The comment calls: each queues through mirror.comments (the outbox's comment
// kind), waiting for the pull worker's write lock on a timer, then tells the
// screens the task's activity changed and the engine that something waits.
import { undoHistoryOf } from '../../db/undo/undo-history';
import { writeWhenFree } from '../../db/write-when-free';
import type { IpcGate, IpcHandlers } from './gate';
import { type ActiveMirror, writableAccount } from './task-handlers';

export interface CommentHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
}

export function commentHandlers(dependencies: CommentHandlerDependencies): IpcHandlers {
  const writable = (): ActiveMirror => writableAccount(dependencies.active, 'comments', 'comment');

  function changed(account: ActiveMirror, taskId: string | null): void {
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      collections: ['task_comments'],
      task_ids: taskId === null ? null : [taskId],
      remapped: [],
    });
    account.edited();
  }

  /** The task a comment is on, stored or still queued (for the screens to refresh). */
  function taskOf(account: ActiveMirror, commentId: string): string | null {
    return (
      account.mirror.outbox.opsOf('comment', commentId).find((op) => op.parentId !== null)?.parentId ?? null
    );
  }

  return {
    'comment:create': async ({ task_id, content, parent_comment_id }) => {
      const account = writable();
      const created = await writeWhenFree(account.mirror, () =>
        account.mirror.comments.create({
          taskId: task_id,
          content,
          ...(parent_comment_id === undefined ? {} : { parentCommentId: parent_comment_id }),
        }),
      );
      changed(account, task_id);
      undoHistoryOf(account.mirror).commentChanged(
        created.commentId,
        null,
        { task_id, content, parent_comment_id: parent_comment_id ?? null },
        created.opId,
      );
      return { comment_id: created.commentId, op_id: created.opId };
    },
    'comment:edit': async ({ comment_id, content }) => {
      const account = writable();
      const before = account.mirror.comments.read(comment_id);
      const queued = await writeWhenFree(account.mirror, () =>
        account.mirror.comments.edit(comment_id, content),
      );
      changed(account, taskOf(account, comment_id));
      if (before !== null && before.content !== content)
        undoHistoryOf(account.mirror).commentChanged(
          comment_id,
          { content: before.content },
          { content },
          queued?.opId ?? null,
        );
      return { comment_id, op_id: queued?.opId ?? null };
    },
    'comment:delete': async ({ comment_id }) => {
      const account = writable();
      const taskId = taskOf(account, comment_id);
      const before = account.mirror.comments.read(comment_id);
      const queued = await writeWhenFree(account.mirror, () => account.mirror.comments.delete(comment_id));
      changed(account, taskId ?? taskOf(account, comment_id));
      if (before !== null)
        undoHistoryOf(account.mirror).commentChanged(
          comment_id,
          { task_id: before.taskId, content: before.content, parent_comment_id: before.parentCommentId },
          null,
          queued?.opId ?? null,
        );
      return { comment_id, op_id: queued?.opId ?? null };
    },
  };
}
