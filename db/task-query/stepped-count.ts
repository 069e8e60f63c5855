// A task-list query's count, in synchronous steps of a few milliseconds each
// (row id ranges or slices of the candidates), so that counting 100 000 tasks
// never holds the main process for long.
import type { TaskListQuery } from '../../protocol/task-list-query';
import { filterWhere, searchOnly } from './filter-sql';
import type { TaskReads } from './item-rows';
import type { QueryPlanner } from './planner';
import type { SearchCandidates } from './search-candidates';

/**
 * A count's synchronous step aims at this much work (wall time): far under
 * the 50 ms that stall the main process even when a step takes three times
 * its estimate (seen on a loaded machine).
 */
const COUNT_STEP_MS = 5;
/** A count's first row id range and candidate slice: about 2-3 ms each at 100 000 tasks (measured). */
const FIRST_COUNT_RANGE = 2048;
const FIRST_COUNT_SLICE = 1024;
/** Writes between a count's steps start it again this many times at most; then it counts on through them. */
const COUNT_RESTARTS = 2;

/** The next step's range or slice: scaled toward COUNT_STEP_MS by the last one's time, at most doubled. */
function nextStepSize(size: number, ms: number): number {
  const scale = Math.min(2, Math.max(0.25, COUNT_STEP_MS / Math.max(ms, 0.05)));
  return Math.max(64, Math.round(size * scale));
}

export class SteppedCount {
  constructor(
    private readonly reads: TaskReads,
    private readonly planner: QueryPlanner,
    private readonly search: SearchCandidates,
    /** Moves on every task write: a count started again when it moved. */
    private readonly version: () => string,
  ) {}

  /**
   * Every match of the query, counted in synchronous steps of about
   * COUNT_STEP_MS each (`next()` runs one): a broad count is a full pass
   * over 100 000 tasks, 50-100 ms in one statement, which would stall the
   * main process, so it counts row id ranges or slices of its candidates
   * instead. A write between steps starts the count again, so the answer is
   * the one a single statement gives; after COUNT_RESTARTS writes it counts on,
   * each step on the rows as they are then (the writes' change notice brings a
   * recount anyway).
   */
  *steps(
    query: TaskListQuery,
    options: { me: string; today: string; parent?: string | undefined },
  ): Generator<void, number, void> {
    for (let restart = 0; ; restart++) {
      const version = this.version();
      let total = 0;
      let moved = false;
      for (const part of this.countParts(query, options)) {
        total += part;
        yield;
        if (restart < COUNT_RESTARTS && this.version() !== version) {
          moved = true;
          break;
        }
      }
      if (!moved) return total;
    }
  }

  /** The partial counts of a query, one synchronous step each (a step that only prepares counts 0). */
  private *countParts(
    query: TaskListQuery,
    options: { me: string; today: string; parent?: string | undefined },
  ): Generator<number> {
    const where = filterWhere(query.filter, options.me, options.today, options.parent);
    const rids = this.search.candidates(query.filter);
    if (rids !== null && rids.length === 0) return;
    // The search text alone answers a bare search, not one among a parent's sub-tasks.
    const term = options.parent === undefined ? searchOnly(query.filter) : null;
    if (term !== null) {
      // A search and nothing else: its candidates' compact search text is
      // checked (hidden tasks have none), or, with too many or none to take,
      // every task's; no task or body rows read either way.
      if (rids === null)
        yield* this.rangeCounts(
          'task_search_text',
          'SELECT count(*) AS n FROM task_search_text WHERE rid > ? AND rid <= ? AND instr(text, ?) > 0',
          [term],
        );
      else
        yield* this.sliceCounts(
          rids,
          `SELECT count(*) AS n FROM json_each(?) c CROSS JOIN task_search_text s ON s.rid = c.value
            WHERE instr(s.text, ?) > 0`,
          [term],
        );
      return;
    }
    const conditions = where.sql.join(' AND ');
    if (rids !== null) {
      yield* this.sliceCounts(
        rids,
        `SELECT count(*) AS n FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value WHERE ${conditions}`,
        where.params,
      );
      return;
    }
    // A filter whose index narrows to a few thousand rows is one short step on that index.
    const best = this.planner.narrowestIndex(where, null);
    if (best !== null) {
      yield 0;
      yield (
        this.reads
          .statement(`SELECT count(*) AS n FROM tasks t INDEXED BY ${best.index} WHERE ${conditions}`)
          .get(...where.params) as { n: number }
      ).n;
      return;
    }
    // Anything broader reads the rows in row id order, a range a step (whole
    // rows: all 100 000 in ~16 ms CPU, where one statement may count on a
    // narrower covering index in ~10, but in one stall; measured).
    yield* this.rangeCounts(
      'tasks',
      `SELECT count(*) AS n FROM tasks t NOT INDEXED WHERE t.rid > ? AND t.rid <= ? AND ${conditions}`,
      where.params,
    );
  }

  /**
   * Counts of `sql` (its first two parameters a row id range, `> lo` and
   * `<= hi`) over the table's row ids as they are now, a range a step, each
   * range sized by the time the last one took.
   */
  private *rangeCounts(table: string, sql: string, params: readonly unknown[]): Generator<number> {
    const bounds = this.reads
      .statement(
        // Apart: SQLite reads one end of the row ids for a lone min() or max(), the whole table for both.
        `SELECT (SELECT min(rid) FROM ${table}) AS low, (SELECT max(rid) FROM ${table}) AS high`,
      )
      .get() as {
      low: number | null;
      high: number | null;
    };
    if (bounds.low === null || bounds.high === null) return;
    const statement = this.reads.statement(sql);
    let size = FIRST_COUNT_RANGE;
    for (let lo = bounds.low - 1; lo < bounds.high;) {
      const hi = Math.min(lo + size, bounds.high);
      const start = performance.now();
      const { n } = statement.get(lo, hi, ...params) as { n: number };
      size = nextStepSize(size, performance.now() - start);
      lo = hi;
      yield n;
    }
  }

  /** Counts of `sql` (its first parameter the JSON of row ids) over slices of `rids`, a slice a step. */
  private *sliceCounts(rids: readonly number[], sql: string, params: readonly unknown[]): Generator<number> {
    const statement = this.reads.statement(sql);
    let size = FIRST_COUNT_SLICE;
    for (let at = 0; at < rids.length;) {
      const slice = rids.slice(at, at + size);
      const start = performance.now();
      const { n } = statement.get(JSON.stringify(slice), ...params) as { n: number };
      size = nextStepSize(size, performance.now() - start);
      at += slice.length;
      yield n;
    }
  }
}
