// The sync bench's floors, in a process of their own so that the bare
// client's parsing and memory do not count as the engine's (peak RSS, event
// loop): walks the given pages one after another, then the whole task list
// as one cursor chain (`list`: its first page's path; the bare sequential
// walk the engine's chains are measured against), parsing each body (the
// first sync's floor), then revalidates them all one after another with their
// ETags (the re-sync's floor; not when `revalidate` is false: the bench's
// warm-up walk), on `resync_token` when given (a fresh rate window, as the
// engine's re-sync has). A 429 is waited out for its Retry-After and the
// request sent again, as the engine's client does: at a million tasks the
// walk meets the rate limit (600 requests a minute per token), and a floor
// that ignored it would be no floor a client could reach. Input: one JSON line
// on stdin ({base_url, token, paths, list, revalidate?, resync_token?}); output:
// one JSON line ({initial_floor_s, resync_floor_s, list_pages} and, per phase,
// the requests sent, the 429s among them and the seconds waited for them).
import { text } from 'node:stream/consumers';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';

const job = JSON.parse(await text(process.stdin)) as {
  base_url: string;
  token: string;
  paths: string[];
  list: string | null;
  revalidate?: boolean;
  resync_token?: string;
};
const bare = new Client(job.base_url, { pipelining: 1 });
const etags: (string | null)[] = [];
const walked: string[] = [];

/** Requests sent, 429s among them, and ms waited for their Retry-After: one phase's. */
interface Spent {
  requests: number;
  rateLimited: number;
  waitedMs: number;
}

/** GET `path`, sending it again after each 429 once its Retry-After has passed; the answer's status and body. */
async function get(
  path: string,
  headers: Record<string, string>,
  spent: Spent,
): Promise<{ status: number; etag: string | null; body: string }> {
  for (;;) {
    const answer = await bare.request({ method: 'GET', path, headers });
    const body = await answer.body.text();
    spent.requests += 1;
    if (answer.statusCode !== 429) {
      const etag = answer.headers.etag;
      return { status: answer.statusCode, etag: typeof etag === 'string' ? etag : null, body };
    }
    spent.rateLimited += 1;
    const retryAfter = Number(answer.headers['retry-after']);
    const waitMs = (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1) * 1000;
    spent.waitedMs += waitMs;
    await sleep(waitMs);
  }
}

const initial: Spent = { requests: 0, rateLimited: 0, waitedMs: 0 };
const initialHeaders = { authorization: `Bearer ${job.token}` };
async function walk(path: string): Promise<unknown> {
  const answer = await get(path, initialHeaders, initial);
  if (answer.status !== 200) throw new Error(`floor ${path}: ${answer.status}`);
  walked.push(path);
  etags.push(answer.etag);
  return JSON.parse(answer.body);
}
let t0 = performance.now();
for (const path of job.paths) await walk(path);
let listPages = 0;
for (let path = job.list; path !== null; listPages++) {
  const { next_cursor: cursor } = (await walk(path)) as { next_cursor: string | null };
  path = cursor === null ? null : `${job.list}&cursor=${encodeURIComponent(cursor)}`;
}
const initialFloorS = (performance.now() - t0) / 1000;

const resync: Spent = { requests: 0, rateLimited: 0, waitedMs: 0 };
const resyncHeaders = { authorization: `Bearer ${job.resync_token ?? job.token}` };
t0 = performance.now();
for (const [k, path] of job.revalidate === false ? [] : walked.entries()) {
  const etag = etags[k];
  await get(path, etag ? { ...resyncHeaders, 'if-none-match': etag } : resyncHeaders, resync);
}
const resyncFloorS = (performance.now() - t0) / 1000;
await bare.close();
console.log(
  JSON.stringify({
    initial_floor_s: initialFloorS,
    resync_floor_s: resyncFloorS,
    list_pages: listPages,
    initial_requests: initial.requests,
    initial_429: initial.rateLimited,
    initial_waited_s: initial.waitedMs / 1000,
    resync_requests: resync.requests,
    resync_429: resync.rateLimited,
    resync_waited_s: resync.waitedMs / 1000,
  }),
);
