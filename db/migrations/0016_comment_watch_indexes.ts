// The comment watch (db/tasks/task-openings.ts) chose its tasks with one scan of
// every task row and an OR of its reasons: at 100 000 tasks ~110 ms of the pull
// worker each hot poll (bench mirror, load 1.5). A partial index per "mine"
// reason over the shown open tasks makes each a walk of that index alone (it
// carries the columns of its WHERE too: else SQLite reads each row it finds to
// test them), as a current sprint's tasks are found through 0014's index.
// Deferred with the sort indexes during a first load. Frozen once landed;
// imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A first load cut short (its deferred indexes dropped until its build) gets
  // these now; its build, planned before them, leaves them be.
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_assignee_open ON tasks (assignee, task_id, status, hidden)
              WHERE hidden = 0 AND status IS NOT 'completed'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_creator_open ON tasks (created_by, task_id, status, hidden)
              WHERE hidden = 0 AND status IS NOT 'completed'`.execute(db);
}
