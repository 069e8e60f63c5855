// @vitest-environment happy-dom
// Typing in the list's search, asserted as what waits on what: a query the
// person just changed is asked of main before the list renders the key (main
// answers while the page draws it), and a query answered since the mirror last
// changed (a Backspace) shows its rows in the key's own render, without a call
// and without the list ever saying it is busy.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { clientHeightEachTest } from '../testing/grid-height';
import { taskRow, workspaceOf } from '../testing/screen-fixtures';
import { TaskList } from './task-list';

const bridge = fakeBridgeEachTest();

// happy-dom lays nothing out: the grid's body is given a height, or the virtualizer draws no rows.
clientHeightEachTest(600);

const ALL = ['Audit log export', 'Migrate billing', 'Safari layout'].map((title, i) =>
  taskRow({ task_id: `t-${i}`, title }),
);

/** The rows whose title holds the search's word (the fake main's whole search language). */
function answer(query: TaskListQueryInput) {
  const word = query.filter.search?.toLowerCase() ?? '';
  const status = query.filter.status;
  return ALL.filter(
    (row) => row.title.toLowerCase().includes(word) && (status === undefined || status.includes(row.status)),
  );
}

/** For each tasks:query call, its search, and whether the grid said it was busy when main was asked. */
const asked: { search: string | undefined; status: string[] | undefined; busy: string | null }[] = [];

async function showList() {
  asked.length = 0;
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('tasks:query', ({ query }) => {
    asked.push({
      search: query.filter.search,
      status: query.filter.status,
      busy: document.querySelector('[role="grid"]')?.getAttribute('aria-busy') ?? null,
    });
    return { rows: answer(query), next: null, skipped: [] };
  });
  bridge.answer('tasks:count', ({ query }) => ({ count: answer(query).length }));
  await act(() => loadWorkspace());
  render(<TaskList scope={{ kind: 'all' }} title="All tasks" />);
  await screen.findByText('Safari layout');
}

const titles = () =>
  [...document.querySelectorAll('[role="row"][data-task-id] .title-text')].map((el) => el.textContent);

/** Each change of the grid's aria-busy from now on, as the value it left. */
function busyChanges(): (string | null)[] {
  const changes: (string | null)[] = [];
  new MutationObserver((records) => changes.push(...records.map((record) => record.oldValue))).observe(
    screen.getByRole('grid'),
    { attributes: true, attributeFilter: ['aria-busy'], attributeOldValue: true },
  );
  return changes;
}

test('a key, or a chip, is asked of main before the list renders it, and only once', async () => {
  const user = userEvent.setup();
  await showList();
  const opening = asked.length;

  await user.type(screen.getByLabelText('Search tasks'), 'm');
  await screen.findByText('Migrate billing');
  expect(titles()).toEqual(['Migrate billing']);
  // Asked while the grid still showed the list before the key, not from the busy render's effect.
  expect(asked.slice(opening)).toEqual([{ search: 'm', status: undefined, busy: 'false' }]);

  await user.click(
    within(screen.getByRole('group', { name: 'Status' })).getByRole('button', { name: 'Blocked' }),
  );
  expect(await screen.findByText('No tasks match these filters.')).toBeTruthy();
  expect(asked.slice(opening + 1)).toEqual([{ search: 'm', status: ['blocked'], busy: 'false' }]);
});

test('a Backspace back to a query answered before shows its rows in the key’s own render: no call, never busy', async () => {
  const user = userEvent.setup();
  await showList();
  const search = screen.getByLabelText('Search tasks');
  await user.type(search, 'm');
  await screen.findByText('Migrate billing');
  const calls = bridge.callsOf('tasks:query').length;
  const busy = busyChanges();

  await user.type(search, '{Backspace}');
  expect(titles()).toEqual(['Audit log export', 'Migrate billing', 'Safari layout']);
  expect(busy).toEqual([]);
  expect(bridge.callsOf('tasks:query')).toHaveLength(calls);
  expect(screen.getByTestId('list-count').textContent).toBe('3 tasks');
});
