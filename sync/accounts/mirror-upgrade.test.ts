// Opening a mirror an older app wrote, as the app does (real files, the
// upgrade worker from source): its migrations run in the worker while main's
// event loop goes on, the progress goes `upgrading` -> `ready`, the tasks
// survive, a failing migration is refused as it was on main, and a process
// killed mid-upgrade leaves the older file whole for the next start.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, test } from 'vitest';
import { MirrorVersionError } from '../../db/mirror-errors';
import { openMirror, pendingMigrations } from '../../db/open-mirror';
import {
  MIGRATIONS_AFTER_OLDER_MIRROR as PENDING,
  upgradeSteps,
  writeNewerMirror,
  writeOlderMirror,
} from '../../db/testing/other-version-mirrors';
import {
  BUILT_UPGRADE_WORKER,
  builtPullWorker,
  NODE_SQLITE_ADDON,
} from '../../test/support/built-pull-worker';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';
import { type MirrorUpgrade, upgradeMirrorInWorker } from './mirror-upgrade';

let dir: string;
temporaryDirectoryPerTest('svc-upgrade-', (made) => (dir = made));

const TASKS = 50;
beforeAll(() => {
  builtPullWorker();
}, 300_000);

/** An old file of TASKS tasks in the test's folder. */
function oldMirror(name: string): Promise<string> {
  return writeOlderMirror(join(dir, name), TASKS);
}

describe('a mirror with migrations pending', () => {
  test('is upgraded in the worker while main serves its timers, reported upgrading then ready, its tasks kept', async () => {
    const file = await oldMirror('old.db');
    expect(pendingMigrations(file)).toEqual(PENDING);
    const seen: string[] = [];
    // A timer of main's, counted in the progress: it fires only if main's event loop is free meanwhile.
    let ticks = 0;
    const tick = setInterval(() => {
      ticks += 1;
    }, 0);
    const progress: (MirrorUpgrade & { ticks: number })[] = [];
    let applied: readonly string[];
    try {
      applied = await upgradeMirrorInWorker(file, {
        onProgress: (upgrade) => {
          progress.push({ ...upgrade, ticks });
          seen.push(`${upgrade.state} ${upgrade.applied.join(',')}`);
        },
      });
    } finally {
      clearInterval(tick);
    }
    expect(applied).toEqual(PENDING);
    // Each migration told by the worker as it was applied, then ready.
    expect(seen).toEqual([
      'upgrading ',
      ...upgradeSteps().map((applied) => `upgrading ${applied.join(',')}`),
      `ready ${PENDING.join(',')}`,
    ]);
    expect(progress.at(-1)!.ticks).toBeGreaterThan(progress[0]!.ticks);
    // Main's own connection, opened after, finds nothing to migrate and every task.
    expect(pendingMigrations(file)).toEqual([]);
    const mirror = await openMirror(file);
    try {
      for (const rid of [1, 25, TASKS])
        expect(mirror.tasks.get(`tsk_${rid}`)?.task.title).toBe(`Task ${rid}`);
      const listed = mirror.tasks.query(new URLSearchParams('limit=100'), { me: 'ada', today: '2026-03-10' });
      expect(listed.items).toHaveLength(TASKS);
    } finally {
      mirror.close();
    }
  });

  test('a migration that fails is refused as on main, the file left at its old schema with its tasks', async () => {
    const file = await oldMirror('failing.db');
    // 0027 renames columns to `<name>_kept`: a column already so named makes it fail.
    const db = new Database(file);
    db.exec('ALTER TABLE tasks ADD COLUMN search_id_kept TEXT');
    db.close();
    const progress: MirrorUpgrade['state'][] = [];

    const refused = await upgradeMirrorInWorker(file, { onProgress: (u) => progress.push(u.state) }).then(
      () => null,
      (error: unknown) => error,
    );

    expect(refused).toBeInstanceOf(MirrorVersionError);
    expect((refused as MirrorVersionError).detail).toBe(`migration ${PENDING[0]} failed`);
    expect(progress).toEqual(['upgrading']);
    expect(pendingMigrations(file)).toEqual(PENDING);
    const onMain = await openMirror(file).then(
      (mirror) => {
        mirror.close();
        return null;
      },
      (error: unknown) => error,
    );
    // What opening it on main said before the worker: the same error.
    expect(onMain).toBeInstanceOf(MirrorVersionError);
    expect((onMain as Error).message).toBe((refused as Error).message);
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(TASKS);
    after.close();
  });

  test('the app quit or killed in the middle of an upgrade leaves the old file whole, and the next start upgrades it', async () => {
    const file = await oldMirror('killed.db');
    // What the worker runs, in a process of its own that kills itself (kill -9) as the first
    // migration is done: the later ones and the commit never happen.
    const openUrl = new URL('../../db/open-mirror.ts', import.meta.url).href;
    const script = `
      const { upgradeMirrorFile } = await import(${JSON.stringify(openUrl)});
      await upgradeMirrorFile(${JSON.stringify(file)}, {
        onMigrated: () => process.kill(process.pid, 'SIGKILL'),
      });
      process.stdout.write('upgraded without being killed');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, killed) => resolve(killed)),
    );
    expect(signal).toBe('SIGKILL');
    expect(printed).toBe('');

    // The first migration's change was never committed: the file is the older app's, every task in it.
    expect(pendingMigrations(file)).toEqual(PENDING);
    const before = new Database(file, { readonly: true });
    expect(before.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(TASKS);
    before.close();
    expect(await upgradeMirrorInWorker(file)).toEqual(PENDING);
    const mirror = await openMirror(file);
    try {
      expect(mirror.tasks.get(`tsk_${TASKS}`)?.task.title).toBe(`Task ${TASKS}`);
    } finally {
      mirror.close();
    }
  });

  test('the built worker, as the app starts it with an addon file, upgrades the file', async () => {
    const file = await oldMirror('built.db');
    const applied = await upgradeMirrorInWorker(file, {
      workerUrl: BUILT_UPGRADE_WORKER,
      nativeBinding: NODE_SQLITE_ADDON,
    });
    expect(applied).toEqual(PENDING);
    expect(pendingMigrations(file)).toEqual([]);
  });

  test('a file a newer app wrote starts no worker and is refused on opening as before', async () => {
    const file = await writeNewerMirror(join(dir, 'newer.db'));
    const progress: MirrorUpgrade[] = [];
    expect(await upgradeMirrorInWorker(file, { onProgress: (u) => progress.push(u) })).toEqual([]);
    expect(progress).toEqual([]);
    await expect(openMirror(file)).rejects.toBeInstanceOf(MirrorVersionError);
  });

  test('an up-to-date or new file starts no worker and reports nothing', async () => {
    const current = join(dir, 'current.db');
    (await openMirror(current)).close();
    const progress: MirrorUpgrade[] = [];
    expect(await upgradeMirrorInWorker(current, { onProgress: (u) => progress.push(u) })).toEqual([]);
    expect(await upgradeMirrorInWorker(join(dir, 'new.db'), { onProgress: (u) => progress.push(u) })).toEqual(
      [],
    );
    expect(progress).toEqual([]);
  });
});
