// Reads beside the task list that the board and the sprint view make: the
// tasks filed in some sections, sprints, goals or milestones, and the tags in use.
import type { Database } from 'better-sqlite3';
import { nextTurn } from '../next-turn';
import { type Kysely, sql } from 'kysely';
import type { FilingField } from '../../protocol/writable-kind';
import type { MirrorDatabase } from '../schema';
import type { TaskListItem } from '../task-query/task-query';

/** A task as the board's cards show it: a list item without what a card leaves out. */
export type FiledTask = Omit<
  TaskListItem,
  'milestone_id' | 'parent_task_id' | 'updated_at' | 'completed_at' | 'created_via' | 'server_gone'
>;

/**
 * The visible tasks filed under any of `values`, in board order (position,
 * then title), at most `limit` of them; `truncated` when more were filed.
 */
export async function filedTasks(
  kysely: Kysely<MirrorDatabase>,
  field: FilingField,
  values: readonly string[],
  limit: number,
): Promise<{ tasks: FiledTask[]; truncated: boolean }> {
  const rows = await kysely
    .selectFrom('tasks')
    .select([
      'task_id',
      'title',
      'status',
      'priority',
      'assignee',
      'project_id',
      'team_id',
      'section_id',
      'sprint_id',
      'goal_id',
      'tags',
      'due_date',
      'start_date',
      'created_at',
      'task_type',
      'review',
      'position',
      'pending',
    ])
    .where('hidden', '=', 0)
    .where(field, 'in', values)
    .orderBy(sql`position IS NULL`)
    .orderBy('position')
    .orderBy('k_title')
    .orderBy('task_id')
    .limit(limit + 1)
    .execute();
  return {
    tasks: rows
      .slice(0, limit)
      .map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[], pending: row.pending > 0 })),
    truncated: rows.length > limit,
  };
}

/**
 * Rows whose tags are counted per step of `tagsInUse`: steps of 10 000 took
 * 6-56 ms (their pages read cold) on main's first workspace:get in bench ui, load 4.2.
 */
const TAG_STEP_ROWS = 5_000;
/** The most used tags `tagsInUse` answers. */
const TAGS_ANSWERED = 500;

/**
 * The tags in use on visible tasks, most used first (then by name, in SQLite's
 * byte order), counted over row id ranges with the event loop free between
 * them: one statement over every task's tags held main 70-150 ms at 100 000
 * tasks, before the calls behind it. Ranges are read one by one, so a write
 * between two of them may be counted half (its mirror:changed asks again).
 */
export async function tagsInUse(
  db: Database,
  read: <T>(work: () => T) => T,
  stepRows = TAG_STEP_ROWS,
): Promise<string[]> {
  const counted = new Map<string, number>();
  const step = db.prepare(
    `SELECT j.value AS tag, count(*) AS n FROM tasks t, json_each(t.tags) j
      WHERE t.rid > ? AND t.rid <= ? AND t.hidden = 0 AND t.tags <> '[]' GROUP BY j.value`,
  );
  const last =
    read(() => (db.prepare('SELECT max(rid) AS n FROM tasks').get() as { n: number | null }).n) ?? 0;
  for (let from = 0; from < last; from += stepRows) {
    if (from > 0) await nextTurn();
    const rows = read(() => step.all(from, from + stepRows) as { tag: unknown; n: number }[]);
    for (const { tag, n } of rows) {
      if (typeof tag === 'string') counted.set(tag, (counted.get(tag) ?? 0) + n);
    }
  }
  return [...counted]
    .sort(([a, m], [b, n]) => n - m || Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .slice(0, TAGS_ANSWERED)
    .map(([tag]) => tag);
}
