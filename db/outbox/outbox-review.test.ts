import { describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { discardOperation, OutboxReviewError, resolveConflicts, retryOperation } from './outbox-review';
import { loadTasks, openTestMirrorPerTest, taskJson } from '../test-mirror';

let mirror: Mirror;
openTestMirrorPerTest((opened) => (mirror = opened.mirror));

function edited(title: string) {
  const task = taskJson({ title: 'Base', priority: 'low' });
  loadTasks(mirror, [task]);
  mirror.tasks.applyServerCopy(task, '"v1"');
  const taskId = task.task_id as string;
  const opId = (mirror.tasks.edit(taskId, { title, priority: 'high' }) as { opId: string }).opId;
  return { task, taskId, opId };
}

function conflicted() {
  const { task, taskId, opId } = edited('Mine');
  mirror.outbox.start(opId);
  mirror.tasks.applyServerCopy({ ...task, title: 'Theirs', priority: 'urgent' }, '"v2"');
  const conflicts = mirror.outbox.conflict(opId, {
    deleted: false,
    theirsEtag: '"v2"',
    fields: [
      { field: 'title', base: 'Base', mine: 'Mine', theirs: 'Theirs' },
      { field: 'priority', base: 'low', mine: 'high', theirs: 'urgent' },
    ],
    patch: {},
    baseValues: {},
  });
  return { taskId, opId, conflicts };
}

describe('what a person may do with a waiting change', () => {
  test('only a failed or blocked operation is retried; an edited retry carries the new value', () => {
    const { taskId, opId } = edited('Mine');
    expect(() => retryOperation(mirror, opId)).toThrow(OutboxReviewError);
    mirror.outbox.start(opId);
    mirror.outbox.fail(opId, 'failed', { status: 422, type: 'validation' });
    const again = retryOperation(mirror, opId, { title: 'Corrected' });
    expect(mirror.outbox.op(again)).toMatchObject({
      state: 'queued',
      patch: { title: 'Corrected', priority: 'high' },
    });
    expect(mirror.tasks.get(taskId)?.task.title).toBe('Corrected');
  });

  test('a change being sent cannot be discarded; a queued one can, and the task shows the server again', () => {
    const { taskId, opId } = edited('Mine');
    mirror.outbox.start(opId);
    expect(() => discardOperation(mirror, opId)).toThrow(/in_flight/);
    mirror.outbox.fail(opId, 'blocked', { status: 403, type: 'test-token-read-only' });
    discardOperation(mirror, opId);
    expect(mirror.outbox.list()).toEqual([]);
    expect(mirror.tasks.get(taskId)).toMatchObject({
      pending: false,
      task: { title: 'Base', priority: 'low' },
    });
  });

  test('choices per field are all checked before any is applied, then settle the operation', () => {
    const { taskId, opId, conflicts } = conflicted();
    const [title, priority] = conflicts as unknown as [{ conflictId: string }, { conflictId: string }];
    expect(() =>
      resolveConflicts(mirror, opId, [
        { conflictId: title.conflictId, resolution: { take: 'mine' } },
        { conflictId: 'stale', resolution: { take: 'theirs' } },
      ]),
    ).toThrow(OutboxReviewError);
    expect(mirror.outbox.openConflictCount()).toBe(2);

    const after = resolveConflicts(mirror, opId, [
      { conflictId: title.conflictId, resolution: { take: 'mine' } },
      { conflictId: priority.conflictId, resolution: { value: 'medium' } },
    ]);
    expect(after).toBe(taskId);
    expect(mirror.outbox.openConflictCount()).toBe(0);
    expect(mirror.outbox.list(['queued'])).toMatchObject([
      { patch: { title: 'Mine', priority: 'medium' }, baseEtag: '"v2"' },
    ]);
  });
});
