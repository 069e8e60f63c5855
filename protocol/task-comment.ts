// A task comment (`TaskCommentInDB`) with its replies, which have the same
// shape all the way down. Documented: the two ids are required, the rest may be
// absent or null.
import { z } from 'zod';
import { boundedText, idReference, readTextAtMost } from './body-fields';
import { idField, optionalString } from './wire-fields';

export const commentMentionSchema = z.looseObject({
  user_id: optionalString,
  username: optionalString,
  email: optionalString,
});
export type CommentMention = z.infer<typeof commentMentionSchema>;

/** A comment's content: 1..100 000 characters (gaps.md). Mentions are the service's, read from `@username`. */
export const COMMENT_CONTENT_MAX = 100_000;

/** One comment's own fields, its replies aside. */
const commentOwnFieldsSchema = z.looseObject({
  comment_id: idField,
  task_id: idField,
  task_title: optionalString,
  created_by: optionalString,
  comment: readTextAtMost(COMMENT_CONTENT_MAX).nullish(),
  content: readTextAtMost(COMMENT_CONTENT_MAX).nullish(),
  parent_comment_id: optionalString,
  org_id: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
  mentions: z.array(commentMentionSchema).nullish(),
});

/** A comment with its replies, which have the same shape all the way down. */
export type TaskComment = z.infer<typeof commentOwnFieldsSchema> & {
  replies?: TaskComment[] | null | undefined;
};

/**
 * One comment's own fields, its replies not yet read (each is checked as a
 * comment of its own by taskCommentSchema).
 */
export const taskCommentFieldsSchema = commentOwnFieldsSchema.extend({
  replies: z.array(z.unknown()).nullish(),
});

/**
 * How deep replies nest in what we keep. Deeper ones are kept all the same,
 * as replies of the comment at this depth in the order they were written: a
 * thread a teammate nests a thousand deep reads as a long flat tail rather
 * than a stack that every reader (this parser, the views, the screen) must
 * descend.
 */
export const MAX_REPLY_DEPTH = 24;

/**
 * A comment and its replies, read without recursion: a recursive schema threw
 * RangeError on 1 200 nested replies, and that one thread stopped the comments
 * of every watched task. An issue deep inside is named by its full path.
 */
export const taskCommentSchema: z.ZodType<TaskComment> = z.unknown().transform((value, ctx) => {
  interface Pending {
    raw: unknown;
    path: (string | number)[];
    depth: number;
    /** Where the parsed comment goes; null for the thread itself. */
    into: TaskComment[] | null;
  }
  let root: TaskComment | null = null;
  let failed = false;
  const stack: Pending[] = [{ raw: value, path: [], depth: 0, into: null }];
  while (stack.length > 0) {
    const { raw, path, depth, into } = stack.pop() as Pending;
    const result = taskCommentFieldsSchema.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
      }
      failed = true;
      continue;
    }
    const { replies, ...fields } = result.data;
    const comment: TaskComment = { ...fields };
    if (into === null) root = comment;
    else into.push(comment);
    if (replies === undefined) continue;
    if (replies === null) {
      comment.replies = null;
      continue;
    }
    comment.replies = [];
    // Past the cap, a reply's replies join the list it is in (flattened), else a list of its own.
    const childInto = depth < MAX_REPLY_DEPTH || into === null ? comment.replies : into;
    // Pushed last-first, so they are read (and kept) in the order they came.
    for (let index = replies.length - 1; index >= 0; index -= 1) {
      stack.push({
        raw: replies[index],
        path: [...path, 'replies', index],
        depth: depth + 1,
        into: childInto,
      });
    }
  }
  return failed || root === null ? z.NEVER : root;
});

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
