// A task's sub-tasks (the editor lists them with their progress) were found by
// reading every task row: no index leads with parent_task_id. A partial index
// over the shown tasks that have a parent, carrying the status the progress
// counts, makes that a walk of the index; most tasks have no parent, so it
// stays small. Deferred with the sort indexes during a first load. Frozen
// once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A first load cut short (its deferred indexes dropped until its build) gets
  // this now; its build, planned before it, leaves it be.
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_parent ON tasks (parent_task_id, status, hidden)
              WHERE hidden = 0 AND parent_task_id IS NOT NULL`.execute(db);
}
