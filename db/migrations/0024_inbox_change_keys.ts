// The inbox (issue 25) keys each change feed entry by the change it stands
// for (change_key; null for every row written before), so a re-poll or a
// restart that meets the same change again adds nothing; and finds old
// entries by age to prune them. Frozen once landed; imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('change_feed').addColumn('change_key', 'text').execute();
  // Unique per person; rows from before (null keys) never collide in SQLite.
  await db.schema
    .createIndex('change_feed_by_change')
    .on('change_feed')
    .columns(['for_user', 'change_key'])
    .unique()
    .execute();
  await db.schema.createIndex('change_feed_by_age').on('change_feed').column('created_at').execute();
}
