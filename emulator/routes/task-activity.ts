// What happens around a task: its comments (threads of replies, idempotent
// creates, edits by their author only, deletes by their author or an org owner
// or admin, `mentions` read from `@username`) and its history (one entry per
// change, `{field, new, old}` each).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  taskCommentCreateBodySchema,
  taskCommentReplyBodySchema,
  taskCommentUpdateBodySchema,
} from '../../protocol/task-comment';
import { parseOr422 } from '../body-validation';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { sendCreationOrderList } from '../json-reply';
import { queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import type { CommentRecord, HistoryRecord, MentionRecord } from '../records';
import { canSeeProject, type EmulatorStore, type Viewer } from '../store';
import { readableTask } from '../task-changes';
import { type FoundRecord, recordRoutes } from './record-routes';
import { sendCreated } from './record-writes';

const taskIdQuerySchema = z.object({ task_id: z.string().min(1) });

function serializeComment(store: EmulatorStore, comment: CommentRecord): Record<string, unknown> {
  const replies = (store.commentsByTask.get(comment.task_id) ?? []).filter(
    (c) => c.parent_comment_id === comment.comment_id,
  );
  return {
    comment_id: comment.comment_id,
    task_id: comment.task_id,
    task_title: store.tasks.get(comment.task_id)?.record.title ?? null,
    created_by: comment.created_by,
    comment: comment.content,
    content: comment.content,
    parent_comment_id: comment.parent_comment_id,
    org_id: comment.org_id,
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    mentions: comment.mentions,
    replies: replies.map((r) => serializeComment(store, r)),
  };
}

function readableComment(store: EmulatorStore, viewer: Viewer, commentId: string): CommentRecord {
  const comment = store.comments.get(commentId);
  const task = comment ? store.tasks.get(comment.task_id) : undefined;
  if (!comment || !task || !canSeeProject(viewer, task.record.project_id)) {
    throw new ProblemReply(404, null, 'Not Found', `comment ${commentId} not found`);
  }
  return comment;
}

// `@name` at the start or after a non-word character (not inside an e-mail address); a sentence's
// closing dots are not part of the name.
const MENTION = /(?<![\w.@])@([A-Za-z0-9._-]+)/g;

/** The members named by `@username` in `content`, once each, in order of first mention (inactive ones too). */
export function mentionsIn(store: EmulatorStore, content: string): MentionRecord[] {
  const out: MentionRecord[] = [];
  const seen = new Set<string>();
  for (const match of content.matchAll(MENTION)) {
    const member = store.memberByUsername((match[1] ?? '').replace(/\.+$/, ''));
    if (!member || seen.has(member.user_id)) continue;
    seen.add(member.user_id);
    out.push({ user_id: member.user_id, username: member.username, email: member.email });
  }
  return out;
}

function addComment(
  store: EmulatorStore,
  viewer: Viewer,
  taskId: string,
  parentId: string | null,
  content: string,
): CommentRecord {
  const task = readableTask(store, viewer, taskId);
  const now = store.nowIso();
  const comment: CommentRecord = {
    comment_id: store.sequentialId('cmt'),
    task_id: task.record.task_id,
    org_id: store.org.org_id,
    parent_comment_id: parentId,
    content,
    created_by: viewer.username,
    created_at: now,
    updated_at: now,
    mentions: mentionsIn(store, content),
  };
  store.comments.set(comment.comment_id, comment);
  const list = store.commentsByTask.get(comment.task_id) ?? [];
  list.push(comment);
  store.commentsByTask.set(comment.task_id, list);
  store.creates.comments += 1;
  store.touch();
  return comment;
}

/** Puts an edited comment where the old one was (its thread keeps its order). */
function replaceComment(store: EmulatorStore, next: CommentRecord): void {
  store.comments.set(next.comment_id, next);
  const list = store.commentsByTask.get(next.task_id) ?? [];
  store.commentsByTask.set(
    next.task_id,
    list.map((c) => (c.comment_id === next.comment_id ? next : c)),
  );
  store.touch();
}

/** A deleted comment takes its replies with it: a reply without the comment it answers has no place. */
function removeThread(store: EmulatorStore, root: CommentRecord): void {
  const list = store.commentsByTask.get(root.task_id) ?? [];
  const gone = new Set([root.comment_id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of list) {
      if (c.parent_comment_id !== null && gone.has(c.parent_comment_id) && !gone.has(c.comment_id)) {
        gone.add(c.comment_id);
        grew = true;
      }
    }
  }
  for (const id of gone) store.comments.delete(id);
  store.commentsByTask.set(
    root.task_id,
    list.filter((c) => !gone.has(c.comment_id)),
  );
  store.touch();
}

/**
 * Who may change a comment (403 for anyone else): only its author edits it;
 * its author or an organization owner or admin deletes it (gaps.md: "the
 * author or an org owner/admin"; any other role, member or one added later,
 * is refused).
 */
function commentChanger(change: 'edit' | 'delete') {
  return ({ viewer, record }: FoundRecord<CommentRecord>): void => {
    const orgAdmin = viewer.member.role === 'owner' || viewer.member.role === 'admin';
    if (record.created_by === viewer.username || (change === 'delete' && orgAdmin)) return;
    throw new ProblemReply(
      403,
      null,
      'Forbidden',
      change === 'edit'
        ? 'Only the author of a comment may edit it.'
        : 'Only the author of a comment or an owner or admin of the organization may delete it.',
    );
  };
}

export function registerTaskActivityRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  const comments = recordRoutes(app, ctx, '/v1/task-comments/:comment_id', {
    scope: 'tasks',
    // A 404 when the comment's task is out of their reach.
    find: (store, viewer, params: { comment_id: string }) =>
      readableComment(store, viewer, params.comment_id),
    serialize: (store, _viewer, comment) => serializeComment(store, comment),
  });

  /** The query of a task's list (its comments, its history): its pairs, the `task_id` it names, and who asks. */
  const taskListRequest = (request: FastifyRequest) => {
    const params = queryPairs(request.url);
    const { task_id: taskId } = parseOr422(taskIdQuerySchema, Object.fromEntries(params), 'query');
    return { params, taskId, viewer: viewerFor(ctx, request) };
  };

  comments.list((request, reply) => {
    const { params, taskId, viewer } = taskListRequest(request);
    readableTask(store, viewer, taskId);
    return sendCreationOrderList(ctx, request, reply, {
      queryKey: `task-comments\u0000${taskId}`,
      items: (store.commentsByTask.get(taskId) ?? []).filter((c) => c.parent_comment_id === null),
      defaultLimit: 100,
      params,
      id: (c) => c.comment_id,
      serialize: (c) => serializeComment(store, c),
    });
  });

  comments.get();

  /** 201 with a new comment or reply, its path in `Location`. */
  const sendNewComment = (request: FastifyRequest, reply: FastifyReply, comment: CommentRecord) =>
    sendCreated(request, reply, `/v1/task-comments/${comment.comment_id}`, serializeComment(store, comment));

  comments.create((request, reply) => {
    const input = parseOr422(taskCommentCreateBodySchema, request.body, 'body');
    const comment = addComment(store, viewerFor(ctx, request), input.task_id, null, input.content);
    return sendNewComment(request, reply, comment);
  });

  app.post(
    '/v1/task-comments/reply',
    { config: { scope: 'tasks:write', operationId: 'task-comments.reply', idempotent: true } },
    (request, reply) => {
      const input = parseOr422(taskCommentReplyBodySchema, request.body, 'body');
      const viewer = viewerFor(ctx, request);
      const parent = readableComment(store, viewer, input.parent_comment_id);
      const comment = addComment(store, viewer, parent.task_id, parent.comment_id, input.content);
      return sendNewComment(request, reply, comment);
    },
  );

  comments.update(
    { body: taskCommentUpdateBodySchema, mayChange: commentChanger('edit') },
    ({ record: comment, patch }) => {
      let next = comment;
      if (patch.content !== undefined && patch.content !== comment.content) {
        next = {
          ...comment,
          content: patch.content,
          mentions: mentionsIn(store, patch.content),
          updated_at: store.nowIso(),
        };
        replaceComment(store, next);
      }
      return next;
    },
  );

  comments.delete({ mayChange: commentChanger('delete') }, (request, reply, { record: comment }) => {
    removeThread(store, comment);
    return reply.code(204).send();
  });

  app.get(
    '/v1/task-history',
    { config: { scope: 'tasks:read', operationId: 'task-history.list' } },
    (request, reply) => {
      const { params, taskId, viewer } = taskListRequest(request);
      const known =
        store.tasks.has(taskId) || store.history.has(taskId) || store.pendingCreationHistory.has(taskId);
      if (!known || !canSeeProject(viewer, store.historyProject.get(taskId) ?? null)) {
        throw new ProblemReply(404, null, 'Not Found', `task ${taskId} not found`);
      }
      const title = params.get('title');
      return sendCreationOrderList<HistoryRecord>(ctx, request, reply, {
        queryKey: `task-history\u0000${taskId}\u0000${title ?? ''}`,
        items: store.historyOf(taskId).filter((h) => title === null || h.title === title),
        defaultLimit: 1000,
        params,
        id: (h) => h.history_id,
        serialize: (h) => h,
      });
    },
  );
}
