// @vitest-environment happy-dom
// A project's milestones as a person uses them: each with its status, due
// date and progress, counted in the header; completed and reopened as its
// status; deleted after a question that says its tasks stay, unfiled, and a
// notice after; its tasks listed on demand and unfiled one by one; a sign-in
// that may not change milestones offers none of it.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { confirmAfterCancel } from '../testing/asked-first';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, milestone, project, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { MilestonesView } from './milestones-view';

const bridge = fakeBridgeEachTest();

const beta = milestone('m-1', 'Beta', { due_date: '2026-12-01', tasks_total: 4, tasks_completed: 1 });
const alpha = milestone('m-0', 'Alpha', { status: 'completed', tasks_total: 2, tasks_completed: 2 });

async function showMilestones() {
  bridge.answer('workspace:get', () => workspaceOf({ projects: [project('p-web', 'Website')] }));
  bridge.answer('milestones:list', () => [alpha, beta]);
  bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op-1' }));
  bridge.answer('collection:delete', ({ id }) => ({ id, op_id: 'op-2' }));
  await act(() => loadWorkspace());
  render(<MilestonesView projectId="p-web" />);
  return screen.findByRole('list', { name: 'Milestones of Website' });
}

const item = (name: string) => screen.getByRole('listitem', { name });

describe('the list', () => {
  test('each milestone with its status, due date and progress; the header counts the open ones', async () => {
    const list = await showMilestones();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Alpha', 'Beta']);
    expect(screen.getByText('2 milestones, 1 open')).toBeTruthy();
    expect(item('Beta').querySelector('.milestone-status')?.textContent).toBe('Open');
    expect(item('Alpha').querySelector('.milestone-status')?.textContent).toBe('Completed');
    expect(item('Alpha').querySelector('.milestone-due')?.textContent).toBe('No due date');
    expect(
      within(item('Beta')).getByRole('progressbar', { name: 'Beta progress' }).getAttribute('value'),
    ).toBe('1');
  });

  test('Complete and Reopen send the milestone’s status', async () => {
    const user = userEvent.setup();
    await showMilestones();
    await user.click(within(item('Beta')).getByRole('button', { name: 'Complete' }));
    await user.click(within(item('Alpha')).getByRole('button', { name: 'Reopen' }));
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'milestone', id: 'm-1', patch: { status: 'completed' } },
      { kind: 'milestone', id: 'm-0', patch: { status: 'open' } },
    ]);
    expect(useView.getState().announcement).toBe('Reopened ‘Alpha’');
  });

  test('Delete asks first, saying its tasks stay unfiled; deleted, it says how many were unfiled', async () => {
    const user = userEvent.setup();
    await showMilestones();
    await confirmAfterCancel(user, bridge, {
      open: () => within(item('Beta')).getByRole('button', { name: 'Delete…' }),
      question: 'Delete this milestone?',
      says: 'Its 4 tasks stay in the project, filed under no milestone.',
      confirm: 'Delete milestone',
      channel: 'collection:delete',
    });
    expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'milestone', id: 'm-1' }]);
    expect((await screen.findByText(/^Deleted/)).textContent).toBe('Deleted ‘Beta’; 4 tasks unfiled');
  });

  test('a sign-in that may not change milestones offers no change', async () => {
    useSession.setState({
      current: account({ read_only_kinds: [{ kind: 'milestone', scope: 'milestones:write' }] }),
    });
    await showMilestones();
    expect(screen.getByRole('button', { name: 'New milestone' }).hasAttribute('disabled')).toBe(true);
    for (const action of ['Edit', 'Complete', 'Delete…'])
      expect(within(item('Beta')).getByRole('button', { name: action }).hasAttribute('disabled')).toBe(true);
  });
});

test('its tasks are listed on demand, and one unfiled is sent as a task edit of no milestone', async () => {
  const user = userEvent.setup();
  bridge.answer('tasks:filed', () => ({
    rows: [taskRow({ task_id: 't-1', title: 'Write docs' })],
    truncated: false,
  }));
  bridge.answer('task:edit', ({ task_id }) => taskDetail({ task_id }));
  await showMilestones();
  const toggle = within(item('Beta')).getByRole('button', { name: 'Tasks (4)' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  await user.click(toggle);
  const tasks = await screen.findByRole('list', { name: 'Tasks of Beta' });
  await user.click(within(tasks).getByRole('button', { name: 'Unfile Write docs' }));
  expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { milestone_id: null } }]);
  expect(useView.getState().announcement).toBe('Unfiled ‘Write docs’ from ‘Beta’');
});
