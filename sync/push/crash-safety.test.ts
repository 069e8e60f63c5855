import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { openMirror } from '../../db/open-mirror';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';

const CHILD = fileURLToPath(new URL('./testing/push-child.ts', import.meta.url));

const start = pushFixturePerTest();

interface Child {
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout: () => string;
  kill: () => void;
}

function startChild(f: PushFixture): Child {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CHILD,
      '--base-url',
      f.emulator.baseUrl,
      '--token',
      f.emulator.tokens.live,
      '--db',
      f.file,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    exit,
    stdout: () => `${out}${err === '' ? '' : `\nstderr: ${err}`}`,
    kill: () => child.kill('SIGKILL'),
  };
}

/** Resolves once `ready` holds (polled), or rejects when the child ends first. */
async function until(child: Child, ready: () => boolean): Promise<void> {
  let ended = false;
  void child.exit.then(() => (ended = true));
  for (;;) {
    if (ready()) return;
    if (ended) throw new Error(`the child ended before the moment to kill it: ${child.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The kill instants tried: each a moment in the middle of a push. */
const KILL_POINTS: {
  name: string;
  moment: (f: PushFixture, creates: number, requests: number) => boolean;
}[] = [
  // The service has made the first task, its answer is still on the way (latency): the worst case for a create.
  {
    name: 'after the first create is applied, before its answer arrives',
    moment: (f, c) => f.emulator.control.creates().tasks > c,
  },
  // Part of the outbox is settled, part in flight.
  {
    name: 'halfway through the requests',
    moment: (f, _c, r) => f.emulator.control.requests().length >= r + 4,
  },
];

test.each(KILL_POINTS)(
  'kill -9 $name: a new process finishes, every edit lands and each task is created once',
  async ({ moment }) => {
    const f = await start({ seedTasks: 12, latencyMs: 60 });
    const ids = await f.loadedTaskIds(4);
    const titles = ['crash one', 'crash two', 'crash three', 'crash four'];
    for (const title of titles) f.mirror.tasks.create({ title });
    for (const [i, id] of ids.entries())
      f.mirror.tasks.edit(id, { description: `edit ${i} survives a kill` });
    const queued = f.mirror.outbox.list().length;
    f.mirror.close();
    const creates = f.emulator.control.creates().tasks;
    const requests = f.emulator.control.requests().length;

    const doomed = startChild(f);
    await until(doomed, () => moment(f, creates, requests));
    doomed.kill();
    expect((await doomed.exit).signal).toBe('SIGKILL');

    // Between the two processes someone edits a task we are about to push.
    f.emulator.control.peerEdit(ids[0] as string, { title: 'peer edit between the processes' });

    const survivor = startChild(f);
    const { code } = await survivor.exit;
    expect(code, survivor.stdout()).toBe(0);

    const server = f.emulator.control.tasks();
    for (const title of titles)
      expect(
        server.filter((t) => t.title === title),
        title,
      ).toHaveLength(1);
    expect(f.emulator.control.creates().tasks).toBe(creates + titles.length);
    for (const [i, id] of ids.entries()) {
      expect(f.emulator.control.task(id)?.description).toBe(`edit ${i} survives a kill`);
    }
    expect(f.emulator.control.task(ids[0] as string)?.title).toBe('peer edit between the processes');

    const mirror = await openMirror(f.file);
    try {
      expect(mirror.outbox.list()).toHaveLength(queued);
      expect(mirror.outbox.list().filter((op) => op.state !== 'done')).toEqual([]);
      for (const title of titles) {
        const id = server.find((t) => t.title === title)?.task_id as string;
        expect(mirror.tasks.get(id)).toMatchObject({ pending: false });
      }
      expect([...mirror.tasks.exportJson()].filter((json) => json.includes('"task_id":"local-'))).toEqual([]);
    } finally {
      mirror.close();
    }
  },
);

test('kill -9 after a comment is created on the server, before its answer arrives: a new process sends each comment once, the reply under its remapped parent', async () => {
  const f = await start({ seedTasks: 12, latencyMs: 60 });
  const [taskId] = f.taskIds(1) as [string];
  const first = f.mirror.comments.create({ taskId, content: 'crash comment one' });
  f.mirror.comments.create({ taskId, content: 'crash reply', parentCommentId: first.commentId });
  f.mirror.comments.create({ taskId, content: 'crash comment two' });
  f.mirror.close();
  const creates = f.emulator.control.creates().comments;

  const doomed = startChild(f);
  await until(doomed, () => f.emulator.control.creates().comments > creates);
  doomed.kill();
  expect((await doomed.exit).signal).toBe('SIGKILL');

  const survivor = startChild(f);
  const { code } = await survivor.exit;
  expect(code, survivor.stdout()).toBe(0);
  expect(f.emulator.control.creates().comments).toBe(creates + 3);

  const mirror = await openMirror(f.file);
  try {
    expect(mirror.outbox.list().filter((op) => op.state !== 'done')).toEqual([]);
    const threads = mirror.comments.threads(taskId);
    const one = threads.find((t) => t.content === 'crash comment one');
    expect(one?.comment_id).not.toMatch(/^local-/);
    expect(one?.replies?.map((r) => r.content)).toEqual(['crash reply']);
    expect(threads.filter((t) => t.content === 'crash comment two')).toHaveLength(1);
  } finally {
    mirror.close();
  }
});
