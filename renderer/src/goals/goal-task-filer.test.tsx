// @vitest-environment happy-dom
// Filing an existing task under a goal from its page, as a person does it:
// what is typed finds the goal's project's tasks by title; a task already
// under this goal is not offered again, one under another goal says which;
// a click files it (a task edit of its goal), says so and empties the box.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { goalSummary, project, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { GoalTaskFiler } from './goal-task-filer';

const bridge = fakeBridgeEachTest();

const goal = goalSummary('g-1', 'p-web', 'Faster pages');

async function showFiler() {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website')],
      goals: [goal, goalSummary('g-2', 'p-web', 'Accessible forms')],
    }),
  );
  bridge.answer('tasks:query', () => ({
    rows: [
      taskRow({ task_id: 't-1', title: 'Cache images', goal_id: 'g-1' }),
      taskRow({ task_id: 't-2', title: 'Cache fonts', goal_id: 'g-2' }),
      taskRow({ task_id: 't-3', title: 'Cache pages', goal_id: null }),
    ],
    next: null,
    skipped: [],
  }));
  bridge.answer('task:edit', ({ task_id }) => taskDetail({ task_id }));
  await act(() => loadWorkspace());
  render(<GoalTaskFiler goal={goal} disabled={false} />);
  return screen.getByRole('searchbox', { name: 'File a task under this goal' });
}

test("what is typed finds the project's tasks by title; one already under the goal is not offered", async () => {
  const user = userEvent.setup();
  const box = await showFiler();
  await user.type(box, 'Cache');

  const results = await screen.findByRole('list', { name: 'Tasks to file' });
  const offered = within(results).getAllByRole('button');
  expect(offered.map((button) => button.querySelector('.title-text')?.textContent)).toEqual([
    'Cache fonts',
    'Cache pages',
  ]);
  expect(offered[0]?.textContent).toContain('now under ‘Accessible forms’');
  expect(offered[1]?.textContent).not.toContain('now under');
  expect(bridge.callsOf('tasks:query').at(-1)?.query.filter).toEqual({
    project: ['p-web'],
    search: 'Cache',
    search_fields: 'title',
  });
});

test('a task clicked is filed under the goal, told, and the box emptied', async () => {
  const user = userEvent.setup();
  const box = await showFiler();
  await user.type(box, 'Cache');
  await user.click(await screen.findByRole('button', { name: /^Cache pages/ }));

  expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-3', patch: { goal_id: 'g-1' } }]);
  expect(useView.getState().announcement).toBe('Filed ‘Cache pages’ under ‘Faster pages’');
  expect(box).toHaveProperty('value', '');
});

test('only tasks under the goal already match: none is offered, and it says so', async () => {
  const user = userEvent.setup();
  const box = await showFiler();
  bridge.answer('tasks:query', () => ({
    rows: [taskRow({ task_id: 't-1', title: 'Cache images', goal_id: 'g-1' })],
    next: null,
    skipped: [],
  }));
  await user.type(box, 'images');

  expect(await screen.findByText('No other task of this project matches ‘images’.')).toBeTruthy();
  expect(screen.queryByRole('list', { name: 'Tasks to file' })).toBeNull();
});
