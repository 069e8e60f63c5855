// A task moved to another project loses its milestone (contract): the list,
// the task as the editor reads it and the change waiting to be sent agree,
// also when the move folds into an edit that filed the task here.
import { describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { loadTasks, openTestMirrorPerTest, taskJson } from '../test-mirror';

let mirror: Mirror;
openTestMirrorPerTest((opened) => (mirror = opened.mirror));

function listed(taskId: string) {
  return mirror.tasks
    .query(new URLSearchParams('sort_by=title'), { me: 'ada', today: '2026-03-10', limit: 1000 })
    .items.find((t) => t.task_id === taskId);
}

/** A task of prj_a under `milestoneId`, as a sync and the server's copy of it leave it; its id. */
function fromServer(milestoneId: string | null): string {
  const task = taskJson({ project_id: 'prj_a', milestone_id: milestoneId });
  loadTasks(mirror, [task]);
  mirror.tasks.applyServerCopy(task, '"v1"');
  return task.task_id as string;
}

/** The editor's read and the list agree: the task is in prj_b, with no milestone. */
function expectMovedWithoutMilestone(taskId: string): void {
  expect(mirror.tasks.get(taskId)?.task).toMatchObject({ project_id: 'prj_b', milestone_id: null });
  expect(listed(taskId)).toMatchObject({ project_id: 'prj_b', milestone_id: null });
}

describe('moving a task to another project clears its milestone', () => {
  test('filed under a milestone offline, then moved: the waiting change sends no milestone of the old project', () => {
    const taskId = fromServer(null);
    mirror.tasks.edit(taskId, { milestone_id: 'mil_a1' });
    mirror.tasks.edit(taskId, { project_id: 'prj_b' });

    expectMovedWithoutMilestone(taskId);
    // The filing cancels out against the server's null: only the move is sent.
    expect(mirror.outbox.list().map((op) => op.patch)).toEqual([{ project_id: 'prj_b' }]);
  });

  test('refiled from one milestone to another offline, then moved: the move sends the milestone cleared', () => {
    const taskId = fromServer('mil_a1');
    mirror.tasks.edit(taskId, { milestone_id: 'mil_a2' });
    mirror.tasks.edit(taskId, { project_id: 'prj_b' });

    expectMovedWithoutMilestone(taskId);
    expect(mirror.outbox.list().map((op) => op.patch)).toEqual([{ milestone_id: null, project_id: 'prj_b' }]);
  });

  test('a task created here under a milestone, then moved: its create carries no milestone', () => {
    const created = mirror.tasks.create({ title: 'New', project_id: 'prj_a', milestone_id: 'mil_a1' });
    mirror.tasks.edit(created.taskId, { project_id: 'prj_b' });

    expectMovedWithoutMilestone(created.taskId);
    const [create] = mirror.outbox.list();
    expect(create?.kind).toBe('create');
    expect(create?.patch.milestone_id ?? null).toBeNull();
  });

  test('a milestone from the server, then moved: only the move is sent and the service clears it', () => {
    const taskId = fromServer('mil_a1');
    mirror.tasks.edit(taskId, { project_id: 'prj_b' });

    expectMovedWithoutMilestone(taskId);
    expect(mirror.outbox.list().map((op) => op.patch)).toEqual([{ project_id: 'prj_b' }]);
  });

  test('a move that names the new project’s milestone keeps it', () => {
    const taskId = fromServer('mil_a1');
    mirror.tasks.edit(taskId, { project_id: 'prj_b', milestone_id: 'mil_b1' });

    expect(mirror.tasks.get(taskId)?.task).toMatchObject({ project_id: 'prj_b', milestone_id: 'mil_b1' });
    expect(mirror.outbox.list().map((op) => op.patch)).toEqual([
      { project_id: 'prj_b', milestone_id: 'mil_b1' },
    ]);
  });
});

describe('a milestone still waiting to be sent', () => {
  test('counts the tasks filed under it in its progress at once', () => {
    const task = taskJson({ project_id: 'prj_a', milestone_id: null, status: 'completed' });
    const other = taskJson({ project_id: 'prj_a', milestone_id: null });
    loadTasks(mirror, [task, other]);
    const created = mirror.milestones.create({ name: 'Beta' }, 'prj_a');
    mirror.tasks.edit(task.task_id as string, { milestone_id: created.id });
    mirror.tasks.edit(other.task_id as string, { milestone_id: created.id });

    expect(mirror.collections.milestoneCounts('prj_a').get(created.id)).toEqual({ total: 2, completed: 1 });
    // Another project's count does not take it.
    expect(mirror.collections.milestoneCounts('prj_b').get(created.id)).toBeUndefined();
  });
});
