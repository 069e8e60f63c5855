// What a person started writing and has not sent (a comment, a reply, a new
// task's fields) is kept in the mirror, so that it outlives a closed panel, a
// switch of account (each account has its own file) and a restart. One row a
// draft: `kind` (`comment`, `reply`, `new-task`), the task it is on ('' for a
// new task), the comment a reply answers ('' otherwise), and its fields as
// JSON. Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE drafts (
              kind TEXT NOT NULL,
              task_id TEXT NOT NULL DEFAULT '',
              reply_to TEXT NOT NULL DEFAULT '',
              body TEXT NOT NULL,
              updated_at TEXT NOT NULL,
              PRIMARY KEY (kind, task_id, reply_to)
            ) WITHOUT ROWID`.execute(db);
  // "Which tasks have a draft" (a mark in their row) and a task's drafts (its editor).
  await sql`CREATE INDEX drafts_by_task ON drafts (task_id) WHERE task_id <> ''`.execute(db);
}
