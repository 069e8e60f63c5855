// Answers the task list's vocabulary (protocol/task-list-query.ts) from the
// effective task rows, with the same ids in the same order as the service, in
// keyset pages. A search or tag filter that narrows to a few thousand tasks is
// answered from the word index's candidates, sorted; a broader one checks the
// sort order's first entries, and failing a page there walks on inside SQLite
// testing the word index when a sample of its candidates says its page is near,
// or reads its candidates off their places in the order (task-query/sort-ranks.ts), or without them
// sorts its candidates a slice a step (never walking the order to matches
// gathered far down it: task-query/broad-search.ts);
// anything broader still walks the sort index and checks each row until the page is full. The parts, in
// task-query/: the filter's SQL, the search candidates, the broad search, the planner, the
// grouped walk, the cursor, the stepped count; this entry composes a page.
import type { Database } from 'better-sqlite3';
import {
  parseTaskListQuery,
  TASK_FILTER_KEYS,
  type TaskListFilter,
  type TaskListQuery,
} from '../../protocol/task-list-query';
import type { TaskFieldValues } from '../../protocol/task';
import type { WordIndex } from '../tasks/word-index';
import { BroadSearch, CANDIDATE_SLICE } from './broad-search';
import { afterCursorSql, decodeCursor, encodeCursor, orderBySql } from './cursor';
import { filterWhere, searchOnly, type Where } from './filter-sql';
import { GroupedWalk } from './grouped-walk';
import { ITEM_JSON, type ItemRow, RID_AT, TaskReads } from './item-rows';
import { type Plan, QueryPlanner } from './planner';
import { RowSets } from './row-set';
import { SearchCandidates } from './search-candidates';
import { SortRanks } from './sort-ranks';
import { SteppedCount } from './stepped-count';
import { runSteps } from './steps';

export interface TaskQueryOptions {
  /** The signed-in person's username: what `assignee=me` means. */
  me: string;
  /** Today as a UTC day `YYYY-MM-DD`: what `overdue` compares with. */
  today: string;
  /** Page size: default 200, at most 1000. */
  limit?: number;
  /** The `next` of the previous page. */
  after?: string | null;
  /**
   * Only the sub-tasks of this task (the list filtered by parent). The mirror
   * alone answers it, beside the query: the service's task list has no parent
   * filter, so it is no part of the query's vocabulary, nor of a saved view.
   */
  parent?: string | undefined;
}

/** What a count needs of the options. */
export type TaskCountOptions = Pick<TaskQueryOptions, 'me' | 'today' | 'parent'>;

/** A task as a list shows it: its effective values, less its organisation, description and authors. */
export interface TaskListItem extends Omit<
  TaskFieldValues,
  'org_id' | 'description' | 'created_by' | 'updated_by'
> {
  /** An absent list of tags is an empty one. */
  tags: string[];
  /** Local edits not yet accepted by the server are part of these values. */
  pending: boolean;
  /** The server no longer lists it; pending edits keep it until they are settled. */
  server_gone: boolean;
}

/** How a query was answered (for benchmarks and tests; not part of the result's meaning). */
export type TaskQueryPath = Plan['path'] | 'empty' | 'sliced' | 'ranked' | 'superset-walk';

export interface TaskListPage {
  items: TaskListItem[];
  /** Pass as `after` for the next page; null on the last page. */
  next: string | null;
  path: TaskQueryPath;
}

/** Anything the service's parser accepts: a parsed query, or the query string's pairs. */
export type TaskQueryInput = TaskListQuery | URLSearchParams | Iterable<readonly [string, string]>;

const DEFAULT_LIMIT = 200;
/** Candidates checked first, in row id order, to tell how many of them match. */
const SPARSE_SAMPLE = 256;
/** The sparseMatches kept, by query (TaskQueries.sparse). */
const SPARSE_KEPT = 8;
/**
 * Up to this many matches expected among candidates too many to sort (or as
 * many as the planner sorts, when more): they are checked once and the matches
 * sorted, instead of walking the sort order for them (a page of 200 among
 * 1 000 matches of a million walks ~200 000 index entries).
 */
const SPARSE_MATCHES = 1000;
const MAX_LIMIT = 1000;
/** How long the data must stay unwritten before the sort order's places are read ahead (placesAhead). */
const PLACES_QUIET_MS = 1000;

/** The conditions of candidates known to match (every one passes): none; a new one each time, as plans add to it. */
function checkedWhere(): Where {
  return { sql: ['1'], params: [], narrowing: new Map(), unnarrowed: 0 };
}

/** A row of ITEM_JSON as its item (columns by position). */
function itemOf(row: ItemRow): TaskListItem {
  return {
    task_id: row[0] as string,
    title: row[1] as string,
    status: row[2] as string,
    priority: row[3] as string | null,
    assignee: row[4] as string | null,
    project_id: row[5] as string | null,
    team_id: row[6] as string | null,
    section_id: row[7] as string | null,
    sprint_id: row[8] as string | null,
    goal_id: row[9] as string | null,
    milestone_id: row[10] as string | null,
    parent_task_id: row[11] as string | null,
    tags: row[12] as string[],
    due_date: row[13] as string | null,
    start_date: row[14] as string | null,
    created_at: row[15] as string | null,
    updated_at: row[16] as string | null,
    completed_at: row[17] as string | null,
    task_type: row[18] as string | null,
    created_via: row[19] as string | null,
    review: row[20] as string | null,
    position: row[21] as number | null,
    pending: row[22] === 1,
    server_gone: row[23] === 1,
  };
}

function isParsedQuery(input: TaskQueryInput): input is TaskListQuery {
  return (
    typeof (input as TaskListQuery).sort_by === 'string' &&
    typeof (input as TaskListQuery).filter === 'object'
  );
}

/** The pairs a parsed query stands for: running them through the parser again refuses what the service would. */
export function taskQueryParams(query: TaskListQuery): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of TASK_FILTER_KEYS) {
    const value = query.filter[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([`filter[${key}]`, v]);
    else pairs.push([`filter[${key}]`, String(value)]);
  }
  pairs.push(['sort_by', query.sort_by], ['sort_order', query.sort_order]);
  return pairs;
}

/** Parses any accepted input into a query, with the service's errors for unknown keys and values. */
export function normalizeTaskQuery(input: TaskQueryInput): TaskListQuery {
  return parseTaskListQuery(isParsedQuery(input) ? taskQueryParams(input) : input);
}

export class TaskQueries {
  private readonly reads: TaskReads;
  private readonly search: SearchCandidates;
  private readonly planner: QueryPlanner;
  private readonly grouped: GroupedWalk;
  private readonly counts: SteppedCount;
  private readonly broad: BroadSearch;
  private readonly ranks: SortRanks;
  /** The data version last seen, and since when: the places are read ahead only once writes pause. */
  private still: { version: string; since: number } | null = null;
  /** The last filteredCandidates, until the next write. */
  private lastFiltered: { key: string; version: string; rids: number[] | null } | null = null;
  /**
   * The last few sparseMatches (by query), until the next write: a search
   * asked again after others (a list, its count, the search before) does not
   * read its candidates' texts again. A few, since each holds up to
   * CANDIDATE_LIMIT ids.
   */
  private readonly sparse = new Map<
    string,
    { version: string; matches: { rids: number[]; exact: boolean } }
  >();

  /**
   * Runs a page's statements in one read transaction: its row ids, then their
   * items and the cursor's sort key, come from one state of the file even
   * while another connection (the sync worker's) commits in between.
   */
  private readonly oneRead: (work: () => TaskListPage) => TaskListPage;

  constructor(
    db: Database,
    words: WordIndex,
    /** Moves on every task write (probe counts and candidates are cached until it does). */
    private readonly version: () => string,
    /** The task indexes that exist now (sort indexes are absent during a first load). */
    indexes: () => ReadonlySet<string>,
    /** False while a first load's tasks are not all in the word index: no candidates then. */
    wordsComplete: () => boolean,
  ) {
    this.reads = new TaskReads(db);
    this.search = new SearchCandidates(this.reads, words, version, wordsComplete);
    this.planner = new QueryPlanner(this.reads, version, indexes, new RowSets(db, this.reads, version));
    this.grouped = new GroupedWalk(this.reads);
    this.counts = new SteppedCount(this.reads, this.planner, this.search, version);
    this.ranks = new SortRanks(this.reads, version);
    this.broad = new BroadSearch(this.reads, this.search, this.planner, this.ranks, version);
    this.oneRead = db.transaction((work: () => TaskListPage) => work());
  }

  /**
   * What the answers are read at: moves on every write that may change one (not on another
   * connection's commit that changed no task's listed values); a page's steps compare it.
   */
  answersVersion(): string {
    return this.version();
  }

  /** A page in one go (`pageSteps` run to the end, in one read transaction): for callers that may block. */
  page(input: TaskQueryInput, options: TaskQueryOptions): TaskListPage {
    return this.oneRead(() => runSteps(this.pageSteps(input, options)));
  }

  /**
   * A page in synchronous steps (`next()` runs one): one step, but for a
   * search too broad to sort whose page the sort order's first entries do
   * not fill, whose candidates are sorted a slice a step (slicedPage).
   */
  *pageSteps(
    input: TaskQueryInput,
    options: TaskQueryOptions,
    /** Whether the last broad search's candidates may be taken for this one's (TYPED_ON_TESTS). */
    typingOn = true,
  ): Generator<void, TaskListPage, void> {
    const query = normalizeTaskQuery(input);
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
    const after = options.after ? decodeCursor(options.after, query) : null;
    let where = filterWhere(query.filter, options.me, options.today, options.parent);
    const candidates = this.search.candidates(query.filter);
    let rids = candidates ?? this.filteredCandidates(query.filter, where, limit);
    // The filtered candidates passed the whole filter; the word index's, a superset, not yet.
    let exact = candidates === null && rids !== null;
    const sortable = this.planner.sortableCandidates(limit);
    if (rids !== null && rids.length > sortable)
      ({ rids, exact } = yield* this.sparseMatches(query.filter, where, rids, sortable));
    // Matches checked against the whole filter are not checked again: sorting 1 325 of them at a
    // million tasks read each one's search text again, 15 ms, where their sort keys alone took ~3.
    if (exact) where = checkedWhere();
    if (rids !== null && rids.length === 0) return { items: [], next: null, path: 'empty' };

    const desc = query.sort_order === 'desc';
    // A search alone: a broad tag filter (no search) walks the planner's set of its rows, which
    // at a million tasks answers in a few ms where sorting its candidates in slices took 230 ms a step.
    if (rids === null && query.filter.search !== undefined) {
      const broad = yield* this.broad.page(query, where, after, limit, typingOn);
      if (broad === 'empty') return { items: [], next: null, path: 'empty' };
      if (broad === 'again') return yield* this.pageSteps(input, options, false);
      if (broad !== null) return this.pageOf(query, this.reads.rowsById(broad.rids), limit, broad.path);
    }
    const plan = this.planner.planPage(query.sort_by, where, rids, limit);
    let rows: ItemRow[];
    const path = plan.path;
    if (plan.path === 'groups') {
      rows = this.grouped.walk(query.sort_by, desc, where, after, limit + 1, query.filter);
    } else {
      const sql = [...where.sql];
      const params = [...where.params];
      if (after) {
        sql.push(afterCursorSql(query.sort_by, desc));
        params.push(...after.values);
      }
      const order = orderBySql(query.sort_by, desc);
      const candidates = plan.path === 'candidates';
      const from = candidates
        ? 'json_each(?) c CROSS JOIN tasks t ON t.rid = c.value'
        : plan.index === null
          ? 'tasks t'
          : `tasks t INDEXED BY ${plan.index}`;
      if (candidates) params.unshift(JSON.stringify(rids));
      const tail = `FROM ${from} WHERE ${sql.join(' AND ')} ORDER BY ${order} LIMIT ?`;
      // SQLite sorts the candidates, a filter index's rows, or (its index absent) the walk's.
      const sorted = candidates || plan.path === 'filter-index' || plan.index === null;
      rows = sorted
        ? // Only the row id and the sort key go through the sorter; the page's rows are read after.
          this.reads.rowsById(
            this.reads
              .statement(`SELECT t.rid ${tail}`)
              .pluck()
              .all(...params, limit + 1) as number[],
          )
        : this.reads.rows(`SELECT ${ITEM_JSON} ${tail}`, [...params, limit + 1]);
    }
    return this.pageOf(query, rows, limit, path);
  }

  /** The page of up to `limit` + 1 rows (one more: there is a next page), with its cursor. */
  private pageOf(query: TaskListQuery, rows: ItemRow[], limit: number, path: TaskQueryPath): TaskListPage {
    const more = rows.length > limit;
    if (more) rows.length = limit;
    const last = rows[rows.length - 1];
    const next =
      more && last
        ? encodeCursor({
            sortBy: query.sort_by,
            order: query.sort_order,
            values: this.reads.sortValues(query.sort_by, last[RID_AT] as number),
          })
        : null;
    return { items: rows.map(itemOf), next, path };
  }

  /**
   * A search too broad to sort its candidates, narrowed by the query's other
   * filters: its candidates (up to a broader limit) that pass them, when few
   * enough to sort; else null (the sort order is walked). Without it, a search
   * matching 1.4% of a million tasks and `assignee=me` (230 matches) walked
   * every row to fill its page. Kept until the next write, for the next pages.
   */
  private filteredCandidates(f: TaskListFilter, where: Where, limit: number): number[] | null {
    const textFilters = (f.search === undefined ? 0 : 1) + (f.tags === undefined ? 0 : 1);
    if (textFilters === 0 || (where.narrowing.size === 0 && where.unnarrowed <= textFilters)) return null;
    const key = JSON.stringify([where.sql, where.params]);
    const version = this.version();
    if (this.lastFiltered?.key === key && this.lastFiltered.version === version)
      return this.lastFiltered.rids;
    const broad = this.search.broadCandidates(f);
    let rids: number[] | null = null;
    if (broad !== null) {
      // A filter index narrowing to fewer rows than the candidates drops those outside it
      // without reading their rows: at a million tasks, 14 000 candidates' rows read off the
      // page cache took 60-70 ms of CPU for `quefazi` and `assignee=me`, its 15 000 index entries ~3.
      const within = this.planner.narrowestRows(where);
      const checked = within === null ? broad : broad.filter((rid) => within.has(rid));
      // Many passing: the matches are dense, and walking the sort order finds a page soon. Stop there.
      const sortable = Math.floor(this.planner.sortableCandidates(limit));
      const passing = this.reads
        .statement(
          `SELECT t.rid FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value WHERE ${where.sql.join(' AND ')} LIMIT ?`,
        )
        .pluck()
        .all(JSON.stringify(checked), ...where.params, sortable + 1) as number[];
      rids = passing.length <= sortable ? passing : null;
    }
    this.lastFiltered = { key, version, rids };
    return rids;
  }

  /**
   * Candidates too many to sort, narrowed to the exact matches when a sample
   * says few enough of them match to sort (a phrase of common words: 5 of 5 740 candidates
   * at a million tasks); else as they are. Walking the sort order for a few
   * matches among many candidates tests every index entry and reads every
   * candidate's row on the way: 130 ms at a million, where checking the
   * candidates in row id order reads each once. Kept until the next write.
   */
  private *sparseMatches(
    f: TaskListFilter,
    where: Where,
    rids: number[],
    /** Up to how many candidates the page sorts (the planner's sortableCandidates). */
    sortable: number,
  ): Generator<void, { rids: number[]; exact: boolean }, void> {
    const key = JSON.stringify([where.sql, where.params, rids.length, rids[0], rids.at(-1)]);
    const version = this.version();
    const kept = this.sparse.get(key);
    if (kept?.version === version) return kept.matches;
    const term = searchOnly(f);
    // A search alone is decided by the compact search text (hidden tasks have none); else by the whole filter.
    const exact = (slice: number[]): number[] =>
      term !== null
        ? (this.reads
            .statement(
              'SELECT s.rid FROM json_each(?) c CROSS JOIN task_search_text s ON s.rid = c.value WHERE instr(s.text, ?) > 0',
            )
            .pluck()
            .all(JSON.stringify(slice), term) as number[])
        : this.reads.passing(slice, where);
    const sample = rids.slice(0, SPARSE_SAMPLE);
    const sampled = exact(sample);
    // Dense enough that the walk fills a page soon: the candidates as they are.
    const expected = (sampled.length / Math.max(sample.length, 1)) * rids.length;
    let narrowed = rids;
    // Few enough to sort: checked once and kept, instead of walking the sort order for them on every
    // page. At a million tasks a page of 200 among 1 325 matches (of 2 611 candidates) walked
    // ~150 000 index entries, 9-11 ms of CPU; sorting them, once checked, ~3 ms.
    if (expected <= Math.max(SPARSE_MATCHES, sortable)) {
      // The rest a slice a step: at a million tasks, 2 800 candidates' search texts read off the OS took 30-40 ms in one.
      narrowed = sampled;
      for (let at = sample.length; at < rids.length; at += CANDIDATE_SLICE) {
        yield;
        for (const rid of exact(rids.slice(at, at + CANDIDATE_SLICE))) narrowed.push(rid);
      }
    }
    this.sparse.delete(key);
    if (this.sparse.size >= SPARSE_KEPT) this.sparse.delete(this.sparse.keys().next().value as string);
    // Exact only if no write came between the slices: one that did is seen by the page's own check.
    const matches = { rids: narrowed, exact: narrowed !== rids && this.version() === version };
    this.sparse.set(key, { version, matches });
    return matches;
  }

  /**
   * Steps reading the places of the query's order ahead of a search in it (sort-ranks.ts, for
   * next-turn.ts's workAhead): `mig`, the first search at a million tasks whose matches sort
   * from the 600 000th title, read them in its own steps, 0.9-1.2 s of main's CPU in 30 steps on
   * a loaded machine (`mi` 0.7 s); with them read ahead, 0.15-0.26 s in 12. Reading all of them
   * ahead takes ~0.7-1.8 s of CPU there, once for each state of the data: so the state a write
   * was seen to bring is read once it has been still for PLACES_QUIET_MS (the first seen, at once),
   * and dropped when a write moves it (a sync writing for minutes does not have them read again
   * after each of its writes).
   */
  placesAhead(input: TaskQueryInput): () => number | null {
    const query = normalizeTaskQuery(input);
    const desc = query.sort_order === 'desc';
    const version = this.version();
    return () => {
      // A write since this was asked: the next page asks again.
      if (this.version() !== version) return null;
      const waited = this.stillFor(version);
      if (waited < PLACES_QUIET_MS) return PLACES_QUIET_MS - waited;
      const index = this.planner.sortIndex(query.sort_by);
      if (index === null) return null;
      return this.ranks.readAhead(index, query.sort_by, desc) ? 0 : null;
    };
  }

  /**
   * How long (ms) the data has been at `version`, as far as seen: the first state seen counts as
   * still (no write seen moving it), so a list shown at rest reads its places at once; only a state
   * a write was seen to bring waits for PLACES_QUIET_MS. Waiting a second there too left them
   * unread for a person typing right after the list showed (the ui bench at a million: `mig` 1.5 s).
   */
  private stillFor(version: string): number {
    const now = performance.now();
    if (this.still?.version !== version)
      this.still = { version, since: this.still === null ? -Infinity : now };
    return now - this.still.since;
  }

  /** Every match of the query, counted in one go (`countSteps` run to the end): for callers that may block. */
  count(input: TaskQueryInput, options: TaskCountOptions): number {
    return runSteps(this.countSteps(input, options));
  }

  /**
   * Every match of the query, counted in synchronous steps of a few
   * milliseconds each (`next()` runs one; task-query/stepped-count.ts): a
   * write between steps starts the count again.
   */
  *countSteps(input: TaskQueryInput, options: TaskCountOptions): Generator<void, number, void> {
    return yield* this.counts.steps(normalizeTaskQuery(input), options);
  }
}
