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
 * Groups per read of a count in steps: at a million tasks a sprint holds ~8 000 tasks, a
 * section ~2 700, so 20 groups are a read of a few ms to ~20 ms.
 */
const FILING_GROUPS_PER_READ = 20;

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
 */
export async function filingCountInSteps(
  db: Database,
  read: <T>(work: () => T) => T,
  count: FilingCount,
  groupsPerRead = FILING_GROUPS_PER_READ,
): Promise<FilingCountRow[]> {
  const first = db.prepare(filingCountSql(count, 'first'));
  const next = db.prepare(filingCountSql(count, 'after'));
  const rows: FilingCountRow[] = [];
  for (;;) {
    await nextTurn();
    const after = rows.at(-1)?.id;
    const some = read(() =>
      after === undefined ? first.all(groupsPerRead) : next.all(after, groupsPerRead),
    ) as FilingCountRow[];
    rows.push(...some);
    if (some.length < groupsPerRead) return rows;
  }
}
