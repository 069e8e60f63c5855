// `npm run soak -- --seeds 20 [--first 1] [--runs 5]`: the variance tests (the
// convergence property and the headless sync) over many seeds of the
// emulator's variance mode; with --chaos [--kills 20], the chaos test instead
// (faults, a teammate and kill -9 of sync, issue 22), killing sync --kills
// times a seed. A seed passes when every test of it passes. Prints
// a line per seed, and `N passed, M failed` as its last line; exits 1 when any
// seed failed (2 on a usage error).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, usageError } from '../../emulator/command-line';

const usage = 'usage: npm run soak -- --seeds 20 [--first 1] [--runs 5] [--chaos [--kills 20]]';
const VARIANCE_FILES = [
  'sync/push/sync-convergence.variance.test.ts',
  'sync/cli/sync-command.variance.test.ts',
];
const CHAOS_FILES = ['sync/cli/chaos.variance.test.ts'];
const root = join(import.meta.dirname, '..', '..');

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    usageError(`--${name} must be a positive integer, not '${raw}'`, usage);
  }
  return Number(raw);
}

interface VitestJson {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { title: string; status: string; failureMessages?: string[] }[];
  }[];
}

const values = commandLine(
  {
    seeds: { type: 'string' },
    first: { type: 'string' },
    runs: { type: 'string' },
    chaos: { type: 'boolean' },
    kills: { type: 'string' },
    help: { type: 'boolean' },
  },
  usage,
);
const count = positive('seeds', values.seeds, 20);
const first = positive('first', values.first, 1);
const runs = positive('runs', values.runs, 5);
const chaos = values.chaos === true;
if (values.kills !== undefined && !chaos) {
  usageError(`--kills is for --chaos`, usage);
}
const kills = positive('kills', values.kills, 20);
const FILES = chaos ? CHAOS_FILES : VARIANCE_FILES;
const seeds = Array.from({ length: count }, (_, i) => first + i);

const dir = await mkdtemp(join(tmpdir(), 'svc-soak-'));
const report = join(dir, 'vitest.json');
console.error(
  chaos
    ? `soak: chaos over variance seeds ${first}-${first + count - 1}, sync killed ${kills} times a seed`
    : `soak: variance seeds ${first}-${first + count - 1}, ${runs} property runs a seed`,
);
const child = spawn(
  join(root, 'node_modules', '.bin', 'vitest'),
  ['run', ...FILES, '--reporter=json', `--outputFile=${report}`, '--reporter=dot'],
  {
    cwd: root,
    env: {
      ...process.env,
      VARIANCE_SEEDS: `${first}-${first + count - 1}`,
      VARIANCE_RUNS: String(runs),
      ...(chaos ? { CHAOS_KILLS: String(kills) } : {}),
    },
    // Vitest's own progress goes to stderr: stdout is the soak's verdict, its last line the counts.
    stdio: ['ignore', 2, 2],
  },
);
await once(child, 'exit');

let results: VitestJson = {};
try {
  results = JSON.parse(await readFile(report, 'utf8')) as VitestJson;
} catch {
  console.error('soak: vitest wrote no report; every seed counts as failed');
}
await rm(dir, { recursive: true, force: true });

/** Per seed: why it failed (empty: every test of it passed), or undefined when no test of it ran. */
const outcome = new Map<number, string[]>();
for (const file of results.testResults ?? []) {
  const short = file.name.slice(root.length + 1);
  const assertions = file.assertionResults ?? [];
  if (assertions.length === 0) {
    for (const seed of seeds)
      outcome.set(seed, [...(outcome.get(seed) ?? []), `${short}: ${file.message ?? 'did not run'}`]);
    continue;
  }
  for (const test of assertions) {
    const seed = Number(/variance seed (\d+):/.exec(test.title)?.[1]);
    if (!Number.isInteger(seed)) continue;
    const reasons = outcome.get(seed) ?? [];
    if (test.status !== 'passed') {
      // The first line, and what a failed property was caused by (its counterexample is long).
      const lines = (test.failureMessages?.[0] ?? test.status).split('\n');
      const why = [
        lines[0],
        ...lines.filter((line) => /^(Caused by|Got (error|[A-Z]\w*Error))/.test(line)),
      ].join(' | ');
      reasons.push(`${short}: ${why}`);
    }
    outcome.set(seed, reasons);
  }
}

let passed = 0;
let failed = 0;
for (const seed of seeds) {
  const reasons = outcome.get(seed) ?? ['no test ran for this seed'];
  if (reasons.length === 0) {
    passed += 1;
    console.log(`seed ${seed}: passed`);
  } else {
    failed += 1;
    console.log(`seed ${seed}: FAILED`);
    for (const reason of reasons) console.log(`  ${reason.slice(0, 1000)}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
