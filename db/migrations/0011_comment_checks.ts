// When the hot tier last asked for each task's comments, answered 200 or 304:
// the watch (db/tasks/task-openings.ts) refreshes the stalest first, and a list that
// met only 304s writes no pass (sync/pull/page-walker.ts), so the passes
// cannot tell it. Frozen once landed; imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comment_checks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .execute();
}
