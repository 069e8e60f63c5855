// `npm run bench -- redaction [--runs 9]`: how long the sync log's redaction
// takes on a hostile line of a megabyte, the worst a server or a teammate can
// put into a logged request (an id of a million characters, a megabyte of
// credential-like words). `line_*` is the sync log's path (clipped before it is
// scanned); `full_*` the whole text scanned, as the diagnostics report does.
// The last stdout line is one JSON object of figures (medians of `runs`, ms).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { redactClipped, redactLogText } from '../../sync/sync-log/log-redaction';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const runs = Math.max(1, Number(values.runs));
const MEGABYTE = 1_000_000;
const SECRETS = ['svc_live_BenchKnownSecret0123456789'];

const LINES = {
  long_id: `PATCH /v1/tasks/${'a'.repeat(MEGABYTE)} 412`,
  key_words: 'access_token refresh-token '.repeat(MEGABYTE / 27),
  percent_runs: 'a%20b%2Fc '.repeat(MEGABYTE / 10),
};

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function timed(work: () => unknown): number {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return Math.round(median(samples) * 1000) / 1000;
}

const figures: Record<string, number> = { runs };
for (const [name, line] of Object.entries(LINES)) {
  figures[`line_${name}_ms`] = timed(() => redactClipped(line, 1000, SECRETS));
  figures[`full_${name}_ms`] = timed(() => redactLogText(line, SECRETS));
}
figures['line_worst_ms'] = Math.max(...Object.keys(LINES).map((name) => figures[`line_${name}_ms`] ?? 0));
console.log(JSON.stringify(figures));
