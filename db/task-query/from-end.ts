// A page of the task list counted from its end: the query asked in its other
// sort order (every sort key's columns end in a unique tie-breaker, so the
// other order is this one's exact reverse, ties and null keys included), its
// rows turned back. The list's last rows come in one call instead of a walk of
// keyset pages from the top (~10 000 pages of 100 at a million tasks), and a
// far page is reached from whichever end is nearer.
import type { Database } from 'better-sqlite3';
import { encodeCursor } from './cursor';
import { TaskReads } from './item-rows';
import {
  normalizeTaskQuery,
  type TaskListItem,
  type TaskListPage,
  type TaskQueryInput,
  type TaskQueryOptions,
} from './task-query';

export interface EndPageOptions extends Omit<TaskQueryOptions, 'after'> {
  /** The `before` of the page after the one wanted (null or absent: the list's last page). */
  before?: string | null;
}

export interface EndPage {
  /** The rows in the list's own order: the last `limit` before `before`. */
  items: TaskListItem[];
  /**
   * The cursor (`after`) that fetches the same rows walking forward; null
   * when they are the list's first rows, undefined when the row before them
   * was gone by the time it was read (a write between the steps).
   */
  after: string | null | undefined;
  /** Pass as `before` for the page before these; null when they are the list's first rows, undefined as `after`. */
  before: string | null | undefined;
}

/** A page of `query` in steps (MirrorTasks.pageSteps). */
export type PageSteps = (
  query: TaskQueryInput,
  options: TaskQueryOptions,
) => Generator<void, TaskListPage, void>;

export class EndPages {
  private readonly reads: TaskReads;

  constructor(
    db: Database,
    private readonly forwardSteps: PageSteps,
    /** A stored task's row id (TaskStore.ridOf). */
    private readonly ridOf: (taskId: string) => number | undefined,
  ) {
    this.reads = new TaskReads(db);
  }

  /** The page ending just before `before` (or at the list's end), in synchronous steps as pageSteps takes them. */
  *pageSteps(input: TaskQueryInput, options: EndPageOptions): Generator<void, EndPage, void> {
    const query = normalizeTaskQuery(input);
    const reversed = {
      ...query,
      sort_order: query.sort_order === 'asc' ? ('desc' as const) : ('asc' as const),
    };
    const { before, ...rest } = options;
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? 200), 1), 999);
    // One row more than the page: the row before it, whose keys are the forward cursor of the page.
    const page = yield* this.forwardSteps(reversed, { ...rest, after: before ?? null, limit: limit + 1 });
    const items = page.items;
    if (items.length <= limit) return { items: items.reverse(), after: null, before: null };
    const cursorAt = (item: TaskListItem, order: 'asc' | 'desc'): string | undefined => {
      const rid = this.ridOf(item.task_id);
      if (rid === undefined) return undefined;
      return encodeCursor({
        sortBy: query.sort_by,
        order,
        values: this.reads.sortValues(query.sort_by, rid),
      });
    };
    const previous = items[limit] as TaskListItem;
    const first = items[limit - 1] as TaskListItem;
    items.length = limit;
    return {
      items: items.reverse(),
      after: cursorAt(previous, query.sort_order),
      // The first row's keys in the other order: the rows before it, from the nearest back.
      before: cursorAt(first, reversed.sort_order),
    };
  }
}
