// The rename race every kind a person names shares, through the one outbox
// against the emulator with a real mirror: the peer renames on the server a
// goal, milestone or sprint pushed from here, while here the same one is
// renamed and another of its fields changed. The name is one conflict in the
// three-way structure, the other field merges without one, and the server
// keeps the name the person took and the field.
import { expect, test } from 'vitest';
import { goalKind } from '../../protocol/goal';
import { milestoneKind } from '../../protocol/milestone';
import { sprintKind } from '../../protocol/sprint';
import { goalOperations, milestoneOperations, sprintOperations } from '../api/operations';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import {
  kindOnServer,
  platformTeam,
  pushedId,
  settleNameConflict,
  sharedProject,
} from './testing/resource-push';

const start = pushFixturePerTest();

const cases = [
  {
    title: 'the peer renamed the same goal: a three-way conflict on the name; the description merges',
    entityType: 'goal',
    onServer: kindOnServer(goalKind, goalOperations),
    parent: sharedProject,
    pushed: (f: PushFixture, projectId: string, name: string) => {
      f.mirror.goals.create({ name }, projectId);
      return pushedId(f, 'goal', () => f.mirror.goals.list().find((g) => g.name === name)?.goal_id);
    },
    edit: (f: PushFixture, id: string, patch: { name: string }) =>
      f.mirror.goals.edit(id, { ...patch, description: 'all of it' }),
    names: { base: 'Launch v2', mine: 'Ship v2', theirs: 'Go live' },
    take: 'theirs',
    kept: { name: 'Go live', description: 'all of it' },
  },
  {
    title: 'the peer renamed the same milestone: a three-way conflict on the name; the due date merges',
    entityType: 'milestone',
    onServer: kindOnServer(milestoneKind, milestoneOperations),
    parent: sharedProject,
    pushed: (f: PushFixture, projectId: string, name: string) => {
      f.mirror.milestones.create({ name }, projectId);
      return pushedId(
        f,
        'milestone',
        () => f.mirror.milestones.list(projectId).find((m) => m.name === name)?.milestone_id,
      );
    },
    edit: (f: PushFixture, id: string, patch: { name: string }) =>
      f.mirror.milestones.edit(id, { ...patch, due_date: '2027-09-01' }),
    names: { base: 'GA', mine: 'GA 1.0', theirs: 'General availability' },
    take: 'mine',
    kept: { name: 'GA 1.0', due_date: '2027-09-01' },
  },
  {
    title: 'the peer renamed the same sprint: a three-way conflict; a goal set here merges without one',
    entityType: 'sprint',
    onServer: kindOnServer(sprintKind, sprintOperations),
    parent: platformTeam,
    pushed: (f: PushFixture, teamId: string, name: string) => {
      f.mirror.sprints.create({ name, start_date: '2027-01-04', duration_weeks: 2 }, teamId);
      return pushedId(
        f,
        'sprint',
        () => f.mirror.sprints.list(teamId).find((s) => s.name === name)?.sprint_id,
      );
    },
    edit: (f: PushFixture, id: string, patch: { name: string }) =>
      f.mirror.sprints.edit(id, { ...patch, goal: 'ship it' }),
    names: { base: 'Sprint 20', mine: 'Sprint twenty', theirs: 'Sprint 20b' },
    take: 'mine',
    kept: { name: 'Sprint twenty', goal: 'ship it' },
  },
] as const;

test.each(cases)('$title', async ({ entityType, onServer, parent, pushed, edit, names, take, kept }) => {
  const f = await start();
  const parentId = await parent(f);
  const id = await pushed(f, parentId, names.base);
  await onServer.peerRenames(f, parentId, id, names.theirs);

  edit(f, id, { name: names.mine });
  await settleNameConflict(f, { entityType, ...names }, take);
  expect(await onServer.server(f.api, parentId, id)).toMatchObject(kept);
});
