// `npm run bench -- emulator [--tasks 100000] [--limit 1000]`: how fast the
// emulator answers, so that it is never what a client benchmark measures. The
// emulator runs as its own process (as `npm run emulator` does) with the tasks
// seeded; a bare undici client walks every page of `GET /v1/tasks` at
// limit=1000, then walks again sending each page's ETag in If-None-Match (every
// answer a 304). The last stdout line is one JSON object of figures.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { startEmulatorProcess } from './emulator-process';

const { values } = parseArgs({
  options: { tasks: { type: 'string', default: '100000' }, limit: { type: 'string', default: '1000' } },
});
const taskCount = Number(values.tasks);
const limit = Number(values.limit);

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

const TASK_START = Buffer.from('{"task_id":');

function countTasks(page: Buffer): number {
  let count = 0;
  for (let at = page.indexOf(TASK_START); at !== -1; at = page.indexOf(TASK_START, at + 1)) count += 1;
  return count;
}

/** The page ends `"next_cursor":null}` or `"next_cursor":"…"}`: read it off the tail. */
function nextCursorOf(page: Buffer): string | null {
  const tail = page.subarray(Math.max(0, page.length - 600)).toString('utf8');
  const match = /"next_cursor":(null|"([^"]*)")\}$/.exec(tail);
  if (!match) throw new Error(`no next_cursor at the end of the page: …${tail.slice(-80)}`);
  return match[2] ?? null;
}

const started = performance.now();
const info = await startEmulatorProcess({ tasks: taskCount, args: ['--rate-limit-live', '1000000'] });
const startupMs = performance.now() - started;

const client = new Client(info.base_url, { pipelining: 1 });
const headers = { authorization: `Bearer ${info.tokens.live}` };

/** The emulator's own CPU time so far (ms): its cost apart from whatever else the machine is doing. */
async function emulatorCpuMs(): Promise<number> {
  const response = await client.request({
    method: 'GET',
    path: '/_emulator/process',
    headers: { 'x-emulator-admin': info.admin_secret },
  });
  const usage = (await response.body.json()) as {
    cpu_user_ms: number;
    cpu_system_ms: number;
    rss_bytes: number;
  };
  rssBytes = usage.rss_bytes;
  return usage.cpu_user_ms + usage.cpu_system_ms;
}
let rssBytes = 0;

try {
  const cpuAtStart = await emulatorCpuMs();
  // Walk 1: every page, fresh.
  const pages: { path: string; etag: string }[] = [];
  const pageMs: number[] = [];
  let cursor: string | null = null;
  let seen = 0;
  do {
    const path: string =
      `/v1/tasks?org_id=${info.org_id}&limit=${limit}` +
      (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const t0 = performance.now();
    const response = await client.request({ method: 'GET', path, headers });
    // A bare client: the bytes as they come, not decoded into a string (the emulator is what is measured).
    const bytes = Buffer.from(await response.body.arrayBuffer());
    pageMs.push(performance.now() - t0);
    if (response.statusCode !== 200)
      throw new Error(`page ${pages.length}: ${response.statusCode} ${bytes.toString()}`);
    seen += countTasks(bytes);
    pages.push({ path, etag: String(response.headers.etag) });
    cursor = nextCursorOf(bytes);
  } while (cursor !== null);
  if (seen !== taskCount) throw new Error(`walked ${seen} tasks, expected ${taskCount}`);

  const cpuAfterWalk = await emulatorCpuMs();

  // Walk 2: the same pages with If-None-Match: all 304.
  const notModifiedMs: number[] = [];
  for (const page of pages) {
    const t0 = performance.now();
    const response = await client.request({
      method: 'GET',
      path: page.path,
      headers: { ...headers, 'if-none-match': page.etag },
    });
    await response.body.dump();
    notModifiedMs.push(performance.now() - t0);
    if (response.statusCode !== 304) throw new Error(`revalidating ${page.path}: ${response.statusCode}`);
  }

  const cpuAfterRevalidation = await emulatorCpuMs();

  console.log(
    JSON.stringify({
      tasks: seen,
      limit,
      pages: pages.length,
      startup_ms: Math.round(startupMs),
      first_page_ms: round(pageMs[0] ?? 0),
      page_ms: round(median(pageMs)),
      page_p95_ms: round(percentile(pageMs, 95)),
      walk_ms: Math.round(pageMs.reduce((a, b) => a + b, 0)),
      not_modified_ms: round(median(notModifiedMs)),
      not_modified_p95_ms: round(percentile(notModifiedMs, 95)),
      emulator_cpu_ms_per_page: round((cpuAfterWalk - cpuAtStart) / pages.length),
      emulator_cpu_ms_per_304: round((cpuAfterRevalidation - cpuAfterWalk) / pages.length),
      emulator_rss_mb: Math.round(rssBytes / 1048576),
      load_average: os.loadavg()[0],
    }),
  );
} finally {
  await client.close();
  await info.stop();
}
