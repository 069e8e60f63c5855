// The rows of one task-list query as the virtual list needs them: fixed-size
// pages fetched by keyset cursor as they come into view, a bounded number kept
// in memory (100 000 rows never all at once), and a refresh that keeps showing
// the old rows until the new ones arrive, so a sync never blanks the list.
import type { TaskRow } from '../../../ipc/screen-schemas';

export interface RowPage {
  rows: TaskRow[];
  next: string | null;
  /** The cursors of the pages passed over when `skip` was asked, in order. */
  skipped?: string[];
}

/**
 * Fetches the page after a cursor (null: the first page), or, with `skip`,
 * the page that many pages further on, with the cursors of those in between.
 */
export type FetchPage = (after: string | null, limit: number, skip: number) => Promise<RowPage>;

/** A page counted from the list's end (the query asked in its other order). */
export interface EndRowPage {
  rows: TaskRow[];
  /** The cursor that fetches the same rows walking forward: null for the list's first rows, undefined when not known. */
  after?: string | null | undefined;
  /** What fetches the page before these from the end: null for the list's first rows, undefined when not known. */
  before?: string | null | undefined;
  /** The `before` of the pages passed over when `skip` was asked, towards the start, in order. */
  skipped?: string[];
}

/**
 * Fetches the list's last page (`before` null), or the one before the page
 * whose answer gave `before`; with `skip`, that many pages nearer the start.
 */
export type FetchEndPage = (before: string | null, limit: number, skip: number) => Promise<EndRowPage>;

export interface RowWindowOptions {
  /** Rows per page. */
  pageSize?: number;
  /**
   * Rows of the first page (default: pageSize): a screenful is enough to show
   * a query's answer, and a smaller first page is found and sent sooner.
   */
  firstPageSize?: number;
  /** Pages one fetch may pass over to reach a far one (the service's answers hold only cursors for them). */
  maxSkip?: number;
  /**
   * Rows around the wanted ones are fetched ahead only once the window is this
   * old (ms): while someone types, each keystroke's query gets its first page
   * without queueing behind the previous query's read-ahead.
   */
  aheadDelayMs?: number;
  /** Pages kept in memory; those farthest from what is wanted go first. */
  maxPages?: number;
  /**
   * Fetches pages counted from the end: once the list is counted, a page
   * nearer its end than any known cursor is reached from there (at a million
   * tasks the last page was ~10 000 pages of walking from the top).
   */
  fetchEnd?: FetchEndPage;
}

export class RowWindow {
  readonly pageSize: number;
  readonly firstPageSize: number;
  private readonly maxPages: number;
  private readonly maxSkip: number;
  private pages = new Map<number, TaskRow[]>();
  /** Pages shown during a refresh until their new copy arrives. */
  private stale = new Map<number, TaskRow[]>();
  /** `cursors[k]` is the `after` that fetches page k; undefined when not known yet. */
  private readonly cursors: (string | null | undefined)[] = [null];
  /**
   * `endCursors[k]` is the `before` that fetches page k from the end; pages are
   * counted from the end by the count, so these hold only for the count they
   * were learned at (`endCount`), as do the forward cursors they gave (`cursorsFromEnd`).
   */
  private endCursors: (string | null | undefined)[] = [];
  private endCount = -1;
  private cursorsFromEnd = new Set<number>();
  private endStuck = false;
  private readonly fetchEnd: FetchEndPage | null;
  /** The index of the last page, once a page answered `next: null`. */
  private lastPage: number | null = null;
  private wantedFirst = 0;
  private wantedLast = 0;
  private ahead = 0;
  private aheadAllowed: boolean;
  private aheadTimer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private generation = 0;
  private disposed = false;
  private readonly listeners = new Set<() => void>();
  /** Rows known to exist: the count when given, else what the pages showed so far. */
  private knownRows = 0;
  private counted = false;
  failure: unknown = null;
  /** Moves on every change (for useSyncExternalStore). */
  version = 0;

  constructor(
    private readonly fetchPage: FetchPage,
    options: RowWindowOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 250;
    this.firstPageSize = Math.max(1, options.firstPageSize ?? this.pageSize);
    this.maxPages = Math.max(options.maxPages ?? 60, 2);
    this.maxSkip = Math.max(options.maxSkip ?? 0, 0);
    this.fetchEnd = options.fetchEnd ?? null;
    const aheadDelayMs = options.aheadDelayMs ?? 0;
    this.aheadAllowed = aheadDelayMs <= 0;
    if (!this.aheadAllowed) {
      this.aheadTimer = setTimeout(() => {
        this.aheadTimer = null;
        this.aheadAllowed = true;
        void this.run();
      }, aheadDelayMs);
    }
  }

  /** How many rows the list has (or is known to have so far). */
  get size(): number {
    return this.knownRows;
  }

  /** The whole query was counted (or its last page was seen). */
  get sizeKnown(): boolean {
    return this.counted || this.lastPage !== null;
  }

  /** The row index page `page` starts at. */
  private pageStart(page: number): number {
    return page === 0 ? 0 : this.firstPageSize + (page - 1) * this.pageSize;
  }

  /** The page row `index` is on. */
  private pageOf(index: number): number {
    return index < this.firstPageSize ? 0 : 1 + Math.floor((index - this.firstPageSize) / this.pageSize);
  }

  private pageLength(page: number): number {
    return page === 0 ? this.firstPageSize : this.pageSize;
  }

  rowAt(index: number): TaskRow | undefined {
    const page = this.pageOf(index);
    const offset = index - this.pageStart(page);
    return (this.pages.get(page) ?? this.stale.get(page))?.[offset];
  }

  /** Index of a task among the rows in memory, or -1. */
  indexOf(taskId: string): number {
    for (const [page, rows] of this.pages) {
      const offset = rows.findIndex((row) => row.task_id === taskId);
      if (offset !== -1) return this.pageStart(page) + offset;
    }
    return -1;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The query's total, from a count. */
  setCount(count: number): void {
    this.counted = true;
    this.knownRows = count;
    this.changed();
    // A count that moved may move the page a row falls on from the end: those then are fetched again.
    if (this.endCount !== -1 && this.endCount !== count) this.refresh();
  }

  /** A first page fetched by the caller (with the count) before the window existed. */
  seed(page: RowPage): void {
    this.store(0, page);
  }

  /** Rows [first, last] are on screen: fetch the pages they need, and `ahead` rows on either side (read-ahead). */
  want(first: number, last: number, ahead = 0): void {
    this.wantedFirst = Math.max(0, first);
    this.wantedLast = Math.max(this.wantedFirst, last);
    this.ahead = Math.max(0, ahead);
    void this.run();
  }

  /**
   * The data changed: fetch the wanted pages again, keeping the old rows on
   * show until then. Keyset cursors name positions in the sort order, not
   * offsets, so the remembered ones stay valid.
   */
  refresh(count?: number): void {
    this.generation++;
    for (const [index, rows] of this.pages) this.stale.set(index, rows);
    this.pages = new Map();
    this.lastPage = null;
    if (count !== undefined) {
      this.counted = true;
      this.knownRows = count;
    }
    if (this.endCount !== this.knownRows) this.forgetEndCursors();
    this.changed();
    void this.run();
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
    if (this.aheadTimer !== null) clearTimeout(this.aheadTimer);
  }

  private changed(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  private store(from: number, page: RowPage): void {
    const skipped = page.skipped ?? [];
    skipped.forEach((cursor, i) => {
      this.cursors[from + i + 1] = cursor;
    });
    const index = from + skipped.length;
    this.pages.set(index, page.rows);
    this.stale.delete(index);
    this.cursors[index + 1] = page.next ?? undefined;
    if (page.next === null) {
      this.lastPage = index;
      this.stale.forEach((_, staleIndex) => {
        if (staleIndex > index) this.stale.delete(staleIndex);
      });
      this.knownRows = this.pageStart(index) + page.rows.length;
    } else if (!this.counted) {
      this.knownRows = Math.max(this.knownRows, this.pageStart(index + 1) + 1);
    } else {
      this.knownRows = Math.max(this.knownRows, this.pageStart(index + 1));
    }
    this.evict();
    this.changed();
  }

  /** A page counted from the end: its rows, its forward cursor and the `before` of those it passed over and of the page before it. */
  private storeFromEnd(from: number, page: EndRowPage): void {
    const skipped = page.skipped ?? [];
    skipped.forEach((cursor, i) => {
      this.endCursors[from - i - 1] = cursor;
    });
    const index = from - skipped.length;
    // Not known (a write came between): the pages before are walked forward until the count moves.
    if (page.before === undefined) this.endStuck = true;
    this.endCursors[index - 1] = page.before ?? undefined;
    if (index === this.endPage()) this.lastPage = index;
    if (page.after !== undefined && this.cursors[index] === undefined) {
      this.cursors[index] = page.after;
      this.cursorsFromEnd.add(index);
    }
    this.pages.set(index, page.rows);
    this.stale.delete(index);
    this.evict();
    this.changed();
  }

  /**
   * A page answered after a refresh asked it again: read after the copy on show (the window asks
   * one page at a time), it is shown until its new copy arrives. Dropped instead, a list refreshed
   * more often than a page took showed the rows from before every change: while a bulk change's
   * 50 000 edits were pushed at a million tasks, a change every few seconds, a page 20-26 s.
   */
  private showMeanwhile(index: number, rows: TaskRow[]): void {
    if (this.pages.has(index)) return;
    this.stale.set(index, rows);
    this.changed();
  }

  /** The cursors learned from the end: they stand for page numbers counted from a count that moved. */
  private forgetEndCursors(): void {
    this.endCursors = [];
    this.endCount = -1;
    this.endStuck = false;
    for (const index of this.cursorsFromEnd) this.cursors[index] = undefined;
    this.cursorsFromEnd = new Set();
  }

  /** The list's last page by its count, when pages may be fetched from the end. */
  private endPage(): number | null {
    if (this.fetchEnd === null || !this.counted || this.knownRows === 0) return null;
    return this.pageOf(this.knownRows - 1);
  }

  private evict(): void {
    if (this.pages.size <= this.maxPages) return;
    const center = this.pageOf(Math.floor((this.wantedFirst + this.wantedLast) / 2));
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
    for (const index of byDistance) {
      if (this.pages.size <= this.maxPages) break;
      this.pages.delete(index);
    }
  }

  /** The next page to fetch for the wanted rows (and how many to pass over to reach it) from a known cursor. */
  private nextToFetch(): { from: number; skip: number; fromEnd?: true } | null {
    const ahead = this.aheadAllowed ? this.ahead : 0;
    const first = this.pageOf(Math.max(0, this.wantedFirst - ahead));
    let last = this.pageOf(this.wantedLast + ahead);
    if (this.lastPage !== null) last = Math.min(last, this.lastPage);
    const endPage = this.endPage();
    for (let index = first; index <= last; index++) {
      if (this.pages.has(index)) continue;
      // From the nearest earlier page whose cursor is known (itself, if it is), passing over those between;
      // or from the end when that is nearer, or as near and the page in the list's later half: a search's
      // page asked forward from far down its order reads the order's places up to there (at a million
      // tasks 200-600 ms of main's CPU for a refresh of the last page, where its page from the end took 5-10).
      let known = index;
      while (known > 0 && this.cursors[known] === undefined) known--;
      if (endPage !== null && index <= endPage) {
        const fromEnd = this.fromEnd(index, endPage);
        const backward = fromEnd === null ? Infinity : fromEnd.from - index;
        const forward = index - known;
        if (fromEnd !== null && (backward < forward || (backward === forward && endPage - index < index)))
          return fromEnd;
      }
      if (known === index) return { from: index, skip: 0 };
      // Pages passed over must all be of one size: never from the (smaller) first page.
      const skip = known === 0 ? 0 : Math.min(index - known, this.maxSkip);
      if (skip === 0 && this.pages.has(known)) return null;
      return { from: known, skip };
    }
    return null;
  }

  /** The fetch from the end nearest to page `index`: from the nearest later page with a known `before`, passing over those between. */
  private fromEnd(index: number, endPage: number): { from: number; skip: number; fromEnd: true } | null {
    if (this.endCount !== this.knownRows) {
      this.forgetEndCursors();
      this.endCount = this.knownRows;
      this.endCursors[endPage] = null;
    }
    if (this.endStuck) return null;
    let known = index;
    while (known < endPage && this.endCursors[known] === undefined) known++;
    if (this.endCursors[known] === undefined) return null;
    // Pages passed over must all be of one size: not the last (shorter) page, nor the (smaller) first.
    const fullLast = this.knownRows - this.pageStart(endPage) === this.pageSize;
    const skip = known === endPage && !fullLast ? 0 : Math.min(known - index, this.maxSkip);
    return { from: known, skip, fromEnd: true };
  }

  private async run(): Promise<void> {
    if (this.running || this.disposed) return;
    this.running = true;
    try {
      for (;;) {
        const next = this.nextToFetch();
        if (next === null || this.disposed) break;
        const generation = this.generation;
        if (next.fromEnd === true && this.fetchEnd !== null) {
          const before = this.endCursors[next.from] ?? null;
          const count = this.knownRows;
          const limit = next.from === this.endPage() ? count - this.pageStart(next.from) : this.pageSize;
          const page = await this.fetchEnd(before, next.skip > 0 ? this.pageSize : limit, next.skip);
          if (this.disposed) break;
          if (count !== this.endCount) continue;
          if (generation !== this.generation) {
            this.showMeanwhile(next.from - (page.skipped?.length ?? 0), page.rows);
            continue;
          }
          this.failure = null;
          this.storeFromEnd(next.from, page);
          continue;
        }
        const after = this.cursors[next.from] ?? null;
        const page = await this.fetchPage(after, this.pageLength(next.from), next.skip);
        if (this.disposed) break;
        if (generation !== this.generation) {
          this.showMeanwhile(next.from + (page.skipped?.length ?? 0), page.rows);
          continue;
        }
        this.failure = null;
        this.store(next.from, page);
      }
    } catch (error) {
      this.failure = error;
      this.changed();
    } finally {
      this.running = false;
    }
  }
}
