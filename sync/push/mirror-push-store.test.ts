// The pusher's steps on the mirror: each on disk before the next, its log
// flushed on libuv's threads rather than fsynced on the app's main thread.
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { mirrorPushStore } from './mirror-push-store';
import { pushFixturePerTest } from './testing/push-fixture';

const start = pushFixturePerTest();

test('an operation is flushed to disk off the main thread before its request may leave, and its settling before the next step', async () => {
  const f = await start();
  const [taskId] = f.taskIds(1) as [string];
  await f.loadTasks([taskId]);
  f.mirror.tasks.edit(taskId, { title: 'Flushed before it leaves' });
  const store = mirrorPushStore(f.mirror);
  const [op] = await store.ready(10);
  if (op === undefined) throw new Error('the edit is not ready to push');

  const beforeStart = f.mirror.logFlushes;
  const claimed = await store.start(op.opId);
  expect(claimed?.state).toBe('in_flight');
  // A flush of the log ran after the step's commit, and the step waited for it.
  expect(f.mirror.logFlushes).toBeGreaterThan(beforeStart);

  // A transient failure puts it back: a step as any other.
  const beforeFail = f.mirror.logFlushes;
  await store.fail(op.opId, 'queued', { type: 'network' });
  expect(f.mirror.logFlushes).toBeGreaterThan(beforeFail);
  expect(f.mirror.outbox.op(op.opId).state).toBe('queued');

  // Sent by the pusher: its start and its settling each flushed.
  const beforePush = f.mirror.logFlushes;
  expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, failed: 0 });
  expect(f.mirror.logFlushes).toBeGreaterThanOrEqual(beforePush + 2);
  expect(f.emulator.control.task(taskId)?.title).toBe('Flushed before it leaves');
  expect(f.mirror.outbox.op(op.opId).state).toBe('done');
});

test("a push of many operations has the log copied back past its limit, by the connection that checkpoints (the app's never does)", async () => {
  const limit = 256 * 1024;
  const f = await start({ mirror: { checkpoints: 'another-connection', logLimitBytes: limit } });
  const ids = await f.loadedTaskIds(12);
  for (const [i, id] of ids.entries())
    f.mirror.tasks.edit(id, { description: `${i} ${'pushed '.repeat(1200)}` });
  // The pull worker's part in the app: another connection to the file.
  const other = new Database(f.file);
  let checkpoints = 0;
  f.mirror.checkpointsThrough(() => {
    checkpoints++;
    other.pragma('wal_checkpoint(PASSIVE)');
    return Promise.resolve();
  });
  try {
    // The loads and edits left 12 MB of log here.
    expect(statSync(`${f.file}-wal`).size).toBeGreaterThan(4 * limit);
    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 12, failed: 0 });
    expect(checkpoints).toBeGreaterThan(0);
    // Started again from its beginning, cut back to the limit: what the operations after wrote, 0.6 MB here.
    expect(statSync(`${f.file}-wal`).size).toBeLessThan(4 * limit);
  } finally {
    other.close();
  }
});
