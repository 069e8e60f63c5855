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

/** The marks' stamps run 1..MAX_STAMP, then the marks are cleared and they start again. */
const MAX_STAMP = 255;

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
  /**
   * A page's candidates, marked by row id with the page's stamp (`stamp`, the last given),
   * kept from page to page: a fresh byte a task for each keystroke's page cost 4-9 ms at a
   * million tasks, the megabyte's memory touched for the first time (this 2-core machine's
   * page faults, ~18 µs each). A page resumed after another stamped its own marks again.
   */
  private marks = new Uint8Array(0);
  private stamp = 0;
  /** Times the marks were stamped: unlike a stamp (a byte, given again once they ran out), never the same twice. */
  private markings = 0;
  /** The candidates the marks hold now, and with which stamp (every marking replaces it). */
  private marked: { candidates: Int32Array; stamp: number } | null = null;
  /**
   * The first place in the order holding one of these candidates, in these places: where a first
   * page of the same candidates starts walking. The keys typed on from `mig` at a million tasks test
   * its 49 968 candidates, the first the 599 595th title: each walked the 599 594 entries before it.
   */
  private firstPlace: { candidates: Int32Array; places: Places; place: number } | null = null;

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
   * The places of `rids` in the order as far as it is read for the data as it is now: a row id not
   * reached yet is placed at the first entry not read (the least its place can be); null when none
   * are read. What tells how far down the order a search's first matches lie, from a sample of them.
   */
  knownPlaces(index: string, sortBy: TaskSortKey, desc: boolean, rids: readonly number[]): number[] | null {
    if (!this.begun(index, sortBy, desc)) return null;
    const places = this.places as Places;
    return rids.map((rid) => {
      const place = rid < places.placeOf.length ? (places.placeOf[rid] as number) : -1;
      return place < 0 ? places.filled : place;
    });
  }

  /**
   * The row id at `place` in the order, when read for the data as it is now; past the last place
   * read, the last one read (or null when none are, or all are and `place` is past the end).
   */
  entryAt(index: string, sortBy: TaskSortKey, desc: boolean, place: number): number | null {
    if (!this.begun(index, sortBy, desc)) return null;
    const places = this.places as Places;
    if (place < places.filled) return places.ridAt[place] as number;
    return places.done ? null : (places.ridAt[places.filled - 1] as number);
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
    candidates: Int32Array,
    limit: number,
    /**
     * Candidates tested at most before giving up (OVER_BUDGET): a broad superset of the matches
     * may hold few of them early. It gives up as soon as the share of the tested that matched
     * says the page would take more than is left (`mig` typed on from `mi` at a million tasks,
     * none of the first matching, tested 2 624 rows, 36 ms, before giving up at the budget).
     */
    budget = Infinity,
  ): Generator<void, number[] | null | typeof OVER_BUDGET, void> {
    const places = this.placesOf(index, sortBy, desc);
    const size = places.placeOf.length;
    // A row id past the places' size: rows came since they were begun (the version moved).
    let stamp = this.mark(candidates, size);
    if (stamp === null) return null;
    let marking = this.markings;
    // After a step: another page may have stamped the marks meanwhile (false: a row id past the size).
    const marked = (): boolean => {
      if (this.markings === marking) return true;
      const again = this.mark(candidates, size);
      if (again === null) return false;
      stamp = again;
      marking = this.markings;
      return true;
    };
    let from = 0;
    // A first page of candidates walked before starts at the first of them, no entry before it tested.
    const start = this.firstPlace;
    const known = after === null && start?.candidates === candidates && start.places === places;
    if (known) from = start.place;
    let firstSought = after === null && !known;
    if (after !== null) {
      const [first] = this.entriesAfter(index, sortBy, desc, after.values, 1);
      if (first === undefined) return [];
      if (first >= size) return null;
      while ((places.placeOf[first] as number) < 0)
        if (places.done || !(yield* this.readMore(places, index, sortBy, desc))) return null;
      from = places.placeOf[first] as number;
    }
    const page: number[] = [];
    let testedAll = 0;
    // The first test takes a few more than the page needs (most candidates match); later ones, twice as many.
    let batch = Math.min(MAX_TESTED, 2 * (limit + 1));
    while (page.length <= limit) {
      const tested: number[] = [];
      if (!marked()) return null;
      while (tested.length < batch) {
        if (from === places.filled) {
          if (places.done) break;
          if (!(yield* this.readMore(places, index, sortBy, desc)) || !marked()) return null;
          continue;
        }
        const rid = places.ridAt[from++] as number;
        if (this.marks[rid] !== stamp) continue;
        if (firstSought) {
          this.firstPlace = { candidates, places, place: from - 1 };
          firstSought = false;
        }
        tested.push(rid);
      }
      if (tested.length === 0) break;
      budget -= tested.length;
      if (budget < 0) return OVER_BUDGET;
      yield;
      const passing = new Set(this.reads.passing(tested, where));
      for (const rid of tested) if (passing.has(rid) && page.length <= limit) page.push(rid);
      testedAll += tested.length;
      // The tests the rest of the page would take at the share matched so far (one more match
      // counted, so that none yet still tells a rate): beyond what is left, give up now.
      const wanted = limit + 1 - page.length;
      if (wanted > 0 && (wanted * (testedAll + 1)) / (page.length + 1) > budget) return OVER_BUDGET;
      batch = Math.min(MAX_TESTED, batch * 2);
    }
    return page;
  }

  /**
   * Marks `candidates` with a new stamp (null: one is past `size`, the places' rows), the marks
   * cleared once the stamps ran out: a page sees a row id as its candidate when its mark is the
   * page's stamp, and since a new stamp marks all of a page's candidates, none of an earlier
   * page's (older stamps) is seen as one.
   */
  private mark(candidates: Int32Array, size: number): number | null {
    // The same candidates, the last marked: their marks stand (typed on, the same array comes again).
    const last = this.marked;
    if (last?.candidates === candidates && this.marks.length >= size) return last.stamp;
    if (this.marks.length < size) {
      this.marks = new Uint8Array(size);
      this.stamp = 0;
    }
    if (this.stamp === MAX_STAMP) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    this.markings += 1;
    for (const rid of candidates) {
      if (rid >= size) {
        this.marked = null;
        return null;
      }
      this.marks[rid] = stamp;
    }
    this.marked = { candidates, stamp };
    return stamp;
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
