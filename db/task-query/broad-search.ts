// A search too broad to sort its candidates at once (task-query.ts hands it
// over when the word index narrows to more than a page can sort): the sort
// order's first entries when they hold its page; else, when a sample of its
// candidates' places says its page lies not far down, the order walked inside
// SQLite against the word index (its candidates never fetched); else its
// candidates read off their places in the order (sort-ranks.ts), or sorted a
// slice a step; never a walk of the order to matches gathered far down it.
import type { TaskListQuery, TaskSortKey } from '../../protocol/task-list-query';
import { afterCursorSql, type Cursor, orderBySql, throughCursorSql } from './cursor';
import { searchOnly, type Where } from './filter-sql';
import type { TaskReads } from './item-rows';
import type { QueryPlanner } from './planner';
import type { SearchCandidates } from './search-candidates';
import { OVER_BUDGET, type SortRanks } from './sort-ranks';

/**
 * Entries of the sort order a search too broad to sort checks for its page
 * (walkedAhead): `min` before fetching its candidates (a search most tasks
 * match fills its page there), up to `max` as far as its candidates spread
 * evenly would take, before sorting them in slices; a short step either way.
 */
const AHEAD_ENTRIES = { min: 1024, max: 4096 };
/**
 * Entries of the sort order walkedAhead reads a step, with their rows: `first` at first (a search
 * most tasks match fills its page there), then three times as many as read so far, at most `max`.
 * Each step's rows are all read and checked (SQLite sorts its matches): at a million tasks the
 * first search's look at 1 024 entries, their rows off the OS, took 170-195 ms of main's CPU in one
 * step for `m`, whose page the first 64 held. A term new to the mirror's caches pays ~100 µs an
 * entry (its row and search text, a 16 KB page each, scattered over the file), where the same
 * entries read again cost ~6: with steps of up to 1 024, 40 short terms typed after opening held
 * main up to 57-65 ms in one step at 100 000 tasks and 130 ms at a million (the file off the disk);
 * with 256, 30 and 38, the terms' warm time unchanged.
 */
const AHEAD_STEP = { first: 64, max: 256 };
/**
 * Candidates a step of slicedPage checks and sorts: at a million tasks, most
 * of their rows are read off the page cache (~5 µs each, 4-20 µs on a loaded
 * machine): 5-20 ms a slice.
 */
export const CANDIDATE_SLICE = 1024;
/**
 * Of the last broad search's candidates taken for one typed on from it, at
 * most this many are tested for its page (2-3 steps of tests) before its own
 * are fetched: the last term's matches may sort long before the new one's.
 */
const TYPED_ON_TESTS = 4096;
/** Candidates sampled to tell how far down the order a search's page lies (supersetWalk): ~1 ms. */
const SUPERSET_SAMPLE = 2048;
/**
 * Candidates a search has at least for supersetWalk to walk the order rather than fetch them
 * (~35 ms of CPU at a million tasks): fetched, they serve the keys typed on after it too, 1-4 ms
 * each (typedOn), where each key walked costs its own 9-20 ms. At a million tasks `mi` (97 397)
 * and `au` (122 120) fetched theirs in 28-42 ms, walked in 16-21; `sa` (66 789) in 14-27, walked in 9.
 */
const SUPERSET_WALK_CANDIDATES = 75_000;
/** Entries of the order supersetWalk walks at most: one statement, one step (~30 ms at a million tasks). */
const MAX_SUPERSET_WALK = 131_072;
/**
 * CPU, in µs, of an entry of the order walked and tested against the superset in SQLite, and of a
 * candidate fetched into JavaScript and placed (measured at a million tasks): what supersetWalk weighs.
 */
const COST = { walked: 0.3, fetched: 0.45 };

/** How far walkedAhead looked into the sort order, the matches it found there, and at which data version. */
interface Look {
  walked: number;
  matches: number[];
  version: string;
}

/**
 * A broad search's page: its row ids and how they were found; `empty` when
 * nothing can match; `again` when the page is to be read again the plain ways
 * (not typed on from the last search's candidates).
 */
export type BroadPage =
  { rids: number[]; path: 'walk' | 'superset-walk' | 'ranked' | 'sliced' } | 'empty' | 'again';

export class BroadSearch {
  constructor(
    private readonly reads: TaskReads,
    private readonly search: SearchCandidates,
    private readonly planner: QueryPlanner,
    private readonly ranks: SortRanks,
    /** Moves on every task write: entries looked at before one are looked at again. */
    private readonly version: () => string,
  ) {}

  /**
   * The page of a search whose candidates are too many to sort (one step, or
   * a step a slice and a chunk of places); null when even its sliced
   * candidates are too many: the caller walks the sort order then.
   */
  *page(
    query: TaskListQuery,
    where: Where,
    after: Cursor | null,
    limit: number,
    /** Whether the last broad search's candidates may be taken for this one's (TYPED_ON_TESTS). */
    typingOn: boolean,
  ): Generator<void, BroadPage | null, void> {
    const desc = query.sort_order === 'desc';
    const index = this.planner.sortIndex(query.sort_by);
    // Some of the order's places read (ahead, or by a search before): its candidates are tested
    // off them, a row each, so the first look is only its first step's entries (a search most
    // tasks match). Reading 1 024 entries' rows cost the first broad search at a million tasks
    // 70-230 ms of main's CPU in one step (its rows read off the disk), for `mi`, whose page they
    // did not hold, where its places tested 82 candidates.
    const placed = index !== null && this.ranks.begun(index, query.sort_by, desc);
    const first = placed ? AHEAD_STEP.first : AHEAD_ENTRIES.min;
    // Matches spread through the order fill a page in its first entries: no candidates fetched.
    let ahead = yield* this.walkedAhead(query.sort_by, desc, where, after, first, limit);
    if (ahead.page !== null) return { rids: ahead.page, path: 'walk' };
    // Matches that dense in the entries looked at fill the page within a few more (their share
    // taken as even, with half again to spare): on, rather than fetching the candidates. At 100 000
    // tasks `m`, 39 matches in the first 64 entries where 41 were wanted, fetched 73 000 candidates
    // and 33 000 ids (135-195 ms), where the next 37 entries held its page (17 ms in all).
    const spread =
      ahead.matches.length === 0 ? Infinity : ((limit + 1) * ahead.walked) / ahead.matches.length;
    if (ahead.walked < AHEAD_ENTRIES.min && 1.5 * spread <= AHEAD_ENTRIES.min) {
      yield;
      ahead = yield* this.walkedAhead(
        query.sort_by,
        desc,
        where,
        after,
        Math.ceil(1.5 * spread),
        limit,
        ahead,
      );
      if (ahead.page !== null) return { rids: ahead.page, path: 'walk' };
    }
    yield;
    // Typed on from the last broad search: its candidates hold this one's matches; tried first, on a budget.
    const typedOn = typingOn ? this.search.typedOn(query.filter) : null;
    if (typedOn === null && after === null && index !== null) {
      const walked = this.supersetWalk(query, where, index, limit);
      if (walked !== null) return { rids: walked, path: 'superset-walk' };
    }
    const many = typedOn ?? (yield* this.search.slicedCandidates(query.filter));
    if (many !== null && many.length === 0) return 'empty';
    if (many !== null) {
      // Before any of the order's places are read: the walk ahead as far as these candidates spread
      // evenly would take (a few thousand entries and their rows, where the places are read by the 32 768).
      if (index === null || !this.ranks.begun(index, query.sort_by, desc)) {
        yield;
        const even = ((limit + 1) * this.reads.rowEstimate()) / Math.max(many.length, 1);
        const entries = Math.ceil(Math.min(AHEAD_ENTRIES.max, 2 * even));
        // On from where the first look stopped, with the matches it found: its rows are not read again.
        const found =
          entries > AHEAD_ENTRIES.min
            ? (yield* this.walkedAhead(query.sort_by, desc, where, after, entries, limit, ahead)).page
            : null;
        if (found !== null) return { rids: found, path: 'walk' };
      }
      // The candidates' places in the order, read off from its start (or the cursor's place).
      const ranked =
        index === null
          ? null
          : yield* this.ranks.page(
              index,
              query.sort_by,
              desc,
              where,
              after,
              many,
              limit,
              typedOn === null ? Infinity : TYPED_ON_TESTS,
            );
      if (ranked === OVER_BUDGET) {
        // Few of the last search's candidates match this one early in the order: its own, then.
        const own = yield* this.search.slicedCandidates(query.filter);
        if (own !== null && own.length === 0) return 'empty';
        if (own !== null && index !== null) {
          const page = yield* this.ranks.page(index, query.sort_by, desc, where, after, own, limit);
          if (page !== null && page !== OVER_BUDGET) return { rids: page, path: 'ranked' };
        }
        // Its own too many, or a write came meanwhile: the caller's plain ways, from the start.
        return 'again';
      }
      if (ranked !== null) return { rids: ranked, path: 'ranked' };
      // Without the sort index, or a write came while the places were read: each slice and the page's rows a step.
      const page = yield* this.slicedPage(query.sort_by, desc, where, after, many, limit);
      yield;
      return { rids: page, path: 'sliced' };
    }
    return null;
  }

  /**
   * The first page of a search alone with too many candidates to fetch cheaply whose first
   * matches lie early enough in the order, by walking the order inside SQLite against its
   * word-index superset (its candidates never handed to JavaScript), as far as a sample of them
   * and their places say the page lies, with as much again to spare; null when the walk would
   * cost more than fetching them (matches gathered far down the order: `mig`'s, all past the
   * 599 595th title at a million tasks), when the order's places are not read yet, or when the
   * page was not within it (the caller fetches them then). At a million tasks, with the bench's
   * keystrokes in a row: `mi` (97 397 candidates, its first match the 29 909th title) 28 → 22 ms
   * of CPU, `au` (122 120) 42 → 16.
   */
  private supersetWalk(query: TaskListQuery, where: Where, index: string, limit: number): number[] | null {
    if (searchOnly(query.filter) === null) return null;
    const desc = query.sort_order === 'desc';
    if (!this.ranks.begun(index, query.sort_by, desc)) return null;
    const superset = this.search.supersetSample(query.filter, SUPERSET_SAMPLE);
    if (superset === null || superset.estimate < SUPERSET_WALK_CANDIDATES) return null;
    const places = this.ranks.knownPlaces(index, query.sort_by, desc, superset.sample);
    if (places === null) return null;
    places.sort((a, b) => a - b);
    // The sample's place by which as many of its share of the candidates came as the page takes.
    const share = Math.ceil(((limit + 1) * superset.sample.length) / Math.max(superset.estimate, 1));
    const reach = places[Math.min(Math.max(share, 1), places.length) - 1] as number;
    const entries = 2 * reach + AHEAD_ENTRIES.max;
    if (entries > MAX_SUPERSET_WALK || entries * COST.walked > superset.estimate * COST.fetched) return null;
    // The walk's bound: the sort key of its last entry (none when the order ends before it).
    const last = this.ranks.entryAt(index, query.sort_by, desc, entries - 1);
    const bound = last === null ? null : this.reads.sortValues(query.sort_by, last);
    const order = orderBySql(query.sort_by, desc);
    // The superset's test first, on the index entry's row id alone: rows are read for its members only.
    const found = this.reads
      .statement(
        `SELECT t.rid FROM tasks t INDEXED BY ${index}
          WHERE t.rid IN (SELECT rowid FROM task_words WHERE task_words MATCH ?)
            ${bound === null ? '' : `AND ${throughCursorSql(query.sort_by, desc)}`} AND ${where.sql.join(' AND ')}
          ORDER BY ${order} LIMIT ?`,
      )
      .pluck()
      .all(superset.query, ...(bound ?? []), ...where.params, limit + 1) as number[];
    // Fewer than a page: every match, when the walk reached the order's end.
    return found.length > limit || bound === null ? found : null;
  }

  /**
   * The page's row ids from the sort order's first `entries` entries, when
   * they hold a page of matches (`page`; else null, or without the sort order's
   * index), AHEAD_STEP entries a step, going on from an earlier look (`from`).
   * Bounded (AHEAD_ENTRIES: 35-100 ms of a loaded machine for 2 000-3 000
   * entries at a million tasks), so that a search whose matches gather far
   * down the order (titles starting with its word) is not walked there row by row.
   */
  private *walkedAhead(
    sortBy: TaskSortKey,
    desc: boolean,
    where: Where,
    after: Cursor | null,
    entries: number,
    limit: number,
    from: Look = { walked: 0, matches: [], version: this.version() },
  ): Generator<void, Look & { page: number[] | null }, void> {
    const index = this.planner.sortIndex(sortBy);
    if (index === null) return { ...from, page: null };
    const order = orderBySql(sortBy, desc);
    const params: unknown[] = after ? [...after.values] : [];
    // The entries past those already looked at: skipping them in the index costs no row read.
    const walked = `SELECT t.rid FROM tasks t INDEXED BY ${index} ${after ? `WHERE ${afterCursorSql(sortBy, desc)}` : ''} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const statement = this.reads
      .statement(
        `SELECT t.rid FROM (${walked}) w CROSS JOIN tasks t ON t.rid = w.rid WHERE ${where.sql.join(' AND ')} ORDER BY ${order} LIMIT ?`,
      )
      .pluck();
    // Entries counted across steps hold only while no write moved the order: else the look starts over.
    const fresh = (): Look => ({ walked: 0, matches: [], version: this.version() });
    let look = from.version === this.version() ? from : fresh();
    for (let first = true; look.walked < entries; first = false) {
      if (!first) yield;
      if (look.version !== this.version()) look = fresh();
      const step = Math.min(
        entries - look.walked,
        AHEAD_STEP.max,
        Math.max(AHEAD_STEP.first, 3 * look.walked),
      );
      const found = statement.all(
        ...params,
        step,
        look.walked,
        ...where.params,
        limit + 1 - look.matches.length,
      ) as number[];
      look = { walked: look.walked + step, matches: [...look.matches, ...found], version: look.version };
      if (look.matches.length > limit) return { ...look, page: look.matches };
    }
    return { ...look, page: null };
  }

  /**
   * The page's row ids among candidates too many to sort at once: each slice's
   * first matches in the sort order, a slice a step, kept with the best so far.
   * Its cost is the candidates', whatever their place in the order: walking
   * the title order for `mig` (50 000 candidates of a million, their titles
   * starting with "Migrate") read 600 000 rows and their search text before
   * its first match, 40-80 s of the main process in one statement.
   */
  private *slicedPage(
    sortBy: TaskSortKey,
    desc: boolean,
    where: Where,
    after: Cursor | null,
    rids: Int32Array,
    limit: number,
  ): Generator<void, number[], void> {
    const order = orderBySql(sortBy, desc);
    const sql = [...where.sql];
    const params = [...where.params];
    if (after) {
      sql.push(afterCursorSql(sortBy, desc));
      params.push(...after.values);
    }
    const firstOf = this.reads
      .statement(
        `SELECT t.rid FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value WHERE ${sql.join(' AND ')} ORDER BY ${order} LIMIT ?`,
      )
      .pluck();
    const sorted = this.reads
      .statement(
        `SELECT t.rid FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value ORDER BY ${order} LIMIT ?`,
      )
      .pluck();
    let best: number[] = [];
    for (let at = 0; at < rids.length; at += CANDIDATE_SLICE) {
      yield;
      const first = firstOf.all(
        JSON.stringify(Array.from(rids.subarray(at, at + CANDIDATE_SLICE))),
        ...params,
        limit + 1,
      ) as number[];
      if (first.length > 0)
        best =
          best.length === 0
            ? first
            : (sorted.all(JSON.stringify([...best, ...first]), limit + 1) as number[]);
    }
    return best;
  }
}
