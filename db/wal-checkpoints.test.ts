// Who checkpoints the write-ahead log: by default a connection does it inside
// the commit that finds the log past 1000 pages; the app's main-process
// connection leaves it to the pull worker's, so a person's edit never pays for it.
import { statSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import { MIRROR_PAGE_SIZE, type OpenMirrorOptions } from './open-mirror';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from './test-mirror';

/** SQLite's default wal_autocheckpoint, in pages. */
const AUTOCHECKPOINT_PAGES = 1000;

let handle: TestMirror | null = null;
afterEach(() => handle?.cleanup());

/** Edits one task until `pages` pages of log have been written in all; returns the log file's size in pages. */
async function logPagesAfterEdits(options: OpenMirrorOptions, pages: number): Promise<number> {
  handle = await openTestMirror(options);
  const task = taskJson({ title: 'Edited often', description: 'x'.repeat(6000) });
  loadTasks(handle.mirror, [task]);
  const log = () => statSync(`${handle?.file as string}-wal`).size / MIRROR_PAGE_SIZE;
  let written = 0;
  let before = log();
  for (let i = 0; written < pages; i++) {
    handle.mirror.tasks.edit(task.task_id as string, { description: `${i} ${'y'.repeat(6000)}` });
    const now = log();
    // After a checkpoint the log starts over at its beginning: count at least one page a commit.
    written += Math.max(1, now - before);
    before = now;
  }
  return log();
}

test('by default a commit checkpoints: the log never grows far past 1000 pages', async () => {
  expect(await logPagesAfterEdits({}, 1.5 * AUTOCHECKPOINT_PAGES)).toBeLessThan(1.2 * AUTOCHECKPOINT_PAGES);
});

test('a connection that leaves checkpoints to another never runs one in its commits', async () => {
  expect(
    await logPagesAfterEdits({ checkpoints: 'another-connection' }, 1.5 * AUTOCHECKPOINT_PAGES),
  ).toBeGreaterThan(1.4 * AUTOCHECKPOINT_PAGES);
});

test('a connection with a higher threshold checkpoints past it, not past 1000 pages', async () => {
  expect(
    await logPagesAfterEdits({ checkpointPages: 2 * AUTOCHECKPOINT_PAGES }, 1.5 * AUTOCHECKPOINT_PAGES),
  ).toBeGreaterThan(1.4 * AUTOCHECKPOINT_PAGES);
});
