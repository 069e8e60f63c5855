// A change of many tasks at once (a selection in the app, `edit --where` in the
// headless command): which tasks (ids, or every task a query matches but some),
// queued as one edit per task under one batch id, in short steps. Each step is
// one read of a page of ids or one write of a chunk of tasks, with the event
// loop free between them, so that main never stops for long: each step is
// kept near 20 ms, well under main's 50 ms (`npm run bench -- mirror` times 5 000
// tasks: bulk_5000_ms, bulk_max_step_ms).
import { randomUUID } from 'node:crypto';
import type { Mirror } from '../mirror';
import type { TaskQueryInput, TaskQueryOptions } from '../task-query/task-query';
import { nextTurn } from '../next-turn';
import { writeWhenFree } from '../write-when-free';
import type { BulkTaskChange, BulkTaskChanged } from './bulk-task-change';

/** The tasks a bulk change is for: these ids, or every task the query matches but `except`. */
export type BulkTarget =
  | { taskIds: readonly string[] }
  /** `parent`: the query among that task's sub-tasks (the list filtered by parent, TaskQueryOptions). */
  | { query: TaskQueryInput; except: readonly string[]; parent?: string | undefined };

export interface BulkOutcome {
  /** The change's id: its operations carry it in the outbox (progress, stop, undo). */
  batchId: string;
  /** Tasks the target named that the mirror still shows. */
  matched: number;
  /** Tasks given an operation (a new one, or folded into one never sent). */
  queued: number;
  /**
   * Tasks set back to the service's values: a change of theirs that waited was
   * dropped and nothing queued (a tag added here taken off again). Their undo puts it back.
   */
  setBack: number;
  /** Tasks the change left as they were (the value was theirs already). */
  unchanged: number;
}

/** Ids per read of a task's row id: 500 read in a few ms. */
const IDS_PER_READ = 500;
/**
 * Ids per page of a query read: a page's first step walks the order's entries
 * and reads its rows, more the more ids it holds. At a million tasks, a
 * search matching 50 000 read 500 a page with steps up to 75 ms of CPU (and a
 * second of wall on a cold, busy disk), 200 a page with steps up to 21 ms, for
 * about the same CPU a task (a copy of `bench ui`'s kept mirror, load 15-18).
 */
const IDS_PER_QUERY_PAGE = 200;
/**
 * How long one write takes tasks in (ms), its commit not counted. An edit
 * queued with its effective row costs ~0.2-0.3 ms; its commit writes the
 * pages it dirtied to the log (not fsynced on main: see below), at a million
 * tasks ~0.2 ms of main's CPU a task more, most of them index pages scattered
 * over the file. There, 48 000 tasks with 20 ms had steps of main's own CPU up
 * to 62 ms (28 over 50) with commits up to 44 ms; with 10 ms up to 45 ms (none
 * over 50), for about the same CPU in all (the commits' pages are per task).
 */
const WRITE_BUDGET_MS = 10;
/** The ids handed to one write at most (its budget ends it sooner on a slow disk or machine). */
const MAX_PER_WRITE = 1000;
/**
 * A write's whole step, its commit counted, is aimed at this (ms): the next
 * write is handed as many tasks as the last one's cost a task fits in it.
 * WRITE_BUDGET_MS counts only taking tasks in; in `bench ui`'s bulk change at a
 * million tasks (the renderer and the pull worker busy beside it) commits
 * took two to three times that: main's steps over 30 ms were ~110, the
 * change's own up to 78 ms; so aimed, ~65, up to 50 (one run each).
 */
const STEP_AIM_MS = 20;

/** How many ids the next write is handed, from what the last one took and how long it held main (commit counted). */
export function nextWriteSize(last: { taken: number; heldMs: number } | null): number {
  if (last === null || last.taken === 0 || last.heldMs <= 0) return MAX_PER_WRITE;
  const fits = Math.floor((STEP_AIM_MS * last.taken) / last.heldMs);
  return Math.min(MAX_PER_WRITE, Math.max(1, fits));
}
/**
 * A query's first tasks in its own order, queued before the rest: the list the
 * change was made from shows them first (its first page is 40 rows).
 */
export const SHOWN_FIRST = 50;

/** Where a walk of a query's ids starts: after this cursor (null: its start), these ids already taken. */
interface WalkFrom {
  after: string | null;
  taken: ReadonlySet<string>;
}

/**
 * Every task id the target names, in the query's order (from `from` on), read
 * a page at a time with the event loop free between pages. None of them is
 * changed before all are read: a change of the field the query filters on
 * would move the pages under the walk. Cursors hold the sort key's values
 * (task-query/cursor.ts), so tasks changed before the walk (`from.taken`)
 * move nothing past its cursor but themselves, and those are left out.
 */
export async function bulkTargetIds(
  mirror: Mirror,
  target: BulkTarget,
  options: Pick<TaskQueryOptions, 'me' | 'today'>,
  from: WalkFrom = { after: null, taken: new Set() },
): Promise<string[]> {
  if ('taskIds' in target) return [...new Set(target.taskIds)];
  const except = new Set(target.except);
  const leftOut = (id: string) => except.has(id) || from.taken.has(id);
  const ids: string[] = [];
  for (let after = from.after; ;) {
    const page = await queryIds(mirror, target, options, after, IDS_PER_QUERY_PAGE, leftOut);
    ids.push(...page.ids);
    if (page.next === null) return ids;
    after = page.next;
    await nextTurn();
  }
}

/** One page of the query's ids after `after`, but those left out; and the cursor on. */
async function queryIds(
  mirror: Mirror,
  target: Extract<BulkTarget, { query: TaskQueryInput }>,
  options: Pick<TaskQueryOptions, 'me' | 'today'>,
  after: string | null,
  limit: number,
  leftOut: (id: string) => boolean,
): Promise<{ ids: string[]; next: string | null }> {
  // In the list's own short steps (a page of a broad search in one read held main for 0.9 s
  // at a million tasks under load).
  const page = await mirror.tasks.queryInSteps(target.query, {
    ...options,
    parent: target.parent,
    limit,
    after,
  });
  const ids = page.items.map((item) => item.task_id).filter((id) => !leftOut(id));
  return { ids, next: page.next };
}

/** Places in a list of ids a sort key keeps apart (2^22): row ids below 2^31 keep keys exact in a double. */
const PLACES = 2 ** 22;

/**
 * The ids in the order their rows are stored (row id; a task not stored at
 * the end), read a page at a time with the event loop free between. Rows
 * and bodies are kept in row id order, so a chunk of neighbours shares their
 * pages: each chunk's commit writes far fewer pages to the log than one of
 * tasks taken in a list's order, scattered over the whole table (measured in
 * bulk-change.test.ts). The order the edits are sent in does not matter.
 */
async function inRowOrder(mirror: Mirror, ids: readonly string[]): Promise<string[]> {
  // Order is only fewer pages written: more ids than keys keep apart stay as they are.
  if (ids.length >= PLACES) return [...ids];
  // Each key is the row id above the id's place in `ids` (a task not stored: after every row),
  // made as its page of ids is read: made after the reads, 50 000 keys held main ~40 ms in one
  // step at a million tasks (the bulk change's CPU profile in `bench ui`).
  const keys = new Float64Array(ids.length);
  const last = 2 ** 31 - 1;
  for (let from = 0; from < ids.length; from += IDS_PER_READ) {
    if (from > 0) await nextTurn();
    const page = ids.slice(from, from + IDS_PER_READ);
    const rids = mirror.tasks.ridsOf(page);
    for (let at = 0; at < page.length; at++)
      keys[from + at] = Math.min(rids.get(page[at] as string) ?? last, last) * PLACES + from + at;
  }
  // Sorted as numbers, natively: a comparator over 50 000 ids took ~60 ms of main in one step.
  await nextTurn();
  keys.sort();
  return Array.from(keys, (key) => ids[key % PLACES] as string);
}

/**
 * Queues `change` for every task of the target, under a new batch id, in
 * chunks written when the write lock is free (writeWhenFree), with the event
 * loop free between them. `onProgress` hears how many tasks are done so far.
 */
export async function queueBulkChange(
  mirror: Mirror,
  target: BulkTarget,
  change: BulkTaskChange,
  options: Pick<TaskQueryOptions, 'me' | 'today'> & {
    onProgress?: (done: number, total: number) => void;
    /** Hears each task changed, with its values before (an undo's record). */
    onChanged?: (changed: BulkTaskChanged) => void;
    /**
     * Hears once that a query's first tasks (SHOWN_FIRST) are queued while
     * others still wait their turn: the screens can show those changed rather
     * than wait for every task (at a million, 50 000 tasks took 24-47 s).
     */
    onFirstQueued?: () => void;
  },
): Promise<BulkOutcome> {
  // A value the service would refuse is refused before anything is queued.
  if (change.kind === 'edit') mirror.outbox.checkEdit('task', change.set, 'update');
  const outcome: BulkOutcome = { batchId: randomUUID(), matched: 0, queued: 0, setBack: 0, unchanged: 0 };
  /** The last write's tasks and how long it held main (nextWriteSize). */
  let last: { taken: number; heldMs: number } | null = null;
  /**
   * Queues `ids` in writes of the budget, the event loop free between; `before` tasks were queued
   * before them. The first write waits its turn too: it ran on in the call's own step (its input
   * parsed, the query's first page read), ahead of the other jobs' waiting steps; in the test host
   * the two held main 33-43 ms at 100 000 tasks, the change's longest step.
   */
  const queue = async (ids: readonly string[], before: number, total: number | null) => {
    for (let from = 0; from < ids.length;) {
      await nextTurn();
      // Its chunks alone can grow the log by gigabytes at a million tasks (Mirror.keepLogShort).
      await mirror.keepLogShort();
      const rest = ids.slice(from, from + nextWriteSize(last));
      // Without an fsync of its own (see Durability 'interim'): the log is
      // flushed on libuv's threads instead, awaited below before the change is
      // told queued. An fsync per chunk on main was most of a chunk's step on a
      // busy disk.
      let began = 0;
      const done = await writeWhenFree(
        mirror,
        () => {
          // From when the write runs, not while it waited for the lock: main is free meanwhile.
          began = performance.now();
          return mirror.tasks.bulkChunk(rest, change, outcome.batchId, WRITE_BUDGET_MS, options.onChanged);
        },
        { awaitFlush: false },
      );
      last = { taken: done.taken, heldMs: performance.now() - began };
      from += done.taken;
      outcome.matched += done.taken - done.missing;
      outcome.queued += done.queued;
      outcome.setBack += done.setBack;
      outcome.unchanged += done.unchanged;
      if (total !== null) options.onProgress?.(before + from, total);
    }
  };
  let first: string[] = [];
  let walkFrom: WalkFrom = { after: null, taken: new Set() };
  if ('query' in target) {
    // The query's first tasks are read and queued before the rest is read: at a million tasks the
    // walk of a search's 50 000 ids took 34 s under load, and the list's rows waited for all of it.
    const except = new Set(target.except);
    const page = await queryIds(mirror, target, options, null, SHOWN_FIRST, (id) => except.has(id));
    first = page.ids;
    if (page.next === null) {
      // The whole target: written as any other, told by its end alone.
      await queue(first, 0, first.length);
      await mirror.logFlushed();
      return outcome;
    }
    await queue(first, 0, null);
    options.onFirstQueued?.();
    await nextTurn();
    walkFrom = { after: page.next, taken: new Set(first) };
  }
  // The rest in row order (few log pages a task).
  const rest = await inRowOrder(mirror, await bulkTargetIds(mirror, target, options, walkFrom));
  const total = first.length + rest.length;
  if (first.length > 0) options.onProgress?.(first.length, total);
  await queue(rest, first.length, total);
  // A person's change is durable when they hear it queued (open-mirror.ts).
  await mirror.logFlushed();
  return outcome;
}

/**
 * Stops a bulk change: what of it was never sent is given up, in writes of
 * the bulk change's own budget with the event loop free between; what is
 * being sent or was sent stays. Returns how many operations were given up.
 * At a million tasks a drop rewrites its task's row as a change does: 100 a
 * write, each fsynced on main, held main 50-200 ms a write.
 */
export async function stopBulkChange(mirror: Mirror, batchId: string): Promise<number> {
  let stopped = 0;
  for (let more = true; more;) {
    if (stopped > 0) await nextTurn();
    await mirror.keepLogShort();
    // Without an fsync of its own on main, as the change's chunks (see queueBulkChange).
    const some = await writeWhenFree(
      mirror,
      () => mirror.outbox.stopBatchSome(batchId, MAX_PER_WRITE, WRITE_BUDGET_MS),
      { awaitFlush: false },
    );
    stopped += some.stopped;
    more = some.more;
  }
  // Stopped is told once on disk, as queued is.
  await mirror.logFlushed();
  return stopped;
}
