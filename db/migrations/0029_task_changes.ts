// A count of the writes that may change a task list's answer (a task added,
// removed, or a value or its search text changed; not a pass's marks of tasks
// the server sent unchanged), moved in the transaction that makes them (issue
// 28). PRAGMA data_version moves on any commit of another connection, and the
// pull worker's re-check of a million tasks commits a page of unchanged tasks
// many times a second: the list's caches (a broad search's places in the sort order,
// its candidates) were dropped on each, and every keystroke read them again.
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE task_changes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO task_changes (id, n) VALUES (1, 0)`.execute(db);
}
