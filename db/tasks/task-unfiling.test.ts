// A goal's or milestone's delete waiting to be sent unfiles its tasks on
// screen at once, as the service will, without a task edit of ours; a pull
// that rewrites those tasks keeps them unfiled, a delete given up files them
// again, and a delete the service took leaves them unfiled for good.
import { afterEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { loadPass, loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror | null = null;
afterEach(() => {
  handle?.cleanup();
  handle = null;
});

const GOAL = { goal_id: 'gol_1', project_id: 'prj_a', name: 'Launch', status: 'open' };
const MILESTONE = { milestone_id: 'mst_1', project_id: 'prj_a', name: 'Beta', status: 'open' };
const SECTION = { section_id: 'sec_1', scope_type: 'project', scope_id: 'prj_a', name: 'Doing', position: 1 };

/** The seeded tasks as the server holds them: two under the goal and the milestone (the second done), one under neither. */
const ONE = { task_id: 'tsk_1', title: 'One', goal_id: 'gol_1', milestone_id: 'mst_1', section_id: 'sec_1' };
const TWO = { task_id: 'tsk_2', title: 'Two', goal_id: 'gol_1', milestone_id: 'mst_1', status: 'completed' };
const THREE = { task_id: 'tsk_3', title: 'Three' };
/** The first seeded task as a peer's rename leaves it on the server. */
const ONE_RENAMED_BY_PEER = {
  task_id: 'tsk_1',
  title: 'One, renamed by a peer',
  goal_id: 'gol_1',
  milestone_id: 'mst_1',
};

/** Two tasks under the goal and the milestone (one of them subtask-free and done), one under neither. */
async function setUp(): Promise<Mirror> {
  handle = await openTestMirror();
  const { mirror } = handle;
  loadPass(mirror, 'goals', [GOAL], { scope: '', etag: '"goals"' });
  loadPass(mirror, 'milestones', [MILESTONE], { scope: 'prj_a', etag: '"milestones"' });
  loadPass(mirror, 'sections', [SECTION], { scope: '', etag: '"sections"' });
  loadTasks(mirror, [taskJson(ONE), taskJson(TWO), taskJson(THREE)]);
  return mirror;
}

/** A later page of the task list with new server copies (a pull while the delete waits). */
function pullAgain(mirror: Mirror, tasks: Record<string, unknown>[]): void {
  loadPass(mirror, 'tasks', tasks, { etag: '"again"' });
}

async function filedUnder(mirror: Mirror, field: 'goal_id' | 'milestone_id', id: string): Promise<string[]> {
  return (await mirror.tasks.filed(field, [id], 100)).tasks.map((t) => t.task_id).sort();
}

describe('a goal delete waiting to be sent', () => {
  test('unfiles its tasks at once in the editor, the list, the counts and the goal’s task list, with no task edit queued', async () => {
    const mirror = await setUp();
    expect(mirror.tasks.goalCounts().get('gol_1')).toEqual({ total: 2, completed: 1 });

    mirror.goals.delete('gol_1');

    expect(mirror.tasks.get('tsk_1')?.task.goal_id).toBeNull();
    expect(mirror.tasks.get('tsk_2')?.task.goal_id).toBeNull();
    // The milestone is another filing: it stays.
    expect(mirror.tasks.get('tsk_1')?.task.milestone_id).toBe('mst_1');
    expect(mirror.tasks.goalCounts().get('gol_1')).toBeUndefined();
    expect(await filedUnder(mirror, 'goal_id', 'gol_1')).toEqual([]);
    const rows = mirror.tasks.query(new URLSearchParams(), { me: 'ada', today: '2026-03-10', limit: 10 });
    expect(rows.items.map((row) => row.goal_id)).toEqual([null, null, null]);
    // The service unfiles them itself: the delete is the only change waiting.
    expect(mirror.outbox.list().map((op) => `${op.entityType} ${op.kind}`)).toEqual(['goal delete']);
  });

  test('keeps them unfiled when a pull rewrites them, or brings a new one filed under it, before it is sent', async () => {
    const mirror = await setUp();
    mirror.goals.delete('gol_1');

    pullAgain(mirror, [
      taskJson(ONE_RENAMED_BY_PEER),
      taskJson(TWO),
      taskJson(THREE),
      taskJson({ task_id: 'tsk_4', title: 'Filed by a peer meanwhile', goal_id: 'gol_1' }),
    ]);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One, renamed by a peer', goal_id: null });
    expect(mirror.tasks.get('tsk_4')?.task.goal_id).toBeNull();
    expect(mirror.tasks.goalCounts().get('gol_1')).toBeUndefined();
    expect(await filedUnder(mirror, 'goal_id', 'gol_1')).toEqual([]);
    // A single read of one (the editor opening it) too.
    mirror.tasks.applyServerCopy(
      taskJson({ task_id: 'tsk_2', title: 'Two, read alone', goal_id: 'gol_1', status: 'completed' }),
      '"t2"',
    );
    expect(mirror.tasks.get('tsk_2')?.task).toMatchObject({ title: 'Two, read alone', goal_id: null });
  });

  test('given up (discarded), files its tasks under the goal again, with what the pulls brought', async () => {
    const mirror = await setUp();
    const deleted = mirror.goals.delete('gol_1');
    pullAgain(mirror, [taskJson(ONE_RENAMED_BY_PEER), taskJson(TWO), taskJson(THREE)]);

    mirror.outbox.drop(deleted?.opId as string);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({
      title: 'One, renamed by a peer',
      goal_id: 'gol_1',
    });
    expect(mirror.tasks.goalCounts().get('gol_1')).toEqual({ total: 2, completed: 1 });
    expect(await filedUnder(mirror, 'goal_id', 'gol_1')).toEqual(['tsk_1', 'tsk_2']);
    expect(mirror.goals.list().map((g) => g.goal_id)).toEqual(['gol_1']);
  });

  test('a task edit waiting beside it keeps its own change and loses only the goal; dropping that edit leaves the goal off', async () => {
    const mirror = await setUp();
    const edit = mirror.tasks.edit('tsk_1', { title: 'One, mine' });
    mirror.goals.delete('gol_1');
    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One, mine', goal_id: null });

    mirror.outbox.drop(edit?.opId as string);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One', goal_id: null });
  });

  test('once the service took it, the tasks stay unfiled whatever else is refreshed after', async () => {
    const mirror = await setUp();
    const deleted = mirror.goals.delete('gol_1');
    mirror.outbox.settle(deleted?.opId as string, null);
    expect(mirror.tasks.get('tsk_1')?.task.goal_id).toBeNull();

    // A later edit of the task, then given up: its row is computed again from the server copy.
    const edit = mirror.tasks.edit('tsk_1', { title: 'One, mine' });
    mirror.outbox.drop(edit?.opId as string);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One', goal_id: null });
    expect(mirror.tasks.goalCounts().get('gol_1')).toBeUndefined();
  });
});

describe('a milestone delete waiting to be sent', () => {
  test('unfiles its tasks at once, keeps them so over a pull, and a discard brings them back', async () => {
    const mirror = await setUp();
    expect(mirror.collections.milestoneCounts('prj_a').get('mst_1')).toEqual({ total: 2, completed: 1 });

    const deleted = mirror.milestones.delete('mst_1');

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ milestone_id: null, goal_id: 'gol_1' });
    expect(await filedUnder(mirror, 'milestone_id', 'mst_1')).toEqual([]);
    expect(mirror.outbox.list().map((op) => `${op.entityType} ${op.kind}`)).toEqual(['milestone delete']);

    pullAgain(mirror, [
      taskJson({ task_id: 'tsk_1', title: 'One again', goal_id: 'gol_1', milestone_id: 'mst_1' }),
      taskJson(TWO),
      taskJson(THREE),
    ]);
    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One again', milestone_id: null });
    expect(await filedUnder(mirror, 'milestone_id', 'mst_1')).toEqual([]);

    mirror.outbox.drop(deleted?.opId as string);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One again', milestone_id: 'mst_1' });
    expect(await filedUnder(mirror, 'milestone_id', 'mst_1')).toEqual(['tsk_1', 'tsk_2']);
  });
});

describe('a goal or milestone never sent, cancelled', () => {
  test('deleted before it was sent: the task edits filing under it lose that field and keep the rest', async () => {
    const mirror = await setUp();
    const goal = mirror.goals.create({ name: 'Q3 launch' }, 'prj_a');
    mirror.tasks.edit('tsk_3', { goal_id: goal.id, title: 'Three, mine' });
    mirror.tasks.edit('tsk_1', { goal_id: goal.id });

    expect(mirror.goals.delete(goal.id)).toBeNull();

    expect(mirror.tasks.get('tsk_3')?.task).toMatchObject({ title: 'Three, mine', goal_id: null });
    // Back under the goal the server files it in: the edit that only moved it is gone.
    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ goal_id: 'gol_1' });
    // Nothing names the id that will never exist; the edit that only filed tsk_1 went.
    expect(mirror.outbox.list().map((op) => [op.entityId, op.patch, op.baseValues])).toEqual([
      ['tsk_3', { title: 'Three, mine' }, { title: 'Three' }],
    ]);
  });

  test('its create given up: a task created under it is still created, without it', async () => {
    const mirror = await setUp();
    const milestone = mirror.milestones.create({ name: 'Beta 2' }, 'prj_a');
    const task = mirror.tasks.create({
      title: 'Write the notes',
      project_id: 'prj_a',
      milestone_id: milestone.id,
    });

    mirror.outbox.drop(milestone.opId);

    expect(mirror.tasks.get(task.taskId)?.task).toMatchObject({
      title: 'Write the notes',
      milestone_id: null,
    });
    expect(mirror.outbox.list().map((op) => [op.entityId, op.kind, op.patch])).toEqual([
      [task.taskId, 'create', { title: 'Write the notes', project_id: 'prj_a' }],
    ]);
  });
});

describe('a section delete waiting to be sent', () => {
  test('takes its tasks out of it at once, keeping their project; a pull keeps it so; taken, it stays', async () => {
    const mirror = await setUp();
    const deleted = mirror.sections.delete('sec_1');

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ section_id: null, project_id: 'prj_a' });
    expect(mirror.tasks.sectionCounts().get('sec_1')).toBeUndefined();
    pullAgain(mirror, [
      taskJson({
        task_id: 'tsk_1',
        title: 'One again',
        goal_id: 'gol_1',
        milestone_id: 'mst_1',
        section_id: 'sec_1',
      }),
    ]);
    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One again', section_id: null });
    expect(mirror.outbox.list().map((op) => `${op.entityType} ${op.kind}`)).toEqual(['section delete']);

    mirror.outbox.settle(deleted?.opId as string, null);
    const edit = mirror.tasks.edit('tsk_1', { title: 'One, mine' });
    mirror.outbox.drop(edit?.opId as string);
    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({ title: 'One again', section_id: null });
  });

  test('given up, puts its tasks back in the section', async () => {
    const mirror = await setUp();
    const deleted = mirror.sections.delete('sec_1');
    mirror.outbox.drop(deleted?.opId as string);
    expect(mirror.tasks.get('tsk_1')?.task.section_id).toBe('sec_1');
    expect(mirror.tasks.sectionCounts().get('sec_1')).toBe(1);
  });
});

describe('a page of server copies while deletes wait', () => {
  test('unfiles each task only of the resources whose delete waits, whatever else the page files', async () => {
    const mirror = await setUp();
    mirror.goals.delete('gol_1');
    mirror.sections.delete('sec_1');

    pullAgain(mirror, [
      taskJson(ONE),
      taskJson({ ...TWO, goal_id: 'gol_2' }),
      taskJson({ task_id: 'tsk_3', title: 'Three', section_id: 'sec_2', milestone_id: 'gol_1' }),
    ]);

    expect(mirror.tasks.get('tsk_1')?.task).toMatchObject({
      goal_id: null,
      milestone_id: 'mst_1',
      section_id: null,
    });
    expect(mirror.tasks.get('tsk_2')?.task).toMatchObject({ goal_id: 'gol_2', milestone_id: 'mst_1' });
    // An id is a delete's only under its own kind: a milestone named like the goal stays.
    expect(mirror.tasks.get('tsk_3')?.task).toMatchObject({ section_id: 'sec_2', milestone_id: 'gol_1' });
    // After the page, a delete asked now is seen at once (no read kept from the page).
    mirror.milestones.delete('mst_1');
    expect(mirror.tasks.get('tsk_2')?.task.milestone_id).toBeNull();
  });
});

describe('a sprint never sent, given up', () => {
  test('its create dropped: the task edits filing into it lose that field and keep the rest', async () => {
    const mirror = await setUp();
    const sprint = mirror.sprints.create(
      { name: 'Sprint 9', start_date: '2027-01-04', duration_weeks: 2 },
      'tm_1',
    );
    mirror.tasks.edit('tsk_3', { sprint_id: sprint.id, title: 'Three, planned' });
    mirror.tasks.edit('tsk_1', { sprint_id: sprint.id });

    mirror.outbox.drop(sprint.opId);

    expect(mirror.tasks.get('tsk_3')?.task).toMatchObject({ title: 'Three, planned', sprint_id: null });
    expect(mirror.outbox.list().map((op) => [op.entityId, op.patch])).toEqual([
      ['tsk_3', { title: 'Three, planned' }],
    ]);
  });
});
