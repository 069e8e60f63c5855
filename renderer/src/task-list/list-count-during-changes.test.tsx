// @vitest-environment happy-dom
// The list's count while the mirror keeps changing (a sync writing, a bulk
// change's edits pushed one by one): main stops a list's running count when the
// next one comes, so a count asked on every change was stopped by the next
// change's and none was ever shown. One count is in flight at a time, the newest
// asked waiting, and a count of a query the person has left is never sent; a
// list the person leaves for another screen has main stop its count.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { elementsLaidOutEachFile } from '../testing/laid-out';
import { taskRow, workspaceOf } from '../testing/screen-fixtures';
import { TaskList } from './task-list';

const bridge = fakeBridgeEachTest();

elementsLaidOutEachFile();

const ROWS = ['t-0', 't-1', 't-2'].map((task_id, i) => taskRow({ task_id, title: `Task ${i}` }));

/** Counts main has been asked for and not answered yet, oldest first. */
const pending: ((count: number | null) => void)[] = [];
afterEach(() => {
  pending.length = 0;
});

/** The list shown, its first count asked and not answered (answered through `pending`); returns what leaves it. */
async function listShownCounting(): Promise<() => void> {
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('tasks:query', () => ({ rows: ROWS, next: null, skipped: [] }));
  bridge.answer(
    'tasks:count',
    () => new Promise<{ count: number | null }>((answer) => pending.push((count) => answer({ count }))),
  );
  await act(() => loadWorkspace());
  const { unmount } = render(<TaskList scope={{ kind: 'all' }} title="All tasks" />);
  await screen.findByText('Task 2');
  await vi.waitFor(() => expect(bridge.callsOf('tasks:count')).toHaveLength(1));
  return unmount;
}

function tasksChanged(): void {
  act(() =>
    bridge.emit('mirror:changed', { account_id: 'a', collections: ['tasks'], task_ids: null, remapped: [] }),
  );
}

test('changes coming faster than a count answers leave one count in flight, then the newest asked, and its answer shows', async () => {
  await listShownCounting();

  // Three changes, each refreshing the list, while the first count runs.
  for (let change = 0; change < 3; change++) {
    tasksChanged();
    await vi.waitFor(() => expect(bridge.callsOf('tasks:query').length).toBeGreaterThan(change + 1));
  }
  expect(bridge.callsOf('tasks:count')).toHaveLength(1);

  // The first answers: the newest count waiting is asked, the two before it never are.
  act(() => pending.shift()?.(1200));
  await vi.waitFor(() => expect(bridge.callsOf('tasks:count')).toHaveLength(2));
  await screen.findByText('1,200 tasks');
  act(() => pending.shift()?.(1201));
  await screen.findByText('1,201 tasks');
  expect(bridge.callsOf('tasks:count')).toHaveLength(2);
});

test('a count waiting for a query the person has left is never sent (it would stop the new query’s count in main)', async () => {
  await listShownCounting();
  tasksChanged();
  await vi.waitFor(() => expect(bridge.callsOf('tasks:query').length).toBeGreaterThan(1));

  // The person searches: the new query's own count is asked.
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Search tasks'), 'x');
  await vi.waitFor(() => expect(bridge.callsOf('tasks:count')).toHaveLength(2));
  const searched = bridge.callsOf('tasks:count')[1];
  expect(JSON.stringify(searched)).toContain('"x"');

  // The old query's first count ends (main stopped it): its waiting one is not sent.
  act(() => pending.shift()?.(null));
  act(() => pending.shift()?.(7));
  await screen.findByText('7 tasks');
  expect(bridge.callsOf('tasks:count')).toHaveLength(2);
});

test('a list left for another screen has main stop its count still running; a refresh of the list does not', async () => {
  bridge.answer('tasks:list-closed', () => null);
  const leave = await listShownCounting();
  tasksChanged();
  await vi.waitFor(() => expect(bridge.callsOf('tasks:query').length).toBeGreaterThan(1));
  expect(bridge.callsOf('tasks:list-closed')).toEqual([]);
  leave();
  expect(bridge.callsOf('tasks:list-closed')).toEqual([{ list: 'task-list' }]);
});
