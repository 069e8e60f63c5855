// @vitest-environment happy-dom
// Creating a task as a person does: the fields it takes from the screen it is
// created on (their own list assigns it to them, a project's list files it there,
// a goal's page puts it under the goal), what it sends main, and the task opened after.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { useSession } from '../store/session-store';
import type { View } from '../store/view-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, goalSummary, project, taskDetail, workspaceOf } from '../testing/screen-fixtures';
import { TaskCreateForm } from './task-create-form';

const bridge = fakeBridgeEachTest();

const goal = goalSummary('g-launch', 'p-web', 'Launch');

async function showForm(view: View) {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website'), project('p-app', 'App')],
      goals: [goal],
    }),
  );
  bridge.answer('task:create', () => taskDetail({ task_id: 'local-t1', title: 'created' }));
  await act(() => loadWorkspace());
  useView.setState({ view, creating: true });
  render(<TaskCreateForm />);
}

describe('TaskCreateForm', () => {
  test("on a project's list, the task is filed in that project and opened once created", async () => {
    const user = userEvent.setup();
    await showForm({ kind: 'list', scope: { kind: 'project', projectId: 'p-web' } });
    expect(screen.getByLabelText<HTMLSelectElement>('Project').value).toBe('p-web');

    await user.type(screen.getByLabelText('Title'), '  Fix the footer ');
    await user.selectOptions(screen.getByLabelText('Priority'), 'high');
    await user.click(screen.getByRole('button', { name: 'Create task' }));

    expect(bridge.callsOf('task:create')).toEqual([
      { fields: { project_id: 'p-web', title: 'Fix the footer', status: 'not_started', priority: 'high' } },
    ]);
    expect(useView.getState()).toMatchObject({ openTaskId: 'local-t1', creating: false });
  });

  test('on my own list, the task is assigned to me and the form says so', async () => {
    const user = userEvent.setup();
    await showForm({ kind: 'list', scope: { kind: 'my-tasks' } });
    expect(screen.getByText('Assigned to you.')).toBeTruthy();
    await user.type(screen.getByLabelText('Title'), 'Mine{Enter}');

    expect(bridge.callsOf('task:create')).toEqual([
      { fields: { assignee: 'ada', title: 'Mine', status: 'not_started', project_id: null } },
    ]);
  });

  test("on a goal's page it goes under the goal in the goal's project, and not when put in another project", async () => {
    const user = userEvent.setup();
    await showForm({ kind: 'goals', goalId: 'g-launch' });
    expect(screen.getByText('Under the goal ‘Launch’.')).toBeTruthy();
    await user.type(screen.getByLabelText('Title'), 'Under the goal');
    await user.click(screen.getByRole('button', { name: 'Create task' }));
    expect(bridge.callsOf('task:create')[0]?.fields).toMatchObject({
      goal_id: 'g-launch',
      project_id: 'p-web',
    });

    await user.selectOptions(screen.getByLabelText('Project'), 'App');
    expect(screen.queryByText(/Under the goal/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create task' }));
    // The service refuses another project's goal: the task goes without one.
    expect(bridge.callsOf('task:create')[1]?.fields).toMatchObject({ goal_id: null, project_id: 'p-app' });
  });

  test('without a title nothing is sent', async () => {
    const user = userEvent.setup();
    await showForm({ kind: 'list', scope: { kind: 'all' } });
    const create = screen.getByRole<HTMLButtonElement>('button', { name: 'Create task' });
    expect(create.disabled).toBe(true);
    await user.type(screen.getByLabelText('Title'), '   {Enter}');
    expect(create.disabled).toBe(true);
    expect(bridge.callsOf('task:create')).toEqual([]);
  });

  test("a failed create is the app's notice, and the form stays with the title typed", async () => {
    const user = userEvent.setup();
    await showForm({ kind: 'list', scope: { kind: 'all' } });
    bridge.refuse('task:create', 'storage', 'disk full');
    await user.type(screen.getByLabelText('Title'), 'Lost?{Enter}');
    await vi.waitFor(() =>
      expect(useSession.getState().notice).toMatchObject({ type: 'storage', context: 'Creating the task' }),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Lost?');
    expect(useView.getState().openTaskId).toBeNull();
  });

  test('a read-only account cannot type a task or create one', async () => {
    useSession.setState({ current: account({ read_only: true }) });
    await showForm({ kind: 'list', scope: { kind: 'all' } });
    expect(screen.getByLabelText<HTMLInputElement>('Title').disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create task' }).disabled).toBe(true);
  });
});
