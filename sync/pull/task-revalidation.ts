// One task read again on its own (the task on screen, in the hot tier and
// when it is opened), with its stored ETag: a 304 costs nothing, a 404
// removes it, and a task the client cannot read or store is skipped and said.
// Apart from the puller, which runs it within its tiers.
import { InvalidResponseError, ProblemError } from '../api/errors';
import { taskOperations } from '../api/operations';
import { errorInfo } from '../events/sync-error-info';
import type { SyncEventListener } from '../events/sync-events';
import { emptyResult, type PullContext, type ResourcePullResult } from './pull-context';

/** `emit`: where a skipped task is said (the sync log). */
export async function revalidateTask(
  ctx: PullContext,
  taskId: string,
  emit: SyncEventListener,
): Promise<ResourcePullResult> {
  const result = emptyResult();
  const stored = await ctx.store.task(taskId);
  try {
    const answer = await ctx.api.read(
      taskOperations.get,
      { taskId },
      { ifNoneMatch: stored?.etag ?? null, signal: ctx.signal, lane: ctx.lane },
    );
    if (answer.status === 304) result.notModified = 1;
    else {
      result.pulled = 1;
      result.changes = await ctx.store.applyTask(answer.body, answer.etag);
    }
  } catch (error) {
    // A task we cannot read or store (a teammate's, or a broken answer) is skipped and said: thrown,
    // it failed every poll while it was open, and the comments after it were never fetched.
    if (isUnreadable(error)) {
      emit({
        type: 'resource-skipped',
        collection: 'tasks',
        scope: taskId,
        error: errorInfo(error),
      });
      return result;
    }
    if (!(error instanceof ProblemError && error.status === 404)) throw error;
    const removed = await ctx.store.removeTask(taskId);
    result.changes = removed.changes;
    result.parked = removed.parked;
  }
  return result;
}

/**
 * An answer that breaks the contract, or a resource the mirror refuses to
 * store (MalformedRowError, by name: from the pull worker it comes as its name).
 */
function isUnreadable(error: unknown): boolean {
  return (
    error instanceof InvalidResponseError || (error instanceof Error && error.name === 'MalformedRowError')
  );
}
