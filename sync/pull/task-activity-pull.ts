// A task's activity, kept for the editor to show (offline too): its comment
// list (the open task's and the watched ones' in the hot tier:
// comment-watch.ts) and its history (the opened task's only). Apart from the
// puller's walks of the resources, which run these for a few tasks at a time.
import { InvalidResponseError, ProblemError } from '../api/errors';
import { type ListOperation, taskCommentOperations, taskHistoryOperations } from '../api/operations';
import { errorInfo } from '../events/sync-error-info';
import type { ResourceChange, SyncEventListener } from '../events/sync-events';
import { listSource } from './list-source';
import { walkList } from './page-walker';
import { addResult, emptyResult, type PullContext, type ResourcePullResult } from './pull-context';
import type { StoredCollection } from './pull-store';
import type { WalkOptions, WalkResult } from './walk-types';

/**
 * Comment lists of a few tasks, each revalidated with its page ETag. A task's
 * first listing only fills the cache: its comments are not news. `emit`:
 * where a thread that cannot be read is said (the sync log).
 */
export async function pullComments(
  ctx: PullContext,
  taskIds: readonly string[],
  emit: SyncEventListener,
): Promise<ResourcePullResult> {
  const result = emptyResult();
  // Asked for and answered (a 304 included, which writes no pass): the comment watch goes on to others.
  const checked: string[] = [];
  try {
    for (const taskId of new Set(taskIds)) {
      const before = await ctx.store.pass('task_comments', taskId);
      let walk: ResourcePullResult;
      try {
        walk = {
          ...(await walkTaskList(ctx, 'task_comments', taskCommentOperations.list, taskId, {
            onProgress: (progress) => ctx.onProgress('task_comments', taskId, progress),
          })),
          complete: true,
        };
      } catch (error) {
        // The task went away (or out of reach) since we listed it: the next full pass settles it.
        if (error instanceof ProblemError && error.status === 404) {
          checked.push(taskId);
          continue;
        }
        // A thread we cannot read (a teammate's, or a broken answer) is skipped and said; rethrown,
        // it stopped the pull here every time and no other watched task's comments were fetched again.
        if (error instanceof InvalidResponseError) {
          checked.push(taskId);
          emit({
            type: 'resource-skipped',
            collection: 'task_comments',
            scope: taskId,
            error: errorInfo(error),
          });
          continue;
        }
        throw error;
      }
      checked.push(taskId);
      if (before === null || before.state !== 'complete') walk.changes = announceNothing(walk.changes);
      addResult(result, walk);
    }
  } finally {
    if (checked.length > 0) await ctx.store.commentsChecked(checked, new Date(ctx.now()).toISOString());
  }
  return result;
}

/**
 * A task's history, kept for the editor to show (offline too): every page
 * revalidated with its ETag, the pass completed so that what the service
 * dropped leaves the cache. Only the opened task's, and never announced.
 */
export async function pullHistory(ctx: PullContext, taskId: string): Promise<ResourcePullResult> {
  try {
    const walk = await walkTaskList(ctx, 'task_history', taskHistoryOperations.list, taskId, {
      announce: false,
    });
    return { ...walk, changes: [], complete: true };
  } catch (error) {
    // The task went away (or out of reach) since it was opened: the next full pass settles it.
    if (error instanceof ProblemError && error.status === 404) return emptyResult();
    throw error;
  }
}

/** One task's whole list (its comments, its history), a page at a time, in the run's lane and rules. */
function walkTaskList<Item extends object>(
  ctx: PullContext,
  collection: StoredCollection,
  operation: ListOperation<Item, { taskId: string }>,
  taskId: string,
  options: Pick<WalkOptions, 'announce' | 'onProgress'>,
): Promise<WalkResult> {
  return walkList({
    collection,
    scope: taskId,
    source: listSource(ctx.api, operation, { taskId }, { limit: 1000 }, ctx.lane, ctx.store),
    store: ctx.store,
    partial: false,
    concurrency: 1,
    ...options,
    signal: ctx.signal,
    ...ctx.walkRules,
  });
}

/** A first listing's resources are cached, not announced. */
function announceNothing(changes: ResourceChange[]): ResourceChange[] {
  return changes.filter((c) => c.collection !== 'task_comments');
}
