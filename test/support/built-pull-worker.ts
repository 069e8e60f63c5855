// The pull worker as the app runs it: out/main/pull-store-worker.js, built by
// electron-vite as its own entry. Tests and the sync benchmark that want that
// file call builtPullWorker(), which builds first when the file is missing or
// older than what it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
export const BUILT_PULL_WORKER = join(root, 'out', 'main', 'pull-store-worker.js');

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
  if (existsSync(BUILT_PULL_WORKER) && statSync(BUILT_PULL_WORKER).mtimeMs >= newestSourceMs()) {
    return BUILT_PULL_WORKER;
  }
  const built = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (built.status !== 0) throw new Error(`electron-vite build failed:\n${built.stderr}${built.stdout}`);
  return BUILT_PULL_WORKER;
}
