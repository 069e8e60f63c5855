// The sync bench's floors, in a process of their own so that the bare
// client's parsing and memory do not count as the engine's (peak RSS, event
// loop): walks the given pages one after another, then the whole task list
// as one cursor chain (`list`: its first page's path; the bare sequential
// walk the engine's chains are measured against), parsing each body (the
// first sync's floor), then revalidates them all one after another with their
// ETags (the re-sync's floor; not when `revalidate` is false: the bench's
// warm-up walk). Input: one JSON line on stdin ({base_url, token, paths, list,
// revalidate?}); output: one JSON line ({initial_floor_s, resync_floor_s, list_pages}).
import { text } from 'node:stream/consumers';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

const job = JSON.parse(await text(process.stdin)) as {
  base_url: string;
  token: string;
  paths: string[];
  list: string | null;
  revalidate?: boolean;
};
const bare = new Client(job.base_url, { pipelining: 1 });
const headers = { authorization: `Bearer ${job.token}` };
const etags: (string | null)[] = [];
const walked: string[] = [];
async function walk(path: string): Promise<unknown> {
  const answer = await bare.request({ method: 'GET', path, headers });
  const body = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`floor ${path}: ${answer.statusCode}`);
  walked.push(path);
  etags.push(typeof answer.headers.etag === 'string' ? answer.headers.etag : null);
  return JSON.parse(body);
}
let t0 = performance.now();
for (const path of job.paths) await walk(path);
let listPages = 0;
for (let path = job.list; path !== null; listPages++) {
  const { next_cursor: cursor } = (await walk(path)) as { next_cursor: string | null };
  path = cursor === null ? null : `${job.list}&cursor=${encodeURIComponent(cursor)}`;
}
const initialFloorS = (performance.now() - t0) / 1000;
t0 = performance.now();
for (const [k, path] of job.revalidate === false ? [] : walked.entries()) {
  const etag = etags[k];
  const answer = await bare.request({
    method: 'GET',
    path,
    headers: etag ? { ...headers, 'if-none-match': etag } : headers,
  });
  await answer.body.dump();
}
const resyncFloorS = (performance.now() - t0) / 1000;
await bare.close();
console.log(
  JSON.stringify({ initial_floor_s: initialFloorS, resync_floor_s: resyncFloorS, list_pages: listPages }),
);
