// @vitest-environment happy-dom
// The sidebar's sprints as a person uses them: a task carried from a list row
// or a board card and dropped on a sprint is filed there (a task edit of its
// sprint, told to screen readers), the sprint marked while the task is over
// it; a drag carrying no task, or a sign-in that may not change tasks, files
// nothing. A team lists its newest sprints, the current one always, and
// opens the rest on demand.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, sprintSummary, taskDetail, workspaceOf } from '../testing/screen-fixtures';
import { TASK_DRAG_TYPE } from '../ui/task-drag';
import { Sidebar } from './sidebar';

const bridge = fakeBridgeEachTest();

async function showSidebar(sprints: SprintSummary[]) {
  bridge.answer('workspace:get', () =>
    workspaceOf({ teams: [{ team_id: 'team-1', name: 'Design', sprints }] }),
  );
  bridge.answer('inbox:list', () => ({ entries: [], unread: 0 }));
  bridge.answer('views:sidebar', () => ({ views: [], pins: [] }));
  bridge.answer('task:edit', ({ task_id }) => taskDetail({ task_id }));
  await act(() => loadWorkspace());
  render(<Sidebar />);
  return screen.findByRole('region', { name: 'Teams' });
}

/** A drag holding `data` by type, as a drop reads it ('' for a type it does not hold). */
function dragOf(data: Record<string, string>) {
  return { dataTransfer: { types: Object.keys(data), getData: (type: string) => data[type] ?? '' } };
}

/** What a list row or a board card puts on a drag (ui/task-drag.ts). */
const carrying = (taskId: string, title: string) => dragOf({ [TASK_DRAG_TYPE]: taskId, 'text/plain': title });

const sprintItem = (name: string): HTMLElement =>
  screen.getByRole('button', { name: new RegExp(`^${name}`) }).closest('li') as HTMLElement;

describe('a task dropped on a sprint', () => {
  test('is filed into it, the sprint marked while the task is over it, and told', async () => {
    await showSidebar([sprintSummary({ sprint_id: 'sp-12', name: 'Sprint 12', current: true })]);
    const sprint = sprintItem('Sprint 12');
    fireEvent.dragEnter(sprint, carrying('t-1', 'Write docs'));
    expect(sprint.classList).toContain('is-drop-target');
    fireEvent.drop(sprint, carrying('t-1', 'Write docs'));

    expect(sprint.classList).not.toContain('is-drop-target');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { sprint_id: 'sp-12' } }]);
    await vi.waitFor(() =>
      expect(useView.getState().announcement).toBe('Filed ‘Write docs’ into sprint ‘Sprint 12’.'),
    );
  });

  test('a drag carrying no task (text, a file) is not taken', async () => {
    await showSidebar([sprintSummary({ sprint_id: 'sp-12', name: 'Sprint 12' })]);
    const sprint = sprintItem('Sprint 12');
    const text = dragOf({ 'text/plain': 'hello' });
    fireEvent.dragEnter(sprint, text);
    expect(sprint.classList).not.toContain('is-drop-target');
    fireEvent.drop(sprint, text);
    expect(bridge.callsOf('task:edit')).toEqual([]);
  });

  test('a sign-in that may not change tasks files nothing', async () => {
    useSession.setState({ current: account({ read_only: true }) });
    await showSidebar([sprintSummary({ sprint_id: 'sp-12', name: 'Sprint 12' })]);
    const sprint = sprintItem('Sprint 12');
    fireEvent.dragEnter(sprint, carrying('t-1', 'Write docs'));
    expect(sprint.classList).not.toContain('is-drop-target');
    fireEvent.drop(sprint, carrying('t-1', 'Write docs'));
    expect(bridge.callsOf('task:edit')).toEqual([]);
  });
});

test('a team lists its newest sprints and the current one; All sprints shows the rest', async () => {
  const user = userEvent.setup();
  // Newest first, as the workspace lists them; the current one is older than the four shown.
  const sprints = [16, 15, 14, 13, 12, 11].map((n) =>
    sprintSummary({ sprint_id: `sp-${n}`, name: `Sprint ${n}`, current: n === 11 }),
  );
  const teams = await showSidebar(sprints);
  const names = () =>
    [...teams.querySelectorAll('[data-sprint-id] .nav-label')].map((label) => label.textContent);
  expect(names()).toEqual(['Sprint 16', 'Sprint 15', 'Sprint 14', 'Sprint 13', 'Sprint 11']);
  await user.click(within(teams).getByRole('button', { name: 'All sprints in Design (6)' }));
  expect(names()).toEqual(['Sprint 16', 'Sprint 15', 'Sprint 14', 'Sprint 13', 'Sprint 12', 'Sprint 11']);
  expect(useView.getState().announcement).toBe('Showing all 6 sprints of Design.');
});
