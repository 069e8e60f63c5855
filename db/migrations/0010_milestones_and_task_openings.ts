// Milestones join the mirrored collections (gaps.md "Milestones"), shaped as
// 0001 shaped every other collection: id, scope (the project), pass
// bookkeeping, the columns screens sort and group by, ETag and raw JSON. And
// task_openings: when the person last opened each task, so the hot tier keeps
// the comments of what they opened lately ready offline. Frozen once landed;
// imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('milestones')
    .addColumn('milestone_id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('project_id', 'text')
    .addColumn('name', 'text')
    .addColumn('status', 'text')
    .addColumn('position', 'real')
    .addColumn('due_date', 'text')
    .addColumn('etag', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('raw_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('milestones_by_scope')
    .on('milestones')
    .columns(['scope', 'seen_pass'])
    .execute();

  await db.schema
    .createTable('task_openings')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .execute();
  // "Opened in the last 30 days" reads a range of opened_at.
  await sql`CREATE INDEX task_openings_by_time ON task_openings (opened_at)`.execute(db);
}
