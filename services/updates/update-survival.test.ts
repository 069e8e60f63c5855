// Nothing queued is lost across an update: a restart to update may leave edits
// in the outbox (offline, or past the settle time), and the new version's
// first open migrates the mirror with them in it.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { LATEST_MIGRATION, MIGRATIONS } from '../../db/migrations/index';
import { migrateFileTo, openMirror } from '../../db/open-mirror';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../../db/test-mirror';
import { outboxPendingOf } from './update-outbox';

/** The schema the version before this one left: every migration but the newest. */
const PREVIOUS_MIGRATION = Object.keys(MIGRATIONS).at(-2) as string;

/**
 * The file the version before this one would have left with these queued
 * edits: a mirror at its schema, holding the outbox rows this code wrote
 * (the columns both schemas have, as that version would have written them).
 */
async function asThePreviousVersionLeftIt(currentFile: string, previousFile: string): Promise<void> {
  await migrateFileTo(previousFile, PREVIOUS_MIGRATION);
  const db = new Database(previousFile);
  try {
    db.prepare('ATTACH DATABASE ? AS current').run(currentFile);
    const columns = (schema: string) =>
      (db.prepare(`PRAGMA ${schema}.table_info(outbox)`).all() as { name: string }[]).map((c) => c.name);
    const now = new Set(columns('current'));
    const shared = columns('main')
      .filter((name) => now.has(name))
      .map((name) => `"${name}"`)
      .join(', ');
    db.exec(`INSERT INTO main.outbox (${shared}) SELECT ${shared} FROM current.outbox`);
    db.exec('DETACH DATABASE current');
  } finally {
    db.close();
  }
}

let handle: TestMirror | undefined;
let other: TestMirror | undefined;
afterEach(() => {
  handle?.cleanup();
  other?.cleanup();
});

test('a restart to update waits for what every account has queued or is sending, not for conflicts or refusals', async () => {
  handle = await openTestMirror();
  other = await openTestMirror();
  const [a, b, c] = [taskJson(), taskJson(), taskJson()];
  loadTasks(handle.mirror, [a, b]);
  loadTasks(other.mirror, [c]);
  expect(outboxPendingOf([handle.mirror, other.mirror])).toEqual({ pending: 0, inFlight: 0 });

  handle.mirror.tasks.edit(a.task_id as string, { title: 'queued' });
  const sending = handle.mirror.tasks.edit(b.task_id as string, { title: 'sending' }) as { opId: string };
  handle.mirror.outbox.start(sending.opId);
  const refused = other.mirror.tasks.edit(c.task_id as string, { title: 'refused' }) as { opId: string };
  other.mirror.outbox.start(refused.opId);
  other.mirror.outbox.fail(refused.opId, 'failed', { status: 422 });
  expect(outboxPendingOf([handle.mirror, other.mirror])).toEqual({ pending: 2, inFlight: 1 });
  // A mirror closed meanwhile (its account signed out) has nothing in flight and keeps its file.
  handle.mirror.close();
  expect(outboxPendingOf([handle.mirror, other.mirror])).toEqual({ pending: 0, inFlight: 0 });
});

test('queued and in-flight edits survive a restart to update whose new version migrates the mirror at open', async () => {
  handle = await openTestMirror();
  const { mirror, file } = handle;
  const task = taskJson({ title: 'Before the update' });
  loadTasks(mirror, [task]);
  mirror.tasks.edit(task.task_id as string, { title: 'Edited before the update', tags: ['kept'] });
  const created = mirror.tasks.create({ title: 'Created before the update' }) as { opId: string };
  // A push was sending the create when the app quit to install.
  mirror.outbox.start(created.opId);
  const before = mirror.outbox.list();
  expect(before.map((op) => op.state).sort()).toEqual(['in_flight', 'queued']);
  mirror.close();

  const previousFile = join(handle.dir, 'previous-version.db');
  await asThePreviousVersionLeftIt(file, previousFile);

  // The first start after the update: the new version opens the mirror and runs its newest migration.
  const reopened = await openMirror(previousFile);
  try {
    const migrated = new Database(previousFile, { readonly: true });
    const applied = migrated
      .prepare('SELECT name FROM kysely_migration WHERE name = ?')
      .get(LATEST_MIGRATION);
    migrated.close();
    expect(applied).toEqual({ name: LATEST_MIGRATION });

    // Every operation as it was: same keys (the in-flight one is re-sent under its idempotency key), bodies, bases, states.
    expect(reopened.outbox.list()).toEqual(before);
    expect(
      reopened.outbox
        .ready()
        .map((op) => op.opId)
        .sort(),
    ).toEqual(before.map((op) => op.opId).sort());
  } finally {
    reopened.close();
  }
});
