// One walk of a list's chain of pages, from where a pass starts (new, resumed
// or restarted after a refused cursor) to its last page: pages known from the
// last pass revalidated ahead concurrently and used only when the chain
// reaches them, each page applied to the mirror while the next is fetched, a
// refused cursor thrown for the list walk (page-walker.ts) to restart the
// pass. Apart from that walk, which decides where each chain starts.
import { ProblemError } from '../api/errors';
import type { ResourceChange } from '../events/sync-events';
import { MAX_QUEUED_APPLIES } from './apply-backlog';
import { type CursorAges, issuedAtOf } from './cursor-ages';
import type { RunTime } from './pull-run-policy';
import type { SoloGate } from './solo-gate';
import type { StoredPageRecord } from './pull-store';
import type { PageAnswer, WalkOptions, WalkProgress, WalkResult } from './walk-types';

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
export class RefusedCursor extends Error {
  constructor(
    readonly issuedAt: number,
    options: { cause: unknown },
  ) {
    super('cursor refused', options);
  }
}

/** Empty pages in a row that repeat their cursor before the walk calls it a loop. */
const MAX_SAME_CURSOR_RUNS = 50;

const FIRST = '\u0000first';
const keyOf = (cursor: string | null): string => cursor ?? FIRST;

export interface ChainStart {
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

/**
 * Pages a walk asks ahead of its chain (revalidating the stored chain), whose
 * answers may hold a whole page until the chain reaches them, at once. On a re-sync where every
 * page changed, each answer is a page of 1 000 tasks kept (in the pull worker,
 * read) until the chain applies it, and the applies are what is slow: asked
 * all at once, the stored chain's pages came in long before the chain reached
 * them: at 100 000 tasks the pull worker held up to 89 of the 100 pages and
 * the headless sync peaked at 515-590 MB (404-413 with 8 slots; at a million
 * a bench process reached ~3 GB). A 304 holds nothing and frees its slot at
 * once. The slots are each walk's own: the task list's chains revalidate at
 * once, each as many pages as one walk sends at a time (8), so a re-sync that
 * finds nothing changed asks as far ahead as before (shared, 8 slots for 4
 * chains made the no-change re-sync of 100 000 tasks 0.86 s instead of ~0.68).
 */
export const MAX_PAGES_ASKED_AHEAD = 8;

/**
 * Pages a walk asks early (its cursor read off the answer before, see
 * ChainWalk.early) ahead of the page it is at: two, so that the page after
 * the next is asked before the worker reads the next (the worker reads each
 * behind its current write).
 */
const EARLY_PAGES = 2;

interface PageRequest {
  etagSent: string | null;
  answer: Promise<PageAnswer>;
  /** The chain has reached this page: if it still waits for a slot ahead, it goes at once without one. */
  reached: () => void;
  /** Whether the request holds one of the walk's slots ahead (until the chain takes its answer). */
  slot: { held: boolean };
  /**
   * The next page's cursor key its answer hinted (ChainWalk.early), once it has; `dropped` when
   * the request was itself asked on a hint the chain did not follow (its own hint is then ignored).
   */
  hint: { key: string | null; dropped: boolean };
}

/** One chain walked once from `start`: build it and `run` it (its state is that one walk's). */
export class ChainWalk {
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private readonly limiter: Limiter;
  private readonly aheadSlots = new AheadSlots(MAX_PAGES_ASKED_AHEAD);
  private readonly gate: SoloGate | undefined;
  /**
   * The last pass's pages by the cursor they were sent with; this pass's own pages are not asked again.
   * Restarted after a refusal, a page as old as a refused cursor is fetched whole: a 304 would
   * hand back its stored next_cursor, which would be refused too.
   */
  private readonly known = new Map<string, StoredPageRecord>();
  private readonly inFlight = new Map<string, PageRequest>();
  /**
   * The next page asked for as soon as an answer names its cursor, before the
   * store has read the page: a store in the pull worker reads it only after
   * the page write it is in (tens of milliseconds a page, the person's own
   * tasks walked one page after another). Not for a walk alone after a
   * refusal (nothing fetched ahead), nor for walks sharing a backlog (they
   * fetch only once it has room). A wrong hint costs one unused request.
   * At most EARLY_PAGES so asked that the chain has not reached: each one's
   * answer names the next in its turn, and unbounded, the hints chained so
   * read the person's own tasks into the worker as fast as they came, far
   * ahead of its writes (at a million tasks it held up to 134 pages, 134 000
   * tasks, and its heap grew to ~390 MB).
   */
  private readonly early: ((next: string) => void) | undefined;
  /** The cursor keys of the pages asked early that the chain has not reached yet. */
  private readonly earlyUnreached = new Set<string>();
  private readonly changes: ResourceChange[] = [];
  private readonly progress: WalkProgress;
  private pulled = 0;
  private rejected = 0;
  private applying: Promise<void> = Promise.resolve();
  private queuedApplies = 0;
  /** Each queued apply's end, oldest first: the walk waits for a free slot, not for the whole queue. */
  private readonly applyEnds: Promise<void>[] = [];
  /** The first apply that failed: the walk stops with its error. */
  private applyFailure: { error: unknown } | null = null;
  /**
   * 304 pages waiting to be recorded as reused. They go in batches, one store
   * call for all that came in meanwhile: one at a time, a re-sync of 100 pages
   * would wait 100 times for the store (behind whatever it is doing, such as
   * a first load's index build).
   */
  private readonly reuseBatch: number[] = [];

  constructor(
    private readonly options: WalkOptions,
    private readonly start: ChainStart,
  ) {
    this.signal = options.signal ? AbortSignal.any([options.signal, this.stop.signal]) : this.stop.signal;
    this.limiter = new Limiter(start.solo ? 1 : Math.max(1, options.concurrency));
    this.gate = start.solo ? undefined : options.gate;
    for (const page of start.known) {
      if (page.passNo === start.passNo && page.pageIndex < start.startIndex) continue;
      if (start.solo && !start.ages.usable(issuedAtOf(page), this.now())) continue;
      const key = keyOf(page.cursorSent);
      if (!this.known.has(key)) this.known.set(key, page);
    }
    const lastPassItems = start.known.reduce((sum, p) => sum + p.count, 0);
    this.early =
      start.solo || options.backlog
        ? undefined
        : (next: string): void => {
            const key = keyOf(next);
            if (this.earlyUnreached.size >= EARLY_PAGES || this.inFlight.has(key)) return;
            this.earlyUnreached.add(key);
            this.request(next, this.now());
          };
    this.progress = {
      pagesDone: start.doneBefore.length,
      itemsDone: start.doneBefore.reduce((sum, p) => sum + p.count, 0),
      notModified: 0,
      estimatedTotal: lastPassItems > 0 ? lastPassItems : null,
    };
  }

  async run(): Promise<Omit<WalkResult, 'restarts'>> {
    const { options, start, progress, known, inFlight } = this;
    const { store, collection, scope } = options;
    let index = start.startIndex;
    let cursor = start.startCursor;
    let cursorIssuedAt = start.startIssuedAt;
    let begun = start.begin === null;
    /** Pages answered 304 before the pass began (lazy): reused when something changes. */
    const unchangedSoFar: number[] = [];
    /** Empty pages may hand back the cursor they were sent with; only an endless run of them is a loop. */
    let sameCursorRuns = 0;
    this.speculateFrom(cursor, cursorIssuedAt);
    try {
      for (;;) {
        this.throwIfApplyFailed();
        const key = keyOf(cursor);
        const taken = this.request(cursor, cursorIssuedAt);
        this.earlyUnreached.delete(key);
        const { etagSent } = taken;
        let answer: PageAnswer;
        try {
          answer = await taken.answer;
        } catch (error) {
          if (cursor !== null && isRefusedCursor(error))
            throw new RefusedCursor(cursorIssuedAt, { cause: error });
          throw error;
        }
        inFlight.delete(key);
        this.freeSlot(taken);
        const pageIndex = index;
        let nextCursor: string | null;
        let nextIssuedAt = this.now();
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
          progress.itemsDone += stored.count;
          if (begun) this.reuse(pageIndex);
          else unchangedSoFar.push(pageIndex);
        } else {
          if (!begun) {
            // The first change: start the pass and count the unchanged pages before it.
            begun = true;
            const reused = unchangedSoFar.splice(0);
            this.enqueue(async () => {
              await start.begin?.();
              if (reused.length > 0) await store.reusePages(collection, scope, reused);
            });
          }
          nextCursor = answer.nextCursor;
          const count = answer.read ? answer.read.count : answer.items.length;
          this.pulled += count;
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
          this.enqueue(
            async () => {
              const outcome = await store.applyPage(collection, scope, options.partial, page);
              this.rejected += outcome.rejected.length;
              for (const row of outcome.rejected) options.onItemSkipped?.({ collection, scope, ...row });
              return outcome.changes;
            },
            () => this.forget(read),
          );
          // The chain moved away from what we knew: revalidate ahead of the new cursor.
          if (nextCursor !== null && !inFlight.has(keyOf(nextCursor)))
            this.speculateFrom(nextCursor, nextIssuedAt);
        }
        // The answer hinted at another next page than its own: that page is never reached.
        if (taken.hint.key !== null && taken.hint.key !== keyOf(nextCursor)) this.dropEarly(taken.hint.key);
        progress.pagesDone += 1;
        if (progress.estimatedTotal !== null && progress.itemsDone > progress.estimatedTotal) {
          progress.estimatedTotal = progress.itemsDone;
        }
        options.onProgress?.({ ...progress });
        if (nextCursor === null) {
          await this.applying;
          this.throwIfApplyFailed();
          // Every page unchanged: the list is exactly what the last complete pass saw.
          const completed = begun ? await store.completePass(collection, scope, pageIndex) : null;
          if (completed) this.changes.push(...completed.changes);
          return {
            changes: this.changes,
            pulled: this.pulled,
            notModified: progress.notModified,
            pages: progress.pagesDone,
            items: progress.itemsDone,
            rejected: this.rejected,
            parked: completed?.parked ?? [],
          };
        }
        sameCursorRuns = nextCursor === cursor ? sameCursorRuns + 1 : 0;
        if (sameCursorRuns > MAX_SAME_CURSOR_RUNS) throw new CursorLoopError(collection, scope);
        // Fetch the next page now; wait for the mirror only when it falls behind. Walks sharing a
        // backlog fetch only once it has room: the others' fetched pages already keep the store busy.
        if (!options.backlog) this.request(nextCursor, nextIssuedAt);
        while (this.queuedApplies > MAX_QUEUED_APPLIES && this.applyEnds[0]) await this.applyEnds[0];
        await options.backlog?.room();
        index += 1;
        cursor = nextCursor;
        cursorIssuedAt = nextIssuedAt;
      }
    } finally {
      this.stop.abort(new Error('walk ended'));
      // Revalidations the walk did not use: pages the store read for them are forgotten.
      for (const request of inFlight.values())
        request.answer.then(
          (a) => {
            this.forget(a);
            this.freeSlot(request);
          },
          () => undefined,
        );
      // Whatever was queued is applied (or failed) before the walk reports.
      await this.applying;
    }
  }

  private now(): number {
    return this.start.time.clock.now();
  }

  /**
   * `issuedAt`: when the service handed out `cursor`; what its answer shows of cursor lifetimes is kept.
   * `ahead`: asked only because the stored chain goes there (speculateFrom): it waits for one of
   * the slots ahead, unless the chain reaches it first (asks for it again without `ahead`).
   */
  private request(cursor: string | null, issuedAt: number, ahead = false): PageRequest {
    const key = keyOf(cursor);
    const existing = this.inFlight.get(key);
    if (existing) {
      if (!ahead) existing.reached();
      return existing;
    }
    const etagSent = this.known.get(key)?.etag ?? null;
    const { source } = this.options;
    const { gate, signal } = this;
    const slot = { held: false };
    const hint: PageRequest['hint'] = { key: null, dropped: false };
    const early =
      this.early &&
      ((next: string): void => {
        if (hint.dropped) return;
        hint.key = keyOf(next);
        this.early?.(next);
      });
    const send = (): Promise<PageAnswer> =>
      this.limiter.run(() =>
        gate
          ? gate.shared(() => source.fetch(cursor, etagSent, signal, early))
          : source.fetch(cursor, etagSent, signal, early),
      );
    // The chain's own pages are sent at once (the next one before the store reads this one); only a
    // page asked ahead waits, for a slot or for the chain to reach it.
    let reached = (): void => undefined;
    let answer: Promise<PageAnswer>;
    if (ahead) {
      const reach = new Promise<void>((resolve) => (reached = resolve));
      answer = this.aheadSlots.take(reach).then((held) => {
        slot.held = held;
        return send();
      });
    } else {
      answer = send();
    }
    const entry = { etagSent, answer, reached, slot, hint };
    // Speculative answers may never be used; their failures are read when (if) they are.
    answer.then(
      (page) => {
        if (cursor !== null) this.start.ages.honoured(issuedAt, this.now());
        // A 304 holds no page: its slot goes to the next page asked ahead at once.
        if (page.status !== 200) this.freeSlot(entry);
      },
      (error: unknown) => {
        if (cursor !== null && isRefusedCursor(error)) this.start.ages.refused(issuedAt, this.now());
        this.freeSlot(entry);
      },
    );
    this.inFlight.set(key, entry);
    return entry;
  }

  /** The chain took (or the walk dropped) a page asked ahead: its slot goes to the next one waiting. */
  private freeSlot(request: PageRequest): void {
    if (!request.slot.held) return;
    request.slot.held = false;
    this.aheadSlots.give();
  }

  /** Revalidate the stored chain ahead of us, concurrently, as far as it goes. */
  private speculateFrom(cursor: string | null, cursorIssuedAt: number): void {
    if (this.options.concurrency <= 1 || this.start.solo) return;
    let issuedAt = cursorIssuedAt;
    let key = keyOf(cursor);
    let next = cursor;
    const seen = new Set<string>();
    for (;;) {
      const page = this.known.get(key);
      if (!page || page.etag === null || seen.has(key)) return;
      seen.add(key);
      this.request(next, issuedAt, true);
      issuedAt = issuedAtOf(page);
      if (page.nextCursor === null) return;
      next = page.nextCursor;
      key = keyOf(next);
    }
  }

  /** Read through a call: the applies set it between awaits, which narrowing cannot see. */
  private throwIfApplyFailed(): void {
    if (this.applyFailure) throw this.applyFailure.error;
  }

  /**
   * Drops a page asked early on a hint the chain did not follow (a server's body whose end names
   * another cursor than its envelope), and the one its own hint asked: kept, they would count
   * against EARLY_PAGES until the walk ended (no page asked early after two wrong hints), and the
   * store would hold what it read of them.
   */
  private dropEarly(key: string): void {
    for (let at: string | null = key; at !== null && this.earlyUnreached.delete(at);) {
      const request = this.inFlight.get(at);
      if (request === undefined) return;
      this.inFlight.delete(at);
      request.hint.dropped = true;
      request.answer.then(
        (answer) => this.forget(answer),
        () => undefined,
      );
      at = request.hint.key;
    }
  }

  /** A page the store read but that will not be applied: let it forget the items. */
  private forget(answer: PageAnswer): void {
    if (answer.status === 200 && answer.read) this.options.store.dropPage?.(answer.read.readAs);
  }

  /** `bounded`: the walk waits for the store when too many of these are queued (page writes). */
  private enqueue(apply: () => Promise<ResourceChange[] | void>, skipped?: () => void, bounded = true): void {
    const { backlog } = this.options;
    if (bounded) {
      this.queuedApplies += 1;
      backlog?.add();
    }
    this.applying = this.applying.then(async () => {
      try {
        if (this.applyFailure) {
          skipped?.();
          return;
        }
        // Let the request for the next page go out before this page's synchronous write.
        await yieldToIo();
        const applied = await apply();
        if (applied) this.changes.push(...applied);
      } catch (error) {
        this.applyFailure ??= { error };
      } finally {
        if (bounded) {
          this.queuedApplies -= 1;
          backlog?.done();
        }
      }
    });
    const end = this.applying;
    this.applyEnds.push(end);
    void end.then(() => this.applyEnds.shift());
  }

  private reuse(pageIndex: number): void {
    this.reuseBatch.push(pageIndex);
    if (this.reuseBatch.length > 1) return;
    const { store, collection, scope } = this.options;
    this.enqueue(() => store.reusePages(collection, scope, this.reuseBatch.splice(0)), undefined, false);
  }
}

/** One macrotask turn: lets pending socket writes and timers run. */
function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * At most `limit` pages asked ahead held at once, given in the order asked; a
 * page the chain reaches while it waits goes without one (the chain never waits
 * on its own read-ahead, which may hold pages a shifted chain will not use).
 */
class AheadSlots {
  private used = 0;
  private readonly waiting: { grant: () => void; settled: boolean }[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves true once a slot is the caller's, or false as soon as `reached` resolves first. */
  take(reached: Promise<void>): Promise<boolean> {
    if (this.used < this.limit) {
      this.used += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = { grant: () => resolve(true), settled: false };
      this.waiting.push(waiter);
      void reached.then(() => {
        if (waiter.settled) return;
        waiter.settled = true;
        resolve(false);
      });
    });
  }

  /** A slot given back: it passes to the first page still waiting for one. */
  give(): void {
    for (let waiter = this.waiting.shift(); waiter !== undefined; waiter = this.waiting.shift()) {
      if (waiter.settled) continue;
      waiter.settled = true;
      waiter.grant();
      return;
    }
    this.used -= 1;
  }
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
