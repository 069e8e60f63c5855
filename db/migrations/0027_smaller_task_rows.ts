// A task row stored four values SQLite can make from the row itself, and the
// created_at index held created_at twice (issue 28, the mirror's size at a
// million tasks):
// - `search_id` is lower(task_id), unless the id's lower case is not ASCII's;
// - `tags_key` (the tags framed by U+001F) is the `tags` JSON with its quotes
//   and commas turned into the separator, unless the JSON escapes a character;
// - `search_tags` is lower(tags_key), unless a tag's lower case is not ASCII's;
// - `created_day` is created_at's first ten characters, unless created_at has
//   an offset other than UTC.
// Each becomes a virtual column of the same name over a stored one renamed
// `<name>_kept`, which a row writes '' into where the rule above makes the
// value, and the value itself elsewhere: ~58 bytes a task, ~58 MB at a million.
// Rows written before keep their values, and read as before ('' was never a
// kept value the rule would not give back: a task without tags has '' for
// both, as the rules make); a row sheds its copies when next written.
// `tasks_by_created` held (k_created, t_created, task_id), the lower case of
// created_at and created_at itself (the tie-breaker of values differing in
// case alone); its tie-breaker becomes `t_created_case`: '' for a value all
// upper case and ASCII (the usual `…T…Z`), which is the smallest of the
// values sharing its lower case, so the order is created_at's as before, and
// created_at itself otherwise; ~24 bytes an entry less. SQLite computes every
// virtual column of a row it inserts: these cost ~0.8 µs a task (measured),
// the cheapest tests found (a GLOB for ASCII cost twice this one's).
// Renames and virtual columns change the schema alone: no row is rewritten,
// and the file of an existing mirror would not shrink without VACUUM anyway.
// The id index and the created_at one are built again, as earlier migrations
// built theirs (a first load under way builds the latter with its other
// deferred indexes).
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

/** The deferred build's record (db/tasks/deferred-indexes.ts, frozen here): the indexes a first load builds at its end. */
const DEFERRED_KEY = 'deferred_task_indexes';
const CREATED_INDEX = 'CREATE INDEX tasks_by_created ON tasks (k_created, t_created_case, task_id)';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['search_id', 'tags_key', 'search_tags', 'created_day'])
    await sql.raw(`ALTER TABLE tasks RENAME COLUMN ${column} TO ${column}_kept`).execute(db);
  await sql`ALTER TABLE tasks ADD COLUMN search_id TEXT GENERATED ALWAYS AS (
    CASE WHEN search_id_kept <> '' THEN search_id_kept ELSE lower(task_id) END) VIRTUAL`.execute(db);
  // The id index, renamed with its column, is on the kept value: it is built again on the id's lower case.
  await sql`DROP INDEX tasks_by_id`.execute(db);
  await sql`CREATE UNIQUE INDEX tasks_by_id ON tasks (search_id, task_id)`.execute(db);
  // '[]' has no tags; '["a","b"]' frames as U+001F a U+001F b U+001F.
  await sql`ALTER TABLE tasks ADD COLUMN tags_key TEXT GENERATED ALWAYS AS (
    CASE WHEN tags_key_kept <> '' OR tags = '[]' THEN tags_key_kept
      ELSE char(31) || replace(substr(tags, 3, length(tags) - 4), '","', char(31)) || char(31) END) VIRTUAL`.execute(
    db,
  );
  await sql`ALTER TABLE tasks ADD COLUMN search_tags TEXT GENERATED ALWAYS AS (
    CASE WHEN search_tags_kept <> '' THEN search_tags_kept ELSE lower(tags_key) END) VIRTUAL`.execute(db);
  await sql`ALTER TABLE tasks ADD COLUMN created_day TEXT GENERATED ALWAYS AS (
    CASE created_day_kept WHEN '' THEN substr(created_at, 1, 10) ELSE created_day_kept END) VIRTUAL`.execute(
    db,
  );
  await sql`ALTER TABLE tasks ADD COLUMN t_created_case TEXT GENERATED ALWAYS AS (
    CASE WHEN created_at = upper(created_at) AND length(created_at) = octet_length(created_at) THEN ''
      ELSE coalesce(created_at, '') END) VIRTUAL`.execute(db);

  const { rows } = await sql<{ name: string }>`
    SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'tasks_by_created'`.execute(db);
  if (rows.length > 0) {
    await sql`DROP INDEX tasks_by_created`.execute(db);
    await sql.raw(CREATED_INDEX).execute(db);
    return;
  }
  // A first load under way dropped it to build at its end: it builds the new one.
  const { rows: deferred } = await sql<{ value: string }>`
    SELECT value FROM meta WHERE key = ${DEFERRED_KEY}`.execute(db);
  const plan = deferred[0] && (JSON.parse(deferred[0].value) as { indexes: { name: string; sql: string }[] });
  if (!plan || !plan.indexes.some((index) => index.name === 'tasks_by_created')) {
    await sql.raw(CREATED_INDEX).execute(db);
    return;
  }
  plan.indexes = plan.indexes.map((index) =>
    index.name === 'tasks_by_created' ? { name: index.name, sql: CREATED_INDEX } : index,
  );
  await sql`UPDATE meta SET value = ${JSON.stringify(plan)} WHERE key = ${DEFERRED_KEY}`.execute(db);
}
