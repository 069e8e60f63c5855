// The headless command and the scopes a sign-in was granted: `login`, then
// writes of every kind (tasks, comments, sections, sprints, goals, milestones),
// then `sync --once` sends them all; a
// grant without a kind's scope refuses to queue its writes in one line, and a
// sync whose changes the service blocked names each and why.
import { describe, expect, test } from 'vitest';
import { goalOperations, milestoneOperations, sprintOperations } from '../api/operations';
import { consentBrowser } from '../auth/testing/consent-browser';
import { type PushFixture, pushFixturePerTest } from '../push/testing/push-fixture';
import { runCliForRecords } from './testing/in-process-cli';

const start = pushFixturePerTest();

/** `login --no-browser` prints the address: the test plays the person approving it. */
function approveConsent(stderr: string): void {
  const address = /^\s+(http\S+\/oauth\/authorize\?\S+)$/m.exec(stderr)?.[1];
  if (address) consentBrowser().openUrl(address);
}

const cli = (...argv: string[]) =>
  runCliForRecords(argv, { onStderr: approveConsent, isRecord: (line) => line.startsWith('{') });

async function started(): Promise<{ f: PushFixture; teamId: string; projectId: string }> {
  const f = await start({ oauthAutoApprove: true });
  f.mirror.close();
  const task = f.emulator.control.tasks().find((t) => t.team_id !== null && t.project_id !== null);
  return { f, teamId: task?.team_id as string, projectId: task?.project_id as string };
}

const login = (f: PushFixture) =>
  cli(
    'login',
    '--db',
    f.file,
    '--no-browser',
    '--base-url',
    f.emulator.baseUrl,
    '--auth-url',
    f.emulator.authUrl,
    '--client-id',
    f.emulator.clientId,
  );

const create = (f: PushFixture, noun: string, parent: string, ...set: string[]) =>
  cli(noun, 'create', '--db', f.file, '--set', parent, ...set.flatMap((s) => ['--set', s]));

describe('login, then every kind, then sync --once', () => {
  test('a browser sign-in writes sprints, goals and milestones: created, edited, deleted, on the server after sync', async () => {
    const { f, teamId, projectId } = await started();
    expect((await login(f)).code).toBe(0);

    const sprint = await create(
      f,
      'sprint',
      `team_id=${teamId}`,
      'name=CLI sprint',
      'start_date=2027-01-04',
      'duration_weeks=2',
    );
    const goal = await create(f, 'goal', `project_id=${projectId}`, 'name=CLI goal');
    const milestone = await create(f, 'milestone', `project_id=${projectId}`, 'name=CLI milestone');
    for (const run of [sprint, goal, milestone]) expect(run.code, run.stderr).toBe(0);
    const synced = await cli('sync', '--once', '--db', f.file);
    expect(synced.code, synced.stderr).toBe(0);

    const sprints = await f.api.listPage(sprintOperations.list, { teamId }, { limit: 1000 });
    const sprintId = (
      sprints.status === 200 ? sprints.body.data.find((s) => s.name === 'CLI sprint')?.sprint_id : null
    ) as string;
    const goals = await f.api.read(goalOperations.grouped, { orgId: f.emulator.orgId });
    const goalId = (
      goals.status === 200
        ? goals.body.projects.flatMap((g) => g.data).find((g) => g.name === 'CLI goal')?.goal_id
        : null
    ) as string;
    const milestones = await f.api.listPage(milestoneOperations.list, { projectId }, { limit: 1000 });
    const milestoneId = (
      milestones.status === 200
        ? milestones.body.data.find((m) => m.name === 'CLI milestone')?.milestone_id
        : null
    ) as string;
    expect([sprintId, goalId, milestoneId]).toEqual([
      expect.any(String),
      expect.any(String),
      expect.any(String),
    ]);

    expect(
      (await cli('sprint', 'edit', '--db', f.file, '--sprint', sprintId, '--set', 'name=CLI sprint 2')).code,
    ).toBe(0);
    expect(
      (await cli('goal', 'edit', '--db', f.file, '--goal', goalId, '--set', 'name=CLI goal 2')).code,
    ).toBe(0);
    expect((await cli('milestone', 'delete', '--db', f.file, '--milestone', milestoneId)).code).toBe(0);
    const again = await cli('sync', '--once', '--db', f.file);
    expect(again.code, again.stderr).toBe(0);
    const sprintNow = await f.api.read(sprintOperations.get, { teamId, sprintId });
    expect(sprintNow.status === 200 && sprintNow.body.name).toBe('CLI sprint 2');
    const goalNow = await f.api.read(goalOperations.get, { projectId, goalId });
    expect(goalNow.status === 200 && goalNow.body.name).toBe('CLI goal 2');
    const left = await f.api.listPage(milestoneOperations.list, { projectId }, { limit: 1000 });
    expect(left.status === 200 && left.body.data.map((m) => m.milestone_id)).not.toContain(milestoneId);
  });

  test('a browser sign-in writes tasks (created, edited, deleted), a comment and a section, on the server after sync', async () => {
    const { f, projectId } = await started();
    expect((await login(f)).code).toBe(0);
    // The first sync mirrors what the edits below name.
    expect((await cli('sync', '--once', '--db', f.file)).code).toBe(0);
    const [edited, deleted] = f.emulator.control.tasks().slice(0, 2);
    const runs = [
      await cli('create', '--db', f.file, '--set', 'title=CLI task', '--set', `project_id=${projectId}`),
      await cli('edit', '--db', f.file, '--task', edited?.task_id as string, '--set', 'title=CLI edited'),
      await cli('delete', '--db', f.file, '--task', deleted?.task_id as string),
      await create(f, 'comment', `task_id=${edited?.task_id as string}`, 'content=CLI comment'),
      await create(f, 'section', 'scope_type=project', `scope_id=${projectId}`, 'name=CLI section'),
    ];
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const synced = await cli('sync', '--once', '--db', f.file);
    expect(synced.code, synced.stderr).toBe(0);

    const tasks = f.emulator.control.tasks();
    expect(tasks.filter((t) => t.title === 'CLI task')).toHaveLength(1);
    expect(tasks.find((t) => t.task_id === edited?.task_id)?.title).toBe('CLI edited');
    expect(tasks.some((t) => t.task_id === deleted?.task_id)).toBe(false);
    const comments = f.emulator.control.comments().filter((c) => c.task_id === edited?.task_id);
    expect(comments.map((c) => c.content)).toContain('CLI comment');
    const sections = f.emulator.control.sections().filter((c) => c.scope_id === projectId);
    expect(sections.filter((c) => c.name === 'CLI section')).toHaveLength(1);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines).toEqual([]);
  });

  test('a grant without teams:write: login says sprints stay read-only, a sprint create is refused in one line and nothing is queued', async () => {
    const { f, teamId, projectId } = await started();
    f.emulator.control.setOAuthWithheldScopes(['teams:write']);
    const signedIn = await login(f);
    expect(signedIn.code).toBe(0);
    expect(signedIn.stderr).toContain('not granted teams:write: sprints cannot be changed');

    const refused = await create(
      f,
      'sprint',
      `team_id=${teamId}`,
      'name=Refused',
      'start_date=2027-01-04',
      'duration_weeks=2',
    );
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([]);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `sprint create: this sign-in may not change sprints (it was not granted teams:write); nothing was queued. Sign in again allowing teams:write: login --db ${f.file}`,
    ]);
    expect((await create(f, 'goal', `project_id=${projectId}`, 'name=Still allowed')).code).toBe(0);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines.map((l) => l['entity_type'])).toEqual(['goal']);
  });

  test('a sync whose changes the service refused for a scope names each and why, and the next create of that kind is refused', async () => {
    const { f, projectId } = await started();
    const { token } = f.emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:write', 'members:read'],
    });
    expect((await create(f, 'goal', `project_id=${projectId}`, 'name=Blocked goal')).code).toBe(0);

    const synced = await cli(
      'sync',
      '--once',
      '--db',
      f.file,
      '--base-url',
      f.emulator.baseUrl,
      '--token',
      token,
    );

    expect(synced.code).toBe(1);
    const summary = synced.lines.at(-1);
    expect(summary?.['blocked']).toEqual([
      {
        op_id: expect.any(String) as unknown,
        entity_type: 'goal',
        entity_id: expect.stringMatching(/^local-/) as unknown,
        kind: 'create',
        reason: 'insufficient-scope',
        scope: 'projects:write',
      },
    ]);
    expect(synced.stderr).toContain('sync: 1 change(s) blocked: goal create (needs projects:write)');
    const refused = await create(f, 'milestone', `project_id=${projectId}`, 'name=Also refused');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'this sign-in may not change milestones (the service refused projects:write)',
    );
  });
});
