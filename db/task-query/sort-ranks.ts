// Each task's place in one sort order, held in JavaScript until the next write:
// a search too broad to sort its candidates finds its page by marking their
// places and reading them off in order, testing rows only of the first ones.
// Sorting them instead read every candidate's row: at a million tasks, `mi`
// (97 000 candidates) took 100 steps and 160-245 ms of main's CPU a keystroke,
// its matches sorting from the 29 909th title on (`mig`'s from the 599 595th).
// Reading the whole order costs ~160-400 ms of CPU at a million (a chunk a
// step, only as far as a page needs); then each keystroke's page costs its
// candidates' marks and a few hundred row tests.
import type { TaskSortKey } from '../../protocol/task-list-query';
import { afterCursorSql, type Cursor, type KeyValue, orderBySql } from './cursor';
import type { Where } from './filter-sql';
import type { TaskReads } from './item-rows';

/** Entries of the sort index read a step (~5-13 ms at a million tasks). */
const BUILD_CHUNK = 32_768;
/**
 * Entries read a step ahead of a search, in a turn no other step waits for (readAhead): ~3 ms at
 * a million tasks, what a call arriving meanwhile waits at most.
 */
const AHEAD_CHUNK = 8192;
/** Candidates in order tested a step at most (their rows read and the filter checked: 2-8 ms). */
const MAX_TESTED = 2048;

/** What `page` answers when its candidates gave no page within its budget of tests. */
export const OVER_BUDGET = Symbol('over budget');

interface Places {
  /** The sort index, direction and data version the places were read at. */
  key: string;
  version: string;
  /** Row ids in the sort order. */
  ridAt: Int32Array;
  /** Each row id's place in `ridAt`, or -1 (not read yet). */
  placeOf: Int32Array;
  /** Entries read so far; all are when the last chunk came short. */
  filled: number;
  done: boolean;
}

export class SortRanks {
  /** One order at a time: 8 bytes a task (8 MB at a million). */
  private places: Places | null = null;

  constructor(
    private readonly reads: TaskReads,
    /** Moves on every task write: the places are read again when it moved. */
    private readonly version: () => string,
  ) {}

  /** Some places of the order are read for the data as it is now: reading on costs ~0.3 µs an entry. */
  begun(index: string, sortBy: TaskSortKey, desc: boolean): boolean {
    const places = this.places;
    return (
      places !== null &&
      places.filled > 0 &&
      places.key === keyOf(index, sortBy, desc) &&
      places.version === this.version()
    );
  }

  /**
   * The row ids of the page: the first `limit` + 1 of `candidates` (a superset
   * of the matches) after `after` in the order that pass `where`; null when
   * a write moved the data while the places were read (the caller reads the
   * page another way). The places are read only as far as the page needs, a
   * chunk a step, and kept when a newer query drops these steps: the next
   * broad search goes on from there (`mi` read 30 000 of a million, `mig` on to 600 000).
   */
  *page(
    index: string,
    sortBy: TaskSortKey,
    desc: boolean,
    where: Where,
    after: Cursor | null,
    candidates: readonly number[],
    limit: number,
    /** Candidates tested at most before giving up (OVER_BUDGET): a broad superset of the matches may hold few of them early. */
    budget = Infinity,
  ): Generator<void, number[] | null | typeof OVER_BUDGET, void> {
    const places = this.placesOf(index, sortBy, desc);
    const member = new Uint8Array(places.placeOf.length);
    for (const rid of candidates) {
      // A row id past the places' size: rows came since they were begun (the version moved).
      if (rid >= member.length) return null;
      member[rid] = 1;
    }
    let from = 0;
    if (after !== null) {
      const [first] = this.entriesAfter(index, sortBy, desc, after.values, 1);
      if (first === undefined) return [];
      if (first >= places.placeOf.length) return null;
      while ((places.placeOf[first] as number) < 0)
        if (places.done || !(yield* this.readMore(places, index, sortBy, desc))) return null;
      from = places.placeOf[first] as number;
    }
    const page: number[] = [];
    // The first test takes a few more than the page needs (most candidates match); later ones, twice as many.
    let batch = Math.min(MAX_TESTED, 2 * (limit + 1));
    while (page.length <= limit) {
      const tested: number[] = [];
      while (tested.length < batch) {
        if (from === places.filled) {
          if (places.done) break;
          if (!(yield* this.readMore(places, index, sortBy, desc))) return null;
          continue;
        }
        const rid = places.ridAt[from++] as number;
        if (member[rid] === 1) tested.push(rid);
      }
      if (tested.length === 0) break;
      budget -= tested.length;
      if (budget < 0) return OVER_BUDGET;
      yield;
      const passing = new Set(this.reads.passing(tested, where));
      for (const rid of tested) if (passing.has(rid) && page.length <= limit) page.push(rid);
      batch = Math.min(MAX_TESTED, batch * 2);
    }
    return page;
  }

  /** The places kept for the order and the data as it is now, or new ones, none read yet. */
  private placesOf(index: string, sortBy: TaskSortKey, desc: boolean): Places {
    const key = keyOf(index, sortBy, desc);
    const version = this.version();
    if (this.places?.key === key && this.places.version === version) return this.places;
    const size = this.reads.rowEstimate() + 1;
    this.places = {
      key,
      version,
      ridAt: new Int32Array(size),
      placeOf: new Int32Array(size).fill(-1),
      filled: 0,
      done: false,
    };
    return this.places;
  }

  /**
   * One chunk more of the order's places, ahead of a search that will want them (a keystroke's
   * page then reads none of them): begun for the data as it is now if none are. True while some
   * are left to read; false once all are, or when a write moved the data since they were begun.
   */
  readAhead(index: string, sortBy: TaskSortKey, desc: boolean): boolean {
    const places = this.placesOf(index, sortBy, desc);
    return !places.done && this.readChunk(places, index, sortBy, desc, AHEAD_CHUNK) && !places.done;
  }

  /** The next chunk of the order's places, after a step; false when a write moved the data since they were begun. */
  private *readMore(
    places: Places,
    index: string,
    sortBy: TaskSortKey,
    desc: boolean,
  ): Generator<void, boolean, void> {
    yield;
    return this.readChunk(places, index, sortBy, desc, BUILD_CHUNK);
  }

  /** The order's next `size` places; false when a write moved the data since they were begun. */
  private readChunk(
    places: Places,
    index: string,
    sortBy: TaskSortKey,
    desc: boolean,
    size: number,
  ): boolean {
    if (this.version() !== places.version) return false;
    const last = places.filled === 0 ? null : (places.ridAt[places.filled - 1] as number);
    const rids = this.entriesAfter(
      index,
      sortBy,
      desc,
      last === null ? null : this.reads.sortValues(sortBy, last),
      size,
    );
    for (const rid of rids) {
      if (rid >= places.placeOf.length || places.filled >= places.ridAt.length) return false;
      places.ridAt[places.filled] = rid;
      places.placeOf[rid] = places.filled++;
    }
    places.done = rids.length < size;
    return true;
  }

  /** Row ids of the order's first `limit` entries after the sort key `values` (null: from its start). */
  private entriesAfter(
    index: string,
    sortBy: TaskSortKey,
    desc: boolean,
    values: readonly KeyValue[] | null,
    limit: number,
  ): number[] {
    const after = values === null ? '' : `WHERE ${afterCursorSql(sortBy, desc)}`;
    return this.reads
      .statement(
        `SELECT t.rid FROM tasks t INDEXED BY ${index} ${after} ORDER BY ${orderBySql(sortBy, desc)} LIMIT ?`,
      )
      .pluck()
      .all(...(values ?? []), limit) as number[];
  }
}

function keyOf(index: string, sortBy: TaskSortKey, desc: boolean): string {
  return `${index}\u0000${sortBy}\u0000${desc ? 'desc' : 'asc'}`;
}
