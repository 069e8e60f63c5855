// openMirror's `nativeBinding`: the Electron app opens mirrors with an addon
// outside node_modules (built for Electron); here a copy of Node's build
// stands in for it, so the test sees the option is really used.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index';
import { migrateFileTo, openMirror, pendingMigrations, upgradeMirrorFile } from './open-mirror';
import { modeOf, usualUmaskWhileTesting } from './testing/file-modes';

const nodeAddon = join(
  dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'svc-open-mirror-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

test('a mirror opens through the addon given as nativeBinding, migrated and usable', async () => {
  const addon = join(directory, 'elsewhere', 'better_sqlite3.node');
  mkdirSync(dirname(addon));
  copyFileSync(nodeAddon, addon);
  const mirror = await openMirror(join(directory, 'mirror.db'), { nativeBinding: addon });
  try {
    expect(mirror.collections.list('organizations')).toEqual([]);
  } finally {
    mirror.close();
  }
});

test('a nativeBinding that is not there fails the open instead of silently loading node_modules', async () => {
  await expect(
    openMirror(join(directory, 'mirror.db'), { nativeBinding: join(directory, 'missing.node') }),
  ).rejects.toThrow(/missing\.node/);
});

describe('readable by its owner alone', () => {
  // The usual umask, which leaves new files readable by everyone (0644).
  usualUmaskWhileTesting();

  test('a new mirror, its -wal and its -shm are 0600', async () => {
    const file = join(directory, 'mirror.sqlite');
    const mirror = await openMirror(file);
    try {
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
      expect(modeOf(`${file}-shm`)).toBe(0o600);
    } finally {
      mirror.close();
    }
  });

  test('a mirror and companions left readable by others (an older version) are tightened at open', async () => {
    const file = join(directory, 'mirror.sqlite');
    (await openMirror(file)).close();
    for (const path of [file, `${file}-wal`, `${file}-shm`]) {
      writeFileSync(path, '', { flag: 'a' });
      chmodSync(path, 0o644);
    }
    const mirror = await openMirror(file);
    try {
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path)).toBe(0o600);
    } finally {
      mirror.close();
    }
  });
});

test('an update finding a first load unfinished builds its deferred indexes before migrating, as the migrations need the whole schema', async () => {
  const file = join(directory, 'interrupted.db');
  const names = Object.keys(MIGRATIONS);
  await migrateFileTo(file, names[names.length - 2] as string);
  const db = new Database(file);
  const created = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'tasks_by_created'").pluck().get();
  db.prepare("INSERT INTO meta (key, value) VALUES ('deferred_task_indexes', ?)").run(
    JSON.stringify({ indexes: [{ name: 'tasks_by_created', sql: created }], wordsFrom: null }),
  );
  db.exec('DROP INDEX tasks_by_created');
  db.close();

  await upgradeMirrorFile(file, {});

  const after = new Database(file, { readonly: true });
  try {
    expect(after.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'tasks_by_created'").get()).toBeDefined();
    expect(after.prepare("SELECT 1 FROM meta WHERE key = 'deferred_task_indexes'").get()).toBeUndefined();
    expect(pendingMigrations(file)).toEqual([]);
  } finally {
    after.close();
  }
});
