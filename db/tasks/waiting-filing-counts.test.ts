// A goal, sprint or section still waiting to be sent counts the tasks filed
// under it by its temporary id, as the workspace hands them to the sidebar and
// the goals view (the milestones' counts had this gap; these never did: the
// goals view's "0 of 0" under a waiting goal was read before the workspace's
// reload that follows the filing edit).
import { afterEach, describe, expect, test } from 'vitest';
import { loadPass, loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';
import { workspaceCollections } from '../read-models/workspace';

let handle: TestMirror | null = null;
afterEach(() => {
  handle?.cleanup();
  handle = null;
});

describe('counts under a collection still waiting to be sent', () => {
  test('a waiting goal, sprint and section count the tasks filed under their temporary ids', async () => {
    handle = await openTestMirror();
    const { mirror } = handle;
    loadTeam(mirror);
    loadTasks(mirror, [
      taskJson({ task_id: 'tsk_1' }),
      taskJson({ task_id: 'tsk_2', status: 'completed' }),
      taskJson({ task_id: 'tsk_3', parent_task_id: 'tsk_1' }),
    ]);
    const goal = mirror.goals.create({ name: 'Launch' }, 'prj_a');
    const sprint = mirror.sprints.create({ name: 'S1', start_date: '2026-03-09', duration_weeks: 2 }, 'tm_1');
    const section = mirror.sections.create({ name: 'Later', scope_type: 'project', scope_id: 'prj_a' });
    for (const taskId of ['tsk_1', 'tsk_2', 'tsk_3'])
      mirror.tasks.edit(taskId, { goal_id: goal.id, sprint_id: sprint.id, section_id: section.id });

    const workspace = workspaceCollections(mirror, '2026-03-10');
    // Subtasks are left out of a goal's count (contract: GoalOut), not of a sprint's or section's.
    expect(workspace.goals.find((g) => g.goal_id === goal.id)).toMatchObject({
      pending: 'queued',
      tasks_total: 2,
      tasks_completed: 1,
    });
    expect(workspace.teams.flatMap((t) => t.sprints).find((s) => s.sprint_id === sprint.id)).toMatchObject({
      pending: 'queued',
      task_count: 3,
      completed_count: 1,
    });
    expect(workspace.sections.find((s) => s.section_id === section.id)).toMatchObject({
      pending: 'queued',
      task_count: 3,
    });
  });
});

/** The team the sprint is created under. */
function loadTeam(mirror: TestMirror['mirror']): void {
  loadPass(mirror, 'teams', [{ team_id: 'tm_1', name: 'Platform' }], { etag: '"teams"' });
}
