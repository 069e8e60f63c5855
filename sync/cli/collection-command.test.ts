// The headless command's sprint, goal and milestone verbs: queued offline in
// the mirror file, sent by the next sync, and usage errors that say what to do.
import { describe, expect, test } from 'vitest';
import { goalOperations, sprintOperations, teamOperations } from '../api/operations';
import { type PushFixture, pushFixturePerTest } from '../push/testing/push-fixture';
import { sharedProject } from '../push/testing/resource-push';
import { runCliForRecords, sets, syncBench } from './testing/in-process-cli';

const start = pushFixturePerTest();

const cli = (...argv: string[]) => runCliForRecords(argv);

/** `<kind> <verb> --db <the bench's mirror file> …rest`. */
const cliOn = (f: PushFixture, kind: string, verb: string, ...rest: string[]) =>
  cli(kind, verb, '--db', f.file, ...rest);

const syncOf = (f: PushFixture) => () => syncBench(f);

describe('sprint create|edit', () => {
  test('a sprint is created offline, then completed, each sent by the next sync', async () => {
    const f = await start();
    f.mirror.close();
    const teams = await f.api.listPage(teamOperations.list, { orgId: f.emulator.orgId }, { limit: 100 });
    const teamId = (teams.status === 200 ? teams.body.data[0]?.team_id : undefined) as string;
    const sync = syncOf(f);
    const created = await cliOn(
      f,
      'sprint',
      'create',
      ...sets(`team_id=${teamId}`, 'name=Sprint from the CLI', 'start_date=2027-01-04', 'duration_weeks=2'),
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines).toEqual([
      {
        sprint_id: expect.stringMatching(/^local-/) as unknown,
        op_id: expect.any(String) as unknown,
        queued: true,
      },
    ]);
    expect((await sync()).code).toBe(0);
    const listed = await f.api.listPage(sprintOperations.list, { teamId }, { limit: 1000 });
    const made =
      listed.status === 200 ? listed.body.data.find((s) => s.name === 'Sprint from the CLI') : undefined;
    expect(made).toMatchObject({ start_date: '2027-01-04', end_date: '2027-01-17' });
    const sprintId = made?.sprint_id as string;

    const done = await cliOn(f, 'sprint', 'edit', '--sprint', sprintId, ...sets('status=completed'));
    expect(done.lines).toEqual([{ sprint_id: sprintId, op_id: expect.any(String) as unknown, queued: true }]);
    expect((await sync()).code).toBe(0);
    const read = await f.api.read(sprintOperations.get, { teamId, sprintId });
    expect(read.status === 200 && read.body.status).toBe('completed');
  });

  test.each([
    [['sprint', 'create', '--db', 'x.db', '--set', 'name=x'], '--set team_id=TEXT is required'],
    [['sprint', 'edit', '--db', 'x.db', '--sprint', 's'], 'give at least one --set of name'],
    [['sprint', 'delete', '--db', 'x.db', '--sprint', 's'], 'no sprint delete'],
    [
      ['sprint', 'create', '--db', 'x.db', '--set', 'duration_weeks=two'],
      'duration_weeks must be a whole number',
    ],
    [['goal', 'delete', '--db', 'x.db', '--goal', 'g', '--set', 'name=x'], 'takes no --set'],
    [['milestone', 'create', '--db', 'x.db', '--set', 'project_id=p'], '--set name=TEXT is required'],
    [['goal', 'close'], "not 'close'"],
  ])('%j exits 2 saying %s', async (argv, message) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('goal and milestone create|edit|delete', () => {
  test('a goal is created, closed and deleted and a milestone created, each sent by the next sync', async () => {
    const f = await start();
    f.mirror.close();
    const projectId = await sharedProject(f);
    const sync = syncOf(f);
    const goal = await cliOn(f, 'goal', 'create', ...sets(`project_id=${projectId}`, 'name=Launch'));
    expect(goal.code, goal.stderr).toBe(0);
    const milestone = await cliOn(
      f,
      'milestone',
      'create',
      ...sets(`project_id=${projectId}`, 'name=Beta', 'due_date=2027-05-01'),
    );
    expect(milestone.lines).toEqual([
      {
        milestone_id: expect.stringMatching(/^local-/) as unknown,
        op_id: expect.any(String) as unknown,
        queued: true,
      },
    ]);
    expect((await sync()).code).toBe(0);
    const grouped = await f.api.read(goalOperations.grouped, { orgId: f.emulator.orgId });
    const goalId = (
      grouped.status === 200
        ? grouped.body.projects.flatMap((g) => g.data).find((g) => g.name === 'Launch')?.goal_id
        : undefined
    ) as string;
    expect(goalId).toEqual(expect.any(String));
    expect((await cliOn(f, 'goal', 'edit', '--goal', goalId, '--set', 'status=closed')).code).toBe(0);
    expect((await sync()).code).toBe(0);
    const closed = await f.api.read(goalOperations.get, { projectId, goalId });
    expect(closed.status === 200 && closed.body.status).toBe('closed');
    expect((await cliOn(f, 'goal', 'delete', '--goal', goalId)).code).toBe(0);
    expect((await sync()).code).toBe(0);
    const gone = await f.api.read(goalOperations.grouped, { orgId: f.emulator.orgId });
    expect(
      gone.status === 200 && gone.body.projects.flatMap((g) => g.data).map((g) => g.goal_id),
    ).not.toContain(goalId);
  });
});
