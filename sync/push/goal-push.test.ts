// Goals through the one outbox, against the emulator with a real mirror:
// created and edited offline (one create), closing, a soft delete that
// unfiles the goal's tasks in the mirror too, a delete held over the peer's
// rename, and bad input refused before queuing. The rename race is
// rename-race.test.ts's, with the milestone's and the sprint's.
import { describe, expect, test } from 'vitest';
import { InvalidEditError } from '../../db/mirror-errors';
import { goalKind } from '../../protocol/goal';
import { goalOperations } from '../api/operations';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { kindOnServer, pushedId, sharedProject } from './testing/resource-push';

const start = pushFixturePerTest();

const { writes: goalWrites, server: serverGoal, peerRenames } = kindOnServer(goalKind, goalOperations);

function pushedGoal(f: PushFixture, projectId: string, name: string): Promise<string> {
  f.mirror.goals.create({ name }, projectId);
  return pushedId(f, 'goal', () => f.mirror.goals.list().find((g) => g.name === name)?.goal_id);
}

describe('goals written offline', () => {
  test('a goal created and edited offline is one create with the last values, under its project', async () => {
    const f = await start();
    const projectId = await sharedProject(f);
    const created = f.mirror.goals.create({ name: 'Launch' }, projectId);
    expect(f.mirror.goals.edit(created.id, { target_date: '2027-06-30' })).toEqual({ opId: created.opId });
    expect(f.mirror.goals.list()).toContainEqual(
      expect.objectContaining({ goal_id: created.id, project_id: projectId, pending: 'queued' }),
    );
    await f.pusher.pushAll();
    expect(goalWrites(f)).toEqual(['POST 201']);
    const shown = f.mirror.goals.list().find((g) => g.name === 'Launch');
    expect(shown?.goal_id).not.toMatch(/^local-/);
    expect(shown?.pending).toBeUndefined();
    expect(await serverGoal(f.api, projectId, shown?.goal_id as string)).toMatchObject({
      name: 'Launch',
      target_date: '2027-06-30',
    });
  });

  test('closing a goal sends status closed; reopening sends open', async () => {
    const f = await start();
    const projectId = await sharedProject(f);
    const id = await pushedGoal(f, projectId, 'Close me');
    f.mirror.goals.edit(id, { status: 'closed' });
    await f.pusher.pushAll();
    expect(f.mirror.goals.list().find((g) => g.goal_id === id)).toMatchObject({ status: 'closed' });
    f.mirror.goals.edit(id, { status: 'open' });
    await f.pusher.pushAll();
    expect(goalWrites(f)).toEqual(['PATCH 200', 'PATCH 200']);
    expect((await serverGoal(f.api, projectId, id)).status).toBe('open');
  });

  test('a soft delete unfiles the goal’s tasks in the mirror as on the service', async () => {
    const f = await start();
    const projectId = await sharedProject(f);
    const id = await pushedGoal(f, projectId, 'Doomed');
    const [taskId] = f.taskIds(1);
    await f.loadTasks([taskId as string]);
    f.mirror.tasks.edit(taskId as string, { project_id: projectId, goal_id: id });
    await f.pusher.pushAll();
    expect(f.mirror.tasks.get(taskId as string)?.task.goal_id).toBe(id);

    f.mirror.goals.delete(id);
    expect(f.mirror.goals.list().map((g) => g.goal_id)).not.toContain(id);
    await f.pusher.pushAll();
    expect(goalWrites(f)).toContain('DELETE 200');
    expect(f.emulator.control.task(taskId as string)?.goal_id).toBeNull();
    expect(f.mirror.tasks.get(taskId as string)?.task.goal_id).toBeNull();
    expect(f.mirror.outbox.list(['queued', 'conflict', 'failed'])).toEqual([]);
  });

  test('a delete of a goal the peer renamed meanwhile is held for the person, not sent over their rename', async () => {
    const f = await start();
    const projectId = await sharedProject(f);
    const id = await pushedGoal(f, projectId, 'Keep?');
    await peerRenames(f, projectId, id, 'Keep!');
    f.emulator.control.clearRequests();
    const deleted = f.mirror.goals.delete(id);
    expect(await f.pusher.pushAll()).toMatchObject({ failed: 1 });
    expect(goalWrites(f)).toEqual(['DELETE 412']);
    expect(f.mirror.outbox.op(deleted?.opId as string)).toMatchObject({
      state: 'failed',
      lastProblem: { status: 412, type: 'edited-remotely' },
    });
    expect((await serverGoal(f.api, projectId, id)).name).toBe('Keep!');
  });

  test('a name over 200 characters or an unknown field is refused before queuing', async () => {
    const f = await start();
    const projectId = await sharedProject(f);
    expect(() => f.mirror.goals.create({ name: 'x'.repeat(201) }, projectId)).toThrow(InvalidEditError);
    expect(() => f.mirror.goals.create({ name: 'ok', colour: 'red' }, projectId)).toThrow(/colour/);
    expect(f.mirror.outbox.list()).toEqual([]);
  });
});
