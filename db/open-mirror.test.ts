// openMirror's `nativeBinding`: the Electron app opens mirrors with an addon
// outside node_modules (built for Electron); here a copy of Node's build
// stands in for it, so the test sees the option is really used.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openMirror } from './open-mirror';

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
