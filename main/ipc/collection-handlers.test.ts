// The collection-write calls through the real gate over a mirror pushed by the
// real pusher to the emulator: a section, a sprint, a goal and a milestone
// queued and shown at once in the workspace (marked pending, under a temporary
// id), sent once, then edited and deleted; refused fields told as validation
// errors with nothing queued; a read-only account refused; a sprint queued
// under one team not listed under another.
import { describe, expect, test } from 'vitest';
import { projectMilestones } from '../../db/read-models/milestone-list';
import { sprintSummaries, workspaceCollections } from '../../db/read-models/workspace';
import { goalOperations, projectOperations, teamOperations } from '../../sync/api/operations';
import type { PushFixture } from '../../sync/push/testing/push-fixture';
import { collectionHandlers } from './collection-handlers';
import { wiredHandlersPerTest } from './testing/wired-handlers';

const wire = wiredHandlersPerTest(collectionHandlers);

async function teamIds(f: PushFixture): Promise<string[]> {
  const page = await f.api.listPage(teamOperations.list, { orgId: f.emulator.orgId }, { limit: 100 });
  if (page.status !== 200) throw new Error('teams.list answered 304');
  return page.body.data.map((team) => team.team_id);
}

async function projectIds(f: PushFixture): Promise<string[]> {
  const page = await f.api.listPage(projectOperations.list, { orgId: f.emulator.orgId }, { limit: 100 });
  if (page.status !== 200) throw new Error('projects.list answered 304');
  return page.body.data.map((project) => project.project_id);
}

const DAY = '2027-01-01';

describe('collection calls', () => {
  test('a section, sprint, goal and milestone are shown at once as pending, sent once, then edited and deleted', async () => {
    const w = await wire();
    const [teamId, otherTeamId] = await teamIds(w.f);
    const [projectId] = await projectIds(w.f);
    if (teamId === undefined || otherTeamId === undefined || projectId === undefined)
      throw new Error('the seed has two teams and a project');

    const section = await w.value('collection:create', {
      kind: 'section',
      fields: { scope_type: 'user', scope_id: w.f.emulator.me.username, name: 'Parked ideas' },
    });
    const sprint = await w.value('collection:create', {
      kind: 'sprint',
      fields: { name: 'Sprint 40', start_date: '2027-01-04', duration_weeks: 2 },
      parent_id: teamId,
    });
    const goal = await w.value('collection:create', {
      kind: 'goal',
      fields: { name: 'Ship offline comments' },
      parent_id: projectId,
    });
    const milestone = await w.value('collection:create', {
      kind: 'milestone',
      fields: { name: 'Beta' },
      parent_id: projectId,
    });
    for (const queued of [section, sprint, goal, milestone]) {
      expect(queued.id).toMatch(/^local-/);
      expect(queued.op_id).toEqual(expect.any(String));
    }
    expect(w.events.map((e) => (e.payload as { collections: string[] }).collections)).toEqual([
      ['sections', 'tasks'],
      ['sprints'],
      ['goals', 'tasks'],
      ['milestones', 'tasks'],
    ]);
    expect(w.edits).toBe(4);

    const before = workspaceCollections(w.f.mirror, DAY);
    expect(before.sections).toContainEqual(
      expect.objectContaining({ section_id: section.id, name: 'Parked ideas', pending: 'queued' }),
    );
    // (The fixture mirrors no teams: a team's sprints are read as the workspace reads them, by team.)
    expect(sprintSummaries(w.f.mirror, teamId, DAY)).toContainEqual(
      expect.objectContaining({ sprint_id: sprint.id, name: 'Sprint 40', pending: 'queued' }),
    );
    // Queued under one team, it is not shown under another.
    expect(sprintSummaries(w.f.mirror, otherTeamId, DAY).map((s) => s.sprint_id)).not.toContain(sprint.id);
    expect(before.goals).toContainEqual(
      expect.objectContaining({ goal_id: goal.id, project_id: projectId, pending: 'queued' }),
    );
    expect(projectMilestones(w.f.mirror, projectId)).toContainEqual(
      expect.objectContaining({ milestone_id: milestone.id, name: 'Beta', pending: 'queued' }),
    );

    await w.f.pusher.pushAll();
    const after = workspaceCollections(w.f.mirror, DAY);
    const sentGoal = after.goals.find((g) => g.name === 'Ship offline comments');
    expect(sentGoal?.goal_id).not.toMatch(/^local-/);
    expect(sentGoal?.pending).toBeUndefined();
    expect(after.sections.filter((s) => s.name === 'Parked ideas')).toHaveLength(1);
    const sentSprint = sprintSummaries(w.f.mirror, teamId, DAY).find((s) => s.name === 'Sprint 40');
    expect(sentSprint?.sprint_id).not.toMatch(/^local-/);
    expect(sentSprint?.pending).toBeUndefined();

    const goalId = sentGoal?.goal_id as string;
    const closed = await w.value('collection:edit', {
      kind: 'goal',
      id: goalId,
      patch: { status: 'closed' },
    });
    expect(closed.op_id).toEqual(expect.any(String));
    expect(workspaceCollections(w.f.mirror, DAY).goals.find((g) => g.goal_id === goalId)).toMatchObject({
      status: 'closed',
      pending: 'queued',
    });
    await w.f.pusher.pushAll();
    const onServer = await w.f.api.read(goalOperations.get, { projectId, goalId });
    expect(onServer.status === 200 && onServer.body.status).toBe('closed');

    await w.value('collection:delete', { kind: 'goal', id: goalId });
    expect(workspaceCollections(w.f.mirror, DAY).goals.map((g) => g.goal_id)).not.toContain(goalId);
    await w.f.pusher.pushAll();
    expect(w.f.mirror.outbox.list().filter((op) => op.state !== 'done')).toEqual([]);
  });

  test('a refused field, an unknown id and a sprint delete are errors, and nothing is queued', async () => {
    const w = await wire();
    const [teamId] = await teamIds(w.f);
    const both = await w.call('collection:create', {
      kind: 'sprint',
      fields: { name: 'Both', start_date: '2027-01-04', end_date: '2027-01-18', duration_weeks: 2 },
      parent_id: teamId,
    });
    expect(both).toMatchObject({ ok: false, error: { type: 'validation' } });
    const noTeam = await w.call('collection:create', {
      kind: 'sprint',
      fields: { name: 'Nowhere', start_date: '2027-01-04', duration_weeks: 2 },
    });
    expect(noTeam).toMatchObject({ ok: false, error: { type: 'validation' } });
    const unknown = await w.call('collection:edit', {
      kind: 'section',
      id: 'sec_nowhere',
      patch: { name: 'x' },
    });
    expect(unknown).toMatchObject({ ok: false, error: { type: 'not-found' } });
    const sprint = await w.value('collection:create', {
      kind: 'sprint',
      fields: { name: 'Kept', start_date: '2027-01-04', duration_weeks: 1 },
      parent_id: teamId,
    });
    const queuedBefore = w.f.mirror.outbox.list().length;
    expect(await w.call('collection:delete', { kind: 'sprint', id: sprint.id })).toMatchObject({
      ok: false,
      error: { type: 'validation' },
    });
    expect(await w.call('collection:create', { kind: 'board', fields: {} })).toMatchObject({
      ok: false,
      error: { type: 'invalid-input' },
    });
    expect(w.f.mirror.outbox.list()).toHaveLength(queuedBefore);
  });

  test('a read-only account is refused before anything is queued', async () => {
    const w = await wire({ readOnly: true });
    const refused = await w.call('collection:create', {
      kind: 'section',
      fields: { scope_type: 'user', scope_id: w.f.emulator.me.username, name: 'Not allowed' },
    });
    expect(refused).toMatchObject({ ok: false, error: { type: 'read-only' } });
    expect(w.f.mirror.outbox.list()).toEqual([]);
  });

  test('a sign-in without teams:write may not queue a sprint, and says so; other kinds still queue', async () => {
    const w = await wire({ readOnlyKinds: new Map([['sprint', 'teams:write']]) });
    const [teamId] = await teamIds(w.f);
    const refused = await w.call('collection:create', {
      kind: 'sprint',
      fields: { name: 'Not allowed', start_date: DAY, duration_weeks: 1 },
      parent_id: teamId as string,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { type: 'insufficient-scope', message: expect.stringContaining('teams:write') as unknown },
    });
    expect(w.f.mirror.outbox.list()).toEqual([]);
    await w.value('collection:create', {
      kind: 'section',
      fields: { scope_type: 'user', scope_id: w.f.emulator.me.username, name: 'Allowed' },
    });
    expect(w.f.mirror.outbox.list().map((op) => op.entityType)).toEqual(['section']);
  });
});
