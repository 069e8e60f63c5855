// The rows of one task-list query as the virtual list needs them: fixed-size
// pages fetched by keyset cursor as they come into view, a bounded number kept
// in memory (100 000 rows never all at once), and a refresh that keeps showing
// the old rows until the new ones arrive, so a sync never blanks the list.
import type { TaskRow } from '../../../main/ipc/screen-schemas';

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

export interface RowWindowOptions {
  /** Rows per page. */
  pageSize?: number;
  /** Pages one fetch may pass over to reach a far one (the service's answers hold only cursors for them). */
  maxSkip?: number;
  /** Pages kept in memory; those farthest from what is wanted go first. */
  maxPages?: number;
}

export class RowWindow {
  readonly pageSize: number;
  private readonly maxPages: number;
  private readonly maxSkip: number;
  private pages = new Map<number, TaskRow[]>();
  /** Pages shown during a refresh until their new copy arrives. */
  private stale = new Map<number, TaskRow[]>();
  /** `cursors[k]` is the `after` that fetches page k; undefined when not known yet. */
  private readonly cursors: (string | null | undefined)[] = [null];
  /** The index of the last page, once a page answered `next: null`. */
  private lastPage: number | null = null;
  private wantedFirst = 0;
  private wantedLast = 0;
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
    this.maxPages = Math.max(options.maxPages ?? 60, 2);
    this.maxSkip = Math.max(options.maxSkip ?? 0, 0);
  }

  /** How many rows the list has (or is known to have so far). */
  get size(): number {
    return this.knownRows;
  }

  /** The whole query was counted (or its last page was seen). */
  get sizeKnown(): boolean {
    return this.counted || this.lastPage !== null;
  }

  rowAt(index: number): TaskRow | undefined {
    const page = Math.floor(index / this.pageSize);
    const offset = index - page * this.pageSize;
    return (this.pages.get(page) ?? this.stale.get(page))?.[offset];
  }

  /** Index of a task among the rows in memory, or -1. */
  indexOf(taskId: string): number {
    for (const [page, rows] of this.pages) {
      const offset = rows.findIndex((row) => row.task_id === taskId);
      if (offset !== -1) return page * this.pageSize + offset;
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
  }

  /** A first page fetched by the caller (with the count) before the window existed. */
  seed(page: RowPage): void {
    this.store(0, page);
  }

  /** Rows [first, last] are on screen (or about to be): fetch the pages they need. */
  want(first: number, last: number): void {
    this.wantedFirst = Math.max(0, first);
    this.wantedLast = Math.max(this.wantedFirst, last);
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
    this.changed();
    void this.run();
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
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
      this.knownRows = index * this.pageSize + page.rows.length;
    } else if (!this.counted) {
      this.knownRows = Math.max(this.knownRows, (index + 1) * this.pageSize + 1);
    } else {
      this.knownRows = Math.max(this.knownRows, (index + 1) * this.pageSize);
    }
    this.evict();
    this.changed();
  }

  private evict(): void {
    if (this.pages.size <= this.maxPages) return;
    const center = Math.floor((this.wantedFirst + this.wantedLast) / 2 / this.pageSize);
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
    for (const index of byDistance) {
      if (this.pages.size <= this.maxPages) break;
      this.pages.delete(index);
    }
  }

  /** The next page to fetch for the wanted rows (and how many to pass over to reach it) from a known cursor. */
  private nextToFetch(): { from: number; skip: number } | null {
    const first = Math.floor(this.wantedFirst / this.pageSize);
    let last = Math.floor(this.wantedLast / this.pageSize);
    if (this.lastPage !== null) last = Math.min(last, this.lastPage);
    for (let index = first; index <= last; index++) {
      if (this.pages.has(index)) continue;
      if (this.cursors[index] !== undefined) return { from: index, skip: 0 };
      // Its cursor is not known yet: start from the nearest earlier page whose cursor is, passing over those between.
      let known = index - 1;
      while (known > 0 && this.cursors[known] === undefined) known--;
      const skip = Math.min(index - known, this.maxSkip);
      if (skip === 0 && this.pages.has(known)) return null;
      return { from: known, skip };
    }
    return null;
  }

  private async run(): Promise<void> {
    if (this.running || this.disposed) return;
    this.running = true;
    try {
      for (;;) {
        const next = this.nextToFetch();
        if (next === null || this.disposed) break;
        const generation = this.generation;
        const after = this.cursors[next.from] ?? null;
        const page = await this.fetchPage(after, this.pageSize, next.skip);
        if (this.disposed) break;
        if (generation !== this.generation) continue;
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
