// Walks one list (a collection in one scope) page by page, as the contract
// asks: If-None-Match with each page's stored ETag, a 304 reusing the stored
// next_cursor and membership, short and empty pages followed while the cursor
// is not null, a refused cursor restarting the pass, deletions only when the
// chain ended. A refused cursor restarts the pass, with backoff, for as long
// as the run's time allows: the restarted walk goes alone (no other walk of
// the run sending) and fetches nothing ahead, and pages already applied stay.
// Two things make it fast without bending those rules:
// - pages known from the last pass are revalidated concurrently (bounded),
//   keyed by the cursor they were sent with, and used only when the chain
//   actually reaches that cursor;
// - applying page N to the mirror overlaps fetching page N+1.
import { systemApiClock } from '../api/clock';
import { ProblemError } from '../api/errors';
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import type { ResourceChange } from '../engine/sync-events';
import { CursorAges, issuedAtOf } from './cursor-ages';
import { backoffMs, DEFAULT_PULL_RUN_POLICY, type RunTime, waitWithin } from './pull-run-policy';
import type { SoloGate } from './solo-gate';
import type { PullStore, StoredCollection, StoredPageRecord } from './pull-store';

export type PageAnswer =
  | {
      status: 200;
      etag: string | null;
      items: Record<string, unknown>[];
      nextCursor: string | null;
      /** The service's count of the whole list, when it says. */
      total: number | null;
      /** The items were not validated yet: the store checks them against this operation. */
      uncheckedFrom?: string;
      /** The store read the body itself (PullStore.readPage) and keeps its `count` items; `items` is empty. */
      read?: { readAs: number; count: number };
    }
  | { status: 304 };

/** One list on the service: how to fetch a page of it. */
export interface ListSource {
  /**
   * `onNextCursor`, when given, may be told the next page's cursor as soon as
   * the answer shows it, before the page is read and answered (a hint: the
   * answer's own `nextCursor` is what the walk follows).
   */
  fetch(
    cursor: string | null,
    ifNoneMatch: string | null,
    signal: AbortSignal,
    onNextCursor?: (cursor: string) => void,
  ): Promise<PageAnswer>;
}

export interface WalkProgress {
  pagesDone: number;
  itemsDone: number;
  notModified: number;
  estimatedTotal: number | null;
}

export interface WalkOptions {
  collection: StoredCollection;
  scope: string;
  source: ListSource;
  store: PullStore;
  /** A filtered listing: recorded, but never removes anything. */
  partial: boolean;
  /** Pages revalidated at once (1: one after another). */
  concurrency: number;
  signal?: AbortSignal | undefined;
  onProgress?: (progress: WalkProgress) => void;
  /** False: build no change list for 200 pages (the first full sync). Default true. */
  announce?: boolean;
  /** The run's clock and deadline: restarts after refused cursors go on until then. Default: 5 minutes from now. */
  time?: RunTime;
  /** Wait before the first restart but one (the first is at once); doubles per restart. */
  restartBaseMs?: number;
  restartMaxMs?: number;
  /** Shared by the walks of one run: a restarted walk goes alone through it. */
  gate?: SoloGate;
  /** What the service showed about cursor lifetimes (shared by the walks of an engine). */
  cursorAges?: CursorAges;
  /** Shared by walks going at once (the task list's chains): bounds their pages waiting for the store together. */
  backlog?: ApplyBacklog;
  /** Told of each item a page left out (it failed the schema, or the mirror refused it): the sync log names it. */
  onItemSkipped?: (skip: ItemSkipped) => void;
}

/** An item left out of an applied page: it keeps its previous copy, and its page is fetched whole next time. */
export interface ItemSkipped {
  collection: StoredCollection;
  scope: string;
  id: string | null;
  field: string;
  reason: string;
}

export interface WalkResult {
  changes: ResourceChange[];
  /** Resources received in 200 pages. */
  pulled: number;
  notModified: number;
  pages: number;
  restarts: number;
  /** Ids held by the pages of this pass (the list's size when complete). */
  items: number;
  /** Rows the mirror refused (the rest of their pages applied; those pages are fetched whole next time). */
  rejected: number;
  /** Edits the completed pass parked as conflicts (their tasks were gone from it). */
  parked: ParkedEdit[];
}

/** The service kept answering empty pages with the cursor it was sent: following it would never end. */
export class CursorLoopError extends Error {
  override readonly name = 'CursorLoopError';
  constructor(
    readonly collection: string,
    readonly scope: string,
  ) {
    super(`${collection}${scope ? ` (${scope})` : ''}: the service repeated a cursor; the pass stopped`);
  }
}

/** 400 invalid-parameter naming `cursor`: the cursor stopped being accepted. */
export function isRefusedCursor(error: unknown): boolean {
  if (!(error instanceof ProblemError) || error.status !== 400 || error.type !== 'invalid-parameter')
    return false;
  const locs = error.errors
    .map((item) => (item as { loc?: unknown }).loc)
    .filter((loc) => loc !== undefined && loc !== null);
  // Called for a request that sent a cursor, the rest of whose query was accepted without one: a
  // problem that names no parameter (no items, or items without `loc`) can only mean the cursor.
  if (locs.length === 0) return true;
  return locs.some((loc) => (Array.isArray(loc) ? loc.includes('cursor') : loc === 'cursor'));
}

/** A cursor of this walk was refused; `issuedAt`: when the service handed it out. */
class RefusedCursor extends Error {
  constructor(
    readonly issuedAt: number,
    options: { cause: unknown },
  ) {
    super('cursor refused', options);
  }
}

/** The service kept refusing the list's cursors until the run's time was up; pages applied stay. */
export class CursorsRefusedError extends Error {
  override readonly name = 'CursorsRefusedError';
  constructor(
    readonly collection: string,
    readonly scope: string,
    readonly restarts: number,
    options: { cause: unknown },
  ) {
    super(
      `${collection}${scope ? ` (${scope})` : ''}: the service refused the list's cursors ${restarts} time(s) and the pass could not finish within this sync's time; the pages received are kept and the next sync starts the list over`,
      options,
    );
  }
}

/** How many applied pages may wait behind the fetches (bounds memory while the mirror catches up). */
const MAX_QUEUED_APPLIES = 2;

/**
 * Pages fetched and waiting for the store, counted across the walks that
 * share it: each walk waits while the count is over the bound, so several
 * walks at once hold hardly more pages in memory than one (the store applies
 * one page at a time whoever sent it).
 */
export class ApplyBacklog {
  private queued = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly limit: number = MAX_QUEUED_APPLIES) {}

  add(): void {
    this.queued += 1;
  }

  done(): void {
    this.queued -= 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves once the pages waiting are within the bound. */
  async room(): Promise<void> {
    while (this.queued > this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

/** Empty pages in a row that repeat their cursor before the walk calls it a loop. */
const MAX_SAME_CURSOR_RUNS = 50;

const FIRST = '\u0000first';
const keyOf = (cursor: string | null): string => cursor ?? FIRST;

export async function walkList(options: WalkOptions): Promise<WalkResult> {
  const { store, collection, scope } = options;
  const time = options.time ?? {
    clock: systemApiClock,
    deadline: systemApiClock.now() + DEFAULT_PULL_RUN_POLICY.runBudgetMs,
  };
  const ages = options.cursorAges ?? new CursorAges();
  const restartBase = options.restartBaseMs ?? DEFAULT_PULL_RUN_POLICY.restartBaseMs;
  const restartMax = options.restartMaxMs ?? DEFAULT_PULL_RUN_POLICY.restartMaxMs;
  let restarts = 0;
  let restart = false;
  for (;;) {
    const before = await store.pass(collection, scope);
    const resumeFrom =
      !restart && before !== null && before.state === 'running' && before.resume.cursor !== null
        ? before.pages.find((p) => p.passNo === before.passNo && p.pageIndex === before.resume.pageIndex - 1)
        : undefined;
    // A stored cursor as old as one the service refused would be refused too: start over instead.
    if (resumeFrom && !ages.usable(issuedAtOf(resumeFrom), time.clock.now())) restart = true;
    // After a complete pass, the new one begins only when a page turns out to have
    // changed: a re-sync that meets nothing but 304s writes nothing at all.
    const lazy = !restart && before !== null && before.state === 'complete';
    const passNo = lazy
      ? before.passNo + 1
      : (await store.beginPass(collection, scope, { partial: options.partial, restart })).passNo;
    const resuming = !restart && before !== null && before.state === 'running' && before.passNo === passNo;
    const walk = () =>
      walkChain(options, {
        passNo,
        begin: lazy
          ? () => store.beginPass(collection, scope, { partial: options.partial, restart: false })
          : null,
        startIndex: resuming ? before.resume.pageIndex : 0,
        startCursor: resuming ? before.resume.cursor : null,
        startIssuedAt: resuming && resumeFrom ? issuedAtOf(resumeFrom) : time.clock.now(),
        known: before?.pages ?? [],
        doneBefore: resuming ? before.pages.filter((p) => p.passNo === passNo) : [],
        solo: restart,
        time,
        ages,
      });
    try {
      // A list whose cursors were refused walks alone: nothing else of the run competes for the budget.
      const result = restart && options.gate ? await options.gate.alone(walk) : await walk();
      return { ...result, restarts };
    } catch (error) {
      if (!(error instanceof RefusedCursor || isRefusedCursor(error))) throw error;
      const cause = error instanceof RefusedCursor ? error.cause : error;
      if (error instanceof RefusedCursor) ages.refused(error.issuedAt, time.clock.now());
      restarts += 1;
      // The first restart goes at once (a cursor may simply have expired); then with backoff.
      const wait = restarts === 1 ? 0 : backoffMs(restarts - 1, restartBase, restartMax);
      if (!(await waitWithin(time, wait, options.signal)))
        throw new CursorsRefusedError(collection, scope, restarts - 1, { cause });
      restart = true;
    }
  }
}

interface ChainStart {
  passNo: number;
  /** Starts the pass, when it was not started yet (lazy): called before the first write. */
  begin: (() => Promise<unknown>) | null;
  startIndex: number;
  startCursor: string | null;
  /** When the service handed out `startCursor` (epoch ms). */
  startIssuedAt: number;
  /** Stored pages (any pass): what revalidation may ask about. */
  known: readonly StoredPageRecord[];
  /** Pages already fetched in this (resumed) pass. */
  doneBefore: readonly StoredPageRecord[];
  /** A restart after a refused cursor: one request at a time, nothing fetched ahead, no other walk sending. */
  solo: boolean;
  time: RunTime;
  ages: CursorAges;
}

async function walkChain(options: WalkOptions, start: ChainStart): Promise<Omit<WalkResult, 'restarts'>> {
  const { store, collection, scope, source } = options;
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const limiter = new Limiter(start.solo ? 1 : Math.max(1, options.concurrency));
  const gate = start.solo ? undefined : options.gate;
  const now = () => start.time.clock.now();

  // The last pass's pages by the cursor they were sent with; this pass's own pages are not asked again.
  // Restarted after a refusal, a page as old as a refused cursor is fetched whole: a 304 would
  // hand back its stored next_cursor, which would be refused too.
  const known = new Map<string, StoredPageRecord>();
  for (const page of start.known) {
    if (page.passNo === start.passNo && page.pageIndex < start.startIndex) continue;
    if (start.solo && !start.ages.usable(issuedAtOf(page), now())) continue;
    const key = keyOf(page.cursorSent);
    if (!known.has(key)) known.set(key, page);
  }
  const lastPassItems = start.known.reduce((sum, p) => sum + p.ids.length, 0);

  const inFlight = new Map<string, { etagSent: string | null; answer: Promise<PageAnswer> }>();
  /** `issuedAt`: when the service handed out `cursor`; what its answer shows of cursor lifetimes is kept. */
  const request = (
    cursor: string | null,
    issuedAt: number,
  ): { etagSent: string | null; answer: Promise<PageAnswer> } => {
    const key = keyOf(cursor);
    const existing = inFlight.get(key);
    if (existing) return existing;
    const etagSent = known.get(key)?.etag ?? null;
    const answer = limiter.run(() =>
      gate
        ? gate.shared(() => source.fetch(cursor, etagSent, signal, early))
        : source.fetch(cursor, etagSent, signal, early),
    );
    // Speculative answers may never be used; their failures are read when (if) they are.
    answer.then(
      () => {
        if (cursor !== null) start.ages.honoured(issuedAt, now());
      },
      (error: unknown) => {
        if (cursor !== null && isRefusedCursor(error)) start.ages.refused(issuedAt, now());
      },
    );
    const entry = { etagSent, answer };
    inFlight.set(key, entry);
    return entry;
  };
  /**
   * The next page asked for as soon as an answer names its cursor, before the
   * store has read the page: a store in the pull worker reads it only after
   * the page write it is in (tens of milliseconds a page, the person's own
   * tasks walked one page after another). Not for a walk alone after a
   * refusal (nothing fetched ahead), nor for walks sharing a backlog (they
   * fetch only once it has room). A wrong hint costs one unused request.
   */
  const early =
    start.solo || options.backlog
      ? undefined
      : (next: string): void => {
          if (!inFlight.has(keyOf(next))) request(next, now());
        };
  /** Revalidate the stored chain ahead of us, concurrently, as far as it goes. */
  const speculateFrom = (cursor: string | null, cursorIssuedAt: number): void => {
    if (options.concurrency <= 1 || start.solo) return;
    let issuedAt = cursorIssuedAt;
    let key = keyOf(cursor);
    let next = cursor;
    const seen = new Set<string>();
    for (;;) {
      const page = known.get(key);
      if (!page || page.etag === null || seen.has(key)) return;
      seen.add(key);
      request(next, issuedAt);
      issuedAt = issuedAtOf(page);
      if (page.nextCursor === null) return;
      next = page.nextCursor;
      key = keyOf(next);
    }
  };

  const changes: ResourceChange[] = [];
  const progress: WalkProgress = {
    pagesDone: start.doneBefore.length,
    itemsDone: start.doneBefore.reduce((sum, p) => sum + p.ids.length, 0),
    notModified: 0,
    estimatedTotal: lastPassItems > 0 ? lastPassItems : null,
  };
  let pulled = 0;
  let rejected = 0;
  let applying: Promise<void> = Promise.resolve();
  let queuedApplies = 0;
  /** Each queued apply's end, oldest first: the walk waits for a free slot, not for the whole queue. */
  const applyEnds: Promise<void>[] = [];
  const failed: { first: { error: unknown } | null } = { first: null };
  /** Read through a call: the applies set it between awaits, which narrowing cannot see. */
  const throwIfApplyFailed = (): void => {
    if (failed.first) throw failed.first.error;
  };
  /** A page the store read but that will not be applied: let it forget the items. */
  const forget = (answer: PageAnswer): void => {
    if (answer.status === 200 && answer.read) store.dropPage?.(answer.read.readAs);
  };
  /** `bounded`: the walk waits for the store when too many of these are queued (page writes). */
  const enqueue = (
    apply: () => Promise<ResourceChange[] | void>,
    skipped?: () => void,
    bounded = true,
  ): void => {
    if (bounded) {
      queuedApplies += 1;
      options.backlog?.add();
    }
    applying = applying.then(async () => {
      try {
        if (failed.first) {
          skipped?.();
          return;
        }
        // Let the request for the next page go out before this page's synchronous write.
        await yieldToIo();
        const applied = await apply();
        if (applied) changes.push(...applied);
      } catch (error) {
        failed.first ??= { error };
      } finally {
        if (bounded) {
          queuedApplies -= 1;
          options.backlog?.done();
        }
      }
    });
    const end = applying;
    applyEnds.push(end);
    void end.then(() => applyEnds.shift());
  };

  /**
   * 304 pages waiting to be recorded as reused. They go in batches, one store
   * call for all that came in meanwhile: one at a time, a re-sync of 100 pages
   * would wait 100 times for the store (behind whatever it is doing, such as
   * a first load's index build).
   */
  const reuseBatch: number[] = [];
  const reuse = (pageIndex: number): void => {
    reuseBatch.push(pageIndex);
    if (reuseBatch.length > 1) return;
    enqueue(() => store.reusePages(collection, scope, reuseBatch.splice(0)), undefined, false);
  };

  let index = start.startIndex;
  let cursor = start.startCursor;
  let cursorIssuedAt = start.startIssuedAt;
  let begun = start.begin === null;
  /** Pages answered 304 before the pass began (lazy): reused when something changes. */
  const unchangedSoFar: number[] = [];
  /** Empty pages may hand back the cursor they were sent with; only an endless run of them is a loop. */
  let sameCursorRuns = 0;
  speculateFrom(cursor, cursorIssuedAt);
  try {
    for (;;) {
      throwIfApplyFailed();
      const key = keyOf(cursor);
      const { etagSent, answer: pending } = request(cursor, cursorIssuedAt);
      let answer: PageAnswer;
      try {
        answer = await pending;
      } catch (error) {
        if (cursor !== null && isRefusedCursor(error))
          throw new RefusedCursor(cursorIssuedAt, { cause: error });
        throw error;
      }
      inFlight.delete(key);
      const pageIndex = index;
      let nextCursor: string | null;
      let nextIssuedAt = now();
      if (answer.status === 304) {
        const stored = known.get(key);
        if (!stored || etagSent === null) {
          throw new Error(`${collection}: a 304 for a page that was not asked conditionally`);
        }
        if (stored.pageIndex !== pageIndex) {
          // The chain shifted (pages were added or removed before this one): the
          // mirror reuses pages by position, so fetch this one whole instead.
          known.delete(key);
          inFlight.delete(key);
          continue;
        }
        nextCursor = stored.nextCursor;
        nextIssuedAt = issuedAtOf(stored);
        progress.notModified += 1;
        progress.itemsDone += stored.ids.length;
        if (begun) reuse(pageIndex);
        else unchangedSoFar.push(pageIndex);
      } else {
        if (!begun) {
          // The first change: start the pass and count the unchanged pages before it.
          begun = true;
          const reused = unchangedSoFar.splice(0);
          enqueue(async () => {
            await start.begin?.();
            if (reused.length > 0) await store.reusePages(collection, scope, reused);
          });
        }
        nextCursor = answer.nextCursor;
        const count = answer.read ? answer.read.count : answer.items.length;
        pulled += count;
        progress.itemsDone += count;
        if (answer.total !== null) progress.estimatedTotal = answer.total;
        const page = {
          pageIndex,
          cursorSent: cursor,
          etag: answer.etag,
          nextCursor,
          items: answer.items,
          announce: options.announce ?? true,
          ...(answer.uncheckedFrom !== undefined ? { uncheckedFrom: answer.uncheckedFrom } : {}),
          ...(answer.read ? { readAs: answer.read.readAs } : {}),
        };
        const read = answer;
        enqueue(
          async () => {
            const outcome = await store.applyPage(collection, scope, options.partial, page);
            rejected += outcome.rejected.length;
            for (const row of outcome.rejected) options.onItemSkipped?.({ collection, scope, ...row });
            return outcome.changes;
          },
          () => forget(read),
        );
        // The chain moved away from what we knew: revalidate ahead of the new cursor.
        if (nextCursor !== null && !inFlight.has(keyOf(nextCursor))) speculateFrom(nextCursor, nextIssuedAt);
      }
      progress.pagesDone += 1;
      if (progress.estimatedTotal !== null && progress.itemsDone > progress.estimatedTotal) {
        progress.estimatedTotal = progress.itemsDone;
      }
      options.onProgress?.({ ...progress });
      if (nextCursor === null) {
        await applying;
        throwIfApplyFailed();
        // Every page unchanged: the list is exactly what the last complete pass saw.
        const completed = begun ? await store.completePass(collection, scope, pageIndex) : null;
        if (completed) changes.push(...completed.changes);
        return {
          changes,
          pulled,
          notModified: progress.notModified,
          pages: progress.pagesDone,
          items: progress.itemsDone,
          rejected,
          parked: completed?.parked ?? [],
        };
      }
      sameCursorRuns = nextCursor === cursor ? sameCursorRuns + 1 : 0;
      if (sameCursorRuns > MAX_SAME_CURSOR_RUNS) throw new CursorLoopError(collection, scope);
      // Fetch the next page now; wait for the mirror only when it falls behind. Walks sharing a
      // backlog fetch only once it has room: the others' fetched pages already keep the store busy.
      if (!options.backlog) request(nextCursor, nextIssuedAt);
      while (queuedApplies > MAX_QUEUED_APPLIES && applyEnds[0]) await applyEnds[0];
      await options.backlog?.room();
      index += 1;
      cursor = nextCursor;
      cursorIssuedAt = nextIssuedAt;
    }
  } finally {
    stop.abort(new Error('walk ended'));
    // Revalidations the walk did not use: pages the store read for them are forgotten.
    for (const { answer } of inFlight.values()) answer.then(forget, () => undefined);
    // Whatever was queued is applied (or failed) before the walk reports.
    await applying;
  }
}

/** One macrotask turn: lets pending socket writes and timers run. */
function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** At most `limit` fetches at once, in the order asked. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
