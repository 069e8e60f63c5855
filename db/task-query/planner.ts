// Which way a page is read: from the search candidates, or by walking a sort
// index, or from a filter index (read and sorted, or as a set the walk tests),
// weighed by how far each filter index narrows (probed, cached until a write).
import type { TaskSortKey } from '../../protocol/task-list-query';
import type { Narrowing, Where } from './filter-sql';
import { GROUPED } from './grouped-walk';
import type { TaskReads } from './item-rows';

/** Filter indexes are counted up to this many rows; beyond, walking the sort order is always cheaper. */
const PROBE_LIMIT = 8000;
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
  /** A row id put in a filter's set (its index entries alone, no row read). */
  setMember: 0.45,
  /** A sort index entry walked and its row id looked up in that set. */
  setTest: 0.1,
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

  constructor(
    private readonly reads: TaskReads,
    /** Moves on every task write (probe counts are cached until it does). */
    private readonly version: () => string,
    /** The task indexes that exist now (sort indexes are absent during a first load). */
    private readonly indexes: () => ReadonlySet<string>,
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
        // Too many to fetch and sort: walk the sort order, testing membership on each index entry (no row read).
        where.sql.push('t.rid IN (SELECT value FROM json_each(?))');
        where.params.push(JSON.stringify(rids));
      }
      plan = this.plan(sortBy, where, limit);
      if (rids !== null && plan.path === 'walk') plan = { ...plan, path: 'candidate-walk' };
    }
    if (plan.set) {
      // Built once per statement from the filter index's entries; tested on each sort index entry before its row is read.
      const { index, narrowing } = plan.set;
      where.sql.push(
        `t.rid IN (SELECT t.rid FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')})`,
      );
      where.params.push(...narrowing.params);
    }
    return plan;
  }

  /**
   * Up to how many candidates fetching and sorting them beats walking the sort
   * order testing membership: sorting costs ~4 µs a candidate, the walk ~0.3 µs
   * an index entry over limit x total / candidates entries (measured).
   */
  sortableCandidates(limit: number): number {
    return Math.sqrt(limit * this.reads.rowEstimate() * 0.075);
  }

  /** How many rows an index narrows to, counted up to PROBE_LIMIT (index entries only, no row reads). */
  private probe(index: string, narrowing: Narrowing): number {
    if (this.probesVersion !== this.version()) {
      this.probes = new Map();
      this.probesVersion = this.version();
    }
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')} LIMIT ${PROBE_LIMIT + 1})`;
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
   * the fewest rows, when that is at most PROBE_LIMIT; else null.
   */
  narrowestIndex(where: Where, except: string | null): Narrowest | null {
    const available = this.indexes();
    let best: Narrowest | null = null;
    for (const [index, narrowing] of where.narrowing) {
      if (index === except || !available.has(index)) continue;
      const n = this.probe(index, narrowing);
      if (n <= PROBE_LIMIT && (best === null || n < best.n)) best = { index, n, narrowing };
    }
    return best;
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
    const best = this.narrowestIndex(where, sortIndex);
    if (best === null) return walk;
    const total = Math.max(this.reads.rowEstimate(), 1);
    const walked = Math.min(total, ((limit + 1) * total) / Math.max(best.n, 1));
    const costs: [number, Plan][] = [
      [walked * COST.rowCheck, walk],
      [
        best.n * COST.sortedRow + Math.min(limit + 1, best.n) * COST.reread,
        { path: 'filter-index', index: best.index },
      ],
    ];
    // A set walk needs the sort order's index (grouped sorts walk theirs value by value), and
    // its filter alone: with others it may walk the whole order for a few matches.
    if (walk.path === 'walk' && walk.index !== null && where.narrowing.size === 1 && where.unnarrowed === 0)
      costs.push([
        best.n * COST.setMember + walked * COST.setTest + Math.min(limit + 1, best.n) * COST.rowCheck,
        { path: 'filter-walk', index: walk.index, set: { index: best.index, narrowing: best.narrowing } },
      ]);
    return costs.reduce((a, b) => (b[0] < a[0] ? b : a))[1];
  }
}
