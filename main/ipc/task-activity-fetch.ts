// Fetches one task's comments and history into the mirror, where the editor
// reads them (so they show offline next time): every page of both lists, each
// revalidated with its stored ETag, then the pass completed so comments
// deleted on the server leave the cache. The sync engine does not keep
// history, so opening a task is when it is fetched.
import type { ApiClient, ListAnswer, ReadOptions } from '../../sync/api/api-client';
import { taskCommentOperations, taskHistoryOperations } from '../../sync/api/operations';
import type { Mirror } from '../../db/mirror';

const PAGE_LIMIT = 1000;
/** A runaway cursor chain stops here rather than looping. */
const MAX_PAGES = 50;

async function fetchList(
  api: ApiClient,
  mirror: Mirror,
  collection: 'task_comments' | 'task_history',
  taskId: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  mirror.passes.begin(collection, taskId);
  let cursor: string | null = null;
  for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex++) {
    const stored = mirror.passes.storedPage(collection, taskId, pageIndex);
    const revalidate: string | null = stored !== null && stored.cursorSent === cursor ? stored.etag : null;
    const page: { cursor: string | null; limit: number } = { cursor, limit: PAGE_LIMIT };
    const options: ReadOptions = {
      lane: 'user',
      ...(revalidate ? { ifNoneMatch: revalidate } : {}),
      ...(signal ? { signal } : {}),
    };
    // Two calls rather than one over a union of operations: each keeps its item type.
    const answer: ListAnswer<unknown> =
      collection === 'task_comments'
        ? await api.listPage(taskCommentOperations.list, { taskId }, page, options)
        : await api.listPage(taskHistoryOperations.list, { taskId }, page, options);
    let next: string | null;
    if (answer.status === 304) {
      next = mirror.passes.reusePage(collection, taskId, pageIndex).nextCursor;
    } else {
      next = answer.body.next_cursor;
      mirror.passes.applyPage({
        collection,
        scope: taskId,
        pageIndex,
        cursorSent: cursor,
        etag: answer.etag,
        nextCursor: next,
        items: answer.body.data,
      });
    }
    if (next === null) {
      mirror.passes.complete(collection, taskId, pageIndex);
      return;
    }
    cursor = next;
  }
}

/** Comments and history of a task, fetched and stored; rejects with the API client's typed errors. */
export async function fetchTaskActivity(
  api: ApiClient,
  mirror: Mirror,
  taskId: string,
  signal?: AbortSignal,
): Promise<void> {
  await fetchList(api, mirror, 'task_comments', taskId, signal);
  await fetchList(api, mirror, 'task_history', taskId, signal);
}
