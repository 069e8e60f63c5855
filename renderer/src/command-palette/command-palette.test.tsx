// @vitest-environment happy-dom
// The command palette as a person uses it: what is typed narrows the commands
// (every word must appear, in any order), two letters or more also look up task
// titles in main, the arrows choose with wrap-round, Enter runs the chosen one
// and closes the palette, and Escape closes it running nothing.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { sprintSummary, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { CommandPalette } from './command-palette';

const bridge = fakeBridgeEachTest();

async function openPalette({ selectedTaskId = null }: { selectedTaskId?: string | null } = {}) {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      teams: [
        {
          team_id: 'team-1',
          name: 'Platform',
          sprints: [
            sprintSummary({ sprint_id: 'sp-11', name: 'Sprint 11', status: 'completed' }),
            sprintSummary({ sprint_id: 'sp-12', name: 'Sprint 12' }),
          ],
        },
      ],
    }),
  );
  bridge.answer('tasks:query', ({ query }) => ({
    rows: query.filter?.search === 'foot' ? [taskRow({ task_id: 't-9', title: 'Fix the footer' })] : [],
    next: null,
    skipped: [],
  }));
  await act(() => loadWorkspace());
  useView.setState({ paletteOpen: true, selectedTaskId });
  render(<CommandPalette />);
  return screen.getByRole<HTMLInputElement>('combobox', { name: 'Type a command or a task title' });
}

function offered(): string[] {
  return screen
    .queryAllByRole('option')
    .map((option) => option.querySelector('.palette-label')?.textContent ?? '');
}

function active(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-activedescendant');
  return id === null
    ? null
    : (document.getElementById(id)?.querySelector('.palette-label')?.textContent ?? null);
}

describe('CommandPalette', () => {
  test('every typed word must appear, in any order, in the command or its group', async () => {
    const user = userEvent.setup();
    const input = await openPalette();
    await user.type(input, 'dark theme');
    expect(offered()).toEqual(['Theme: dark']);
    await user.clear(input);
    await user.type(input, 'go to goals');
    expect(offered()).toEqual(['Go to Goals']);
  });

  test('Enter runs the chosen command and closes the palette', async () => {
    const user = userEvent.setup();
    bridge.answer('settings:set', ({ theme }) => ({ theme: theme ?? 'system' }));
    const input = await openPalette();
    await user.type(input, 'theme');
    expect(offered()).toEqual(['Theme: follow the system', 'Theme: light', 'Theme: dark']);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    expect(bridge.callsOf('settings:set')).toEqual([{ theme: 'dark' }]);
    expect(useView.getState().paletteOpen).toBe(false);
    expect(screen.queryByRole('combobox')).toBeNull();
    await vi.waitFor(() => expect(useSession.getState().theme).toBe('dark'));
  });

  test('the arrows wrap round the options', async () => {
    const user = userEvent.setup();
    const input = await openPalette();
    await user.type(input, 'theme');
    expect(active(input)).toBe('Theme: follow the system');
    await user.keyboard('{ArrowUp}');
    expect(active(input)).toBe('Theme: dark');
    await user.keyboard('{ArrowDown}');
    expect(active(input)).toBe('Theme: follow the system');
  });

  test('two letters or more look up task titles in main; Enter on one opens the task', async () => {
    const user = userEvent.setup();
    const input = await openPalette();
    await user.type(input, 'f');
    expect(bridge.callsOf('tasks:query')).toEqual([]);
    await user.type(input, 'oot');

    await screen.findByText('Fix the footer');
    expect(bridge.callsOf('tasks:query').at(-1)).toEqual({
      query: { filter: { search: 'foot', search_fields: 'title' }, sort_by: 'title', sort_order: 'asc' },
      limit: 6,
    });
    expect(offered()).toEqual(['Fix the footer']);
    await user.keyboard('{Enter}');
    expect(useView.getState()).toMatchObject({ openTaskId: 't-9', paletteOpen: false });
  });

  test('with a task selected, it can be filed into a sprint not completed', async () => {
    const user = userEvent.setup();
    bridge.answer('task:edit', ({ task_id }) => taskDetail({ task_id, title: 'Fix the footer' }));
    const input = await openPalette({ selectedTaskId: 't-9' });
    await user.type(input, 'file sprint');
    expect(offered()).toEqual(['File into sprint: Sprint 12 (Platform)']);
    await user.keyboard('{Enter}');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-9', patch: { sprint_id: 'sp-12' } }]);
  });

  test('without a selected task, no command acts on one', async () => {
    const user = userEvent.setup();
    const input = await openPalette();
    await user.type(input, 'file sprint');
    expect(offered()).toEqual([]);
    expect(screen.getByText('Nothing matches.')).toBeTruthy();
    await user.keyboard('{Enter}');
    expect(useView.getState().paletteOpen).toBe(true);
  });

  test('Escape closes the palette and runs nothing', async () => {
    const user = userEvent.setup();
    const input = await openPalette();
    await user.type(input, 'theme dark');
    await user.keyboard('{Escape}');
    expect(useView.getState().paletteOpen).toBe(false);
    expect(bridge.callsOf('settings:set')).toEqual([]);
  });

  test("'Make sub-task of…' asks for the parent by title, then files the selected task under it", async () => {
    const user = userEvent.setup();
    bridge.answer('task:edit', ({ task_id, patch }) =>
      taskDetail({ task_id, title: 'Update the links', ...(patch as object) }),
    );
    const input = await openPalette({ selectedTaskId: 't-1' });
    await user.type(input, 'sub-task of');
    expect(offered()).toEqual(['Make sub-task of…']);
    await user.keyboard('{Enter}');

    const parentInput = screen.getByRole<HTMLInputElement>('combobox', {
      name: 'Type the title of its parent',
    });
    expect(parentInput.value).toBe('');
    await user.type(parentInput, 'foot');
    await vi.waitFor(() => expect(offered()).toEqual(['Fix the footer']));
    await user.keyboard('{Enter}');

    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { parent_task_id: 't-9' } }]);
    expect(useView.getState().paletteOpen).toBe(false);
  });

  test('a task cannot be chosen as its own parent', async () => {
    const user = userEvent.setup();
    const input = await openPalette({ selectedTaskId: 't-9' });
    await user.type(input, 'sub-task of');
    await user.keyboard('{Enter}');
    await user.type(screen.getByRole('combobox', { name: 'Type the title of its parent' }), 'foot');
    // Main found the task itself; the palette leaves it out.
    await vi.waitFor(() =>
      expect(bridge.callsOf('tasks:query').map((call) => call.query.filter?.search)).toContain('foot'),
    );
    await act(() => Promise.resolve());
    expect(screen.getByText('Nothing matches.')).toBeTruthy();
    expect(offered()).toEqual([]);
  });
});
