// Task comments as a writable kind (gaps.md "Writes beyond tasks"): a create is
// POST /v1/task-comments, or POST /v1/task-comments/reply when it answers another
// comment; edits and deletes go to /v1/task-comments/{comment_id} with If-Match.
import { taskCommentOperations } from '../../api/operations';
import type { FieldValues } from '../push-store';
import { itemRequests, type PushKind } from './push-kind';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export const commentPushKind: PushKind = {
  entityType: 'comment',
  writeScope: 'tasks:write',
  needsOrgId: false,
  async create(api, op, _orgId, options) {
    const content = text(op.patch.content);
    const parent = op.patch.parent_comment_id;
    const answer =
      typeof parent === 'string'
        ? await api.create(taskCommentOperations.reply, {}, { parent_comment_id: parent, content }, options)
        : await api.create(
            taskCommentOperations.create,
            {},
            { task_id: text(op.patch.task_id), content },
            options,
          );
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  ...itemRequests(taskCommentOperations, (op) => ({ commentId: op.entityId })),
};
