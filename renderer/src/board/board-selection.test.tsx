// @vitest-environment happy-dom
// Selecting cards on the board for a bulk change, as in the list: a click then
// Shift+click selects the cards between in board order (column by column),
// Ctrl/Cmd+click toggles one, Shift+J extends from a focused card, and the bar
// sends the change for exactly those tasks.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { bulkQueued, project, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { controlClick, selectRange } from '../testing/selection-clicks';
import { boardSection, card, renderProjectBoard } from './testing/board-screen';

const bridge = fakeBridgeEachTest();

const rows: readonly TaskRow[] = [
  taskRow({ task_id: 't-a', title: 'Write docs', section_id: 's-todo', position: 1024 }),
  taskRow({ task_id: 't-b', title: 'Fix login', section_id: 's-todo', position: 2048 }),
  taskRow({ task_id: 't-c', title: 'Ship it', section_id: 's-doing', position: 1024 }),
  taskRow({ task_id: 't-d', title: 'Celebrate', section_id: 's-doing', position: 2048 }),
];

async function showBoard() {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website')],
      sections: [boardSection('s-todo', 'To do', 1024), boardSection('s-doing', 'Doing', 2048)],
    }),
  );
  bridge.answer('tasks:filed', () => ({ rows: [...rows], truncated: false }));
  bridge.answer('task:get', ({ task_id }) => taskDetail({ task_id }));
  bridge.answer('tasks:bulk-edit', () => bulkQueued(3));
  bridge.answer('tasks:bulk-progress', () => ({ total: 3, sent: 0, waiting: 3, stopped: 0 }));
  await renderProjectBoard();
}

const selectedTitles = () =>
  [...document.querySelectorAll('.card.is-selected .card-title')].map((el) => el.textContent ?? '');

test('click, then Shift+click across columns selects the cards between; Ctrl+click takes one out; the bar sends those', async () => {
  const user = userEvent.setup();
  await showBoard();

  await selectRange(user, card('Fix login'), card('Celebrate'));
  expect(selectedTitles()).toEqual(['Fix login', 'Ship it', 'Celebrate']);
  await controlClick(user, card('Ship it'), card('Write docs'));
  expect(selectedTitles()).toEqual(['Write docs', 'Fix login', 'Celebrate']);

  const bar = within(screen.getByTestId('bulk-bar'));
  expect(bar.getByText('3 tasks selected')).toBeTruthy();
  await user.selectOptions(bar.getByLabelText('Change'), 'priority');
  await user.selectOptions(bar.getByLabelText('New value'), 'urgent');
  await user.click(bar.getByRole('button', { name: 'Apply' }));
  expect(bridge.callsOf('tasks:bulk-edit')).toEqual([
    { target: { task_ids: ['t-b', 't-d', 't-a'] }, change: { set: { priority: 'urgent' } } },
  ]);
});

test('Shift+J on a focused card extends the selection to the next card in board order', async () => {
  const user = userEvent.setup();
  await showBoard();
  await user.click(card('Fix login'));

  await user.keyboard('{Shift>}J{/Shift}');
  expect(selectedTitles()).toEqual(['Fix login', 'Ship it']);
  expect(document.activeElement).toBe(card('Ship it'));
});
