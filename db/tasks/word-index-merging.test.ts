// The word index's segments are merged in bounded steps after the pull's
// writes, never inside a write: an edit on the main thread stays a few ms
// (a merge reaching 100 000 tasks' segments took 30-200 ms inside one).
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { loadPass, loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

let handle: TestMirror;
let mirror: Mirror;
const tasks = Array.from({ length: 40 }, (_, i) => taskJson({ title: `Task number ${i}` }));

beforeEach(async () => {
  handle = await openTestMirror();
  mirror = handle.mirror;
  loadTasks(mirror, tasks);
});
afterEach(() => handle.cleanup());

/** How many segments the word index holds now. */
function segments(): number {
  const db = new Database(handle.file, { readonly: true });
  try {
    return (db.prepare('SELECT count(DISTINCT segid) AS n FROM task_words_idx').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const search = (term: string) =>
  mirror.tasks
    .query(new URLSearchParams(`filter[search]=${encodeURIComponent(term)}`), {
      me: 'ada',
      today: '2026-03-10',
    })
    .items.map((t) => t.task_id);

test('edits add segments without merging; the next pass merges them, and searches answer the same', () => {
  const before = segments();
  for (let i = 0; i < 24; i++) mirror.tasks.edit(tasks[i]?.task_id as string, { title: `Renamed ${i} anew` });
  // FTS5's automerge would have merged every 4 segments of a level (24 writes: a handful left).
  expect(segments()).toBeGreaterThanOrEqual(before + 24);
  expect(search('renamed 7 anew')).toEqual([tasks[7]?.task_id]);
  loadPass(mirror, 'tasks', tasks, { etag: '"e0"' });
  expect(segments()).toBeLessThan(before + 8);
  expect(search('renamed 7 anew')).toEqual([tasks[7]?.task_id]);
  expect(search('task number 30')).toEqual([tasks[30]?.task_id]);
});
