// The marks a queued edit gives its task: on a page of rows and in the editor.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { taskSyncState, taskWaitsOn, WaitingMarks } from './task-marks';
import { loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let t: TestMirror;

beforeEach(async () => {
  t = await openTestMirror();
});

afterEach(() => {
  t.mirror.close();
  t.cleanup();
});

/** A new task whose create was sent and answered `state`. */
function stopped(title: string, state: 'failed' | 'blocked'): string {
  const { taskId, opId } = t.mirror.tasks.create({ title, priority: 'high' });
  t.mirror.outbox.start(opId);
  t.mirror.outbox.fail(opId, state, { status: state === 'failed' ? 422 : 403 });
  return taskId;
}

test('a row is marked by the operation that waits for the person, else pending while an edit is queued', () => {
  const queued = t.mirror.tasks.create({ title: 'Queued' }).taskId;
  const failed = stopped('Refused', 'failed');
  const blocked = stopped('Read-only', 'blocked');

  const marks = new WaitingMarks(t.mirror);

  expect(marks.of(queued, true)).toBe('pending');
  expect(marks.of(failed, true)).toBe('failed');
  expect(marks.of(blocked, true)).toBe('blocked');
  expect(marks.of('tsk_untouched', false)).toBeNull();
});

test("the editor shows the mark of the task's unsettled operation and the fields it changes, sorted", () => {
  const failed = stopped('Refused', 'failed');
  const queued = t.mirror.tasks.create({ title: 'Queued', due_date: '2031-01-02' }).taskId;

  expect(taskSyncState(t.mirror, failed, true)).toEqual({
    mark: 'failed',
    pendingFields: ['priority', 'title'],
  });
  expect(taskSyncState(t.mirror, queued, true)).toEqual({
    mark: 'pending',
    pendingFields: ['due_date', 'title'],
  });
  expect(taskSyncState(t.mirror, 'tsk_untouched', false)).toEqual({ mark: null, pendingFields: [] });
});

test('a move to another project marks the milestone it clears as waiting too, while the server still has it', () => {
  t.mirror.identity.setAccount({ orgId: 'org_test', username: 'ada' });
  loadTasks(t.mirror, [
    taskJson({ task_id: 'tsk_filed', project_id: 'prj_a', milestone_id: 'mst_a' }),
    taskJson({ task_id: 'tsk_unfiled', project_id: 'prj_a', milestone_id: null }),
  ]);
  t.mirror.tasks.edit('tsk_filed', { project_id: 'prj_b' });
  t.mirror.tasks.edit('tsk_unfiled', { project_id: 'prj_b' });

  expect(t.mirror.tasks.get('tsk_filed')?.task.milestone_id).toBeNull();
  expect(taskSyncState(t.mirror, 'tsk_filed', true)).toEqual({
    mark: 'pending',
    pendingFields: ['milestone_id', 'project_id'],
  });
  // Nothing to clear: the milestone field has nothing waiting.
  expect(taskSyncState(t.mirror, 'tsk_unfiled', true).pendingFields).toEqual(['project_id']);
});

test('a task whose edit is held behind a stopped create says what it waits on, on its row and in the editor (issue 21, defect 2)', () => {
  loadTasks(t.mirror, [
    taskJson({ task_id: 'tsk_1', title: 'Filed' }),
    taskJson({ task_id: 'tsk_2', title: 'Plain' }),
  ]);
  const sprint = t.mirror.sprints.create({ name: 'Q3', start_date: '2027-01-04', duration_weeks: 2 }, 'tm_1');
  t.mirror.outbox.start(sprint.opId);
  t.mirror.outbox.fail(sprint.opId, 'blocked', { status: 403, type: 'insufficient-scope' });
  t.mirror.tasks.edit('tsk_1', { sprint_id: sprint.id });
  t.mirror.tasks.edit('tsk_2', { title: 'Plain, renamed' });
  const waits = {
    opId: sprint.opId,
    kind: 'create',
    entityType: 'sprint',
    entityId: sprint.id,
    name: 'Q3',
    state: 'blocked',
  };

  const marks = new WaitingMarks(t.mirror);
  expect(marks.of('tsk_1', true)).toBe('pending');
  expect(marks.waitsOn('tsk_1')).toEqual(waits);
  expect(marks.waitsOn('tsk_2')).toBeNull();
  expect(taskSyncState(t.mirror, 'tsk_1', true)).toMatchObject({ mark: 'pending' });
  expect(taskWaitsOn(t.mirror, 'tsk_1')).toEqual(waits);
  expect(taskWaitsOn(t.mirror, 'tsk_2')).toBeNull();
});
