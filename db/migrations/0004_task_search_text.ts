// A compact copy of each visible task's searchable text (title, id, tags,
// description, lower case, joined by U+001F) in a narrow table of its own, so a
// search the word index cannot narrow (1-2 characters, punctuation) checks and
// counts rows without reading task_bodies, whose JSON makes its rows ~2.5 KB.
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_search_text')
    .addColumn('rid', 'integer', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .execute();
  // A hidden task's text is empty: it matches no search.
  await sql`
    INSERT INTO task_search_text (rid, text)
    SELECT t.rid, CASE WHEN t.hidden = 0
             THEN t.k_title || char(31) || t.search_id || char(31) || t.search_tags || char(31) || b.search_body
             ELSE '' END
      FROM tasks t JOIN task_bodies b ON b.rid = t.rid`.execute(db);
}
