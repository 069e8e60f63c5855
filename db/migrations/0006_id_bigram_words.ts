// Task ids go into the word index as encoded bigrams (`ǂ` + hex of the
// bigram's UTF-8) instead of trigrams (0003): far fewer distinct tokens,
// cheaper to write, and a two-character term is looked up too. Rebuilds the
// word index of existing rows in SQL from the compact search text (0004): its
// separators become spaces, so each id is also one plain token there, which
// only adds a candidate the exact check drops; a hidden task (empty text) gets
// its words back when it is shown again. Frozen once landed; imports nothing
// from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`INSERT INTO task_words (task_words) VALUES ('delete-all')`.execute(db);
  await sql`
    WITH RECURSIVE at (rid, id, i) AS (
      SELECT rid, search_id, 1 FROM tasks WHERE hidden = 0 AND length(search_id) >= 2
      UNION ALL
      SELECT rid, id, i + 1 FROM at WHERE i + 2 <= length(id)
    ),
    bigrams (rid, words) AS (
      SELECT rid, group_concat('ǂ' || lower(hex(substr(id, i, 2))), ' ') FROM at GROUP BY rid
    )
    INSERT INTO task_words (rowid, words)
    SELECT t.rid, replace(s.text, char(31), ' ') || ' ' || coalesce(g.words, '')
      FROM tasks t JOIN task_search_text s ON s.rid = t.rid LEFT JOIN bigrams g ON g.rid = t.rid
     WHERE t.hidden = 0`.execute(db);
}
