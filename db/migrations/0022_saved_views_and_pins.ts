// Saved views and the person's view pins join the mirrored collections
// (gaps.md "Saved views and view pins"), shaped as every other collection:
// id, scope ('' for both: each is one list for the organization), pass
// bookkeeping, the columns screens order and group by, ETag and raw JSON (a
// view's filters stay in it whole, unknown keys too). Frozen once landed;
// imports nothing from the app.
import type { Kysely } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('views')
    .addColumn('view_id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text')
    .addColumn('visibility', 'text')
    .addColumn('layout', 'text')
    .addColumn('created_by', 'text')
    .addColumn('etag', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('raw_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('views_by_scope').on('views').columns(['scope', 'seen_pass']).execute();

  await db.schema
    .createTable('view_pins')
    .addColumn('pin_id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('view_id', 'text')
    .addColumn('position', 'real')
    .addColumn('etag', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('raw_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('view_pins_by_scope').on('view_pins').columns(['scope', 'seen_pass']).execute();
}
