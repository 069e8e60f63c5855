// The sidebar's counts of tasks filed under each section, sprint and goal (workspace:get), as
// one read each or a few groups a read with the event loop free between (a million tasks).
import type { Database } from 'better-sqlite3';
import { nextTurn } from '../next-turn';

/** The sidebar's counts of tasks filed under each section, sprint and goal (workspace:get). */
export const FILING_COUNTS = ['sections', 'sprints', 'goals'] as const;
export type FilingCount = (typeof FILING_COUNTS)[number];
export interface FilingCountRow {
  id: string;
  total: number;
  completed: number;
}

/**
 * Tasks a read of a count in steps walks, about (the index entries of its groups; the index covers
 * the count). At a million tasks a walk of 400 000 entries held main 28 ms of CPU on a quiet
 * machine and 80-96 ms under load, and groups range from a few tasks to hundreds of thousands (the
 * bench's seed files ~24 000 tasks under a section, ~20 000 under a sprint): a fixed number of
 * groups a read made some reads 20 times longer than others.
 */
const FILING_TASKS_PER_READ = 100_000;
/** Groups a read takes at most, however small they are. */
const MAX_GROUPS_PER_READ = 200;

/**
 * A filing count's query: every group (`all`), or the first groups in the id's order and those
 * after one (`first`, `after`: a count in steps). Each WHERE repeats its partial index's
 * (migration 0014), or SQLite would not use it and would scan every task; the index's order is
 * the groups' order, so a read of some groups walks only their entries.
 */
export function filingCountSql(count: FilingCount, part: 'all' | 'first' | 'after'): string {
  const [column, filter] = {
    sections: ['section_id', ''],
    sprints: ['sprint_id', ''],
    goals: ['goal_id', 'AND parent_task_id IS NULL'],
  }[count];
  const completed = count === 'sections' ? '0' : 'sum(k_status_rank = 3)';
  const after = part === 'after' ? `AND ${column} > ?` : '';
  const limit = part === 'all' ? '' : 'ORDER BY id LIMIT ?';
  return `SELECT ${column} AS id, count(*) AS total, ${completed} AS completed FROM tasks
           WHERE hidden = 0 AND ${column} IS NOT NULL ${filter} ${after} GROUP BY ${column} ${limit}`;
}

export function completionCountsOf(
  rows: readonly FilingCountRow[],
): Map<string, { total: number; completed: number }> {
  return new Map(rows.map((r) => [r.id, { total: r.total, completed: r.completed }]));
}

/**
 * A filing count a few groups a read, each read in a turn of its own so that the calls waiting
 * meanwhile are answered between: at a million tasks each count in one read held main 25-50 ms.
 * The first read takes one group; each next one as many as fit `tasksPerRead` at the size of the
 * groups the read before found (at least one: a group is never split).
 */
export async function filingCountInSteps(
  db: Database,
  read: <T>(work: () => T) => T,
  count: FilingCount,
  tasksPerRead = FILING_TASKS_PER_READ,
): Promise<FilingCountRow[]> {
  const first = db.prepare(filingCountSql(count, 'first'));
  const next = db.prepare(filingCountSql(count, 'after'));
  const rows: FilingCountRow[] = [];
  for (let groups = 1; ;) {
    await nextTurn();
    const after = rows.at(-1)?.id;
    const some = read(() =>
      after === undefined ? first.all(groups) : next.all(after, groups),
    ) as FilingCountRow[];
    rows.push(...some);
    if (some.length < groups) return rows;
    const tasks = some.reduce((sum, row) => sum + row.total, 0);
    groups = Math.max(1, Math.min(MAX_GROUPS_PER_READ, Math.floor((tasksPerRead * some.length) / tasks)));
  }
}
