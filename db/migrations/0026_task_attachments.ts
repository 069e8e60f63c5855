// Task attachments join the mirrored collections (gaps.md "Attachments"),
// shaped as every other collection: id, scope ('' : one list for the
// organization), pass bookkeeping, the columns the editor lists them by, ETag
// and raw JSON; indexed by task, since a task's attachments are read together.
// Frozen once landed; imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_attachments')
    .addColumn('attachment_id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_id', 'text')
    .addColumn('file_name', 'text')
    .addColumn('content_type', 'text')
    .addColumn('size_bytes', 'integer')
    .addColumn('sha256', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text')
    .addColumn('etag', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('raw_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('task_attachments_by_scope')
    .on('task_attachments')
    .columns(['scope', 'seen_pass'])
    .execute();
  await db.schema
    .createIndex('task_attachments_by_task')
    .on('task_attachments')
    .columns(['task_id', 'created_at'])
    .execute();
}
