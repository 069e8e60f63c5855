// The outbox carries, beside each operation's kind of resource (entity_type,
// 'task' for every row written before), the parent its routes and its screen
// need: a comment's task, a sprint's team, a goal's or milestone's project.
// Frozen once landed; imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('parent_id', 'text').execute();
  // A task's pending comments are read by their task.
  await db.schema
    .createIndex('outbox_by_parent')
    .on('outbox')
    .columns(['entity_type', 'parent_id', 'seq'])
    .execute();
}
