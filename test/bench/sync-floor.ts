// The sync bench's floors, in a process of their own so that the bare
// client's parsing and memory do not count as the engine's (peak RSS, event
// loop): walks the given pages one after another, parsing each body (the
// first sync's floor), then revalidates them one after another with their
// ETags (the re-sync's floor). Input: one JSON line on stdin
// ({base_url, token, paths}); output: one JSON line ({initial_floor_s, resync_floor_s}).
import { text } from 'node:stream/consumers';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';

const job = JSON.parse(await text(process.stdin)) as { base_url: string; token: string; paths: string[] };
const bare = new Client(job.base_url, { pipelining: 1 });
const headers = { authorization: `Bearer ${job.token}` };
const etags: (string | null)[] = [];
let t0 = performance.now();
for (const path of job.paths) {
  const answer = await bare.request({ method: 'GET', path, headers });
  const body = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`floor ${path}: ${answer.statusCode}`);
  JSON.parse(body);
  etags.push(typeof answer.headers.etag === 'string' ? answer.headers.etag : null);
}
const initialFloorS = (performance.now() - t0) / 1000;
t0 = performance.now();
for (const [k, path] of job.paths.entries()) {
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
console.log(JSON.stringify({ initial_floor_s: initialFloorS, resync_floor_s: resyncFloorS }));
