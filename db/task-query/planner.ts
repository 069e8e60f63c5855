// Which way a page is read: from the search candidates, or by walking a sort
// index, or from a filter index (read and sorted, or as a set the walk tests),
// weighed by how far each filter index narrows (probed, cached until a write).
import type { TaskSortKey } from '../../protocol/task-list-query';
import type { Narrowing, Where } from './filter-sql';
import { GROUPED } from './grouped-walk';
import type { TaskReads } from './item-rows';
import type { RowSets } from './row-set';

/** Up to this many rows a filter index's rows are read and sorted, or counted in one step (stepped-count.ts). */
export const PROBE_LIMIT = 8000;
/**
 * Filter indexes are counted up to this many rows for a set walk (their
 * entries alone are read: ~1 ms at 40 000); beyond, building the set costs
 * more than walking the sort order even with every row read off the cache.
 */
const SET_PROBE_LIMIT = 40_000;
/**
 * A task row's bytes in the file, about (the bench's tasks: 323 MB of table
 * at a million): with the connection's page cache, how much of the table it holds.
 */
const ROW_BYTES = 330;
/**
 * CPU a row read costs more, in µs, when its page is not in the connection's
 * cache (a 16 KiB page read from the OS and decoded): at a million tasks the
 * table outgrows the 64 MiB cache and a walk's row cost measured 4.4 µs, not 0.8.
 */
const ROW_MISS = 4.5;
/**
 * CPU per step of a plan, in µs, measured at 100 000 tasks (the bench's file,
 * its pages in the cache): what plan() weighs the ways of answering with.
 */
const COST = {
  /** A task row reached from an index entry, read and its filters checked. */
  rowCheck: 0.8,
  /** A task row reached from a filter index, checked, and its sort key sorted. */
  sortedRow: 1.3,
  /** A row of a sorted page read again by its id for its item (a walk reads it once). */
  reread: 2.5,
  /** A row id put in a filter's set (its index entries alone, no row read; row-set.ts, measured at a million). */
  setMember: 0.2,
  /** A sort index entry walked and its row id looked up in that set (a function call a entry). */
  setTest: 0.12,
};

/** The index whose order is each sort key's order (status and priority are walked in groups on the rank indexes). */
const SORT_INDEX: Record<TaskSortKey, string | null> = {
  task_id: 'tasks_by_id',
  title: 'tasks_by_title',
  status: null,
  priority: null,
  due_date: 'tasks_by_due',
  start_date: 'tasks_by_start',
  created_at: 'tasks_by_created',
  assignee: 'tasks_by_assignee',
  project_id: 'tasks_by_project',
  priority_rank: 'tasks_by_priority_rank',
  status_rank: 'tasks_by_status_rank',
  task_type: 'tasks_by_task_type',
};

/** How a page is read: `index` is walked (or, for filter-index, read and sorted); `set` narrows a walk. */
export interface Plan {
  path: 'candidates' | 'candidate-walk' | 'filter-index' | 'filter-walk' | 'walk' | 'groups';
  index: string | null;
  set?: { index: string; narrowing: Narrowing };
}

/** A filter index and how many rows it narrows to. */
export interface Narrowest {
  index: string;
  n: number;
  narrowing: Narrowing;
}

export class QueryPlanner {
  private probes = new Map<string, number>();
  private probesVersion = '';
  /** The connection's page cache, in bytes (read once: the app never changes it). */
  private cacheBytes: number | null = null;

  constructor(
    private readonly reads: TaskReads,
    /** Moves on every task write (probe counts are cached until it does). */
    private readonly version: () => string,
    /** The task indexes that exist now (sort indexes are absent during a first load). */
    private readonly indexes: () => ReadonlySet<string>,
    /** The sets of a set walk (filter-walk). */
    private readonly sets: RowSets,
  ) {}

  /**
   * The plan of a page whose search or tags narrowed to `rids` (null: they
   * did not narrow): few enough candidates are sorted, else the sort order is
   * walked (testing membership when there are candidates). Adds the
   * conditions the plan needs to `where`.
   */
  planPage(sortBy: TaskSortKey, where: Where, rids: readonly number[] | null, limit: number): Plan {
    let plan: Plan;
    if (rids !== null && rids.length <= this.sortableCandidates(limit))
      plan = { path: 'candidates', index: null };
    else {
      if (rids !== null) {
        // Too many to fetch and sort: walk the sort order, testing membership on each index entry. First,
        // so that no other condition reads the row of an entry that is no candidate: at a million tasks,
        // the search's own check read a row for each of the 77 000 entries walked for `vovolinlo`.
        where.sql.unshift('t.rid IN (SELECT value FROM json_each(?))');
        where.params.unshift(JSON.stringify(rids));
      }
      plan = this.plan(sortBy, where, limit);
      if (rids !== null && plan.path === 'walk') plan = { ...plan, path: 'candidate-walk' };
    }
    if (plan.set) {
      // Tested on each sort index entry before its row is read: first, so that no other condition reads the row.
      where.sql.unshift(this.sets.condition(plan.set.index, plan.set.narrowing));
    }
    return plan;
  }

  /** The index whose order is the sort key's order, when the file has it now (grouped sorts have none). */
  sortIndex(sortBy: TaskSortKey): string | null {
    const index = SORT_INDEX[sortBy];
    return index !== null && this.indexes().has(index) ? index : null;
  }

  /**
   * Up to how many candidates fetching and sorting them beats walking the sort
   * order testing membership: sorting costs ~4 µs a candidate (its row read)
   * times the row factor, the walk ~0.3 µs an index entry over limit x total /
   * candidates entries (measured), reading the rows of members alone. Without
   * the row factor, at a million tasks a search of 2 600 candidates read each
   * one's row (and its search text) off the OS, ~5 000 pages, where the walk
   * reads a few hundred pages of the sort index and its page's rows.
   */
  sortableCandidates(limit: number): number {
    const total = Math.max(this.reads.rowEstimate(), 1);
    return Math.sqrt((limit * total * 0.075) / this.rowFactor(total));
  }

  /**
   * How much more a row read costs than with the table in the cache: 1 while
   * the task table fits in the connection's page cache (at 100 000 tasks,
   * ~33 MB in 64 MiB), more as it outgrows it (at a million, most row reads
   * go to the OS): why a walk reading ten thousand rows costs 5 times more a
   * row at a million tasks than at 100 000, and sets of index entries win.
   */
  private rowFactor(total: number): number {
    if (this.cacheBytes === null) {
      const pages = this.reads.statement('PRAGMA cache_size').pluck().get() as number;
      const pageSize = this.reads.statement('PRAGMA page_size').pluck().get() as number;
      this.cacheBytes = pages < 0 ? -pages * 1024 : pages * pageSize;
    }
    const missed = Math.max(0, 1 - this.cacheBytes / Math.max(total * ROW_BYTES, 1));
    return 1 + (missed * ROW_MISS) / COST.rowCheck;
  }

  /** How many rows an index narrows to, counted up to `limit` (index entries only, no row reads). */
  private probe(index: string, narrowing: Narrowing, limit: number): number {
    if (this.probesVersion !== this.version()) {
      this.probes = new Map();
      this.probesVersion = this.version();
    }
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')} LIMIT ${limit + 1})`;
    const key = `${sql}\u0000${JSON.stringify(narrowing.params, (_, v: unknown) => (Buffer.isBuffer(v) ? null : v))}`;
    let n = this.probes.get(key);
    if (n === undefined) {
      n = (this.reads.statement(sql).get(...narrowing.params) as { n: number }).n;
      this.probes.set(key, n);
    }
    return n;
  }

  /**
   * Of the filter indexes the file has (but `except`), the one narrowing to
   * the fewest rows, when that is at most `limit`; else null.
   */
  narrowestIndex(where: Where, except: string | null, limit = PROBE_LIMIT): Narrowest | null {
    const available = this.indexes();
    let best: Narrowest | null = null;
    for (const [index, narrowing] of where.narrowing) {
      if (index === except || !available.has(index)) continue;
      const n = this.probe(index, narrowing, limit);
      if (n <= limit && (best === null || n < best.n)) best = { index, n, narrowing };
    }
    return best;
  }

  /**
   * The row ids of the filter index narrowing `where` the most, when it
   * narrows to at most SET_PROBE_LIMIT rows (index entries only, ~0.2 µs
   * each); else null. A caller holding candidates drops those outside it
   * before reading their rows (~5 µs each at a million tasks, off the cache).
   */
  narrowestRows(where: Where): Set<number> | null {
    const best = this.narrowestIndex(where, null, SET_PROBE_LIMIT);
    if (best === null) return null;
    const rids = this.reads
      .statement(
        `SELECT t.rid FROM tasks t INDEXED BY ${best.index} WHERE ${best.narrowing.sql.join(' AND ')}`,
      )
      .pluck()
      .all(...best.narrowing.params) as number[];
    return new Set(rids);
  }

  /**
   * Chooses how to answer without candidates, by selectivity (SQLite's planner
   * decides from sampled statistics and was measured sorting half the table
   * for a two-status filter, hence the explicit choice). With n the fewest
   * rows a filter index narrows to and about limit x total / n entries of the
   * sort order to walk until the page is full, the cheapest (COST) of:
   * - walk: check the row of every entry walked;
   * - filter-index: read and sort those n rows, then read the page's again;
   * - filter-walk: put their n row ids in a set (index entries only) and
   *   walk the sort order testing each entry's row id, reading only members.
   */
  private plan(sortBy: TaskSortKey, where: Where, limit: number): Plan {
    const available = this.indexes();
    const sortIndex = SORT_INDEX[sortBy];
    const grouped = GROUPED[sortBy];
    const walk: Plan = grouped
      ? available.has(grouped.index)
        ? { path: 'groups', index: null }
        : { path: 'walk', index: null }
      : // Without its index (a first load in progress) SQLite sorts: slower, same order.
        { path: 'walk', index: sortIndex !== null && available.has(sortIndex) ? sortIndex : null };
    const best = this.narrowestIndex(where, sortIndex, SET_PROBE_LIMIT);
    if (best === null) return walk;
    const total = Math.max(this.reads.rowEstimate(), 1);
    const walked = Math.min(total, ((limit + 1) * total) / Math.max(best.n, 1));
    // Row reads cost more once the table outgrows the page cache; index entries do not (they stay dense).
    const row = this.rowFactor(total);
    const costs: [number, Plan][] = [[walked * COST.rowCheck * row, walk]];
    if (best.n <= PROBE_LIMIT)
      costs.push([
        (best.n * COST.sortedRow + Math.min(limit + 1, best.n) * COST.reread) * row,
        { path: 'filter-index', index: best.index },
      ]);
    // A set walk needs the sort order's index (grouped sorts walk theirs value by value), and
    // its filter alone: with others it may walk the whole order for a few matches.
    if (walk.path === 'walk' && walk.index !== null && where.narrowing.size === 1 && where.unnarrowed === 0)
      costs.push([
        best.n * COST.setMember + walked * COST.setTest + Math.min(limit + 1, best.n) * COST.rowCheck * row,
        { path: 'filter-walk', index: walk.index, set: { index: best.index, narrowing: best.narrowing } },
      ]);
    return costs.reduce((a, b) => (b[0] < a[0] ? b : a))[1];
  }
}
