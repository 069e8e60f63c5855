// The sidebar's counts of tasks filed under each section, sprint and goal (workspace:get), as
// one read each or in reads of a bounded number of tasks with the event loop free between (a million tasks).
import type { Database, Statement } from 'better-sqlite3';
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
 * Index entries a read of a count in steps counts at most (the index covers the count). At a
 * million tasks a walk of 400 000 entries held main 28 ms of CPU on a quiet machine and 80-96 ms
 * under load, and groups range from a few tasks to tens of thousands (`bench ui`'s kept mirror:
 * up to 34 000 under a section, 68 000 under a sprint): a read bounded by groups, however few,
 * was as long as the groups it took (one of the sprints' two reads walked 392 000 entries, 43-61
 * ms of CPU). A read of 50 000 entries took 4-9 ms of CPU there, 100 000 6-17 (load 13-15).
 */
const FILING_TASKS_PER_READ = 50_000;

/** Each count's grouping column, what else its partial index's WHERE holds, and whether it counts completed tasks. */
const FILINGS = {
  sections: { column: 'section_id', filter: '', ranked: false, index: 'tasks_by_section' },
  sprints: { column: 'sprint_id', filter: '', ranked: true, index: 'tasks_by_sprint' },
  goals: { column: 'goal_id', filter: 'AND parent_task_id IS NULL', ranked: true, index: 'tasks_by_goal' },
} as const;

/**
 * A filing count's query, every group in one read. Each WHERE repeats its partial index's
 * (migration 0014), or SQLite would not use it and would scan every task.
 */
export function filingCountSql(count: FilingCount): string {
  const { column, filter, ranked } = FILINGS[count];
  const completed = ranked ? 'sum(k_status_rank = 3)' : '0';
  return `SELECT ${column} AS id, count(*) AS total, ${completed} AS completed FROM tasks
           WHERE hidden = 0 AND ${column} IS NOT NULL ${filter} GROUP BY ${column}`;
}

/**
 * The keys a count's index holds its entries by: the group, the status rank (sprints and goals;
 * the goal index's two columns after it are the same in every entry), then the row id. A count
 * in steps walks them a level at a time: groups, a group too big for a read by its status ranks,
 * a rank too big by row ids.
 */
export function filingKeys(count: FilingCount): string[] {
  const { column, ranked } = FILINGS[count];
  return ranked ? [column, 'k_status_rank', 'rid'] : [column, 'rid'];
}

/** Where a step's walk of a level starts: its first key, after a key, or at a key. */
export type FilingFrom = 'start' | '>' | '>=';

/**
 * A statement of a count in steps, at a level of its keys (filingKeys), inside the keys above it
 * (one parameter each) and from `from` (one more unless 'start'):
 * - `probe`: the key of the entry a read's count stops before (its last parameter, the read's
 *   tasks, is an OFFSET: SQLite steps over entries without reading them, 100 000 in 1-3 ms);
 * - `count`: the entries from there to before that key (one more parameter, `upTo`), a row a key
 *   (a row for them all at the row id level).
 * Each walks the index in its order, no sort, and repeats its WHERE (see filingCountSql). Each
 * names its index: without the statistics of a big mirror, SQLite walks a group's row ids in the
 * table's order, every task, rather than in the index's.
 */
export function filingStepSql(
  count: FilingCount,
  level: number,
  part: 'probe' | 'count',
  from: FilingFrom,
  upTo = false,
): string {
  const { column, filter, ranked, index } = FILINGS[count];
  const keys = filingKeys(count);
  const key = keys[level] as string;
  const where = [
    `hidden = 0 AND ${column} IS NOT NULL ${filter}`,
    ...keys.slice(0, level).map((above) => `${above} = ?`),
    ...(from === 'start' ? [] : [`${key} ${from} ?`]),
    ...(upTo ? [`${key} < ?`] : []),
  ].join(' AND ');
  const tasks = `tasks INDEXED BY ${index}`;
  if (part === 'probe')
    return `SELECT ${key} AS key FROM ${tasks} WHERE ${where} ORDER BY ${key} LIMIT 1 OFFSET ?`;
  const completed = ranked ? 'sum(k_status_rank = 3)' : '0';
  const byKey = key === 'rid' ? '' : `GROUP BY ${key} ORDER BY ${key}`;
  return `SELECT ${column} AS id, count(*) AS total, ${completed} AS completed FROM ${tasks} WHERE ${where} ${byKey}`;
}

/** The three filing counts by the id of the section, sprint or goal (MirrorTasks's sectionCounts and the others). */
export interface FilingCounts {
  sections: Map<string, number>;
  sprints: Map<string, { total: number; completed: number }>;
  goals: Map<string, { total: number; completed: number }>;
}

export function sectionCountsOf(rows: readonly FilingCountRow[]): Map<string, number> {
  return new Map(rows.map((r) => [r.id, r.total]));
}

export function completionCountsOf(
  rows: readonly FilingCountRow[],
): Map<string, { total: number; completed: number }> {
  return new Map(rows.map((r) => [r.id, { total: r.total, completed: r.completed }]));
}

/** A level of a count in steps being walked: the keys above it, and where its next read starts. */
interface FilingLevel {
  level: number;
  above: unknown[];
  from: FilingFrom;
  key: unknown;
}

/**
 * A filing count in reads that each count at most `tasksPerRead` index entries, each in a turn
 * of its own so that the calls waiting meanwhile are answered between: at a million tasks each
 * count in one read held main 25-50 ms. A read counts the whole groups that fit; a group bigger
 * than a read is counted by its status ranks that fit, and a rank bigger than that by ranges of
 * row ids (filingKeys); then the walk goes on after it. No entry is counted twice.
 */
export async function filingCountInSteps(
  db: Database,
  read: <T>(work: () => T) => T,
  count: FilingCount,
  tasksPerRead = FILING_TASKS_PER_READ,
): Promise<FilingCountRow[]> {
  const statements = new Map<string, Statement>();
  const statement = (sql: string): Statement => {
    const prepared = statements.get(sql) ?? db.prepare(sql);
    statements.set(sql, prepared);
    return prepared;
  };
  const deepest = filingKeys(count).length - 1;
  const counted = new Map<string, FilingCountRow>();
  const walks: FilingLevel[] = [{ level: 0, above: [], from: 'start', key: null }];
  for (let at = walks.at(-1); at !== undefined; at = walks.at(-1)) {
    await nextTurn();
    const { level, above, from, key } = at;
    const start = from === 'start' ? above : [...above, key];
    const { rows, upTo } = read(() => {
      const stop = statement(filingStepSql(count, level, 'probe', from)).get(...start, tasksPerRead) as
        { key: unknown } | undefined;
      const params = stop === undefined ? start : [...start, stop.key];
      return {
        rows: statement(filingStepSql(count, level, 'count', from, stop !== undefined)).all(
          ...params,
        ) as FilingCountRow[],
        upTo: stop,
      };
    });
    let some = false;
    for (const row of rows) {
      if (row.total === 0) continue;
      some = true;
      const group = counted.get(row.id) ?? { id: row.id, total: 0, completed: 0 };
      group.total += row.total;
      group.completed += row.completed;
      counted.set(row.id, group);
    }
    // The level walked to its end: the level above goes on after the key it went into.
    if (upTo === undefined) walks.pop();
    else if (some || level === deepest) Object.assign(at, { from: '>=', key: upTo.key });
    else {
      // The key holds more entries than a read counts: counted a level down, then passed.
      Object.assign(at, { from: '>', key: upTo.key });
      walks.push({ level: level + 1, above: [...above, upTo.key], from: 'start', key: null });
    }
  }
  return [...counted.values()];
}
