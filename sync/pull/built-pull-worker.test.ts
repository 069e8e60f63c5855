// The pull worker as the packaged app runs it: the file electron-vite builds
// (out/main/pull-store-worker.js, its own entry of the main build), started
// from an explicit location and opening SQLite through the addon it is given.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { BUILT_PULL_WORKER, builtPullWorker, NODE_SQLITE_ADDON } from '../../test/support/built-pull-worker';
import { pullFixturePerTest, serverTaskIds } from './testing/pull-fixture';

const root = resolve(import.meta.dirname, '../..');
const builtWorker = BUILT_PULL_WORKER;
const nodeAddon = NODE_SQLITE_ADDON;

const setUp = pullFixturePerTest();

beforeAll(() => {
  builtPullWorker();
}, 300_000);

test('the main build holds the pull worker as its own entry', () => {
  expect(existsSync(builtWorker)).toBe(true);
});

test('an engine given the built worker and an addon file pulls everything through them', async () => {
  const f = await setUp({
    seedTasks: 1200,
    engine: { pullInWorker: true, pullWorker: { workerUrl: builtWorker, nativeBinding: nodeAddon } },
  });
  const summary = await f.engine.pullOnce();
  expect(summary.initial).toBe(true);
  const server = serverTaskIds(f);
  expect(f.mirroredTaskIds().sort()).toEqual(server);
});

test('the worker opens SQLite with the addon it is given, not the default one', async () => {
  const missing = join(root, 'out', 'no-such-addon', 'better_sqlite3.node');
  const f = await setUp({
    seedTasks: 10,
    engine: { pullInWorker: true, pullWorker: { workerUrl: builtWorker, nativeBinding: missing } },
  });
  const failure = await f.engine.pullOnce().then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(Error);
  expect((failure as Error).message).toContain('no-such-addon');
});
