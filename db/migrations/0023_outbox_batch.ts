// The outbox marks the operations one bulk change queued with the change's id
// (batch_id; null for a single edit and every row written before): its
// progress ("N of M sent"), a stop of what is not sent yet, and an undo of the
// change as one step all read them by it. Frozen once landed; imports nothing
// from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('batch_id', 'text').execute();
  // Partial: single edits (nearly every row) stay out of it.
  await db.schema
    .createIndex('outbox_by_batch')
    .on('outbox')
    .columns(['batch_id', 'state'])
    .where('batch_id', 'is not', null)
    .execute();
}
