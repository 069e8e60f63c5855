// The pull worker as the app runs it: out/main/pull-store-worker.js, built by
// electron-vite as its own entry (the mirror's upgrade worker beside it, by the same build). Tests and the sync benchmark that want that
// file call builtPullWorker(), which builds first when the file is missing or
// older than what it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
export const BUILT_PULL_WORKER = join(root, 'out', 'main', 'pull-store-worker.js');
/** The mirror's upgrade worker, built by the same build beside it. */
export const BUILT_UPGRADE_WORKER = join(root, 'out', 'main', 'mirror-upgrade-worker.js');

/** The Node build of better-sqlite3, named explicitly as the app names its Electron build. */
export const NODE_SQLITE_ADDON = join(
  dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

/** The newest change to what the worker is built from (its sources and the build's config). */
function newestSourceMs(): number {
  let newest = statSync(join(root, 'electron.vite.config.ts')).mtimeMs;
  for (const folder of ['sync', 'db']) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts')) {
        newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** The built worker's path, after `electron-vite build` if it was missing or stale (`npm test` builds first anyway). */
export function builtPullWorker(): string {
  const built = [BUILT_PULL_WORKER, BUILT_UPGRADE_WORKER];
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= newestSourceMs())) {
    return BUILT_PULL_WORKER;
  }
  const build = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stderr}${build.stdout}`);
  return BUILT_PULL_WORKER;
}
