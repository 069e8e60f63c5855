// Builds the headless command (`svc-desktop`, bin/svc-desktop.js) into out/cli/:
// sync/cli/main.ts and the pull worker it starts, each one ES module for Node,
// with the packages left to node_modules. `npm run build` runs it after
// electron-vite; the test run builds it first too (test/support/build-cli-setup.ts),
// so the command the tests spawn is the one that ships, never a stale one.
import { buildSync } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes out/cli/svc-desktop.mjs and out/cli/pull-store-worker.mjs; returns the command's path. */
export function buildCli() {
  buildSync({
    entryPoints: {
      'svc-desktop': join(root, 'sync/cli/main.ts'),
      // The worker is a file of its own: a Worker starts a file, not an import (worker-pull-store.ts).
      'pull-store-worker': join(root, 'sync/pull/pull-store-worker.ts'),
    },
    outdir: join(root, 'out/cli'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return join(root, 'out/cli/svc-desktop.mjs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildCli();
