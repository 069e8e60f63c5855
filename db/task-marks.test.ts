// The marks a queued edit gives its task: on a page of rows and in the editor.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { taskSyncState, WaitingMarks } from './task-marks';
import { openTestMirror, type TestMirror } from './test-mirror';

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
