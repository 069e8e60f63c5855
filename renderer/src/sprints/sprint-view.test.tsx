// @vitest-environment happy-dom
// One sprint's screen as a person uses it: its dates, length, status and
// progress; its tasks grouped by status, as work flows, a status with none
// left out; complete (asked first, saying how many tasks are not done and that
// they stay filed) or reopen, sent as the sprint's status; a sprint changed
// here and on the server sent to the conflict view; a sign-in that may not
// change sprints offers none of it.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test } from 'vitest';
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { useSession } from '../store/session-store';
import { useTrust } from '../store/trust-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { confirmAfterCancel } from '../testing/asked-first';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskIdsIn } from '../testing/shown-tasks';
import { account, sprintSummary, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { SprintView } from './sprint-view';

const bridge = fakeBridgeEachTest();

beforeEach(() => useTrust.setState({ inspectorOpen: false, conflict: null }));

const rows = [
  taskRow({ task_id: 't-1', title: 'Ship it', status: 'completed' }),
  taskRow({ task_id: 't-2', title: 'Fix login', status: 'in_progress' }),
  taskRow({ task_id: 't-3', title: 'Write docs', status: 'not_started' }),
  taskRow({ task_id: 't-4', title: 'Tidy CSS', status: 'in_progress' }),
];

async function showSprint(parts: Partial<SprintSummary> = {}) {
  const sprint = sprintSummary({
    sprint_id: 'sp-12',
    name: 'Sprint 12',
    goal: 'Launch the beta',
    task_count: 4,
    completed_count: 1,
    duration_label: '2 weeks',
    ...parts,
  });
  bridge.answer('workspace:get', () =>
    workspaceOf({ teams: [{ team_id: 'team-1', name: 'Design', sprints: [sprint] }] }),
  );
  bridge.answer('tasks:filed', () => ({ rows, truncated: false }));
  bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op-1' }));
  await act(() => loadWorkspace());
  render(<SprintView sprintId="sp-12" />);
  await screen.findByText('Fix login');
}

describe('what it shows', () => {
  test('its facts and progress, and its tasks grouped by status as work flows', async () => {
    await showSprint();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sprint 12');
    expect(screen.getByText('Launch the beta')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Sprint 12 progress' }).getAttribute('value')).toBe('1');
    expect(screen.getByText(/1 of 4 done/).textContent).toBe('1 of 4 done · 25%');
    const groups = [...document.querySelectorAll('.line-group')].map((group) => [
      group.querySelector('h2')?.textContent,
      taskIdsIn(group as HTMLElement),
    ]);
    // Blocked has no task: no heading for it.
    expect(groups).toEqual([
      ['Not started 1', ['t-3']],
      ['In progress 2', ['t-2', 't-4']],
      ['Done 1', ['t-1']],
    ]);
  });
});

describe('completing and reopening', () => {
  test('Complete asks first, saying the open tasks stay filed; Cancel sends nothing, Complete sends its status', async () => {
    const user = userEvent.setup();
    await showSprint();
    await confirmAfterCancel(user, bridge, {
      open: () => screen.getByRole('button', { name: 'Complete sprint' }),
      question: 'Complete Sprint 12?',
      says: '3 tasks are not done; they stay filed in this sprint.',
      confirm: 'Complete sprint',
      channel: 'collection:edit',
    });
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'sprint', id: 'sp-12', patch: { status: 'completed' } },
    ]);
    expect(useView.getState().announcement).toBe('Sprint ‘Sprint 12’ completed.');
  });

  test('a sprint with every task done says so when asked', async () => {
    const user = userEvent.setup();
    await showSprint({ task_count: 4, completed_count: 4 });
    await user.click(screen.getByRole('button', { name: 'Complete sprint' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Every task in it is done.');
  });

  test('a completed sprint is reopened at once', async () => {
    const user = userEvent.setup();
    await showSprint({ status: 'completed' });
    await user.click(screen.getByRole('button', { name: 'Reopen sprint' }));
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'sprint', id: 'sp-12', patch: { status: 'active' } },
    ]);
  });

  test('a sign-in that may not change sprints offers no edit, complete or reopen', async () => {
    useSession.setState({
      current: account({ read_only_kinds: [{ kind: 'sprint', scope: 'sprints:write' }] }),
    });
    await showSprint();
    expect(screen.queryByRole('button', { name: 'Edit sprint' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Complete sprint' })).toBeNull();
  });
});

test('a sprint changed here and on the server sends the person to the conflict view', async () => {
  const user = userEvent.setup();
  await showSprint({ pending: 'conflict' });
  await user.click(screen.getByRole('button', { name: 'Resolve…' }));
  expect(useTrust.getState().conflict).toEqual({ entity_type: 'sprint', entity_id: 'sp-12' });
});

test('a sprint not in the workspace says so', async () => {
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('tasks:filed', () => ({ rows: [], truncated: false }));
  await act(() => loadWorkspace());
  render(<SprintView sprintId="sp-gone" />);
  expect(screen.getByText('This sprint is not in your workspace.')).toBeTruthy();
});
