// Pulling through the worker thread (the app's default): the same passes as
// in this thread, written by the worker's own connection and read by the
// app's, with the mirror's typed errors arriving intact.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, vi } from 'vitest';
import { MirrorStorageError } from '../../db/mirror-errors';
import { deferredBuild } from '../../db/tasks/deferred-indexes';
import { errorInfo } from '../events/sync-error-info';
import { pullFixturePerTest, serverTaskIds } from './testing/pull-fixture';
import { WorkerPullStore } from './worker-pull-store';

const setUp = pullFixturePerTest();

test('a sync through the worker mirrors everything, revalidates with 304s and removes what a complete pass no longer returns', async () => {
  const f = await setUp({ engine: { pullInWorker: true } });
  const first = await f.engine.pullOnce();
  expect(first.initial).toBe(true);
  const server = serverTaskIds(f);
  // Written by the worker's connection, read through the app's.
  expect(f.mirroredTaskIds().sort()).toEqual(server);

  const gone = server[3] ?? '';
  f.emulator.control.peerDelete(gone);
  const again = await f.engine.pullOnce();
  // Sections and sprints count their tasks: they change too.
  expect(again.changes.filter((c) => c.collection === 'tasks').map((c) => [c.kind, c.id])).toEqual([
    ['deleted', gone],
  ]);
  expect(again.notModified).toBeGreaterThan(0);
  expect(f.mirror.tasks.get(gone)).toBeNull();
});

test('through the worker, the edits a complete pass or a 404 read parks come back with its answer and are told once', async () => {
  const f = await setUp({ seedTasks: 40, engine: { pullInWorker: true } });
  await f.engine.pullOnce();
  const [listedGone, readGone] = f.mirroredTaskIds().sort() as [string, string];
  const stopped = (taskId: string, patch: Record<string, unknown>) => {
    const opId = f.mirror.tasks.edit(taskId, patch)?.opId ?? '';
    f.mirror.outbox.start(opId);
    f.mirror.outbox.fail(opId, 'failed', { status: 422 });
    return opId;
  };
  const listedOp = stopped(listedGone, { title: 'mine', assignee: 'nobody' });
  const readOp = stopped(readGone, { title: 'mine too' });
  f.emulator.control.peerDelete(listedGone);
  f.events.length = 0;
  await f.engine.pullOnce();
  f.emulator.control.peerDelete(readGone);
  f.engine.openTask(readGone);
  await f.engine.pullOnce({ tier: 'hot' });
  await f.engine.pullOnce();
  expect(f.events.filter((e) => e.type === 'conflict')).toEqual([
    expect.objectContaining({ opId: listedOp, entityId: listedGone, fields: ['title', 'assignee'] }),
    expect.objectContaining({ opId: readOp, entityId: readGone, fields: ['title'] }),
  ]);
  expect(f.mirror.outbox.openConflictCount()).toBe(2);
});

test('through the worker, a task that breaks the contract is left out there and the rest of its page lands (issue 27)', async () => {
  const f = await setUp({ engine: { pullInWorker: true } });
  let served = 0;
  let broken = '';
  f.relay.rewrite = (url, body) => {
    if (!url.startsWith('/v1/tasks?')) return body;
    // The whole list's second page (what the person sees first came before it): its first task breaks.
    if (!/assignee|team/.test(url)) served += 1;
    if (served !== 2) return body;
    const page = JSON.parse(body) as { data: Record<string, unknown>[] };
    const first = page.data[0];
    if (!first) return body;
    broken = first.task_id as string;
    first.status = { not: 'a string' };
    return JSON.stringify(page);
  };
  const summary = await f.engine.pullOnce();
  // The main thread checked only the envelope; the worker checked the tasks and left the broken one out.
  expect(summary.failed).toEqual([]);
  expect(broken).not.toBe('');
  const others = f.emulator.control
    .tasks()
    .map((t) => t.task_id)
    .filter((id) => id !== broken);
  expect(f.mirroredTaskIds().sort()).toEqual(others.sort());
  expect(f.events.filter((e) => e.type === 'item-skipped')).toEqual([
    expect.objectContaining({ collection: 'tasks', id: broken, field: 'status' }),
  ]);
});

test('through the worker, a page body that is not JSON fails as the client would, naming the operation', async () => {
  const f = await setUp({ engine: { pullInWorker: true } });
  let served = 0;
  const landed = new Set<string>();
  f.relay.rewrite = (url, body) => {
    if (!url.startsWith('/v1/tasks?')) return body;
    // The whole list's second page (what the person sees first came before it).
    if (!/assignee|team/.test(url)) served += 1;
    // The body reaches the worker as bytes; this thread never parses it.
    if (served === 2) return body.slice(0, body.length / 2);
    if (served < 2)
      for (const task of (JSON.parse(body) as { data: { task_id: string }[] }).data) landed.add(task.task_id);
    return body;
  };
  const summary = await f.engine.pullOnce();
  expect(summary.failed).toEqual([
    expect.objectContaining({
      collection: 'tasks',
      error: expect.objectContaining({ kind: 'invalid-response', operation: 'tasks.list' }) as unknown,
    }),
  ]);
  expect(summary.failed[0]?.error.message).toContain('(body)');
  expect(f.mirroredTaskIds().sort()).toEqual([...landed].sort());
  expect(landed.size).toBeLessThan(2000);
});

test('a page of more items than one message carries is applied whole, in one call, by the worker', async () => {
  const f = await setUp({ seedTasks: 250 });
  const tasks = f.emulator.control.tasks() as unknown as Record<string, unknown>[];
  const store = new WorkerPullStore(f.file);
  try {
    await store.beginPass('tasks', '', { partial: false, restart: true });
    // Not read by the worker (no readAs): the items go ahead in slices of STAGE_SLICE.
    const outcome = await store.applyPage('tasks', '', false, {
      pageIndex: 0,
      cursorSent: null,
      etag: 'W/"page-0"',
      nextCursor: null,
      items: tasks,
      announce: false,
    });
    expect(outcome.rejected).toEqual([]);
    const ids = tasks.map((t) => t.task_id as string).sort();
    expect(f.mirroredTaskIds().sort()).toEqual(ids);
    const pass = await store.pass('tasks', '');
    expect(pass?.pages.map((p) => [p.pageIndex, p.etag, p.count])).toEqual([[0, 'W/"page-0"', 250]]);
  } finally {
    await store.close();
  }
});

test("the mirror's typed errors cross the worker boundary with their fields", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-worker-'));
  const file = join(dir, 'not-a-database.db');
  await writeFile(file, 'this is not an SQLite file, but it is long enough to be read as one '.repeat(80));
  const store = new WorkerPullStore(file);
  try {
    const failure = await store.pass('tasks', '').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe(new MirrorStorageError('corrupt', file, null).name);
    expect(failure).toMatchObject({ problem: 'corrupt', file });
    expect(errorInfo(failure)).toMatchObject({ kind: 'storage', type: 'corrupt' });
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a process with nothing but the worker to wait for runs to its end', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'worker-only-'));
  try {
    const script = new URL('./testing/worker-only-process.ts', import.meta.url).pathname;
    const result = spawnSync(process.execPath, ['--import', 'tsx', script, join(dir, 'mirror.sqlite')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('finished\n');
    expect(result.status).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("the engine's worker copies back the log the app's main thread wrote, asked between a bulk change's writes", async () => {
  const limit = 1024 * 1024;
  // As in the app: the main thread's connection never checkpoints; the worker's does.
  const f = await setUp({
    seedTasks: 20,
    engine: { pullInWorker: true },
    mirror: { checkpoints: 'another-connection', logLimitBytes: limit },
  });
  await f.engine.pullOnce();
  // The first load's indexes built in the worker's steps (each a read and a write of its own) first.
  const look = new Database(f.file, { readonly: true });
  await vi.waitFor(() => expect(deferredBuild(look)).toBeNull(), { timeout: 10_000 });
  look.close();
  const logSize = () => statSync(`${f.file}-wal`).size;
  const ids = f.mirroredTaskIds();
  let round = 0;
  do {
    round++;
    for (const id of ids) f.mirror.tasks.edit(id, { description: `round ${round} ${'words '.repeat(3000)}` });
  } while (logSize() <= 2 * limit);

  await f.mirror.keepLogShort();
  f.mirror.tasks.edit(ids[0] ?? '', { description: 'after' });

  // Copied back whole: the next write started the log again and cut it back to the limit.
  expect(logSize()).toBeLessThanOrEqual(limit);
  expect(f.mirror.tasks.get(ids[1] ?? '')?.task.description).toMatch(`round ${round} `);
});
