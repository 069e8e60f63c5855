// Nothing queued is lost across an update: a restart to update may leave edits
// in the outbox (offline, or past the settle time), and the new version's
// first open migrates the mirror with them in it.
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { LATEST_MIGRATION } from '../../db/migrations/index';
import { openMirror } from '../../db/open-mirror';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../../db/test-mirror';
import { outboxPendingOf } from './update-outbox';

/**
 * Takes the latest migration back out of a file this code wrote, leaving what
 * the version before it would have left: the next open runs that migration
 * again, as the first start after an update does. A new migration adds its
 * undo here (the test says so when it is missing).
 */
const UNDO_LATEST: Readonly<Record<string, (db: Database.Database) => void>> = {
  '0009_pass_completed_once': (db) => db.exec('ALTER TABLE sync_passes DROP COLUMN completed_once'),
};

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

  const undo = UNDO_LATEST[LATEST_MIGRATION];
  if (undo === undefined) throw new Error(`add the undo of ${LATEST_MIGRATION} to UNDO_LATEST`);
  const raw = new Database(file);
  raw.transaction(() => {
    undo(raw);
    raw.prepare('DELETE FROM kysely_migration WHERE name = ?').run(LATEST_MIGRATION);
  })();
  raw.close();

  handle.mirror = await openMirror(file);
  const reopened = handle.mirror;
  const migrated = new Database(file, { readonly: true });
  const applied = migrated.prepare('SELECT name FROM kysely_migration WHERE name = ?').get(LATEST_MIGRATION);
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
  expect(reopened.tasks.get(task.task_id as string)?.task.title).toBe('Edited before the update');
});
