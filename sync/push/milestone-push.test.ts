// Milestones through the one outbox, against the emulator with a real mirror:
// created and edited offline (one create), completing, a task filed into a
// milestone still queued, a delete that unfiles its tasks in the mirror too,
// and a task moved to another project losing its milestone on screen at once.
// The rename race is rename-race.test.ts's, with the goal's and the sprint's.
import { describe, expect, test } from 'vitest';
import { milestoneKind } from '../../protocol/milestone';
import { milestoneOperations } from '../api/operations';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { activeProjects, kindOnServer, pushedId } from './testing/resource-push';

const start = pushFixturePerTest();

const { writes: milestoneWrites, server: serverMilestone } = kindOnServer(milestoneKind, milestoneOperations);

/** A task filed nowhere that belongs to one project (a goal or section would hold a move back, 422). */
function unfiledTask(f: PushFixture): string {
  const [task] = f.emulator.control
    .tasks()
    .filter((t) => t.goal_id === null && t.section_id === null && t.parent_task_id === null)
    .map((t) => t.task_id)
    .sort();
  if (task === undefined) throw new Error('no unfiled task in the seed');
  return task;
}

function pushedMilestone(f: PushFixture, projectId: string, name: string): Promise<string> {
  f.mirror.milestones.create({ name }, projectId);
  return pushedId(
    f,
    'milestone',
    () => f.mirror.milestones.list(projectId).find((m) => m.name === name)?.milestone_id,
  );
}

describe('milestones written offline', () => {
  test('a milestone created and edited offline is one create with the last values, under its project', async () => {
    const f = await start();
    const [projectId] = (await activeProjects(f)) as [string];
    const created = f.mirror.milestones.create({ name: 'Beta' }, projectId);
    expect(f.mirror.milestones.edit(created.id, { due_date: '2027-05-01' })).toEqual({ opId: created.opId });
    await f.pusher.pushAll();
    expect(milestoneWrites(f)).toEqual(['POST 201']);
    const shown = f.mirror.milestones.list(projectId).find((m) => m.name === 'Beta');
    expect(shown).toMatchObject({ project_id: projectId, due_date: '2027-05-01' });
    expect(shown?.milestone_id).not.toMatch(/^local-/);
    expect(shown?.pending).toBeUndefined();
  });

  test('completing a milestone sends status completed', async () => {
    const f = await start();
    const [projectId] = (await activeProjects(f)) as [string];
    const id = await pushedMilestone(f, projectId, 'Done soon');
    f.mirror.milestones.edit(id, { status: 'completed' });
    await f.pusher.pushAll();
    expect(milestoneWrites(f)).toEqual(['PATCH 200']);
    expect((await serverMilestone(f.api, projectId, id)).status).toBe('completed');
  });

  test('a task filed into a queued milestone, then the milestone deleted: both sent, the task unfiled here too', async () => {
    const f = await start();
    const [projectId] = (await activeProjects(f)) as [string];
    const taskId = unfiledTask(f);
    await f.loadTasks([taskId]);
    f.mirror.tasks.edit(taskId, { project_id: projectId });
    const created = f.mirror.milestones.create({ name: 'Short lived' }, projectId);
    f.mirror.tasks.edit(taskId, { milestone_id: created.id });
    await f.pusher.pushAll();
    const id = f.mirror.milestones.list(projectId).find((m) => m.name === 'Short lived')?.milestone_id;
    expect(id).not.toMatch(/^local-/);
    expect(f.emulator.control.task(taskId)?.milestone_id).toBe(id);
    expect(f.mirror.tasks.get(taskId)?.task.milestone_id).toBe(id);

    f.emulator.control.clearRequests();
    f.mirror.milestones.delete(id as string);
    await f.pusher.pushAll();
    // The stored copy predates the filing: the 412 comes from the task counts alone, so the new version is deleted.
    expect(milestoneWrites(f)).toEqual(['DELETE 412', 'DELETE 200']);
    expect(f.emulator.control.task(taskId)?.milestone_id).toBeNull();
    expect(f.mirror.tasks.get(taskId)?.task.milestone_id).toBeNull();
  });

  test('moving a task to another project clears its milestone on screen at once, as the service will', async () => {
    const f = await start();
    const [from, to] = (await activeProjects(f)) as [string, string];
    const taskId = unfiledTask(f);
    await f.loadTasks([taskId]);
    const id = await pushedMilestone(f, from, 'Stays behind');
    f.mirror.tasks.edit(taskId, { project_id: from, milestone_id: id });
    await f.pusher.pushAll();
    expect(f.mirror.tasks.get(taskId)?.task.milestone_id).toBe(id);

    f.mirror.tasks.edit(taskId, { project_id: to });
    expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({ project_id: to, milestone_id: null });
    await f.pusher.pushAll();
    expect(f.mirror.outbox.list(['failed', 'conflict', 'blocked', 'queued'])).toEqual([]);
    expect(f.emulator.control.task(taskId)).toMatchObject({ project_id: to, milestone_id: null });
    expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({ project_id: to, milestone_id: null });
  });

  test('a name over 120 characters is refused before queuing', async () => {
    const f = await start();
    const [projectId] = (await activeProjects(f)) as [string];
    expect(() => f.mirror.milestones.create({ name: 'm'.repeat(121) }, projectId)).toThrow(/name/);
    expect(f.mirror.outbox.list()).toEqual([]);
  });
});
