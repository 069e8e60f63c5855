// @vitest-environment happy-dom
// The bar's line for a change of many tasks going out: "N of M sent" read from
// main while some is still to send, Stop giving up the rest and saying how far
// it got, Dismiss once nothing is left; and an undo of a bulk change followed
// on the same line, since it is a bulk change of its own.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { NOTHING_SELECTED, setRunningChange } from '../store/selection-store';
import { undoOrRedo } from '../store/undo-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { BulkBar } from './bulk-bar';

const bridge = fakeBridgeEachTest();

/** The bar as the list shows it while a change runs and nothing is selected. */
function showBar() {
  render(<BulkBar selection={NOTHING_SELECTED} count={0} disabled={false} />);
}

test('a change going out shows "N of M sent"; Stop gives up the rest and shows where it stopped', async () => {
  const user = userEvent.setup();
  bridge.answer('tasks:bulk-progress', () => ({ total: 120, sent: 40, waiting: 80, stopped: 0 }));
  bridge.answer('tasks:bulk-stop', () => ({
    given_up: 80,
    progress: { total: 40, sent: 40, waiting: 0, stopped: 0 },
  }));
  setRunningChange({ batchId: 'b-1', label: 'Set status to Blocked', queued: 120 });
  showBar();

  const line = await screen.findByTestId('bulk-progress');
  await within(line).findByText(/40 of 120 sent/);
  expect(line.textContent).toContain('Set status to Blocked');
  await user.click(within(line).getByRole('button', { name: 'Stop' }));

  expect(bridge.callsOf('tasks:bulk-stop')).toEqual([{ batch_id: 'b-1' }]);
  await within(line).findByText(/40 of 40 sent/);
  // Nothing left to send: the line can go.
  await user.click(within(line).getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByTestId('bulk-progress')).toBeNull();
});

test('an undo of a bulk change is followed like one: "N of M sent" with Stop for its batch', async () => {
  const user = userEvent.setup();
  bridge.answer('undo:undo', () => ({
    done: 'Undo status change of 300 tasks',
    labels: { undo: null, redo: 'Redo status change of 300 tasks' },
    batch: { batch_id: 'undo-1', queued: 300 },
  }));
  bridge.answer('tasks:bulk-progress', ({ batch_id }) =>
    batch_id === 'undo-1'
      ? { total: 300, sent: 120, waiting: 180, stopped: 0 }
      : { total: 0, sent: 0, waiting: 0, stopped: 0 },
  );
  bridge.answer('tasks:bulk-stop', () => ({
    given_up: 180,
    progress: { total: 120, sent: 120, waiting: 0, stopped: 0 },
  }));
  showBar();

  await act(() => undoOrRedo('undo'));

  const line = await screen.findByTestId('bulk-progress');
  await within(line).findByText(/120 of 300 sent/);
  expect(line.textContent).toContain('Undo status change of 300 tasks');
  await user.click(within(line).getByRole('button', { name: 'Stop' }));
  expect(bridge.callsOf('tasks:bulk-stop')).toEqual([{ batch_id: 'undo-1' }]);
});

test('an undo with nothing to send (it all folded back) leaves the bar as it was', async () => {
  bridge.answer('undo:undo', () => ({
    done: 'Undo status change',
    labels: { undo: null, redo: 'Redo status change' },
    batch: null,
  }));
  showBar();

  await act(() => undoOrRedo('undo'));

  expect(bridge.callsOf('undo:undo')).toHaveLength(1);
  expect(screen.queryByTestId('bulk-progress')).toBeNull();
});
