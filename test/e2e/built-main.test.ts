// The main process as electron-vite builds it (out/main), where Electron
// cannot run: the pull worker is a file of its own that really opens and
// fills a mirror, "Try the demo" is a chunk loaded on demand that starts the
// emulator, and main's entry does not load the emulator up front.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openMirror } from '../../db/open-mirror';
import { WorkerPullStore } from '../../sync/pull/worker-pull-store';
import type { StartedDemo } from '../../main/ipc/demo-server';

const OUT_MAIN = resolve(import.meta.dirname, '../../out/main');

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'svc-built-main-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

test('main passes the built pull worker, and that worker opens the mirror and answers', async () => {
  const index = readFileSync(join(OUT_MAIN, 'index.js'), 'utf8');
  expect(index).toContain('new URL("./pull-store-worker.js", import.meta.url)');
  const file = join(directory, 'mirror.db');
  (await openMirror(file)).close();
  const store = new WorkerPullStore(file, {
    workerUrl: pathToFileURL(join(OUT_MAIN, 'pull-store-worker.js')),
  });
  try {
    await store.ready();
    expect(await store.newestTaskDay()).toBeNull();
    await store.setAccount({ orgId: 'org-1', username: 'ada' });
  } finally {
    await store.close();
  }
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
