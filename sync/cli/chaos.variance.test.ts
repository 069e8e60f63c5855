// Chaos (issue 22): the emulator's variance mode with its faults on, a teammate
// (the peer token) changing the same tasks before and during our push, and
// `sync --once` as a child process killed (SIGKILL) at seeded moments, the
// mirror's integrity checked after each kill. Then faults off, every conflict
// resolved taking mine through the headless command, and syncs until quiet:
// nothing the person queued is lost or doubled, nothing the teammate did is
// undone, the mirror equals the server and no run ended in a stack trace.
// A few seeds and kills here (npm test); `npm run soak -- --chaos` runs more.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { openMirror } from '../../db/open-mirror';
import { DeterministicRandom } from '../../emulator/deterministic-random';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { chaosKills, varianceSeeds } from '../../test/soak/variance-seeds';
import { ndjson, runCliInProcess } from './testing/in-process-cli';
import { summaryOf, summaryProblem } from './testing/sync-summary';

/** The headless command as it ships (built by the test run's global setup). */
const BIN = fileURLToPath(new URL('../../bin/svc-desktop.js', import.meta.url));
const KILLS = chaosKills();
// Two seeds in npm test (each spawns a process per kill, seconds on two shared cores); the soak sets more.
// Known to fail: seeds 16 and 19, one defect (a re-create into a project the service archived while
// sending the project's status absent or unknown, refused 422 on project_id at every sync: the mirror
// cannot tell, and the pusher does not yet send a re-create again without the references a 422 names).
const SEEDS = varianceSeeds(process.env.VARIANCE_SEEDS ?? '1-2');

interface Run {
  argv: readonly string[];
  code: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function cli(argv: readonly string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return { argv, ...(await runCliInProcess(argv, { env })) };
}

/** Parsed NDJSON lines of a run's stdout. */
function lines(run: Run): Record<string, unknown>[] {
  return ndjson(run.stdout, (l) => l.trim() !== '');
}

/** A stack trace or words of a conforming answer not understood, in what a run wrote before it ended or was killed. */
function unclearWords(stderr: string): string | null {
  if (/^\s+at .+:\d+:\d+\)?$/m.test(stderr)) return 'a stack trace';
  if (/does not match the contract|unexpected failure|TypeError|ZodError|RangeError/.test(stderr))
    return 'a conforming answer was not understood';
  return null;
}

/** What is wrong with how a finished sync run ended, if anything: a summary last, one-line messages, no stack. */
function unclearEnding(run: Run): string | null {
  const shown = `exit ${run.code}; stderr: ${run.stderr.slice(-800)}`;
  const unclear = unclearWords(run.stderr);
  if (unclear !== null) return `${unclear} (${shown})`;
  return summaryProblem(run, shown);
}

/** A headless sync in its own process, killed once `killWhen` holds (polled), unless it ends first. */
async function killedSync(
  emulator: RunningEmulator,
  db: string,
  killWhen: () => boolean,
  meanwhile: () => void,
): Promise<Run> {
  const argv = ['sync', '--base-url', emulator.baseUrl, '--db', db, '--once'];
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { ...process.env, SVC_TOKEN: emulator.tokens.live },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let ended = false;
  void exit.then(() => (ended = true));
  while (!ended) {
    meanwhile();
    if (killWhen()) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  const [code, signal] = await exit;
  return { argv, code, signal, stdout, stderr };
}

/** What the person queued, to find again in the mirror after every kill. */
interface Queued {
  titles: ReadonlyMap<string, string>;
  deleted: readonly string[];
  createTitles: readonly string[];
}

/**
 * After a kill: the file is sound, opens as the next run would, and still holds
 * every change of the person's, sent or not: each edited task with its title
 * (a conflict keeps mine shown), each deleted one gone, each create once.
 */
async function checkIntegrity(db: string, queued: Queued, label: string): Promise<void> {
  const raw = new Database(db);
  try {
    expect(raw.pragma('integrity_check', { simple: true }), label).toBe('ok');
    expect(raw.pragma('foreign_key_check'), label).toEqual([]);
  } finally {
    raw.close();
  }
  const mirror = await openMirror(db);
  try {
    const tasks = [...mirror.tasks.exportJson()].map(
      (json) => JSON.parse(json) as { task_id: string; title: unknown },
    );
    const titles = tasks.map((task) => task.title);
    for (const title of queued.createTitles)
      expect(
        titles.filter((t) => t === title),
        `${label}: ${title}`,
      ).toHaveLength(1);
    const byId = new Map(tasks.map((task) => [task.task_id, task]));
    for (const [id, title] of queued.titles) expect(byId.get(id)?.title, `${label}: ${id}`).toBe(title);
    for (const id of queued.deleted) expect(byId.has(id), `${label}: deleted ${id}`).toBe(false);
  } finally {
    mirror.close();
  }
}

type PeerField = 'description' | 'priority' | 'tags';
const PRIORITIES = ['low', 'medium', 'high', 'urgent'];

for (const seed of SEEDS) {
  test(
    `variance seed ${seed}: chaos — faults, a teammate on the same tasks and ${KILLS} kill -9 of sync; nothing is lost, doubled or stuck`,
    async () => {
      const random = new DeterministicRandom(7000 + seed);
      const emulator = await startEmulator({
        seedTasks: 30,
        seed: 5000 + seed,
        variance: { seed, maxRetryAfterSeconds: 1, maxDelayMs: 60 },
      });
      const dir = await mkdtemp(join(tmpdir(), 'svc-chaos-'));
      const db = join(dir, 'mirror.db');
      const runs: Run[] = [];
      const env = { SVC_TOKEN: emulator.tokens.live };
      const sync = async () => {
        const run = await cli(['sync', '--base-url', emulator.baseUrl, '--db', db, '--once'], env);
        runs.push(run);
        return run;
      };
      const queue = async (argv: string[]) => {
        const run = await cli(argv);
        expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(0);
        // A queued change answers in one line (NDJSON), nothing on stderr.
        expect([lines(run).length, run.stderr], argv.join(' ')).toEqual([1, '']);
        return lines(run)[0] as Record<string, unknown>;
      };
      try {
        const peer = emulator.control;
        /** A task the teammate can also change, in a seeded order. */
        const shared = emulator.control
          .tasks()
          .map((t) => t.task_id)
          .sort()
          .filter((id) => {
            try {
              peer.peerEdit(id, {});
              return true;
            } catch {
              return false;
            }
          });
        for (let i = shared.length - 1; i > 0; i--) {
          const j = random.int(0, i);
          [shared[i], shared[j]] = [shared[j] as string, shared[i] as string];
        }
        expect(shared.length, 'tasks the teammate can change').toBeGreaterThanOrEqual(14);
        const take = (n: number) => shared.splice(0, n);
        const retitledByBoth = take(3); // → a conflict on title each
        const deletedByPeer = take(2); // → a conflict on '*' each; taking mine re-creates the task
        const mergedWithPeer = take(3); // the teammate changes other fields: merged, no conflict
        const deletedByMe = take(2);
        const commented = take(2);
        const others = shared; // the teammate's field changes during the run
        // One task the teammate deletes is filed in their own section, which the person cannot see: taking
        // mine re-creates it without the section (issue 22, defect 1), as the conflict says.
        const theirFocus = peer
          .sections()
          .find(
            (s) =>
              s.scope_type === 'user' && s.name === 'My focus' && s.created_by === emulator.peer.username,
          );
        expect(theirFocus, "the teammate's own section").toBeDefined();
        peer.peerEdit(deletedByPeer[0] as string, { section_id: theirFocus?.section_id ?? null });

        // The starting mirror, without faults: what follows needs tasks to edit, not a first pull's luck.
        emulator.control.variance?.setFaults(false);
        expect((await sync()).code).toBe(0);
        emulator.control.variance?.setFaults(true);

        // Offline: the person's changes queued in the mirror through the headless command.
        const myTitle = new Map<string, string>();
        for (const id of [...retitledByBoth, ...deletedByPeer, ...mergedWithPeer]) {
          const title = `mine ${seed} ${id.slice(-6)}`;
          const queued = await queue(['edit', '--db', db, '--task', id, '--set', `title=${title}`]);
          expect(queued.queued).toBe(true);
          myTitle.set(id, title);
        }
        for (const id of deletedByMe) await queue(['delete', '--db', db, '--task', id]);
        const createTitles = [1, 2, 3].map((n) => `created ${seed}.${n}`);
        const created: string[] = [];
        for (const title of createTitles)
          created.push((await queue(['create', '--db', db, '--set', `title=${title}`])).task_id as string);
        const comments: string[] = [];
        const comment = async (taskId: string, content: string, parent?: string) => {
          comments.push(content);
          const set = ['--set', `task_id=${taskId}`, '--set', `content=${content}`];
          if (parent !== undefined) set.push('--set', `parent_comment_id=${parent}`);
          return (await queue(['comment', 'create', '--db', db, ...set])).comment_id as string;
        };
        const first = await comment(commented[0] as string, `comment ${seed}.1`);
        await comment(commented[0] as string, `reply ${seed}.2`, first);
        await comment(commented[1] as string, `comment ${seed}.3`);
        await comment(retitledByBoth[0] as string, `comment ${seed}.4`);
        await comment(created[0] as string, `comment on a new task ${seed}.5`);

        // The teammate, before our push.
        const peerValues = new Map<string, Map<PeerField, unknown>>();
        const peerSets = (id: string, field: PeerField, value: unknown) => {
          peer.peerEdit(id, { [field]: value });
          const fields = peerValues.get(id) ?? new Map<PeerField, unknown>();
          fields.set(field, value);
          peerValues.set(id, fields);
        };
        for (const id of retitledByBoth) peer.peerEdit(id, { title: `theirs ${seed} ${id.slice(-6)}` });
        for (const id of deletedByPeer) peer.peerDelete(id);
        for (const [i, id] of mergedWithPeer.entries()) {
          if (i % 2 === 0) peerSets(id, 'description', `theirs description ${seed} ${i}`);
          else peerSets(id, 'priority', PRIORITIES[random.int(0, PRIORITIES.length - 1)]);
        }

        // During the run: more of the teammate's changes, on fields the person did not touch, and tasks of their own.
        const peerCreated: string[] = [];
        let peerChanges = 0;
        const peerActs = () => {
          peerChanges += 1;
          const pool = [...others, ...mergedWithPeer, ...retitledByBoth, ...commented];
          const id = pool[random.int(0, pool.length - 1)] as string;
          const roll = random.int(0, 3);
          if (roll === 0) {
            const title = `peer created ${seed}.${peerChanges}`;
            peer.peerCreate({ title });
            peerCreated.push(title);
          } else if (roll === 1) peerSets(id, 'description', `peer during ${seed}.${peerChanges}`);
          else if (roll === 2) peerSets(id, 'priority', PRIORITIES[random.int(0, PRIORITIES.length - 1)]);
          else peerSets(id, 'tags', [`peer-${peerChanges}`]);
        };

        for (let kill = 1; kill <= KILLS; kill++) {
          const from = emulator.control.requests().length;
          // Seeded moments, counted in answered requests: a run starts with a few reads before it pushes.
          const killAt = from + random.int(1, 30);
          const peerAt = random.chance(0.6) ? from + random.int(0, 30) : Number.POSITIVE_INFINITY;
          let peerDone = false;
          const run = await killedSync(
            emulator,
            db,
            () => emulator.control.requests().length >= killAt,
            () => {
              if (!peerDone && emulator.control.requests().length >= peerAt) {
                peerDone = true;
                peerActs();
              }
            },
          );
          if (run.signal !== 'SIGKILL') runs.push(run);
          else expect(unclearWords(run.stderr), `killed run ${kill}: ${run.stderr.slice(-800)}`).toBeNull();
          await checkIntegrity(
            db,
            { titles: myTitle, deleted: deletedByMe, createTitles },
            `after kill ${kill} (${run.signal ?? `exit ${run.code}`})`,
          );
        }

        // A run that is not killed, still under faults, ends in its own words; then faults off, the
        // conflicts resolved taking mine, and syncs until one pushes nothing and finds no conflict.
        let last = await sync();
        emulator.control.variance?.setFaults(false);
        const resolved: Record<string, unknown>[] = [];
        for (let round = 0; round < 8; round++) {
          const open = lines(await cli(['conflicts', '--db', db]));
          for (const conflict of open) {
            resolved.push(conflict);
            await queue([
              'resolve',
              '--db',
              db,
              '--conflict',
              String(conflict.conflict_id),
              '--take',
              'mine',
            ]);
          }
          last = await sync();
          if (open.length === 0 && last.code === 0 && summaryOf(last).pushed === 0) break;
        }

        const unclear = runs.map(unclearEnding).filter((problem) => problem !== null);
        expect(unclear, unclear[0] ?? '').toEqual([]);
        // What is left unsettled, in the outbox's own words, says why a seed failed: first, on one line,
        // as the soak shows only a failure's first line.
        const outbox = (await cli(['outbox', '--db', db])).stdout;
        const left = outbox.trimEnd().split('\n').join(' | ');
        expect(last.code, `outbox: ${left} | stderr: ${last.stderr.split('\n').slice(-3).join(' | ')}`).toBe(
          0,
        );
        expect(summaryOf(last)).toMatchObject({
          conflicts: 0,
          pushed: 0,
          tasks: emulator.control.taskCount(),
        });
        expect(outbox).toBe('');
        expect((await cli(['conflicts', '--db', db])).stdout).toBe('');

        // The conflicts met were the ones the teammate caused.
        expect(
          new Set(resolved.filter((c) => c.field === 'title').map((c) => c.entity_id)),
          'title conflicts',
        ).toEqual(new Set(retitledByBoth));
        expect(
          new Set(resolved.filter((c) => c.field === '*').map((c) => c.entity_id)),
          'conflicts on a task the teammate deleted',
        ).toEqual(new Set(deletedByPeer));

        const server = emulator.control.tasks();
        const withTitle = (title: string) => server.filter((t) => t.title === title);
        // Every create once (the re-creates of the tasks the teammate deleted count as creates), each comment once.
        for (const title of [...createTitles, ...peerCreated])
          expect(withTitle(title), title).toHaveLength(1);
        expect(emulator.control.creates().tasks).toBe(
          createTitles.length + peerCreated.length + deletedByPeer.length,
        );
        const onServer = emulator.control.comments();
        for (const content of comments)
          expect(
            onServer.filter((c) => c.content === content),
            content,
          ).toHaveLength(1);
        expect(emulator.control.creates().comments).toBe(comments.length);
        const parent = onServer.find((c) => c.content === `comment ${seed}.1`);
        expect(onServer.find((c) => c.content === `reply ${seed}.2`)?.parent_comment_id).toBe(
          parent?.comment_id,
        );
        expect(onServer.find((c) => c.content === `comment on a new task ${seed}.5`)?.task_id).toBe(
          withTitle(createTitles[0] as string)[0]?.task_id,
        );

        // Every edit is on the server (a re-created task under a new id), beside every field the teammate set.
        for (const [id, title] of myTitle) {
          if (deletedByPeer.includes(id)) {
            expect(emulator.control.task(id), id).toBeUndefined();
            expect(withTitle(title), title).toHaveLength(1);
          } else expect(emulator.control.task(id)?.title, id).toBe(title);
        }
        for (const [id, fields] of peerValues)
          for (const [field, value] of fields)
            expect(emulator.control.task(id)?.[field], `${id} ${field}`).toEqual(value);
        for (const id of deletedByMe) expect(emulator.control.task(id), id).toBeUndefined();
        const refiled = withTitle(myTitle.get(deletedByPeer[0] as string) as string)[0];
        expect(refiled?.section_id, 're-created without the section the person cannot see').toBeNull();

        // The mirror holds exactly what the server sends, every field.
        const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
          String(a.task_id).localeCompare(String(b.task_id));
        const local = lines(await cli(['export', '--db', db])).sort(byId);
        expect(local).toEqual(emulator.control.servedTasks().sort(byId));
      } finally {
        await emulator.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
    120_000 + KILLS * 30_000,
  );
}
