import type * as NodeFs from 'node:fs';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { MirrorStorageError, NotInMirrorError } from './mirror-errors';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from './test-mirror';
import { writeWhenFree } from './write-when-free';

/** Set to an errno code, the log's flushes fail with it (a disk's I/O error); null: they run. */
const failingFlush = vi.hoisted(() => ({ code: null as string | null }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof NodeFs>();
  const fsync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void): void => {
    if (failingFlush.code === null) return fs.fsync(fd, done);
    const error: NodeJS.ErrnoException = new Error(`${failingFlush.code}: i/o error, fsync`);
    error.code = failingFlush.code;
    setImmediate(() => done(error));
  };
  return { ...fs, default: { ...fs, fsync }, fsync };
});

let handle: TestMirror;
/** Another connection to the same file, standing in for the pull worker. */
let worker: Database.Database;
const task = taskJson({ title: 'Before' });
const id = task.task_id as string;

beforeEach(async () => {
  handle = await openTestMirror();
  loadTasks(handle.mirror, [task]);
  worker = new Database(handle.file);
});
afterEach(() => {
  vi.useRealTimers();
  failingFlush.code = null;
  if (worker.inTransaction) worker.exec('ROLLBACK');
  worker.close();
  handle.cleanup();
});

/** What the other connection reads of the task's title. */
const titleOnFile = () =>
  (worker.prepare('SELECT title FROM tasks WHERE task_id = ?').get(id) as { title: string } | undefined)
    ?.title;

test('a write waits for the lock another connection holds without blocking the thread, then lands', async () => {
  worker.exec('BEGIN IMMEDIATE');
  const timersMeanwhile: number[] = [];
  const edit = writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'After' }));
  let settled = false;
  void edit.then(() => (settled = true));
  // The thread is free: timers run while the edit waits, and the edit has not landed.
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    timersMeanwhile.push(i);
  }
  expect(timersMeanwhile).toHaveLength(5);
  expect(settled).toBe(false);
  worker.exec('COMMIT');
  expect(await edit).not.toBeNull();
  expect(titleOnFile()).toBe('After');
  expect(handle.mirror.tasks.get(id)?.task.title).toBe('After');
});

test('several writes in one go land together or not at all', async () => {
  const mirror = handle.mirror;
  await expect(
    writeWhenFree(mirror, () => {
      mirror.tasks.edit(id, { title: 'Half done' });
      mirror.tasks.delete('tsk_not_there');
      throw new NotInMirrorError('task', 'tsk_not_there');
    }),
  ).rejects.toBeInstanceOf(NotInMirrorError);
  expect(mirror.tasks.get(id)?.task.title).toBe('Before');
  expect(mirror.outbox.list()).toEqual([]);
  // A search still finds the task by its real title: nothing of the rolled-back edit stayed in memory either.
  const found = mirror.tasks.query(new URLSearchParams('filter[search]=half done'), {
    me: 'ada',
    today: '2026-03-10',
  });
  expect(found.items).toEqual([]);
});

test('gives up as locked after its timeout, and the connection waits as before afterwards', async () => {
  worker.exec('BEGIN IMMEDIATE');
  const error = await writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'Never' }), {
    timeoutMs: 60,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MirrorStorageError);
  expect((error as MirrorStorageError).problem).toBe('locked');
  worker.exec('COMMIT');
  expect(titleOnFile()).toBe('Before');
  // The connection's own busy timeout is back for every other write.
  const { rows } = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(handle.mirror['kysely']);
  expect(rows[0]?.timeout).toBe(5000);
});

test("a person's write outwaits a long step of the pull (a 12 s index build) and lands after it", async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  worker.exec('BEGIN IMMEDIATE');
  let outcome: unknown = 'waiting';
  const edit = writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'Kept' })).then(
    () => 'landed',
    (error: unknown) => error,
  );
  void edit.then((result) => (outcome = result));
  await vi.advanceTimersByTimeAsync(12_000);
  expect(outcome).toBe('waiting');
  worker.exec('COMMIT');
  await vi.advanceTimersByTimeAsync(100);
  expect(await edit).toBe('landed');
  expect(titleOnFile()).toBe('Kept');
});

test('writes asked while the lock is held land in the order asked, whichever finds the lock free first', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  worker.exec('BEGIN IMMEDIATE');
  const landed: string[] = [];
  const edit = (title: string) =>
    writeWhenFree(handle.mirror, () => {
      landed.push(title);
      return handle.mirror.tasks.edit(id, { title });
    });
  const first = edit('First');
  // The first has waited long enough to try again only every 25 ms; the second, asked now, would try in 2.
  await vi.advanceTimersByTimeAsync(40);
  const second = edit('Second');
  worker.exec('COMMIT');
  await vi.advanceTimersByTimeAsync(100);
  await Promise.all([first, second]);
  expect(landed).toEqual(['First', 'Second']);
  expect(titleOnFile()).toBe('Second');
});

test('a write that fails does not hold up or fail the writes asked after it', async () => {
  const failing = writeWhenFree(handle.mirror, () => {
    throw new NotInMirrorError('task', 'tsk_not_there');
  });
  const after = writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'After' }));
  await expect(failing).rejects.toBeInstanceOf(NotInMirrorError);
  expect(await after).not.toBeNull();
  expect(titleOnFile()).toBe('After');
});

test("a person's write is on disk when it resolves, its log flushed off this thread; a chunk of a bulk change is not waited for", async () => {
  const before = handle.mirror.logFlushes;
  await writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'After' }));
  // The commit asked for a flush on libuv's threads and the write waited for it (an fsync in the commit asks none).
  expect(handle.mirror.logFlushes).toBeGreaterThan(before);
  expect(titleOnFile()).toBe('After');

  const flushing = handle.mirror.logFlushes;
  await writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'Interim' }), {
    awaitFlush: false,
  });
  expect(handle.mirror.logFlushes).toBe(flushing);
  await handle.mirror.logFlushed();
  expect(handle.mirror.logFlushes).toBeGreaterThan(flushing);
});

test('a write whose log cannot be flushed is told as an I/O error, not as saved; the next one that flushes is', async () => {
  failingFlush.code = 'EIO';
  const write = writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'After' }));
  await expect(write).rejects.toMatchObject({ name: 'MirrorStorageError', problem: 'io', code: 'EIO' });

  failingFlush.code = null;
  await expect(
    writeWhenFree(handle.mirror, () => handle.mirror.tasks.edit(id, { title: 'Again' })),
  ).resolves.not.toBeNull();
  expect(titleOnFile()).toBe('Again');
});
