// A milestone's tasks (the milestones view lists them, tasks:filed by
// milestone_id) and every milestone's progress (milestones:list counts them)
// were found by reading every task row: no index leads with milestone_id. A
// partial index over the shown tasks filed under a milestone, carrying the
// status the progress counts, makes both walks of that index; most tasks have
// no milestone, so it stays small. Deferred with the sort indexes during a
// first load. Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A first load cut short (its deferred indexes dropped until its build) gets
  // this now; its build, planned before it, leaves it be.
  await sql`CREATE INDEX IF NOT EXISTS tasks_by_milestone ON tasks (milestone_id, status, hidden)
              WHERE hidden = 0 AND milestone_id IS NOT NULL`.execute(db);
}
