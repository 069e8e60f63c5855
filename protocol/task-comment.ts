// A task comment (`TaskCommentInDB`) with its replies, which have the same
// shape all the way down. Documented: the two ids are required, the rest may be
// absent or null.
import { z } from 'zod';
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

/** Body of `POST /v1/task-comments` (idempotent create). */
export interface TaskCommentCreateBody {
  task_id: string;
  content: string;
}

/** Body of `POST /v1/task-comments/reply` (idempotent create). */
export interface TaskCommentReplyBody {
  parent_comment_id: string;
  content: string;
}
