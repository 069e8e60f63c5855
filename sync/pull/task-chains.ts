// Walks the whole task list as several cursor chains at once: disjoint ranges
// of creation days (`filter[created_after]` / `filter[created_before]`,
// inclusive days), each a partial pass of its own scope (its pages and ETags
// stored, so a re-sync revalidates each chain with 304s), the last one
// open-ended so a task created during the walk lands in it. created_at never
// changes, so a task edited or moved during the walk stays in its one range:
// never missed, never counted twice. The list's own pass ('tasks', '') spans
// the chains: it runs while they walk (what a push or a single read writes
// meanwhile counts as seen), and is completed, removing what no chain's pages
// hold, only once every chain has reached its end in this run.
//
// How the ranges are found (a first sync, or a list that never had chains):
// the first page of a range is probed (1000 tasks, oldest first, kept as the
// chain's first page when the range stays as probed); a full page
// spanning more than one day tells the range's density, and a range estimated
// at more than `targetPages` pages is split into equal day widths (two rounds
// at most); adjacent ranges whose estimates fit in one chain are merged back.
// Between runs the partition is kept as stored: revalidation needs the same
// queries, and an interrupted first sync resumes each chain where it stopped.
// A stored partition with holes (a run stopped before every chain had begun)
// gets a chain per hole, so the ranges always cover every day. It is not
// planned again when a range grows (only the open-ended last one does, with
// new tasks): that costs the last chain more pages, not correctness. A task
// whose created_at is null (gaps.md allows it) would fall in no range, so a
// list whose oldest or newest task has none is walked as one chain.
import { chainScopePrefix } from '../../db/passes/sync-passes';
import { envelopeOnly } from './deferred-validation';
import { taskOperations } from '../api/operations';
import { listSource } from './list-source';
import { ApplyBacklog } from './apply-backlog';
import { walkList } from './page-walker';
import type { ListSource, PageAnswer, WalkProgress } from './walk-types';
import { addResult, emptyResult, type PullContext, type ResourcePullResult } from './pull-context';
import type { TaskChainPolicy } from './pull-run-policy';

/** The contract's largest page, the one the chains walk with (created_at ascending, ties by id: stable). */
export const CHAIN_PAGE = { limit: 1000, sortBy: 'created_at', sortOrder: 'asc' } as const;

/** Inclusive creation days; null: open on that side. */
export interface DayRange {
  from: string | null;
  to: string | null;
}

const DAY_MS = 86_400_000;
const PREFIX = chainScopePrefix('');

/** The chain's scope: `~from..to`, an open side left empty. */
export function chainScope(range: DayRange): string {
  return `${PREFIX}${range.from ?? ''}..${range.to ?? ''}`;
}

/** The range a chain scope names; null for a scope that is not one. */
export function rangeOfScope(scope: string): DayRange | null {
  if (!scope.startsWith(PREFIX)) return null;
  const match = /^(\d{4}-\d{2}-\d{2})?\.\.(\d{4}-\d{2}-\d{2})?$/.exec(scope.slice(PREFIX.length));
  if (!match) return null;
  return { from: match[1] ?? null, to: match[2] ?? null };
}

const dayNumber = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);
const lowOf = (range: DayRange): number => (range.from === null ? -Infinity : dayNumber(range.from));
const highOf = (range: DayRange): number => (range.to === null ? Infinity : dayNumber(range.to));

/**
 * Stored ranges, ordered, with a range added for every hole so that together
 * they cover every day; overlapping ones (never written so) are kept as they are.
 */
export function coverEveryDay(stored: readonly DayRange[]): DayRange[] {
  const ranges = [...stored].sort((a, b) => lowOf(a) - lowOf(b));
  const covered: DayRange[] = [];
  let next = -Infinity;
  for (const range of ranges) {
    const low = lowOf(range);
    if (low > next) covered.push({ from: next === -Infinity ? null : dayOf(next), to: dayOf(low - 1) });
    covered.push(range);
    next = Math.max(next, highOf(range) + 1);
  }
  if (next !== Infinity) covered.push({ from: next === -Infinity ? null : dayOf(next), to: null });
  return covered;
}

/** What a probe of a range's first page showed. */
interface Probe {
  range: DayRange;
  /** The page itself: the range's chain starts with it when the range is kept as probed. */
  page: PageAnswer;
  /** Lets the store forget the page when no chain will start with it. */
  onUnused: () => void;
  /** Tasks a day over the page's days (0 when the page was not full). */
  perDay: number;
  /** Estimated pages of the range (exact when it fit in one page). */
  pages: number;
  /** Creation days of the page's first and last task (null for an empty range). */
  first: number | null;
  last: number | null;
  full: boolean;
}

function dayOfTime(at: string | undefined): number | null {
  const ms = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(ms) ? null : Math.floor(ms / DAY_MS);
}

function filterOf(range: DayRange): Record<string, string> {
  return {
    ...(range.from !== null ? { created_after: range.from } : {}),
    ...(range.to !== null ? { created_before: range.to } : {}),
  };
}

const CREATED_AT = /"created_at":"([^"]+)"/g;

/**
 * The first and last creation days of a page body, read off its text: the
 * store (the pull worker) parses the body, this thread only scans it, and an
 * estimate is all the days are used for.
 */
function daysOfBody(body: ArrayBuffer): { first: number | null; last: number | null } {
  const text = new TextDecoder().decode(body);
  const first = /"created_at":"([^"]+)"/.exec(text)?.[1];
  let last: string | undefined;
  const tail = text.slice(Math.max(0, text.length - 8192));
  for (const match of tail.matchAll(CREATED_AT)) last = match[1];
  return { first: dayOfTime(first), last: dayOfTime(last) };
}

/** A range's first page: as the chain would fetch it, and its first and last creation days. */
async function firstPageOf(
  ctx: PullContext,
  range: DayRange,
): Promise<{
  page: PageAnswer & { status: 200 };
  first: number | null;
  last: number | null;
  onUnused: () => void;
}> {
  const request = { ...CHAIN_PAGE, filter: filterOf(range), cursor: null };
  const options = { signal: ctx.signal, lane: ctx.lane };
  const readPage = ctx.store.readPage?.bind(ctx.store);
  if (readPage !== undefined) {
    const answer = await ctx.api.listPageBody(taskOperations.list, { orgId: ctx.orgId }, request, options);
    if (answer.status === 304) throw new Error('tasks: a 304 for a page that was not asked conditionally');
    const days = daysOfBody(answer.body);
    // The body is handed over to the store (transferred): scanned above, before.
    const read = await readPage(taskOperations.list.name, answer.body);
    const page = {
      status: 200 as const,
      etag: answer.etag,
      items: [],
      read: { readAs: read.readAs, count: read.count },
      nextCursor: read.nextCursor,
      total: read.total,
      uncheckedFrom: taskOperations.list.name,
    };
    return { page, ...days, onUnused: () => ctx.store.dropPage?.(read.readAs) };
  }
  const answer = await ctx.api.listPage(
    envelopeOnly(taskOperations.list),
    { orgId: ctx.orgId },
    request,
    options,
  );
  if (answer.status === 304) throw new Error('tasks: a 304 for a page that was not asked conditionally');
  const items = answer.body.data as Record<string, unknown>[];
  const at = (item: Record<string, unknown> | undefined) =>
    typeof item?.created_at === 'string' ? item.created_at : undefined;
  const page = {
    status: 200 as const,
    etag: answer.etag,
    items,
    nextCursor: answer.body.next_cursor,
    total: null,
    // Only the envelope was checked: the store checks the items before applying them.
    uncheckedFrom: taskOperations.list.name,
  };
  return {
    page,
    first: dayOfTime(at(items[0])),
    last: dayOfTime(at(items[items.length - 1])),
    onUnused: () => undefined,
  };
}

/** The first page of a range, read for its size and days (and kept for the range's chain). */
async function probe(ctx: PullContext, range: DayRange, today: number): Promise<Probe> {
  const { page, first, last, onUnused } = await firstPageOf(ctx, range);
  const full = page.nextCursor !== null;
  const count = page.read ? page.read.count : page.items.length;
  if (!full || first === null || last === null)
    return { range, page, onUnused, perDay: 0, pages: full ? 2 : 1, first, last, full };
  // The page's density over the days it spans, carried to the range's end (today for the open end).
  const end = Math.max(last, Math.min(highOf(range), Math.max(today, last)));
  const perDay = count / (last - first + 1);
  const pages = (perDay * (end - first + 1)) / CHAIN_PAGE.limit;
  return { range, page, onUnused, perDay, pages, first, last, full };
}

/**
 * The creation days of the list's oldest and newest tasks (one task each);
 * null when either has none (gaps.md allows a null created_at).
 */
async function listEnds(ctx: PullContext): Promise<{ oldest: number; newest: number } | null> {
  const end = async (sortOrder: 'asc' | 'desc') => {
    const answer = await ctx.api.listPage(
      envelopeOnly(taskOperations.list),
      { orgId: ctx.orgId },
      { limit: 1, sortBy: 'created_at', sortOrder, cursor: null },
      { signal: ctx.signal, lane: ctx.lane },
    );
    if (answer.status === 304) throw new Error('tasks: a 304 for a page that was not asked conditionally');
    const at = answer.body.data[0]?.created_at;
    return typeof at === 'string' ? dayOfTime(at) : null;
  };
  const [oldest, newest] = await Promise.all([end('asc'), end('desc')]);
  return oldest === null || newest === null ? null : { oldest, newest };
}

/** Splits a probed range into `parts` ranges of equal day width; its open sides stay open. */
function split(probed: Probe, parts: number, today: number): DayRange[] {
  const first = probed.first as number;
  const end = Math.max(probed.last as number, Math.min(highOf(probed.range), Math.max(today, first)));
  const width = Math.max(1, Math.ceil((end - first + 1) / parts));
  const ranges: DayRange[] = [];
  for (let start = first; start <= end; start += width) {
    ranges.push({ from: dayOf(start), to: dayOf(Math.min(end, start + width - 1)) });
  }
  const head = ranges[0];
  const tail = ranges[ranges.length - 1];
  if (head) head.from = probed.range.from;
  if (tail) tail.to = probed.range.to;
  return ranges;
}

/**
 * The ranges of a first walk: probes split what is too big for one chain
 * (two rounds), then neighbours that fit in one chain together are merged.
 */
export async function planChains(
  ctx: PullContext,
  policy: TaskChainPolicy,
  today: number,
): Promise<{ range: DayRange; firstPage: PageAnswer | null }[]> {
  const tooBig = (p: Probe) =>
    p.full && p.first !== null && p.pages > policy.targetPages * 1.5 && highOf(p.range) !== p.first;
  const root = await probe(ctx, { from: null, to: null }, today);
  let probes = [root];
  if (tooBig(root) && policy.maxChains > 1) {
    const ends = await listEnds(ctx);
    // A task without a creation day would fall in no range: such a list is walked as one chain.
    if (ends === null) return [{ range: root.range, firstPage: root.page }];
    // The newest day, not today, is where the list ends now (the open end takes what comes after).
    today = Math.max(ends.newest, root.last ?? ends.newest);
    root.first = ends.oldest;
    root.pages = (root.perDay * (today - ends.oldest + 1)) / CHAIN_PAGE.limit;
  }
  for (let round = 0; round < 2; round++) {
    if (!probes.some(tooBig) || probes.length >= policy.maxChains) break;
    const next: Promise<Probe>[] = [];
    let budget = policy.maxChains - probes.length;
    for (const p of probes) {
      if (!tooBig(p) || budget <= 0) {
        next.push(Promise.resolve(p));
        continue;
      }
      const parts = Math.min(Math.ceil(p.pages / policy.targetPages), budget + 1);
      budget -= parts - 1;
      p.onUnused();
      for (const range of split(p, parts, today)) next.push(probe(ctx, range, today));
    }
    const settled = await Promise.allSettled(next);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) {
      // Pages the store read for the probes that answered would never be applied: let it forget them.
      for (const s of settled) if (s.status === 'fulfilled') s.value.onUnused();
      throw failed.reason;
    }
    probes = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  }
  // Merge neighbours that fit in one chain together (a merged range's first page is another query).
  const merged: { range: DayRange; firstPage: PageAnswer | null; pages: number; unused: () => void }[] = [];
  for (const p of probes) {
    const previous = merged[merged.length - 1];
    if (previous && previous.pages + p.pages <= policy.targetPages) {
      previous.unused();
      p.onUnused();
      merged[merged.length - 1] = {
        unused: () => undefined,
        range: { from: previous.range.from, to: p.range.to },
        firstPage: null,
        pages: previous.pages + p.pages,
      };
    } else merged.push({ range: p.range, firstPage: p.page, pages: p.pages, unused: p.onUnused });
  }
  return merged.map(({ range, firstPage }) => ({ range, firstPage }));
}

/**
 * A chain's list, whose first page may already be in hand (its range's
 * probe); `unused` lets the store forget that page if the walk never asked for it.
 */
function startingWith(
  ctx: PullContext,
  source: ListSource,
  firstPage: PageAnswer | null,
): { source: ListSource; unused: () => void } {
  let first = firstPage;
  return {
    source: {
      fetch(cursor, ifNoneMatch, signal, onNextCursor) {
        if (first !== null && cursor === null && ifNoneMatch === null) {
          const answer = first;
          first = null;
          return Promise.resolve(answer);
        }
        return source.fetch(cursor, ifNoneMatch, signal, onNextCursor);
      },
    },
    unused() {
      if (first?.status === 200 && first.read) ctx.store.dropPage?.(first.read.readAs);
      first = null;
    },
  };
}

/**
 * The whole task list as chains: resumes or revalidates the stored partition
 * (planning one first when there is none), walks every chain at once, and
 * completes the list's pass (its sweep) only when every chain reached its end.
 */
export async function pullTaskChains(
  ctx: PullContext,
  policy: TaskChainPolicy,
  today: number,
): Promise<ResourcePullResult> {
  const { store } = ctx;
  const before = await store.pass('tasks', '');
  // The list's pass runs while the chains walk (a first sync's began before the person's tasks).
  await store.beginPass('tasks', '', { partial: false, restart: false });
  const stored = (before?.chains ?? []).flatMap((scope) => rangeOfScope(scope) ?? []);
  const chains =
    stored.length > 0
      ? coverEveryDay(stored).map((range) => ({ range, firstPage: null }))
      : await planChains(ctx, policy, today);

  const progress = new Map<string, WalkProgress>();
  const report = (): void => {
    const all = [...progress.values()];
    const sum = (pick: (p: WalkProgress) => number) => all.reduce((total, p) => total + pick(p), 0);
    const totals = all.map((p) => p.estimatedTotal);
    ctx.onProgress('tasks', '', {
      pagesDone: sum((p) => p.pagesDone),
      itemsDone: sum((p) => p.itemsDone),
      notModified: sum((p) => p.notModified),
      estimatedTotal:
        all.length === chains.length && totals.every((t) => t !== null)
          ? sum((p) => p.estimatedTotal ?? 0)
          : null,
    });
  };
  const sources = chains.map(({ range, firstPage }) =>
    startingWith(
      ctx,
      listSource(
        ctx.api,
        taskOperations.list,
        { orgId: ctx.orgId },
        { ...CHAIN_PAGE, filter: filterOf(range) },
        ctx.lane,
        store,
      ),
      firstPage,
    ),
  );
  // The chains' pages waiting for the store are bounded together: the store applies one at a time.
  const backlog = new ApplyBacklog();
  const walks = chains.map(async ({ range }, at) => {
    const scope = chainScope(range);
    return walkList({
      collection: 'tasks',
      scope,
      source: (sources[at] as { source: ListSource }).source,
      store,
      // A chain never removes anything on its own: the list's pass does, over all of them.
      partial: true,
      backlog,
      concurrency: ctx.concurrency,
      announce: ctx.announce,
      signal: ctx.signal,
      onProgress: (p) => {
        progress.set(scope, p);
        report();
      },
      ...ctx.walkRules,
    });
  });
  // Every chain ends (or fails) before the pull reports, so none writes after it.
  const settled = await Promise.allSettled(walks);
  for (const { unused } of sources) unused();
  const result = emptyResult();
  for (const outcome of settled) {
    if (outcome.status === 'rejected') throw outcome.reason;
    addResult(result, { ...outcome.value, complete: true });
  }
  const completed = await store.completePass('tasks', '', -1);
  result.changes.push(...completed.changes);
  result.parked.push(...completed.parked);
  return result;
}
