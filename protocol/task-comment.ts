// A task comment (`TaskCommentInDB`) with its replies, which have the same
// shape all the way down. Documented: the two ids are required, the rest may be
// absent or null.
import { z } from 'zod';
import { boundedText, idReference } from './body-fields';
import { idField, optionalString } from './wire-fields';

export const commentMentionSchema = z.looseObject({
  user_id: optionalString,
  username: optionalString,
  email: optionalString,
});
export type CommentMention = z.infer<typeof commentMentionSchema>;

export interface TaskComment {
  comment_id: string;
  task_id: string;
  task_title?: string | null | undefined;
  created_by?: string | null | undefined;
  comment?: string | null | undefined;
  content?: string | null | undefined;
  parent_comment_id?: string | null | undefined;
  org_id?: string | null | undefined;
  created_at?: string | null | undefined;
  updated_at?: string | null | undefined;
  mentions?: CommentMention[] | null | undefined;
  replies?: TaskComment[] | null | undefined;
  [field: string]: unknown;
}

export const taskCommentSchema: z.ZodType<TaskComment> = z.looseObject({
  comment_id: idField,
  task_id: idField,
  task_title: optionalString,
  created_by: optionalString,
  comment: optionalString,
  content: optionalString,
  parent_comment_id: optionalString,
  org_id: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
  mentions: z.array(commentMentionSchema).nullish(),
  get replies() {
    return z.array(taskCommentSchema).nullish();
  },
});

/** A comment's content: 1..100 000 characters (gaps.md). Mentions are the service's, read from `@username`. */
export const COMMENT_CONTENT_MAX = 100_000;
const commentContent = boundedText(1, COMMENT_CONTENT_MAX);

/** Body of `POST /v1/task-comments` (idempotent create). */
export const taskCommentCreateBodySchema = z.object({
  task_id: idReference,
  content: commentContent,
});
export type TaskCommentCreateBody = z.infer<typeof taskCommentCreateBodySchema>;

/** Body of `POST /v1/task-comments/reply` (contract; idempotent create). */
export const taskCommentReplyBodySchema = z.object({
  parent_comment_id: idReference,
  content: commentContent,
});
export type TaskCommentReplyBody = z.infer<typeof taskCommentReplyBodySchema>;

/** Merge-patch body of `PATCH /v1/task-comments/{comment_id}` (gaps.md): the author only, else 403. */
export const taskCommentUpdateBodySchema = z.object({
  content: commentContent.optional(),
});
export type TaskCommentUpdateBody = z.infer<typeof taskCommentUpdateBodySchema>;
