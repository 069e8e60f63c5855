// Reads beside the task list that the board and the sprint view make: the
// tasks filed in some sections, sprints or goals, and the tags in use.
import { type Kysely, sql } from 'kysely';
import type { MirrorDatabase } from './schema';

/** What a board or sprint view groups its tasks by. */
export type FilingField = 'section_id' | 'sprint_id' | 'goal_id';

export interface FiledTask {
  task_id: string;
  title: string;
  status: string;
  priority: string | null;
  assignee: string | null;
  project_id: string | null;
  team_id: string | null;
  section_id: string | null;
  sprint_id: string | null;
  goal_id: string | null;
  tags: string[];
  due_date: string | null;
  start_date: string | null;
  created_at: string | null;
  task_type: string | null;
  review: string | null;
  position: number | null;
  pending: boolean;
}

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

/** The tags in use on visible tasks, most used first (at most 500): a scan of every task's tags. */
export async function tagsInUse(kysely: Kysely<MirrorDatabase>): Promise<string[]> {
  const tags = await sql<{ tag: string }>`
    SELECT j.value AS tag FROM tasks t, json_each(t.tags) j
     WHERE t.hidden = 0 GROUP BY j.value ORDER BY count(*) DESC, j.value LIMIT 500`.execute(kysely);
  return tags.rows.map((row) => row.tag);
}
