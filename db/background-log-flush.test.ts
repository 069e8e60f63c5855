import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BackgroundLogFlush } from './background-log-flush';
import { loadTasks, openTestMirror, taskJson } from './test-mirror';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'log-flush-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('commits while a flush runs get one more flush, not one each', async () => {
  const file = join(dir, 'mirror.db-wal');
  writeFileSync(file, 'log');
  const flush = new BackgroundLogFlush(file);
  flush.soon();
  for (let i = 0; i < 5; i++) flush.soon();
  await flush.settled();
  expect(flush.flushes).toBe(2);
  flush.soon();
  await flush.settled();
  expect(flush.flushes).toBe(3);
  flush.close();
});

test('no log file yet: nothing is flushed and nothing fails; closing mid-flush is clean', async () => {
  const file = join(dir, 'absent.db-wal');
  const flush = new BackgroundLogFlush(file);
  flush.soon();
  await flush.settled();
  expect(flush.flushes).toBe(0);
  writeFileSync(file, 'log');
  flush.soon();
  await flush.settled();
  expect(flush.flushes).toBe(1);
  // Closed with a flush running and another asked for: the running one ends, no more start.
  flush.soon();
  flush.soon();
  flush.close();
  await flush.settled();
  flush.soon();
  await flush.settled();
  expect(flush.flushes).toBe(2);
});

test('a page writer mirror flushes after its server writes and closes while a flush is running', async () => {
  const handle = await openTestMirror({ flushLogInBackground: true });
  try {
    const tasks = Array.from({ length: 50 }, (_, i) => taskJson({ title: `Flushed ${i}` }));
    loadTasks(handle.mirror, tasks);
    await handle.mirror.logFlushed();
    handle.mirror.tasks.applyServerCopy({ ...tasks[0], title: 'Flushed again' }, '"e2"');
    handle.mirror.close();
    const reopened = await handle.reopen();
    expect(reopened.tasks.get(tasks[0]?.task_id as string)?.task.title).toBe('Flushed again');
  } finally {
    handle.cleanup();
  }
});
