import { describe, expect, test } from 'vitest';
import { deletedWords, deleteQuestion, type GoalSummary, goalOptions } from './goal-words';

describe('what a goal delete says about its tasks', () => {
  test.each([
    [0, false, 'Deleted ‘Q3 launch’; no tasks were filed under it.'],
    [1, false, 'Deleted ‘Q3 launch’; 1 task no longer has a goal.'],
    [4, false, 'Deleted ‘Q3 launch’; 4 tasks no longer have a goal.'],
    [2000, true, 'Deleted ‘Q3 launch’; more than 2000 tasks no longer have a goal.'],
  ])('%i tasks (more: %s), once deleted', (count, more, words) => {
    expect(deletedWords('Q3 launch', { count, more })).toBe(words);
  });

  test.each([
    [0, false, 'Delete the goal ‘Q3 launch’? No tasks are filed under it.'],
    [
      1,
      false,
      'Delete the goal ‘Q3 launch’? 1 task is filed under it; it stays in the project without a goal.',
    ],
    [
      4,
      false,
      'Delete the goal ‘Q3 launch’? 4 tasks are filed under it; they stay in the project without a goal.',
    ],
    [
      2000,
      true,
      'Delete the goal ‘Q3 launch’? More than 2000 tasks are filed under it; they stay in the project without a goal.',
    ],
  ])('%i tasks (more: %s), asked before', (count, more, words) => {
    expect(deleteQuestion('Q3 launch', { count, more })).toBe(words);
  });
});

function goal(goalId: string, projectId: string, name: string, more: Partial<GoalSummary> = {}): GoalSummary {
  return {
    goal_id: goalId,
    project_id: projectId,
    name,
    description: null,
    status: 'open',
    target_date: null,
    tasks_total: 0,
    tasks_completed: 0,
    ...more,
  };
}

describe('the goals a task’s Goal choice offers', () => {
  // Two projects with goals of the same name: the service files a task only under its own project's.
  const goals = [
    goal('g1', 'p1', 'Launch'),
    goal('g2', 'p2', 'Launch'),
    goal('g3', 'p1', 'Polish', { status: 'closed' }),
    goal('local-g4', 'p1', 'Next', { pending: 'queued' }),
    goal('g5', 'p2', 'Scale'),
  ];

  test('a task in a project is offered that project’s goals only, each said as it stands', () => {
    expect(goalOptions(goals, 'p1')).toEqual([
      { value: 'g1', label: 'Launch' },
      { value: 'g3', label: 'Polish (closed)' },
      { value: 'local-g4', label: 'Next (not sent yet)' },
    ]);
  });

  test('a task without a project is offered none, not every project’s', () => {
    expect(goalOptions(goals, null)).toEqual([]);
  });
});
