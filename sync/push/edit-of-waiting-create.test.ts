// An edit of a sprint, goal or milestone whose create still waits, against the
// emulator with a real mirror: what the create body carries folds into it, and
// what it does not (a sprint completed, a goal closed, a milestone completed)
// is sent as an update right after it, with the server's id and the create's
// ETag, never dropped; a dropped create takes its waiting edits with it.
import { describe, expect, test } from 'vitest';
import type { CollectionWrites } from '../../db/collections/collection-writes';
import { goalOperations, milestoneOperations, sprintOperations } from '../api/operations';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { platformTeam, serverBody, sharedProject, writesTo } from './testing/resource-push';

const start = pushFixturePerTest();

/** The writes the emulator answered on paths that hold `segment`. */
const writesOn = (f: PushFixture, segment: string) => writesTo(f, (path) => path.includes(segment));

interface KindCase {
  kind: string;
  segment: string;
  idField: string;
  writes: (f: PushFixture) => CollectionWrites;
  parent: (f: PushFixture) => Promise<string>;
  create: TaskFields;
  /** The edit whose field the create body does not carry. */
  finish: TaskFields;
  read: (f: PushFixture, parentId: string, id: string) => Promise<Record<string, unknown>>;
}
type TaskFields = Record<string, unknown>;

const cases: KindCase[] = [
  {
    kind: 'sprint',
    segment: '/sprints',
    idField: 'sprint_id',
    writes: (f) => f.mirror.sprints,
    parent: platformTeam,
    create: { name: 'Sprint 60', start_date: '2027-01-04', duration_weeks: 2 },
    finish: { status: 'completed' },
    read: (f, team, id) => serverBody(f.api, sprintOperations.get, { teamId: team, sprintId: id }),
  },
  {
    kind: 'goal',
    segment: '/goals',
    idField: 'goal_id',
    writes: (f) => f.mirror.goals,
    parent: sharedProject,
    create: { name: 'Launch early' },
    finish: { status: 'closed' },
    read: (f, project, id) => serverBody(f.api, goalOperations.get, { projectId: project, goalId: id }),
  },
  {
    kind: 'milestone',
    segment: '/milestones',
    idField: 'milestone_id',
    writes: (f) => f.mirror.milestones,
    parent: sharedProject,
    create: { name: 'Beta early' },
    finish: { status: 'completed' },
    read: (f, project, id) =>
      serverBody(f.api, milestoneOperations.get, { projectId: project, milestoneId: id }),
  },
];

describe.each(cases)('a $kind edited while its create waits', (c) => {
  test(`${JSON.stringify(c.finish)} while the create waits reaches the server after one push, the rename in the create`, async () => {
    const f = await start();
    const parent = await c.parent(f);
    const writes = c.writes(f);
    const created = writes.create(c.create, parent);
    writes.edit(created.id, c.finish);
    writes.edit(created.id, { name: `${String(c.create.name)} (renamed)` });
    expect(writes.get(created.id)).toMatchObject({ ...c.finish, pending: 'queued' });

    await f.pusher.pushAll();
    expect(writesOn(f, c.segment)).toEqual(['POST 201', 'PATCH 200']);
    const shown = writes.list().find((r) => r.name === `${String(c.create.name)} (renamed)`);
    const id = shown?.[c.idField] as string;
    expect(id).not.toMatch(/^local-/);
    expect(shown).toMatchObject(c.finish);
    expect(shown?.pending).toBeUndefined();
    expect(await c.read(f, parent, id)).toMatchObject({
      ...c.finish,
      name: `${String(c.create.name)} (renamed)`,
    });
    expect(f.mirror.outbox.list(['queued', 'in_flight', 'failed', 'conflict', 'blocked'])).toEqual([]);
  });

  test('dropping the waiting create drops the edits waiting behind it', async () => {
    const f = await start();
    const parent = await c.parent(f);
    const writes = c.writes(f);
    const created = writes.create(c.create, parent);
    writes.edit(created.id, c.finish);
    f.mirror.outbox.drop(created.opId);
    expect(writes.get(created.id)).toBeUndefined();
    expect(f.mirror.outbox.list(['queued'])).toEqual([]);
    await f.pusher.pushAll();
    expect(writesOn(f, c.segment)).toEqual([]);
  });
});

describe('a sprint created with a length in weeks, edited before it is sent', () => {
  test('an end date chosen later takes the place of the weeks in the create (no 422)', async () => {
    const f = await start();
    const team = await platformTeam(f);
    const created = f.mirror.sprints.create(
      { name: 'Sprint 61', start_date: '2027-01-04', duration_weeks: 2 },
      team,
    );
    f.mirror.sprints.edit(created.id, { end_date: '2027-01-25' });
    await f.pusher.pushAll();
    expect(writesOn(f, '/sprints')).toEqual(['POST 201']);
    const shown = f.mirror.sprints.list(team).find((s) => s.name === 'Sprint 61');
    expect(await cases[0]?.read(f, team, shown?.sprint_id as string)).toMatchObject({
      end_date: '2027-01-25',
    });
  });

  test('made with an end date, a length in weeks chosen later takes the place of the date in the create', async () => {
    const f = await start();
    const team = await platformTeam(f);
    const created = f.mirror.sprints.create(
      { name: 'Sprint 63', start_date: '2027-01-04', end_date: '2027-01-15' },
      team,
    );
    f.mirror.sprints.edit(created.id, { duration_weeks: 3 });
    expect(f.mirror.outbox.op(created.opId).patch).toEqual({
      name: 'Sprint 63',
      start_date: '2027-01-04',
      duration_weeks: 3,
    });
    await f.pusher.pushAll();
    expect(writesOn(f, '/sprints')).toEqual(['POST 201']);
    const shown = f.mirror.sprints.list(team).find((s) => s.name === 'Sprint 63');
    expect(await cases[0]?.read(f, team, shown?.sprint_id as string)).toMatchObject({
      end_date: '2027-01-24',
      duration_weeks: 3,
    });
  });

  test('a status the service does not know is refused with the field named; the waiting create stays as it was', async () => {
    const f = await start();
    const team = await platformTeam(f);
    const created = f.mirror.sprints.create(
      { name: 'Sprint 62', start_date: '2027-01-04', duration_weeks: 1 },
      team,
    );
    expect(() => f.mirror.sprints.edit(created.id, { status: 'archived' })).toThrow(/status/);
    expect(f.mirror.outbox.list()).toEqual([
      expect.objectContaining({
        kind: 'create',
        opId: created.opId,
        patch: { name: 'Sprint 62', start_date: '2027-01-04', duration_weeks: 1 },
      }),
    ]);
  });
});
