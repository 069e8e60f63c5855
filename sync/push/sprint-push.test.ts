// Sprints through the one outbox, against the emulator with a real mirror:
// created and edited offline (one create), a stale If-Match on a field
// nobody else changed merged per field, an active name collision (409) kept
// as a fixable failure, both end date and length refused before queuing, a
// task filed into a sprint still queued, and completing. The rename race is
// rename-race.test.ts's, with the goal's and the milestone's.
import { describe, expect, test } from 'vitest';
import { InvalidEditError } from '../../db/mirror-errors';
import { sprintKind } from '../../protocol/sprint';
import { sprintOperations } from '../api/operations';
import type { SyncEvent } from '../events/sync-events';
import { mirrorPushStore } from './mirror-push-store';
import { Pusher } from './pusher';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { kindOnServer, platformTeam, pushedId } from './testing/resource-push';

const start = pushFixturePerTest();

const {
  writes: sprintWrites,
  server: serverSprint,
  peerRenames,
} = kindOnServer(sprintKind, sprintOperations);

function pushedSprint(f: PushFixture, teamId: string, name: string): Promise<string> {
  f.mirror.sprints.create({ name, start_date: '2027-01-04', duration_weeks: 2 }, teamId);
  return pushedId(f, 'sprint', () => f.mirror.sprints.list(teamId).find((s) => s.name === name)?.sprint_id);
}

/** A bench where one sprint of the Platform team, named `name`, was created and pushed. */
async function startWithSprint(name: string): Promise<{ f: PushFixture; teamId: string; id: string }> {
  const f = await start();
  const teamId = await platformTeam(f);
  return { f, teamId, id: await pushedSprint(f, teamId, name) };
}

/**
 * A bench with one task loaded into the mirror and a two-week sprint of the
 * Platform team, named `name`, created here and not pushed yet.
 */
async function startWithQueuedSprint(name: string) {
  const f = await start();
  const teamId = await platformTeam(f);
  const [taskId] = f.taskIds(1) as [string];
  await f.loadTasks([taskId]);
  const sprint = f.mirror.sprints.create({ name, start_date: '2027-03-01', duration_weeks: 2 }, teamId);
  return { f, teamId, taskId, sprint };
}

describe('sprints written offline', () => {
  test('a sprint created and edited offline is one create with the last values, under its team', async () => {
    const f = await start();
    const teamId = await platformTeam(f);
    const created = f.mirror.sprints.create(
      { name: 'Sprint 12', start_date: '2027-01-04', duration_weeks: 2 },
      teamId,
    );
    expect(f.mirror.sprints.edit(created.id, { goal: 'ship search' })).toEqual({ opId: created.opId });
    expect(f.mirror.sprints.list(teamId)).toContainEqual(
      expect.objectContaining({
        sprint_id: created.id,
        team_id: teamId,
        goal: 'ship search',
        pending: 'queued',
      }),
    );
    await f.pusher.pushAll();
    expect(sprintWrites(f)).toEqual(['POST 201']);
    const shown = f.mirror.sprints.list(teamId).find((s) => s.name === 'Sprint 12');
    expect(shown?.sprint_id).not.toMatch(/^local-/);
    expect(shown?.pending).toBeUndefined();
    const sprint = await serverSprint(f.api, teamId, shown?.sprint_id as string);
    expect(sprint).toMatchObject({ name: 'Sprint 12', goal: 'ship search', team_id: teamId });
  });

  test('a stale If-Match on a field nobody else changed merges per field (412 then 200), no conflict', async () => {
    const { f, teamId, id } = await startWithSprint('Sprint 21');
    await peerRenames(f, teamId, id, 'Sprint 21b');
    f.emulator.control.clearRequests();
    f.mirror.sprints.edit(id, { goal: 'fewer bugs' });
    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(sprintWrites(f)).toEqual(['PATCH 412', 'PATCH 200']);
    expect(await serverSprint(f.api, teamId, id)).toMatchObject({
      name: 'Sprint 21b',
      goal: 'fewer bugs',
    });
  });

  test('completing a sprint sends status completed and shows who completed it', async () => {
    const { f, teamId, id } = await startWithSprint('Sprint 22');
    f.mirror.sprints.edit(id, { status: 'completed' });
    await f.pusher.pushAll();
    expect(sprintWrites(f)).toEqual(['PATCH 200']);
    expect(f.mirror.sprints.list(teamId).find((s) => s.sprint_id === id)).toMatchObject({
      status: 'completed',
      completed_by: f.emulator.me.username,
    });
  });

  test('a name colliding with an active sprint (409) waits as a fixable failure; retried with another name it lands', async () => {
    const f = await start();
    const teamId = await platformTeam(f);
    await pushedSprint(f, teamId, 'Sprint 30');
    const dup = f.mirror.sprints.create(
      { name: 'sprint 30', start_date: '2027-02-01', duration_weeks: 1 },
      teamId,
    );
    expect(await f.pusher.pushAll()).toMatchObject({ failed: 1 });
    expect(f.mirror.outbox.op(dup.opId)).toMatchObject({ state: 'failed', lastProblem: { status: 409 } });
    const retried = f.mirror.outbox.retry(dup.opId, { name: 'Sprint 31' });
    await f.pusher.pushAll();
    expect(f.mirror.outbox.op(retried).state).toBe('done');
    expect(f.mirror.sprints.list(teamId).map((s) => s.name)).toEqual(
      expect.arrayContaining(['Sprint 30', 'Sprint 31']),
    );
  });

  test('an end date with a length in weeks is refused before queuing, with a clear error; nothing is queued', async () => {
    const f = await start();
    const teamId = await platformTeam(f);
    const both = { name: 'Sprint 40', start_date: '2027-01-04', end_date: '2027-01-18', duration_weeks: 2 };
    expect(() => f.mirror.sprints.create(both, teamId)).toThrow(InvalidEditError);
    expect(() => f.mirror.sprints.create(both, teamId)).toThrow(/end_date or duration_weeks, not both/);
    expect(() => f.mirror.sprints.create({ name: 'x', start_date: '2027-01-04' }, null)).toThrow(/team_id/);
    expect(f.mirror.outbox.list()).toEqual([]);
  });

  test('a sprint cannot be deleted (the service has none): refused before queuing', async () => {
    const { f, id } = await startWithSprint('Sprint 41');
    expect(() => f.mirror.sprints.delete(id)).toThrow(/complete it instead/);
    expect(f.mirror.outbox.list(['queued'])).toEqual([]);
  });

  test('a task filed into a sprint still queued is sent after it, with the server id in its patch', async () => {
    const { f, teamId, taskId, sprint } = await startWithQueuedSprint('Sprint 50');
    f.mirror.tasks.edit(taskId, { sprint_id: sprint.id });
    expect(f.mirror.tasks.get(taskId)?.task.sprint_id).toBe(sprint.id);
    await f.pusher.pushAll();
    const landed = f.mirror.sprints.list(teamId).find((s) => s.name === 'Sprint 50')?.sprint_id as string;
    expect(landed).not.toMatch(/^local-/);
    expect(f.emulator.control.task(taskId)?.sprint_id).toBe(landed);
    expect(f.mirror.tasks.get(taskId)?.task.sprint_id).toBe(landed);
    expect(f.mirror.outbox.list(['queued', 'conflict', 'failed'])).toEqual([]);
  });

  test('a token without teams:write: the sprint create is blocked for its scope while task edits in the same pass go', async () => {
    const { f, taskId, sprint } = await startWithQueuedSprint('No scope');
    f.mirror.tasks.edit(taskId, { title: 'sent although sprints are refused' });
    const { token } = f.emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:read', 'members:read'],
    });
    const events: SyncEvent[] = [];
    const pusher = new Pusher({
      store: mirrorPushStore(f.mirror),
      api: f.apiWith(token),
      onEvent: (event) => events.push(event),
    });

    const summary = await pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 1, failed: 1 });
    expect(f.emulator.control.task(taskId)?.title).toBe('sent although sprints are refused');
    expect(f.mirror.outbox.op(sprint.opId)).toMatchObject({ state: 'blocked' });
    expect(pusher.readOnlyScopes.get('teams:write')).toBe('insufficient-scope');
    expect(events.filter((event) => event.type === 'read-only')).toEqual([
      expect.objectContaining({ scope: 'teams:write', reason: 'insufficient-scope' }),
    ]);
  });

  test('a task filed into a sprint whose create is discarded no longer waits on it: the filing goes with the sprint, its other edits are sent', async () => {
    const f = await start();
    const teamId = await platformTeam(f);
    const [taskId] = f.taskIds(1) as [string];
    await f.loadTasks([taskId]);
    const before = f.emulator.control.task(taskId)?.sprint_id ?? null;
    const sprint = f.mirror.sprints.create(
      { name: 'Discarded', start_date: '2027-03-01', duration_weeks: 2 },
      teamId,
    );
    f.mirror.tasks.edit(taskId, { sprint_id: sprint.id, title: 'Kept though its sprint was discarded' });

    f.mirror.outbox.drop(sprint.opId);

    expect(f.mirror.tasks.get(taskId)?.task.sprint_id ?? null).toBe(before);
    await f.pusher.pushAll();
    expect(f.emulator.control.task(taskId)?.title).toBe('Kept though its sprint was discarded');
    expect(f.emulator.control.task(taskId)?.sprint_id ?? null).toBe(before);
    expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
  });

  test('a task filed into a sprint whose create was refused for its scope waits for it, and goes after the sprint once a sign-in allows it', async () => {
    const { f, teamId, taskId, sprint } = await startWithQueuedSprint('Refused first');
    const filing = f.mirror.tasks.edit(taskId, { sprint_id: sprint.id });
    const { token } = f.emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:read', 'members:read'],
    });
    await new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(token) }).pushAll();
    expect(f.mirror.outbox.op(sprint.opId)).toMatchObject({ state: 'blocked' });
    expect(f.mirror.outbox.op(filing?.opId as string)).toMatchObject({ state: 'queued', attempts: 0 });

    // Signed in again with the scope: what was blocked goes, and what waited on it after it.
    expect(await f.pusher.clearReadOnly()).toBe(1);
    await f.pusher.pushAll();
    const landed = f.mirror.sprints.list(teamId).find((s) => s.name === 'Refused first')?.sprint_id as string;
    expect(landed).not.toMatch(/^local-/);
    expect(f.emulator.control.task(taskId)?.sprint_id).toBe(landed);
    expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
  });
});
