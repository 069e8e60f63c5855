// A shown task with nothing pending is its server copy: its row's columns
// hold every field as sent, its search text the description. Its server copy
// in task_bodies now holds only what no column does (`^` and the JSON of
// `[org_id, description or its case header]`, db/tasks/task-json.ts rowForm), ~300
// bytes less a task, 30 MB at 100 000 tasks. Nothing is rewritten here:
// copies stored before keep reading as they are and move to the new form when
// their task is next written; this migration is the mark that makes an app
// before it refuse the file instead of misreading a copy. Frozen once landed;
// imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(_db: Kysely<any>): Promise<void> {}
