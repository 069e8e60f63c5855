// How many comments a task's threads hold, as the Comments heading says it:
// every comment and every reply (a reply is a comment a person wrote too).

/** A comment with the replies under it, at any depth. */
export interface CommentThread {
  replies?: readonly CommentThread[] | null | undefined;
}

export function countComments(threads: readonly CommentThread[]): number {
  return threads.reduce((count, comment) => count + 1 + countComments(comment.replies ?? []), 0);
}
