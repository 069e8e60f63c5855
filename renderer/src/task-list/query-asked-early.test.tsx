// @vitest-environment happy-dom
// A keystroke's query leaves for main as the search box's text changes, before
// React renders the box and the list (which took 6-16 ms at 100 000 tasks): the
// render then shows that answer instead of asking again, unless the mirror
// changed in between.
import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import type { InvokeInput } from '../../../ipc/contract';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { elementsLaidOutEachFile } from '../testing/laid-out';
import { taskRow, workspaceOf } from '../testing/screen-fixtures';
import { setQuery } from './list-store';
import { TaskList } from './task-list';

const bridge = fakeBridgeEachTest();

elementsLaidOutEachFile();

const searching = (input: InvokeInput<'tasks:query'>, word: string) =>
  JSON.stringify(input.query).includes(`"${word}"`);

/**
 * The list shown; each first page names its query's search and how many times it was asked, and
 * `askedWhile` keeps whether the grid was drawn busy for it when its query reached main.
 */
async function listShown(): Promise<HTMLInputElement> {
  let asked = 0;
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('tasks:query', (input) => {
    asked++;
    askedWhile.push(document.querySelector('[role="grid"]')?.getAttribute('aria-busy') ?? null);
    const title = searching(input, 'x') ? `Found x (answer ${asked})` : `Task (answer ${asked})`;
    return { rows: [taskRow({ task_id: `t-${asked}`, title })], next: null, skipped: [] };
  });
  bridge.answer('tasks:count', () => ({ count: 1 }));
  await act(() => loadWorkspace());
  render(<TaskList scope={{ kind: 'all' }} title="All tasks" />);
  await screen.findByText('Task (answer 1)');
  return screen.getByLabelText<HTMLInputElement>('Search tasks');
}
const askedWhile: (string | null)[] = [];
afterEach(() => {
  askedWhile.length = 0;
});

/** Types `text` into the box the way the browser does: the value set, then its input event. */
function typeInto(input: HTMLInputElement, text: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const queriesOf = (word: string) => bridge.callsOf('tasks:query').filter((input) => searching(input, word));

test('a keystroke’s query is asked of main before React renders it, and its answer is shown without asking again', async () => {
  const input = await listShown();

  act(() => typeInto(input, 'x'));

  // Asked before React drew the keystroke (its render marks the grid busy until the answer).
  expect(queriesOf('x')).toHaveLength(1);
  expect(askedWhile[1]).toBe('false');
  await screen.findByText('Found x (answer 2)');
  expect(queriesOf('x')).toHaveLength(1);
  expect(screen.getByRole('grid').getAttribute('aria-busy')).toBe('false');
});

test('a mirror change between the early ask and the render asks again: the rows shown are read after the change', async () => {
  await listShown();

  act(() => {
    // Set in the store: React renders it at the end of act, after the change.
    setQuery('x');
    bridge.emit('mirror:changed', { account_id: 'a', collections: ['tasks'], task_ids: null, remapped: [] });
  });

  await screen.findByText('Found x (answer 3)');
  expect(queriesOf('x')).toHaveLength(2);
});

test('typing back to the query on show before it renders asks nothing more, and the list stays on its rows', async () => {
  const input = await listShown();

  act(() => {
    setQuery('x');
    setQuery('');
  });

  expect(queriesOf('x')).toHaveLength(1);
  expect(screen.queryByText('Task (answer 1)')).not.toBeNull();
  expect(screen.getByRole('grid').getAttribute('aria-busy')).toBe('false');
  // Typed again: the early answer left over is not taken, a new one is asked and shown.
  act(() => typeInto(input, 'x'));
  await screen.findByText('Found x (answer 3)');
});
