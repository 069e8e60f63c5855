// The sync bench's warm-up of the engine's own queries, in a process of its
// own: a throwaway first sync (the same task list, the same day, so the same
// chain ranges) into a temporary mirror. The emulator builds each filtered
// list and each page body on first request and keeps them while nothing
// changes; without this, the measured first sync paid that server work for
// every chain page (the chains' filtered queries) while the floor's
// unfiltered pages came warm. Input: one JSON line on stdin ({base_url,
// token, max_chains}); output: one JSON line ({tasks, requests}).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { ApiClient } from '../../sync/api/api-client';
import { staticCredentials } from '../../sync/api/credentials';
import { benchEngine } from './bench-engine';

const job = JSON.parse(await text(process.stdin)) as {
  base_url: string;
  token: string;
  max_chains: number | null;
};
const dir = await mkdtemp(join(tmpdir(), 'svc-bench-warm-'));
const api = new ApiClient({ baseUrl: job.base_url, credentials: staticCredentials(job.token) });
try {
  const { mirror, engine } = await benchEngine(join(dir, 'warm.db'), api, {
    // Only the requests matter here: the pages are written on this thread, no worker to build.
    pullInWorker: false,
    ...(job.max_chains !== null ? { taskChains: { maxChains: job.max_chains } } : {}),
  });
  const summary = await engine.pullOnce();
  const tasks = mirror.tasks.total();
  await engine.close();
  mirror.close();
  console.log(JSON.stringify({ tasks, requests: summary.requests }));
} finally {
  await api.close();
  await rm(dir, { recursive: true, force: true });
}
