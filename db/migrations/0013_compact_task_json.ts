// Server copies are stored without their key names (db/tasks/task-json.ts): a task
// with exactly the contract's fields, in the contract's order, is the JSON
// array of its values, ~330 bytes less a task (33 MB at 100 000 tasks). This
// rewrites the copies an earlier version stored as JSON text, each only when
// the array reads back as exactly that text (checked here); any other keeps
// its text, which reads as before. An app before this migration refuses the
// file rather than misreading an array. Frozen once landed; imports nothing
// from the app (the field list is copied as it stands today).
import { type Kysely, sql } from 'kysely';

/** The contract's task fields in the service's order (protocol/task.ts TASK_FIELDS, frozen here). */
const FIELDS = [
  'task_id',
  'org_id',
  'project_id',
  'team_id',
  'section_id',
  'sprint_id',
  'goal_id',
  'milestone_id',
  'parent_task_id',
  'title',
  'description',
  'status',
  'priority',
  'assignee',
  'tags',
  'due_date',
  'start_date',
  'task_type',
  'created_via',
  'review',
  'position',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
  'completed_at',
];
/** Copies rewritten per statement: a thousand copies' text at a time, never the whole table. */
const CHUNK = 1000;

/** The array form of a copy's text, or null when it would not read back as exactly that text. */
function compact(text: string): string | null {
  const task = JSON.parse(text) as unknown;
  if (typeof task !== 'object' || task === null || Array.isArray(task)) return null;
  const keys = Object.keys(task);
  if (keys.length !== FIELDS.length || keys.some((key, i) => key !== FIELDS[i])) return null;
  const values: unknown[] = Object.values(task);
  const back: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS.length; i++) back[FIELDS[i] as string] = values[i];
  return JSON.stringify(back) === text ? JSON.stringify(values) : null;
}

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ rid: number; server_json: string }>`
      SELECT rid, server_json FROM task_bodies
       WHERE rid > ${after} AND substr(server_json, 1, 1) = '{'
       ORDER BY rid LIMIT ${CHUNK}`.execute(db);
    const last = rows.at(-1);
    if (last === undefined) return;
    after = last.rid;
    const rewritten: [number, string][] = [];
    for (const row of rows) {
      const array = compact(row.server_json);
      if (array !== null) rewritten.push([row.rid, array]);
    }
    if (rewritten.length === 0) continue;
    await sql`
      UPDATE task_bodies SET server_json = c.value ->> 1
        FROM json_each(${JSON.stringify(rewritten)}) AS c
       WHERE task_bodies.rid = c.value ->> 0`.execute(db);
  }
}
