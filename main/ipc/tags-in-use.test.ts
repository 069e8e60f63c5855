import { afterEach, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { loadTasks, openTestMirror, type TestMirror, taskJson } from '../../db/test-mirror';
import { TagsInUse } from './tags-in-use';

let handle: TestMirror | null = null;
afterEach(() => {
  handle?.cleanup();
  handle = null;
});

/**
 * The real scan, a row a step (each step a macrotask, as 5 000 rows are at a
 * million tasks), counting the scans begun and how many ran at once.
 */
function countedScan() {
  const seen = { scans: 0, running: 0, mostAtOnce: 0 };
  const scan = async (mirror: Mirror): Promise<string[]> => {
    seen.scans += 1;
    seen.running += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    try {
      return await mirror.tasks.tagsInUse(1);
    } finally {
      seen.running -= 1;
    }
  };
  return { seen, scan };
}

test('tasks changing during a scan queue one scan after it, shared by every call meanwhile, never two at once', async () => {
  handle = await openTestMirror();
  const { mirror } = handle;
  const tasks = Array.from({ length: 40 }, (_, i) =>
    taskJson({ tags: i % 2 === 0 ? ['even'] : ['odd', 'even'] }),
  );
  loadTasks(mirror, tasks);
  const { seen, scan } = countedScan();
  const tags = new TagsInUse(scan);

  const first = tags.of(mirror);
  // Let the first scan begin and take a few of its 40 steps: it is running when the tasks change.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(seen.running).toBe(1);

  // A sync pass's pages, each a change the window answers with workspace:get.
  const later: Promise<string[]>[] = [];
  for (let page = 0; page < 5; page++) {
    loadTasks(mirror, [...tasks, taskJson({ tags: ['late'] })]);
    tags.changed();
    later.push(tags.of(mirror));
  }

  expect(await first).toEqual(['even', 'odd']);
  const answers = await Promise.all(later);
  // One scan after the first, begun once it ended, answering for the mirror as the last change left it.
  expect(seen.scans).toBe(2);
  expect(seen.mostAtOnce).toBe(1);
  for (const answer of answers) expect(answer).toEqual(['even', 'odd', 'late']);
});

test('a change after the queued scan began is answered by a scan of its own', async () => {
  handle = await openTestMirror();
  const { mirror } = handle;
  loadTasks(mirror, [taskJson({ tags: ['ux'] })]);
  const { seen, scan } = countedScan();
  const tags = new TagsInUse(scan);

  expect(await tags.of(mirror)).toEqual(['ux']);
  // Kept until the tasks change: asked again, no scan.
  expect(await tags.of(mirror)).toEqual(['ux']);
  expect(seen.scans).toBe(1);

  loadTasks(mirror, [taskJson({ tags: ['ux'] }), taskJson({ tags: ['api'] }), taskJson({ tags: ['api'] })]);
  tags.changed();
  expect(await tags.of(mirror)).toEqual(['api', 'ux']);
  expect(seen.scans).toBe(2);
});

test('known answers at once with the tags last counted, and tells once when a scan ends with others', async () => {
  handle = await openTestMirror();
  const { mirror } = handle;
  loadTasks(mirror, [taskJson({ tags: ['ux'] })]);
  const { seen, scan } = countedScan();
  const tags = new TagsInUse(scan);
  let told = 0;
  const recounted = () => (told += 1);

  // Nothing counted yet: no tags, and a scan queued, not waited for (asked again, the same scan).
  expect(tags.known(mirror, recounted)).toEqual([]);
  expect(tags.known(mirror, recounted)).toEqual([]);
  await tags.of(mirror);
  expect(told).toBe(1);
  expect(tags.known(mirror, recounted)).toEqual(['ux']);
  expect(seen.scans).toBe(1);

  // The tasks change: the tags counted before, at once, while the recount runs; it finds others and tells.
  loadTasks(mirror, [taskJson({ tags: ['ux'] }), taskJson({ tags: ['api'] }), taskJson({ tags: ['api'] })]);
  tags.changed();
  expect(tags.known(mirror, recounted)).toEqual(['ux']);
  expect(await tags.of(mirror)).toEqual(['api', 'ux']);
  expect(told).toBe(2);
  expect(tags.known(mirror, recounted)).toEqual(['api', 'ux']);

  // A change that leaves the tags as they were: recounted, nothing told.
  loadTasks(mirror, [taskJson({ tags: ['api'] }), taskJson({ tags: ['api'] }), taskJson({ tags: ['ux'] })]);
  tags.changed();
  expect(tags.known(mirror, recounted)).toEqual(['api', 'ux']);
  await tags.of(mirror);
  expect(seen.scans).toBe(3);
  expect(told).toBe(2);
});
