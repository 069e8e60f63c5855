// @vitest-environment happy-dom
// Selecting tasks in the list as a person does, asserted as the rows marked
// selected and the bulk change main is then asked for: Shift+click a range from
// the row clicked last, Ctrl/Cmd+click to toggle one, Shift+J/K to extend from
// the anchor (and shrink back), Ctrl/Cmd+A for everything the query matches,
// sent as the query with the rows taken out, never as ids.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { useUndo } from '../store/undo-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { elementsLaidOutEachFile } from '../testing/laid-out';
import { bulkQueued, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { controlClick, selectRange } from '../testing/selection-clicks';
import { TaskList } from './task-list';

const bridge = fakeBridgeEachTest();

elementsLaidOutEachFile();

const ROWS = ['t-0', 't-1', 't-2', 't-3', 't-4', 't-5'].map((task_id, i) =>
  taskRow({ task_id, title: `Task ${i}` }),
);

async function showList() {
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('tasks:query', () => ({ rows: ROWS, next: null, skipped: [] }));
  bridge.answer('tasks:count', () => ({ count: ROWS.length }));
  bridge.answer('task:get', ({ task_id }) =>
    taskDetail({ ...ROWS.find((row) => row.task_id === task_id), task_id, org_id: 'o' }),
  );
  bridge.answer('tasks:bulk-edit', () => bulkQueued(3));
  bridge.answer('tasks:bulk-progress', () => ({ total: 3, sent: 1, waiting: 2, stopped: 0 }));
  await act(() => loadWorkspace());
  render(<TaskList scope={{ kind: 'all' }} title="All tasks" />);
  await screen.findByText('Task 5');
}

function row(title: string): HTMLElement {
  const found = screen.getByText(title).closest<HTMLElement>('[role="row"]');
  if (found === null) throw new Error(`no row ${title}`);
  return found;
}

/** The titles of the rows marked selected, in list order. */
function selectedTitles(): string[] {
  return [...document.querySelectorAll('.task-row.is-selected .title-text')].map(
    (el) => el.textContent ?? '',
  );
}

async function applyStatus(user: ReturnType<typeof userEvent.setup>, status: string) {
  const bar = within(screen.getByTestId('bulk-bar'));
  await user.selectOptions(bar.getByLabelText('Change'), 'status');
  await user.selectOptions(bar.getByLabelText('New value'), status);
  await user.click(bar.getByRole('button', { name: 'Apply' }));
}

test('Shift+click selects the range from the row clicked last; Ctrl/Cmd+click toggles one; the bar counts them', async () => {
  const user = userEvent.setup();
  await showList();

  await selectRange(user, row('Task 1'), row('Task 3'));
  expect(selectedTitles()).toEqual(['Task 1', 'Task 2', 'Task 3']);
  expect(within(screen.getByTestId('bulk-bar')).getByText('3 tasks selected')).toBeTruthy();

  await controlClick(user, row('Task 2'), row('Task 5'));
  expect(selectedTitles()).toEqual(['Task 1', 'Task 3', 'Task 5']);
  expect(row('Task 5').getAttribute('aria-selected')).toBe('true');

  await applyStatus(user, 'completed');
  expect(bridge.callsOf('tasks:bulk-edit')).toEqual([
    { target: { task_ids: ['t-1', 't-3', 't-5'] }, change: { set: { status: 'completed' } } },
  ]);
  expect((await screen.findByTestId('bulk-progress')).textContent).toContain('1 of 3 sent');
});

test('a change that only set waiting changes back (nothing queued) is offered to undo all the same', async () => {
  const user = userEvent.setup();
  await showList();
  bridge.answer('tasks:bulk-edit', () => bulkQueued(0, { matched: 2, set_back: 2 }));
  bridge.answer('undo:labels', () => ({ undo: 'Undo status change of 2 tasks', redo: null }));

  await selectRange(user, row('Task 1'), row('Task 2'));
  await applyStatus(user, 'completed');

  await waitFor(() => expect(useUndo.getState().offer?.label).toBe('Undo status change of 2 tasks'));
  expect(useUndo.getState().offer?.text).toMatch(/: 2 tasks\.$/);
});

test('Shift+J and Shift+K extend from the anchor and shrink back; Escape clears', async () => {
  const user = userEvent.setup();
  await showList();
  await user.click(row('Task 2'));

  await user.keyboard('{Shift>}JJ{/Shift}');
  expect(selectedTitles()).toEqual(['Task 2', 'Task 3', 'Task 4']);
  await user.keyboard('{Shift>}K{/Shift}');
  expect(selectedTitles()).toEqual(['Task 2', 'Task 3']);
  await user.keyboard('{Shift>}KK{/Shift}');
  expect(selectedTitles()).toEqual(['Task 1', 'Task 2']);

  await user.keyboard('{Escape}');
  expect(selectedTitles()).toEqual([]);
  expect(screen.queryByTestId('bulk-bar')).toBeNull();
});

test('Ctrl/Cmd+A selects everything the query matches, sent as the query less the rows toggled out', async () => {
  const user = userEvent.setup();
  await showList();
  await user.click(row('Task 0'));

  await user.keyboard('{Control>}a{/Control}');
  expect(selectedTitles()).toHaveLength(6);
  expect(within(screen.getByTestId('bulk-bar')).getByText('6 tasks selected')).toBeTruthy();
  await controlClick(user, row('Task 4'));
  expect(within(screen.getByTestId('bulk-bar')).getByText('5 tasks selected')).toBeTruthy();

  await applyStatus(user, 'blocked');
  const [asked] = bridge.callsOf('tasks:bulk-edit');
  expect(asked?.target).toEqual({
    query: expect.objectContaining({ filter: {} }) as unknown,
    except: ['t-4'],
  });
  expect(asked?.change).toEqual({ set: { status: 'blocked' } });
});

test('a delete is asked first, with the count', async () => {
  const user = userEvent.setup();
  await showList();
  await selectRange(user, row('Task 0'), row('Task 1'));

  await user.click(within(screen.getByTestId('bulk-bar')).getByRole('button', { name: 'Delete…' }));
  const question = await screen.findByRole('alertdialog', { name: 'Delete 2 tasks?' });
  expect(bridge.callsOf('tasks:bulk-edit')).toEqual([]);
  await user.click(within(question).getByRole('button', { name: 'Delete 2 tasks' }));
  expect(bridge.callsOf('tasks:bulk-edit')).toEqual([
    { target: { task_ids: ['t-0', 't-1'] }, change: { delete: true } },
  ]);
});
