// A list's bookkeeping remembers whether any pass over it ever completed: the
// pass number alone could not tell a first sync that had restarted (a refused
// cursor) and was then interrupted from a later sync, so the next run
// announced every task as a change. A mirror from before this migration keeps
// the old reading (a completed pass, or any pass after the first). Frozen once
// landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE sync_passes ADD COLUMN completed_once INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE sync_passes SET completed_once = 1 WHERE state = 'complete' OR pass_no > 1`.execute(db);
}
