// The sidebar's task counts per section, sprint and goal (workspace:get, after
// every change of the tasks) each scanned the whole task table: at 100 000
// tasks 25-55 ms each warm, 418 ms for the three and the tags together on main's
// first call under bench ui (load 4.4). A partial index per filing field over the
// shown tasks filed there, carrying what the count reads, makes each count a walk
// of that index alone (3-6 ms), and finds a board's tasks (tasks:filed) without
// a scan. The goal index carries its WHERE's columns too: with a term `IS NULL`
// SQLite otherwise reads every row it finds. Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A first load cut short has dropped its deferred indexes until its build: it
  // gets these now, and its build skips them (they exist by name).
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_section ON tasks (section_id)
              WHERE hidden = 0 AND section_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_sprint ON tasks (sprint_id, k_status_rank)
              WHERE hidden = 0 AND sprint_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_goal ON tasks (goal_id, k_status_rank, parent_task_id, hidden)
              WHERE hidden = 0 AND goal_id IS NOT NULL AND parent_task_id IS NULL`.execute(db);
}
