// `npm run bench -- sync [--tasks 100000] [--latency-ms 50] [--edits 1000] [--no-push] [--pull-worker built|source] [--max-chains N] [--client-code built|source]`
// The sync engine against the emulator (its own process, 100 000 tasks, the
// contract's rate limits), each phase on its own token so that no phase
// spends another's budget:
// - initial: a first sync with `latency-ms` added to every answer (the task
//   list walked as `initial_chains` chains at once), against a floor of a bare
//   undici client sending the engine's other requests in the same order, then
//   walking the whole task list as one cursor chain, parsing each body, one
//   page after another (in a child process: its memory and parsing are not the engine's);
// - resync: a no-change re-sync (in a fresh rate window: a first sync of 100 000
//   tasks, the person's tasks first, spends ~190 requests of the 300 a minute
//   background pulling may use), against a bare client revalidating the same
//   pages one after another with If-None-Match;
// - push: `edits` queued edits pushed by the engine's pusher (requests per
//   second, 429s seen);
// - loopback: a first sync into a new mirror without added latency (tasks per second).
// The longest event-loop stall (monitorEventLoopDelay) is measured during the
// first sync with latency, beside the same measure over 5 idle seconds (what
// the machine's scheduler alone costs); the peak RSS of this process over the
// phases with latency (the loopback run comes last and is not counted). This
// process is the client alone: main thread, pull worker and SQLite caches
// together, run as the app runs them (`--client-code built`, the default: this
// file built and run by node, see built-bench.ts; `source`: through tsx, ~60 MB
// more); the emulator, the warm-up (the list walked, then a throwaway first
// sync: the emulator caches each query's pages, so the chains' pages come
// as warm as the floor's, sync-warm.ts) and the floors run in processes of
// their own. The last stdout line is one JSON object of figures.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ApiClient } from '../../sync/api/api-client';
import { staticCredentials } from '../../sync/api/credentials';
import { SyncEngine } from '../../sync/engine/sync-engine';
import { builtPullWorker } from '../support/built-pull-worker';
import { benchEngine } from './bench-engine';
import { runBuilt, runsFromSource } from './built-bench';
import { startEmulatorProcess } from './emulator-process';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    'latency-ms': { type: 'string', default: '50' },
    edits: { type: 'string', default: '1000' },
    'no-push': { type: 'boolean', default: false },
    'pull-in-worker': { type: 'string', default: 'yes' },
    // `built`: out/main/pull-store-worker.js (built first if stale), as the app runs it; `source`: the .ts through tsx.
    'pull-worker': { type: 'string', default: 'built' },
    // At most this many chains for the task list (1: one cursor chain, as before issue 14); default: the engine's.
    'max-chains': { type: 'string' },
    // `built`: this file built and run by node, as the app runs its code; `source`: through tsx.
    'client-code': { type: 'string', default: 'built' },
  },
});
const clientCode = values['client-code'] === 'source' ? 'source' : 'built';
if (clientCode === 'built' && runsFromSource(import.meta.url)) {
  process.exit(await runBuilt(import.meta.url, process.argv.slice(2)));
}
const taskCount = Number(values.tasks);
const latencyMs = Number(values['latency-ms']);
const editCount = Number(values.edits);
const inWorker = values['pull-in-worker'] !== 'no';
const workerUrl = inWorker && values['pull-worker'] === 'built' ? builtPullWorker() : null;
const maxChains = values['max-chains'] === undefined ? null : Number(values['max-chains']);

/** The service's rate window (600 requests a minute per token), with a margin. */
const RATE_WINDOW_MS = 62_000;

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Each phase's line ends with the peak RSS so far: where the peak comes from. */
const log = (line: string) =>
  console.error(`[bench sync] ${line} (peak RSS so far ${Math.round(peakRss / 2 ** 20)} MB)`);

const root = join(import.meta.dirname, '..', '..');
const info = await startEmulatorProcess({ tasks: taskCount });
const admin = { 'x-emulator-admin': info.admin_secret, 'content-type': 'application/json' };

async function control(
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const answer = await request(`${info.base_url}/_emulator${path}`, {
    method,
    headers: admin,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await answer.body.text();
  if (answer.statusCode >= 300) throw new Error(`control ${method} ${path}: ${answer.statusCode} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/** A fresh token per phase: the service counts its budget per token. */
async function freshToken(name: string): Promise<string> {
  const minted = (await control('POST', '/tokens', {
    name,
    scopes: ['tasks:write', 'projects:write', 'teams:write', 'org:write'],
  })) as { token: string };
  return minted.token;
}

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const rssTimer = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
}, 50);

const dir = await mkdtemp(join(tmpdir(), 'svc-bench-sync-'));
const clients: ApiClient[] = [];
function apiFor(token: string): ApiClient {
  const api = new ApiClient({ baseUrl: info.base_url, credentials: staticCredentials(token) });
  clients.push(api);
  return api;
}

async function engineOn(file: string, api: ApiClient) {
  const { mirror, engine } = await benchEngine(file, api, {
    pullInWorker: inWorker,
    ...(workerUrl !== null ? { pullWorker: { workerUrl } } : {}),
    ...(maxChains !== null ? { taskChains: { maxChains } } : {}),
  });
  // As the app does at startup: the pull worker is up before the first sync.
  await engine.ready();
  return { mirror, engine };
}

/**
 * test/bench/sync-floor.ts in a process of its own: walks `paths`, then the task list from `list`,
 * one page after another (then revalidates them unless `revalidate` is false).
 */
async function walkInChild(job: {
  base_url: string;
  token: string;
  paths: string[];
  list: string;
  revalidate?: boolean;
}): Promise<{ initial_floor_s: number; resync_floor_s: number; list_pages: number }> {
  const walker = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(root, 'test', 'bench', 'sync-floor.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  walker.stdin.end(JSON.stringify(job));
  const [line] = (await once(createInterface({ input: walker.stdout }), 'line')) as [string];
  await once(walker, 'exit');
  return JSON.parse(line) as { initial_floor_s: number; resync_floor_s: number; list_pages: number };
}

/** The GETs a sync sent (path and query, in order), read from the emulator's request log. */
async function getsSent(): Promise<string[]> {
  const { data } = (await control('GET', '/requests')) as {
    data: { method: string; path: string; query: string }[];
  };
  return data.filter((r) => r.method === 'GET').map((r) => `${r.path}${r.query}`);
}

try {
  // The emulator builds and caches each page body on first request: walk the task list once, so
  // neither the engine nor the floor pays for that; in a child (the floor's walker), so that its
  // parsing of 100 000 tasks is not in this process's memory (it held ~60 MB of RSS after).
  const warmToken = await freshToken('bench warm-up');
  const { org_id: orgId } = (await (
    await request(`${info.base_url}/v1/me`, { headers: { authorization: `Bearer ${warmToken}` } })
  ).body.json()) as { org_id: string };
  const list = `/v1/tasks?${new URLSearchParams({ org_id: orgId, limit: '1000', sort_by: 'created_at', sort_order: 'asc' }).toString()}`;
  await walkInChild({ base_url: info.base_url, token: warmToken, paths: [], list, revalidate: false });
  // And the engine's own queries (the chains' filtered lists): a throwaway first sync, in a child too.
  const warmer = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(root, 'test', 'bench', 'sync-warm.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  warmer.stdin.end(
    JSON.stringify({
      base_url: info.base_url,
      token: await freshToken('bench warm-up engine'),
      max_chains: maxChains,
    }),
  );
  const [warmLine] = (await once(createInterface({ input: warmer.stdout }), 'line')) as [string];
  await once(warmer, 'exit');
  log(`warm-up: the list walked, and a throwaway first sync ${warmLine}`);

  await control('POST', '/faults', { kind: 'latency', ms: latencyMs });

  let t0: number;
  // Initial sync with latency, the event loop watched.
  const engineApi = apiFor(await freshToken('bench engine'));
  const main = await engineOn(join(dir, 'mirror.db'), engineApi);
  await control('DELETE', '/requests');
  log(`engine ready: RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
  // What this machine's scheduler alone costs the event loop: 5 s of doing nothing, measured the same way.
  const idleDelay = monitorEventLoopDelay({ resolution: 10 });
  idleDelay.enable();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  idleDelay.disable();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  t0 = performance.now();
  const initialStartedAt = t0;
  const initial = await main.engine.pullOnce();
  const initialS = (performance.now() - t0) / 1000;
  loopDelay.disable();
  const maxBlockMs = loopDelay.max / 1e6;
  const mirroredTasks = main.mirror.tasks.total();
  const initialChains = main.mirror.passes.state('tasks', '')?.chains.length ?? 0;
  const walked = await getsSent();
  log(
    `initial: ${mirroredTasks} tasks, ${initial.requests} requests in ${round(initialS)} s, max block ${round(maxBlockMs, 1)} ms`,
  );

  // The floors: a bare client, the same pages in the same order, each body parsed, then each
  // revalidated; in a process of its own (test/bench/sync-floor.ts), so its memory is not the engine's.
  const floorToken = await freshToken('bench floor');
  // The chains' pages (and their probes) are the whole task list, filtered by creation day or not at all
  // (one chain): the floor walks the list itself instead, one page after another, as a client without
  // chains would. The person's own tasks (filter[assignee]) stay in the floor's other requests.
  const isChainPage = (path: string) =>
    path.startsWith('/v1/tasks?') &&
    [...new URLSearchParams(path.slice('/v1/tasks?'.length)).keys()].every(
      (key) =>
        !key.startsWith('filter[') || key === 'filter[created_after]' || key === 'filter[created_before]',
    );
  const otherPaths = walked.filter((path) => !isChainPage(path));
  const floors = await walkInChild({ base_url: info.base_url, token: floorToken, paths: otherPaths, list });
  const initialFloorS = floors.initial_floor_s;
  const resyncFloorS = floors.resync_floor_s;
  log(
    `floors: ${otherPaths.length} pages and the list's ${floors.list_pages} walked in ${round(initialFloorS)} s, revalidated in ${round(resyncFloorS)} s (the engine sent ${walked.length}, in ${initialChains} chain(s))`,
  );

  // No-change re-sync, in a fresh rate window: the first sync spent most of its token's
  // background half of a minute's budget, and the engine rightly waits for the window otherwise.
  const windowWait = initialStartedAt + RATE_WINDOW_MS - performance.now();
  if (windowWait > 0) {
    log(`resync waits ${round(windowWait / 1000, 1)} s for a fresh rate window`);
    await new Promise((resolve) => setTimeout(resolve, windowWait));
  }
  await control('DELETE', '/requests');
  t0 = performance.now();
  const resync = await main.engine.pullOnce();
  const resyncS = (performance.now() - t0) / 1000;
  log(`resync: ${resync.notModified} of ${resync.requests} answered 304 in ${round(resyncS)} s`);

  await main.engine.close();

  // Push: queued edits drained by the pusher on a fresh token.
  let pushPerS: number | null = null;
  let push429: number | null = null;
  let pushed: number | null = null;
  if (!values['no-push']) {
    const pushApi = apiFor(await freshToken('bench push'));
    const pusher = new SyncEngine({
      mirror: main.mirror,
      api: pushApi,
      me: { username: '', user_id: '' },
    });
    // The first tasks by creation, read as a page (not the whole mirror: that would be what the heap measures).
    const today = new Date().toISOString().slice(0, 10);
    const ids = main.mirror.tasks
      .query(new URLSearchParams({ sort_by: 'created_at' }), { me: '', today, limit: editCount })
      .items.map((task) => task.task_id);
    for (const [k, id] of ids.entries()) main.mirror.tasks.edit(id, { title: `bench edit ${k}` });
    t0 = performance.now();
    const summary = await pusher.pushOnce();
    const pushS = (performance.now() - t0) / 1000;
    pushPerS = summary.requests / pushS;
    push429 = pushApi.stats.rateLimited;
    pushed = summary.pushed;
    log(
      `push: ${summary.pushed} edits, ${summary.requests} requests in ${round(pushS)} s, ${push429} answered 429`,
    );
  }
  main.mirror.close();
  const peakRssWithLatency = peakRss;

  // Loopback, last (so its mirror and worker do not count in the peak above): no added latency.
  await control('DELETE', '/faults');
  // Loopback: no added latency.
  const loop = await engineOn(join(dir, 'loopback.db'), apiFor(await freshToken('bench loopback')));
  t0 = performance.now();
  await loop.engine.pullOnce();
  const loopbackS = (performance.now() - t0) / 1000;
  const loopbackTasks = loop.mirror.tasks.total();
  await loop.engine.close();
  loop.mirror.close();
  log(`loopback: ${loopbackTasks} tasks in ${round(loopbackS)} s`);

  console.log(
    JSON.stringify({
      tasks: mirroredTasks,
      latency_ms: latencyMs,
      pull_in_worker: inWorker,
      pull_worker: workerUrl === null ? 'source' : 'built',
      client_code: clientCode,
      initial_s: round(initialS),
      initial_floor_s: round(initialFloorS),
      initial_ratio: round(initialS / initialFloorS),
      initial_requests: initial.requests,
      initial_chains: initialChains,
      resync_s: round(resyncS),
      resync_floor_s: round(resyncFloorS),
      resync_ratio: round(resyncS / resyncFloorS),
      resync_not_modified: resync.notModified,
      push_per_s: pushPerS === null ? null : round(pushPerS, 2),
      push_429: push429,
      pushed,
      max_block_ms: round(maxBlockMs, 1),
      idle_max_block_ms: round(idleDelay.max / 1e6, 1),
      block_p99_ms: round(loopDelay.percentile(99) / 1e6, 1),
      peak_rss_mb: round(peakRssWithLatency / 2 ** 20, 1),
      peak_main_heap_mb: round(peakHeap / 2 ** 20, 1),
      initial_loopback_per_s: Math.round(loopbackTasks / loopbackS),
    }),
  );
} finally {
  clearInterval(rssTimer);
  await Promise.all(clients.map((c) => c.close()));
  await info.stop();
  await rm(dir, { recursive: true, force: true });
}
