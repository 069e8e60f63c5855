// The main process as electron-vite builds it (out/main), where Electron
// cannot run: main points the engines at the pull worker built beside it,
// "Try the demo" is a chunk loaded on demand that starts the emulator, and
// main's entry does not load the emulator up front.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import type { StartedDemo } from '../../main/ipc/demo-server';

const OUT_MAIN = resolve(import.meta.dirname, '../../out/main');

test('main hands the engines the pull worker built beside it (the worker itself: sync/pull/built-pull-worker.test.ts)', () => {
  const index = readFileSync(join(OUT_MAIN, 'index.js'), 'utf8');
  expect(index).toContain('new URL("./pull-store-worker.js", import.meta.url)');
  expect(existsSync(join(OUT_MAIN, 'pull-store-worker.js'))).toBe(true);
});

test('main hands the accounts the upgrade worker built beside it (the worker itself: sync/accounts/mirror-upgrade.test.ts)', () => {
  const index = readFileSync(join(OUT_MAIN, 'index.js'), 'utf8');
  expect(index).toContain('new URL("./mirror-upgrade-worker.js", import.meta.url)');
  expect(existsSync(join(OUT_MAIN, 'mirror-upgrade-worker.js'))).toBe(true);
});

test('“Try the demo” is a chunk of its own that starts the emulator with sample data', async () => {
  const index = readFileSync(join(OUT_MAIN, 'index.js'), 'utf8');
  expect(index).not.toMatch(/from "fastify"/);
  const chunk = readdirSync(join(OUT_MAIN, 'chunks')).find((name) => name.startsWith('demo-server-'));
  expect(chunk).toBeDefined();
  expect(index).toContain(`./chunks/${chunk}`);
  const demoModule = (await import(pathToFileURL(join(OUT_MAIN, 'chunks', chunk ?? '')).href)) as Record<
    string,
    unknown
  >;
  // Rollup renames a chunk's exports; the start function is the one that takes a seed size.
  const start = Object.values(demoModule).find((value) => typeof value === 'function') as (
    seedTasks?: number,
  ) => Promise<StartedDemo>;
  const demo = await start(15);
  try {
    const response = await fetch(`${demo.server.base_url}/v1/tasks`, {
      headers: { authorization: `Bearer ${demo.token}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: unknown[] };
    expect(body.data.length).toBe(15);
  } finally {
    await demo.stop();
  }
});
