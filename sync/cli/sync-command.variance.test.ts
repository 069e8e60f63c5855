// The headless `sync` command against the emulator's variance mode, a few
// seeds (VARIANCE_SEEDS for more; `npm run soak`): under faults every run ends
// with its summary as the last stdout line and a message that says what to do,
// never a stack trace or "the answer does not match the contract"; once the
// faults stop, a run exits 0 and the mirror holds exactly what the server
// sends, every queued edit and create landed once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { openMirror } from '../../db/open-mirror';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { varianceSeeds } from '../../test/soak/variance-seeds';
import { runCliInProcess } from './testing/in-process-cli';
import { summaryOf, summaryProblem } from './testing/sync-summary';

interface Run {
  argv: string[];
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return { argv, ...(await runCliInProcess(argv, { env })) };
}

/** The mirror file holds exactly the tasks the emulator served, unknown fields included. */
async function expectMirrorHoldsServed(db: string, emulator: RunningEmulator): Promise<void> {
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    String(a.task_id).localeCompare(String(b.task_id));
  const mirror = await openMirror(db);
  try {
    const local = [...mirror.tasks.exportJson()].map((json) => JSON.parse(json) as Record<string, unknown>);
    expect(local.sort(byId)).toEqual(emulator.control.servedTasks().sort(byId));
  } finally {
    mirror.close();
  }
}

/** What is wrong with how a sync run ended, if anything: the run's own words. */
function unclearEnding(run: Run): string | null {
  const shown = `exit ${run.code}; stderr: ${run.stderr.slice(-600)}`;
  const problem = summaryProblem(run, shown);
  if (problem !== null) return problem;
  if (/^\s+at .+:\d+:\d+\)?$/m.test(run.stderr)) return `a stack trace (${shown})`;
  if (/does not match the contract|unexpected failure|TypeError|ZodError/.test(run.stderr))
    return `a conforming answer was not understood (${shown})`;
  return null;
}

for (const seed of varianceSeeds()) {
  test(`variance seed ${seed}: headless syncs end with a summary under faults; once faults stop the mirror equals what the server sends`, async () => {
    const emulator = await startEmulator({
      seedTasks: 40,
      seed: 3000 + seed,
      variance: { seed, maxRetryAfterSeconds: 1, maxDelayMs: 60 },
    });
    const dir = await mkdtemp(join(tmpdir(), 'svc-cli-variance-'));
    const db = join(dir, 'mirror.db');
    const runs: Run[] = [];
    const sync = async () => {
      const run = await cli(['sync', '--base-url', emulator.baseUrl, '--db', db, '--once'], {
        SVC_TOKEN: emulator.tokens.live,
      });
      runs.push(run);
      return run;
    };
    try {
      await sync();
      const ids = emulator.control
        .tasks()
        .map((t) => t.task_id)
        .sort();
      const edited = ids[0] as string;
      const peerEdited = ids[1] as string;
      // A first sync that met too many faults may not hold the task yet: the edit is then refused and not made.
      const edit = await cli([
        'edit',
        '--db',
        db,
        '--task',
        edited,
        '--set',
        `title=Edited under seed ${seed}`,
      ]);
      const create = await cli(['create', '--db', db, '--set', `title=Created under seed ${seed}`]);
      expect(create.code, create.stderr).toBe(0);
      emulator.control.peerEdit(peerEdited, { title: `Peer under seed ${seed}` });
      emulator.control.peerCreate({ title: `Peer created under seed ${seed}` });
      await sync();
      await sync();

      emulator.control.variance?.setFaults(false);
      let last = await sync();
      for (let round = 0; round < 5 && (last.code !== 0 || summaryOf(last).pushed !== 0); round++)
        last = await sync();

      const unclear = runs.map(unclearEnding).filter((problem) => problem !== null);
      expect(unclear, unclear[0] ?? '').toEqual([]);
      expect(last.code, last.stderr).toBe(0);
      expect(summaryOf(last)).toMatchObject({ conflicts: 0, tasks: emulator.control.taskCount() });
      expect((await cli(['outbox', '--db', db])).stdout).toBe('');

      // Every local edit is on the server, no create happened twice.
      if (edit.code === 0) expect(emulator.control.task(edited)?.title).toBe(`Edited under seed ${seed}`);
      expect(emulator.control.creates().tasks).toBe(2);
      expect(emulator.control.tasks().filter((t) => t.title === `Created under seed ${seed}`)).toHaveLength(
        1,
      );

      // The runs met the liberties (not a server that happened to answer plainly).
      const taken = emulator.control.variance?.snapshot().counts;
      expect(taken).toBeDefined();
      if (taken) {
        expect(taken['field-absent'] + taken['field-null'] + taken['unknown-field']).toBeGreaterThan(0);
        const faults =
          taken['server-error'] +
          taken['rate-limit-burst'] +
          taken['dropped-connection'] +
          taken['cursor-refused-random'];
        expect(faults, JSON.stringify(taken)).toBeGreaterThan(0);
      }

      // The mirror holds exactly what the server sends, unknown fields included.
      await expectMirrorHoldsServed(db, emulator);
    } finally {
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test(`variance seed ${seed}: a sync cut off mid-pass finishes against a new server process, which refuses the old one's cursors`, async () => {
    const options = { seedTasks: 100, seed: 4000 + seed, variance: { seed, faults: false } };
    const first = await startEmulator(options);
    const dir = await mkdtemp(join(tmpdir(), 'svc-cli-variance-'));
    const db = join(dir, 'mirror.db');
    let second: Awaited<ReturnType<typeof startEmulator>> | null = null;
    try {
      // Short task pages, so the pass has pages to cut between; cut it once a page after the first arrived.
      first.control.faults.shortPages(4, { pathPrefix: '/v1/tasks', pageSize: 20 });
      const stop = new AbortController();
      const watch = setInterval(() => {
        const pages = first.control.requests().filter((r) => r.path === '/v1/tasks' && r.status === 200);
        if (pages.some((r) => r.query.includes('cursor='))) stop.abort();
      }, 2);
      const cut = await runCliInProcess(['sync', '--base-url', first.baseUrl, '--db', db, '--once'], {
        env: { SVC_TOKEN: first.tokens.live },
        signal: stop.signal,
      });
      clearInterval(watch);
      expect(unclearEnding({ argv: [], ...cut })).toBeNull();
      await first.stop();

      // The same organization and data, served by a new process: it never handed out those cursors.
      second = await startEmulator(options);
      const run = await cli(['sync', '--base-url', second.baseUrl, '--db', db, '--once'], {
        SVC_TOKEN: second.tokens.live,
      });
      expect(unclearEnding(run)).toBeNull();
      expect(run.code, run.stderr).toBe(0);
      await expectMirrorHoldsServed(db, second);
    } finally {
      await first.stop().catch(() => undefined);
      await second?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
}
