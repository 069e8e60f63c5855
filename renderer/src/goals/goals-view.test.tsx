// @vitest-environment happy-dom
// The goals screen as a person uses it: goals grouped by project, the
// archived project's without a way to add goals; a goal opened shows its
// tasks and its actions: close or reopen (its status), a new task under it
// (not in an archived project, which says why), delete after a question that
// counts its tasks.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { confirmAfterCancel } from '../testing/asked-first';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskIdsIn } from '../testing/shown-tasks';
import { goalSummary, project, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { GoalsView } from './goals-view';

const bridge = fakeBridgeEachTest();

async function showGoals(goalId: string | null) {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website'), project('p-old', 'Legacy', { status: 'archived' })],
      goals: [
        { ...goalSummary('g-1', 'p-web', 'Faster pages'), tasks_total: 2, tasks_completed: 1 },
        { ...goalSummary('g-2', 'p-old', 'Retire v1'), status: 'closed' },
      ],
    }),
  );
  bridge.answer('tasks:filed', () => ({
    rows: [
      taskRow({ task_id: 't-1', title: 'Cache images' }),
      taskRow({ task_id: 't-2', title: 'Lazy fonts' }),
    ],
    truncated: false,
  }));
  bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op-1' }));
  bridge.answer('collection:delete', ({ id }) => ({ id, op_id: 'op-2' }));
  await act(() => loadWorkspace());
  render(<GoalsView goalId={goalId} />);
}

const group = (name: string) => screen.getByRole('region', { name });
const actions = (goal: string) => screen.getByRole('group', { name: `${goal} actions` });

describe('the goals by project', () => {
  test('grouped by project, an archived one taking no new goal; a goal opens on click', async () => {
    const user = userEvent.setup();
    await showGoals(null);
    expect(within(group('Website')).getByRole('button', { name: 'New goal in Website' })).toBeTruthy();
    expect(within(group('Legacy')).queryByRole('button', { name: 'New goal in Legacy' })).toBeNull();
    expect(within(group('Legacy')).getByText('archived')).toBeTruthy();

    const head = within(group('Website')).getByRole('button', { name: /Faster pages/ });
    expect(head.getAttribute('aria-expanded')).toBe('false');
    await user.click(head);
    expect(useView.getState().view).toEqual({ kind: 'goals', goalId: 'g-1' });
  });
});

describe('an opened goal', () => {
  test('lists its tasks; Close goal sends its status; New task starts a task under it', async () => {
    const user = userEvent.setup();
    await showGoals('g-1');
    const tasks = await screen.findByRole('list', { name: 'Tasks under this goal' });
    expect(taskIdsIn(tasks)).toEqual(['t-1', 't-2']);
    await user.click(within(actions('Faster pages')).getByRole('button', { name: 'Close goal' }));
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'goal', id: 'g-1', patch: { status: 'closed' } },
    ]);
    await user.click(
      within(actions('Faster pages')).getByRole('button', { name: 'New task under this goal' }),
    );
    expect(useView.getState().creating).toBe(true);
  });

  test('a goal of an archived project is reopened, and takes no new task, saying why', async () => {
    const user = userEvent.setup();
    await showGoals('g-2');
    await screen.findByRole('list', { name: 'Tasks under this goal' });
    expect(screen.getByText('Its project is archived: new tasks cannot be created in it.')).toBeTruthy();
    const newTask = within(actions('Retire v1')).getByRole('button', { name: 'New task under this goal' });
    expect(newTask.hasAttribute('disabled')).toBe(true);
    await user.click(within(actions('Retire v1')).getByRole('button', { name: 'Reopen goal' }));
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'goal', id: 'g-2', patch: { status: 'open' } },
    ]);
  });

  test('Delete asks first, counting the tasks that stay; deleted, the goal closes and it is said', async () => {
    const user = userEvent.setup();
    await showGoals('g-1');
    await screen.findByRole('list', { name: 'Tasks under this goal' });
    await confirmAfterCancel(user, bridge, {
      open: () => within(actions('Faster pages')).getByRole('button', { name: 'Delete…' }),
      question: 'Delete this goal?',
      says: '2 tasks are filed under it; they stay in the project without a goal.',
      confirm: 'Delete goal',
      channel: 'collection:delete',
    });
    expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'goal', id: 'g-1' }]);
    expect((await screen.findByText(/^Deleted/)).textContent).toBe(
      'Deleted ‘Faster pages’; 2 tasks no longer have a goal.',
    );
    expect(useView.getState().view).toEqual({ kind: 'goals', goalId: null });
  });
});
