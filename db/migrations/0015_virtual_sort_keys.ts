// The task sort keys (`k_*`, `t_*`) become virtual columns computed from the
// row's own values instead of stored copies: ~190 bytes of the ~440 a task row
// held, ~19 MB at 100 000 tasks, and a page of tasks binds and writes that much
// less. The indexes still hold the keys, so walks and their keyset bounds are
// unchanged. SQLite's lower() folds ASCII only: a value whose JavaScript lower
// case differs (some non-ASCII) keeps that lower case in `k_lower` (a JSON
// object by field), which the key reads first. Rebuilds the table with its
// rows and exactly the indexes it had (a first load under way keeps its
// deferred ones for its build). Frozen once landed; imports nothing from the
// app (the ranks are copied as protocol/task-list-query.ts has them today).
import { type Kysely, sql } from 'kysely';

/** A field's key: its lower case, the JavaScript one when `k_lower` holds it. */
const lowered = (field: string, column: string) => `coalesce(k_lower ->> '${field}', lower(${column}))`;
/** A nullable field's key: an empty blob for null (sorts after every text and number). */
const nullable = (field: string, column: string) =>
  `CASE WHEN ${column} IS NULL THEN x'' ELSE ${lowered(field, column)} END`;

const STATUS_RANKS =
  "WHEN 'not_started' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'blocked' THEN 2 WHEN 'completed' THEN 3";
const PRIORITY_RANKS = "WHEN 'low' THEN 0 WHEN 'medium' THEN 1 WHEN 'high' THEN 2 WHEN 'urgent' THEN 3";

const TABLE = `
CREATE TABLE tasks_rebuilt (
  rid INTEGER PRIMARY KEY,
  task_id TEXT NOT NULL,
  hidden INTEGER NOT NULL DEFAULT 0,
  pending INTEGER NOT NULL DEFAULT 0,
  server_gone INTEGER NOT NULL DEFAULT 0,
  seen_pass INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  status TEXT NOT NULL,
  priority TEXT,
  assignee TEXT,
  project_id TEXT,
  team_id TEXT,
  section_id TEXT,
  sprint_id TEXT,
  goal_id TEXT,
  milestone_id TEXT,
  parent_task_id TEXT,
  tags TEXT NOT NULL,
  tags_key TEXT NOT NULL,
  due_date TEXT,
  start_date TEXT,
  created_at TEXT,
  created_day TEXT,
  task_type TEXT,
  created_via TEXT,
  review TEXT,
  position REAL,
  updated_at TEXT,
  completed_at TEXT,
  created_by TEXT,
  updated_by TEXT,
  etag TEXT,
  search_id TEXT NOT NULL,
  search_tags TEXT NOT NULL,
  k_lower TEXT,
  k_title TEXT GENERATED ALWAYS AS (${lowered('title', 'title')}) VIRTUAL,
  k_status TEXT GENERATED ALWAYS AS (${lowered('status', 'status')}) VIRTUAL,
  k_status_rank BLOB GENERATED ALWAYS AS (CASE status ${STATUS_RANKS} ELSE ${lowered('status', 'status')} END) VIRTUAL,
  k_priority BLOB GENERATED ALWAYS AS (${nullable('priority', 'priority')}) VIRTUAL,
  k_priority_rank BLOB GENERATED ALWAYS AS (CASE WHEN priority IS NULL THEN x'' ELSE CASE priority ${PRIORITY_RANKS} ELSE ${lowered('priority', 'priority')} END END) VIRTUAL,
  t_priority TEXT GENERATED ALWAYS AS (coalesce(priority, '')) VIRTUAL,
  k_assignee BLOB GENERATED ALWAYS AS (${nullable('assignee', 'assignee')}) VIRTUAL,
  t_assignee TEXT GENERATED ALWAYS AS (coalesce(assignee, '')) VIRTUAL,
  k_project BLOB GENERATED ALWAYS AS (${nullable('project_id', 'project_id')}) VIRTUAL,
  t_project TEXT GENERATED ALWAYS AS (coalesce(project_id, '')) VIRTUAL,
  k_due BLOB GENERATED ALWAYS AS (coalesce(due_date, x'')) VIRTUAL,
  k_start BLOB GENERATED ALWAYS AS (coalesce(start_date, x'')) VIRTUAL,
  k_created BLOB GENERATED ALWAYS AS (${nullable('created_at', 'created_at')}) VIRTUAL,
  t_created TEXT GENERATED ALWAYS AS (coalesce(created_at, '')) VIRTUAL,
  k_task_type BLOB GENERATED ALWAYS AS (${nullable('task_type', 'task_type')}) VIRTUAL,
  t_task_type TEXT GENERATED ALWAYS AS (coalesce(task_type, '')) VIRTUAL
)`;

const KEPT = [
  'rid',
  'task_id',
  'hidden',
  'pending',
  'server_gone',
  'seen_pass',
  'title',
  'status',
  'priority',
  'assignee',
  'project_id',
  'team_id',
  'section_id',
  'sprint_id',
  'goal_id',
  'milestone_id',
  'parent_task_id',
  'tags',
  'tags_key',
  'due_date',
  'start_date',
  'created_at',
  'created_day',
  'task_type',
  'created_via',
  'review',
  'position',
  'updated_at',
  'completed_at',
  'created_by',
  'updated_by',
  'etag',
  'search_id',
  'search_tags',
];

/** The lowered fields whose stored key is not what SQLite's lower() gives, by field, or NULL. */
const LOWER_DIFFERENCES = `nullif((SELECT json_group_object(f, v) FROM (
    SELECT 'title' AS f, o.k_title AS v WHERE o.k_title IS NOT lower(o.title)
    UNION ALL SELECT 'status', o.k_status WHERE o.k_status IS NOT lower(o.status)
    UNION ALL SELECT 'priority', o.k_priority WHERE o.priority IS NOT NULL AND o.k_priority IS NOT lower(o.priority)
    UNION ALL SELECT 'assignee', o.k_assignee WHERE o.assignee IS NOT NULL AND o.k_assignee IS NOT lower(o.assignee)
    UNION ALL SELECT 'project_id', o.k_project WHERE o.project_id IS NOT NULL AND o.k_project IS NOT lower(o.project_id)
    UNION ALL SELECT 'created_at', o.k_created WHERE o.created_at IS NOT NULL AND o.k_created IS NOT lower(o.created_at)
    UNION ALL SELECT 'task_type', o.k_task_type WHERE o.task_type IS NOT NULL AND o.k_task_type IS NOT lower(o.task_type)
  )), '{}')`;

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const { rows: indexes } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks' AND sql IS NOT NULL`.execute(
    db,
  );
  await sql.raw(TABLE).execute(db);
  await sql
    .raw(
      `INSERT INTO tasks_rebuilt (${KEPT.join(', ')}, k_lower)
       SELECT ${KEPT.map((c) => `o.${c}`).join(', ')}, ${LOWER_DIFFERENCES} FROM tasks o`,
    )
    .execute(db);
  await sql`DROP TABLE tasks`.execute(db);
  await sql`ALTER TABLE tasks_rebuilt RENAME TO tasks`.execute(db);
  for (const index of indexes) await sql.raw(index.sql).execute(db);
}
