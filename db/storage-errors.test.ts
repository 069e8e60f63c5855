import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { MirrorStorageError, type StorageProblem } from './mirror-errors';
import { openMirror } from './open-mirror';
import { loadTasks, onlyPage, openTestMirrorPerTest, taskJson, type TestMirror } from './test-mirror';

let handle: TestMirror;
openTestMirrorPerTest((opened) => (handle = opened));

function storageProblem(run: () => unknown): StorageProblem | 'no error' | 'other error' {
  try {
    run();
    return 'no error';
  } catch (error) {
    return error instanceof MirrorStorageError ? error.problem : 'other error';
  }
}

async function openProblem(
  run: () => Promise<unknown>,
): Promise<StorageProblem | 'no error' | 'other error'> {
  try {
    const mirror = (await run()) as { close(): void };
    mirror.close();
    return 'no error';
  } catch (error) {
    return error instanceof MirrorStorageError ? error.problem : 'other error';
  }
}

describe('a database file in trouble gives a typed error, not a crash', () => {
  test('locked: another process holds the write lock', async () => {
    const task = taskJson({ title: 'Lockable' });
    loadTasks(handle.mirror, [task]);
    const mirror = await handle.reopen({ busyTimeoutMs: 50 });
    const other = new Database(handle.file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = (() => {
        try {
          mirror.tasks.edit(task.task_id as string, { title: 'Blocked' });
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(MirrorStorageError);
      expect((error as MirrorStorageError).problem).toBe('locked');
      expect((error as MirrorStorageError).message).toMatch(/another process/);
      // Reads go on (WAL), and nothing was queued.
      expect(mirror.tasks.get(task.task_id as string)?.task.title).toBe('Lockable');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(mirror.outbox.list()).toEqual([]);
    mirror.tasks.edit(task.task_id as string, { title: 'Now it works' });
    expect(mirror.outbox.list()).toHaveLength(1);
  });

  test('read-only: a mirror opened read-only refuses writes but answers reads', async () => {
    const task = taskJson({ title: 'Read me' });
    loadTasks(handle.mirror, [task]);
    handle.mirror.close();
    const readonly = await openMirror(handle.file, { readonly: true });
    try {
      expect(readonly.tasks.get(task.task_id as string)?.task.title).toBe('Read me');
      expect(storageProblem(() => readonly.tasks.edit(task.task_id as string, { title: 'No' }))).toBe(
        'read-only',
      );
    } finally {
      readonly.close();
    }
    expect(await openProblem(() => openMirror(join(handle.dir, 'absent.db'), { readonly: true }))).toBe(
      'cannot-open',
    );
    handle.mirror = await openMirror(handle.file);
  });

  test('full: a page that does not fit is refused whole, and the mirror goes on working', async () => {
    const mirror = await handle.reopen({ maxSizeMb: 2 });
    const big = Array.from({ length: 400 }, (_, i) =>
      taskJson({ title: `Big ${i}`, description: `${'filler text '.repeat(300)} unique${i}word` }),
    );
    mirror.passes.begin('tasks');
    expect(storageProblem(() => mirror.passes.applyPage(onlyPage('tasks', big)))).toBe('full');
    expect(mirror.tasks.total()).toBe(0);
    const small = taskJson({ title: 'Fits', description: 'unique7word' });
    mirror.passes.applyPage(onlyPage('tasks', [small]));
    // A word first met in the refused page is indexed again when it comes back.
    const found = mirror.tasks.query(new URLSearchParams('filter[search]=unique7word'), {
      me: 'ada',
      today: '2026-03-10',
    });
    expect(found.items.map((t) => t.title)).toEqual(['Fits']);
  });

  test('corrupt: a file that is not a database, or a damaged one', async () => {
    const garbage = join(handle.dir, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(8192, 0x5a));
    expect(await openProblem(() => openMirror(garbage))).toBe('corrupt');

    loadTasks(
      handle.mirror,
      Array.from({ length: 300 }, (_, i) => taskJson({ title: `Row ${i}`, description: 'x'.repeat(500) })),
    );
    handle.mirror.checkpoint();
    handle.mirror.close();
    // Overwrite everything after the first (schema) page with noise.
    const size = statSync(handle.file).size;
    const fd = openSync(handle.file, 'r+');
    writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096);
    closeSync(fd);
    const problem = await openProblem(async () => {
      const mirror = await openMirror(handle.file);
      try {
        mirror.tasks.query(new URLSearchParams('sort_by=title'), { me: 'ada', today: '2026-03-10' });
      } finally {
        mirror.close();
      }
      return { close() {} };
    });
    expect(problem).toBe('corrupt');
    handle.mirror = await openMirror(join(handle.dir, 'fresh.db'));
  });

  test('closed: calls after close say so', () => {
    handle.mirror.close();
    expect(storageProblem(() => handle.mirror.tasks.total())).toBe('closed');
    expect(storageProblem(() => handle.mirror.tasks.create({ title: 'x' }))).toBe('closed');
  });
});
