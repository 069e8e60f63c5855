// The word index stops merging its segments inside writes (FTS5 automerge):
// a merge reaching the large segments of 100 000 tasks ran inside whichever
// write crossed the threshold, 30-200 ms, a person's edit on the main thread
// among them. Merging is done in bounded steps by the pull worker instead
// (Mirror/WordIndex). The crisis merge (all segments of a level at once,
// inside a write) waits for 1000 segments: a backstop the steps never reach.
// Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`INSERT INTO task_words (task_words, rank) VALUES ('automerge', 0)`.execute(db);
  await sql`INSERT INTO task_words (task_words, rank) VALUES ('crisismerge', 1000)`.execute(db);
}
