// Narrow task rows: the server's JSON, the effective JSON and the lower-case
// description move to `task_bodies`, so the rows lists and filters walk hold
// only indexed columns (many to a page) and a 200-row page reads few pages.
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_bodies')
    .addColumn('rid', 'integer', (c) => c.primaryKey())
    .addColumn('search_body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('server_json', 'text')
    .addColumn('local_json', 'text')
    .execute();
  await sql`INSERT INTO task_bodies (rid, search_body, server_json, local_json)
            SELECT rid, search_body, server_json, local_json FROM tasks`.execute(db);
  for (const column of ['server_json', 'local_json', 'search_body']) {
    await db.schema.alterTable('tasks').dropColumn(column).execute();
  }
}
