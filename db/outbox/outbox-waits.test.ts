// A change held behind another that stopped (blocked, failed, in conflict) names
// that one, so no view says it is sent "when the server can be reached" (issue 21,
// defect 2); settling the stopped one settles what waits behind it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { discardOperation, retryOperation } from './outbox-review';
import { waitsOnOf } from './outbox-waits';
import { UNSETTLED_STATES } from '../tasks/task-overlay';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

let handle: TestMirror;
let mirror: Mirror;

beforeEach(async () => {
  handle = await openTestMirror();
  mirror = handle.mirror;
  loadTasks(mirror, [
    taskJson({ task_id: 'tsk_1', title: 'One' }),
    taskJson({ task_id: 'tsk_2', title: 'Two' }),
  ]);
});
afterEach(() => handle.cleanup());

const READ_ONLY = {
  status: 403,
  type: 'insufficient-scope',
  detail: 'needs teams:write',
  errors: [{ required: 'teams:write' }],
};

/** A sprint created here whose create the service refused for the token's scope. */
function blockedSprint(name = 'Q3'): { id: string; opId: string } {
  const sprint = mirror.sprints.create({ name, start_date: '2027-01-04', duration_weeks: 2 }, 'tm_1');
  mirror.outbox.start(sprint.opId);
  mirror.outbox.fail(sprint.opId, 'blocked', READ_ONLY);
  return sprint;
}

function waits(): Map<string, unknown> {
  return waitsOnOf(mirror, mirror.outbox.list(UNSETTLED_STATES));
}

describe('a task filed into a sprint whose create is blocked', () => {
  test('waits on that create, named, with its state', () => {
    const sprint = blockedSprint();
    const filing = mirror.tasks.edit('tsk_1', { sprint_id: sprint.id }) as { opId: string };

    expect(waits().get(filing.opId)).toEqual({
      opId: sprint.opId,
      kind: 'create',
      entityType: 'sprint',
      entityId: sprint.id,
      name: 'Q3',
      state: 'blocked',
    });
    // The stopped change itself waits on nothing: its own state says what holds it.
    expect(waits().has(sprint.opId)).toBe(false);
  });

  test('discarded, the task edit loses the field and nothing waits any more', () => {
    const sprint = blockedSprint();
    mirror.tasks.edit('tsk_1', { sprint_id: sprint.id, title: 'One, planned' });
    mirror.tasks.edit('tsk_2', { sprint_id: sprint.id });

    discardOperation(mirror, sprint.opId);

    const left = mirror.outbox.list(UNSETTLED_STATES);
    expect(left.map((op) => [op.entityId, op.patch])).toEqual([['tsk_1', { title: 'One, planned' }]]);
    expect(waits().size).toBe(0);
    expect(mirror.outbox.ready().map((op) => op.entityId)).toEqual(['tsk_1']);
  });

  test('retried, it waits on nothing the person must settle, and once the sprint is created the filing is sent with its id', () => {
    const sprint = blockedSprint();
    const filing = mirror.tasks.edit('tsk_1', { sprint_id: sprint.id }) as { opId: string };

    retryOperation(mirror, sprint.opId);
    // Queued behind a create that is on its way is ordinary order, not a wait to tell.
    expect(waits().size).toBe(0);
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([sprint.opId]);

    mirror.outbox.start(sprint.opId);
    mirror.outbox.settle(sprint.opId, {
      task: {
        sprint_id: 'spr_9',
        team_id: 'tm_1',
        name: 'Q3',
        start_date: '2027-01-04',
        end_date: '2027-01-17',
        status: 'planned',
      },
      etag: '"s1"',
    });
    expect(mirror.outbox.ready()).toEqual([
      expect.objectContaining({ opId: filing.opId, patch: { sprint_id: 'spr_9' } }),
    ]);
  });
});

describe('what else waits behind a stopped change', () => {
  test('a comment on a task created here, whose create was refused, waits on that task', () => {
    const created = mirror.tasks.create({ title: 'New one' });
    mirror.outbox.start(created.opId);
    mirror.outbox.fail(created.opId, 'failed', { status: 422, type: 'validation', errors: [] });
    const comment = mirror.comments.create({ taskId: created.taskId, content: 'First!' });

    expect(waits().get(comment.opId)).toMatchObject({
      opId: created.opId,
      entityType: 'task',
      entityId: created.taskId,
      name: 'New one',
      state: 'failed',
    });
  });

  test('an edit behind an earlier edit of the same task in conflict waits on that one', () => {
    loadTasks(mirror, [taskJson({ task_id: 'tsk_3', title: 'Three' })]);
    mirror.tasks.applyServerCopy(taskJson({ task_id: 'tsk_3', title: 'Three' }), '"v1"');
    const first = mirror.tasks.edit('tsk_3', { title: 'Mine' }) as { opId: string };
    mirror.outbox.start(first.opId);
    mirror.outbox.conflict(first.opId, {
      deleted: false,
      theirsEtag: '"v2"',
      fields: [{ field: 'title', base: 'Three', mine: 'Mine', theirs: 'Theirs' }],
    });
    const second = mirror.tasks.edit('tsk_3', { priority: 'high' }) as { opId: string };

    expect(waits().get(second.opId)).toMatchObject({
      opId: first.opId,
      kind: 'update',
      entityType: 'task',
      entityId: 'tsk_3',
      state: 'conflict',
    });
  });

  test('a chain names the change the person must settle: a comment on a task filed into a blocked sprint', () => {
    const sprint = blockedSprint('Later');
    const created = mirror.tasks.create({ title: 'Planned', sprint_id: sprint.id });
    const comment = mirror.comments.create({ taskId: created.taskId, content: 'Note' });

    expect(waits().get(created.opId)).toMatchObject({ opId: sprint.opId, name: 'Later' });
    expect(waits().get(comment.opId)).toMatchObject({ opId: sprint.opId, state: 'blocked' });
  });
});
