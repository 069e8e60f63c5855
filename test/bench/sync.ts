// `npm run bench -- sync [--tasks 100000 | --sizes N,N,...] [--latency-ms 50] [--edits 1000] [--no-push] [--pull-worker built|source] [--max-chains N] [--client-code built|source]`
// The sync engine against the emulator (its own process, 100 000 tasks, the
// contract's rate limits), each phase on its own token so that no phase
// spends another's budget:
// - initial: a first sync with `latency-ms` added to every answer (the task
//   list walked as `initial_chains` chains at once), against a floor of a bare
//   undici client sending the engine's other requests in the same order, then
//   walking the whole task list as one cursor chain, parsing each body, one
//   page after another (in a child process: its memory and parsing are not the engine's);
// - resync: a no-change re-sync (in a fresh rate window: a first sync of 100 000
//   tasks, the person's tasks first, spends ~190 requests of the 540 a minute
//   background pulling may use while no one is at work), against a bare client revalidating the same
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
// From a million tasks on, the task list (~1 000 pages of 1 000) meets the
// rate limit: the engine's background pulling leaves a tenth of each window
// to the person by design (half once they are at work: no one is, here),
// and the floors wait out each 429 for its Retry-After as the engine does, so
// both are walks a client could make; each phase reports its requests, its
// 429s and the time the limit held it beside its time (the warm-up alone runs
// with the limit lifted: it is not measured, and it would wait minutes).
// `--sizes 10000,100000,1000000` runs it once per size and prints a table of
// the figures by size (bench-sizes.ts), so that growth faster than the tasks shows.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ApiClient } from '../../sync/api/api-client';
import { staticCredentials } from '../../sync/api/credentials';
import { SyncEngine } from '../../sync/engine/sync-engine';
import { builtPullWorker } from '../support/built-pull-worker';
import { threadCpuMs, threadCpuSince } from './thread-cpu';
import { benchEngine } from './bench-engine';
import { runSizes } from './bench-sizes';
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
    /** Comma-separated task counts: a run each, and the table of figures by size. */
    sizes: { type: 'string' },
  },
});
// Before the build below: each size's run builds itself (built-bench.ts).
if (values.sizes !== undefined) {
  await runSizes(fileURLToPath(import.meta.url), values.sizes, [
    'initial_s',
    'initial_floor_s',
    'initial_ratio',
    'initial_active_ratio',
    'initial_requests',
    'initial_budget_wait_s',
    'initial_floor_waited_s',
    'resync_s',
    'resync_floor_s',
    'resync_ratio',
    'resync_budget_wait_s',
    'push_per_s',
    'max_block_ms',
    'peak_rss_mb',
    'peak_main_heap_mb',
    'initial_loopback_per_s',
    'initial_main_cpu_ms',
    'initial_busiest_thread_cpu_ms',
    'emulator_seed_s',
    'emulator_rss_mb',
    'load_avg',
  ]);
  process.exit(0);
}
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
const seedStarted = performance.now();
const info = await startEmulatorProcess({ tasks: taskCount });
// The emulator prints its first line once the tasks are seeded.
const emulatorSeedS = (performance.now() - seedStarted) / 1000;
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

/** The emulator process's RSS now, in MB. */
async function emulatorRssMb(): Promise<number> {
  const usage = (await control('GET', '/process')) as { rss_bytes: number };
  return round(usage.rss_bytes / 2 ** 20, 1);
}

/**
 * The client whose rate-limit waits are being summed (ms): sampled with the RSS, a sample counts
 * when the governor holds requests and none is in flight (the budget, not the network, sets the pace).
 */
const budget = { client: null as ApiClient | null, waitMs: 0 };
let lastSample = performance.now();
let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const rssTimer = setInterval(() => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  const now = performance.now();
  const state = budget.client?.governor.state();
  if (state && state.inFlight === 0 && state.queued.user + state.queued.background > 0)
    budget.waitMs += now - lastSample;
  lastSample = now;
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
  resync_token?: string;
}): Promise<FloorFigures> {
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
  return JSON.parse(line) as FloorFigures;
}

/** What sync-floor.ts prints: each floor's time, and the requests, 429s and seconds waited in it. */
interface FloorFigures {
  initial_floor_s: number;
  resync_floor_s: number;
  list_pages: number;
  initial_requests: number;
  initial_429: number;
  initial_waited_s: number;
  resync_requests: number;
  resync_429: number;
  resync_waited_s: number;
}

/** Runs `phase` with the emulator's rate limit for live tokens lifted, then puts the limit back. */
async function withoutRateLimit<T>(phase: () => Promise<T>): Promise<T> {
  const { live } = (await control('PUT', '/rate-limit', {})) as { live: number };
  await control('PUT', '/rate-limit', { live: 1_000_000_000 });
  try {
    return await phase();
  } finally {
    await control('PUT', '/rate-limit', { live });
  }
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
  const emulatorSeededRssMb = await emulatorRssMb();
  log(`emulator: ${taskCount} tasks seeded in ${round(emulatorSeedS, 1)} s, RSS ${emulatorSeededRssMb} MB`);
  const warmStarted = performance.now();
  const warmLine = await withoutRateLimit(async () => {
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
    const [line] = (await once(createInterface({ input: warmer.stdout }), 'line')) as [string];
    await once(warmer, 'exit');
    return line;
  });
  const warmupS = (performance.now() - warmStarted) / 1000;
  log(`warm-up: the list walked, and a throwaway first sync ${warmLine} in ${round(warmupS, 1)} s`);

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
  budget.client = engineApi;
  budget.waitMs = 0;
  t0 = performance.now();
  const initialStartedAt = t0;
  const threadsBefore = threadCpuMs();
  const initial = await main.engine.pullOnce();
  const initialS = (performance.now() - t0) / 1000;
  const initialThreads = threadCpuSince(threadsBefore);
  loopDelay.disable();
  const initialBudgetWaitS = budget.waitMs / 1000;
  const initial429 = engineApi.stats.rateLimited;
  const maxBlockMs = loopDelay.max / 1e6;
  const mirroredTasks = main.mirror.tasks.total();
  const initialChains = main.mirror.passes.state('tasks', '')?.chains.length ?? 0;
  const walked = await getsSent();
  log(
    `initial: ${mirroredTasks} tasks, ${initial.requests} requests (${initial429} answered 429) in ${round(initialS)} s, ${round(initialBudgetWaitS, 1)} s of it held by the rate limit, max block ${round(maxBlockMs, 1)} ms`,
  );
  if (initialThreads !== null)
    log(
      `initial's CPU: main thread ${initialThreads.main} ms, busiest other thread ${initialThreads.busiestOther} ms (${Math.round((100 * initialThreads.busiestOther) / (initialS * 1000))}% of the time)`,
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
  // The revalidation on a token of its own: a fresh rate window, as the engine's re-sync waits for.
  const floors = await walkInChild({
    base_url: info.base_url,
    token: floorToken,
    paths: otherPaths,
    list,
    resync_token: await freshToken('bench floor resync'),
  });
  const initialFloorS = floors.initial_floor_s;
  const resyncFloorS = floors.resync_floor_s;
  log(
    `floors: ${otherPaths.length} pages and the list's ${floors.list_pages} walked in ${round(initialFloorS)} s (${floors.initial_429} answered 429, ${round(floors.initial_waited_s, 1)} s waited), revalidated in ${round(resyncFloorS)} s (${floors.resync_429} answered 429) (the engine sent ${walked.length}, in ${initialChains} chain(s))`,
  );

  // No-change re-sync, in a fresh rate window: the first sync spent most of its token's
  // background part of a minute's budget, and the engine rightly waits for the window otherwise.
  const windowWait = initialStartedAt + RATE_WINDOW_MS - performance.now();
  if (windowWait > 0) {
    log(`resync waits ${round(windowWait / 1000, 1)} s for a fresh rate window`);
    await new Promise((resolve) => setTimeout(resolve, windowWait));
  }
  await control('DELETE', '/requests');
  budget.waitMs = 0;
  t0 = performance.now();
  const resync = await main.engine.pullOnce();
  const resyncS = (performance.now() - t0) / 1000;
  const resyncBudgetWaitS = budget.waitMs / 1000;
  budget.client = null;
  const resync429 = engineApi.stats.rateLimited - initial429;
  log(
    `resync: ${resync.notModified} of ${resync.requests} answered 304 in ${round(resyncS)} s, ${round(resyncBudgetWaitS, 1)} s of it held by the rate limit`,
  );

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
  const emulatorRssAtEnd = await emulatorRssMb();

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
      // Which thread sets the first sync's pace: main's CPU over it, and the busiest other thread's (null off Linux).
      initial_main_cpu_ms: initialThreads?.main ?? null,
      initial_busiest_thread_cpu_ms: initialThreads?.busiestOther ?? null,
      // What the rate limit did (it binds from a million tasks on): requests, 429s and time held, engine and floor.
      initial_429: initial429,
      initial_budget_wait_s: round(initialBudgetWaitS, 1),
      initial_floor_requests: floors.initial_requests,
      initial_floor_429: floors.initial_429,
      initial_floor_waited_s: round(floors.initial_waited_s, 1),
      // The ratio of the time each spent apart from what the rate limit held it: the client's own pace.
      initial_active_ratio: round(
        (initialS - initialBudgetWaitS) / (initialFloorS - floors.initial_waited_s),
      ),
      resync_requests: resync.requests,
      resync_429: resync429,
      resync_budget_wait_s: round(resyncBudgetWaitS, 1),
      resync_floor_requests: floors.resync_requests,
      resync_floor_429: floors.resync_429,
      resync_floor_waited_s: round(floors.resync_waited_s, 1),
      warmup_s: round(warmupS, 1),
      emulator_seed_s: round(emulatorSeedS, 1),
      emulator_seeded_rss_mb: emulatorSeededRssMb,
      emulator_rss_mb: emulatorRssAtEnd,
      load_avg: Number(loadavg()[0]?.toFixed(1)),
    }),
  );
} finally {
  clearInterval(rssTimer);
  await Promise.all(clients.map((c) => c.close()));
  await info.stop();
  await rm(dir, { recursive: true, force: true });
}
