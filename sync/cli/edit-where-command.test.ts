// `edit --where`: every task the filters match changed as one bulk change,
// the count printed first and the person asked, `--yes` going on at once.
import { expect, test } from 'vitest';
import { type PushFixture, pushFixturePerTest } from '../push/testing/push-fixture';
import { runCliForRecords, sets, syncBench } from './testing/in-process-cli';

const start = pushFixturePerTest();

/** A mirror file holding six of the seed's tasks; closed so the command opens it itself. */
async function preparedMirror(): Promise<{
  f: PushFixture;
  ids: string[];
  status: string;
  matching: string[];
}> {
  const f = await start();
  const ids = await f.loadedTaskIds(6);
  const status = f.mirror.tasks.get(ids[0] as string)?.task.status as string;
  const matching = ids.filter((id) => f.mirror.tasks.get(id)?.task.status === status);
  f.mirror.close();
  return { f, ids, status, matching };
}

test('the count comes first and the person is asked; no answer or "n" changes nothing', async () => {
  const { f, status, matching } = await preparedMirror();
  const argv = ['edit', '--db', f.file, '--where', `status=${status}`, ...sets('priority=urgent')];

  for (const stdin of [undefined, 'n\n']) {
    const run = await runCliForRecords(argv, stdin === undefined ? {} : { stdin });
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines).toEqual([{ matched: matching.length }, { batch_id: null, queued: 0 }]);
    expect(run.stderr).toContain(
      `Change ${matching.length === 1 ? '1 task' : `${matching.length} tasks`}? [y/N]`,
    );
  }
  expect((await runCliForRecords(['outbox', '--db', f.file])).lines).toEqual([]);
});

test('"y" (or --yes) queues one edit per matching task under one batch; the next sync sends them all', async () => {
  const { f, ids, status, matching } = await preparedMirror();

  const run = await runCliForRecords(
    [
      'edit',
      '--db',
      f.file,
      '--where',
      `status=${status}`,
      ...sets('priority=urgent'),
      '--add-tag',
      'triaged',
    ],
    { stdin: 'y\n' },
  );

  expect(run.code, run.stderr).toBe(0);
  expect(run.lines).toEqual([
    { matched: matching.length },
    {
      batch_id: expect.any(String) as unknown,
      matched: matching.length,
      queued: matching.length,
      unchanged: 0,
    },
  ]);
  const outbox = (await runCliForRecords(['outbox', '--db', f.file])).lines;
  expect(outbox.map((op) => op.entity_id).sort()).toEqual([...matching].sort());
  expect((await syncBench(f)).code).toBe(0);
  for (const id of ids) {
    const task = f.emulator.control.task(id);
    if (matching.includes(id))
      expect(task).toMatchObject({
        priority: 'urgent',
        tags: expect.arrayContaining(['triaged']) as unknown,
      });
    else expect(task?.tags ?? []).not.toContain('triaged');
  }

  // --yes asks nothing (there is no input to read here at all).
  const again = await runCliForRecords([
    'edit',
    '--db',
    f.file,
    '--where',
    `status=${status}`,
    ...sets('priority=low'),
    '--yes',
  ]);
  expect(again.lines[1]).toMatchObject({ queued: matching.length });
  expect(again.stderr).not.toContain('[y/N]');
});

test.each([
  [['--where', 'colour=red', '--set', 'priority=low'], "unknown filter 'colour'"],
  [['--where', 'status', '--set', 'priority=low'], 'key=value'],
  [['--where', 'status=blocked', '--task', 'tsk_1', '--set', 'priority=low'], 'not both'],
  [['--where', 'status=blocked'], 'at least one --set'],
])('bad usage of --where exits 2 before any file is opened: %j', async (args, hint) => {
  const run = await runCliForRecords(['edit', '--db', '/tmp/svc-no-such-mirror.db', ...args]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(hint);
});
