// Each team's intake is counted beside its Triage in the sidebar (tasks
// waiting for review: review 'pending'), which read every task row once per
// team: no index leads with review. A partial index over the shown tasks
// waiting for review, by team, makes the count of every team one walk of it;
// few tasks wait, so it stays small, and a first load keeps it up as it goes.
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS tasks_in_intake ON tasks (team_id)
              WHERE hidden = 0 AND review = 'pending'`.execute(db);
}
