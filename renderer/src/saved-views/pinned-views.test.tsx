// @vitest-environment happy-dom
// The sidebar's pinned views as a person uses them: in pin order, Alt+↓ and
// Alt+↑ moving the focused one by a single pin's position edit placed between
// its new neighbours, a pin dropped on another going before it, and an
// account that can only read moving nothing.
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ViewSidebar, ViewSummary } from '../../../ipc/view-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { PinnedViews } from './pinned-views';

const bridge = fakeBridgeEachTest();

const view = (id: string, name: string): ViewSummary => ({
  view_id: id,
  name,
  visibility: 'private',
  layout: 'list',
  group_by: null,
  sort_by: null,
  sort_order: null,
  filters: {},
  created_by: 'u1',
  unknown_filters: null,
});

const sidebar: ViewSidebar = {
  views: [view('v-a', 'Alpha'), view('v-b', 'Blocked'), view('v-c', 'Customers')],
  pins: [
    { pin_id: 'p-b', view_id: 'v-b', position: 1 },
    { pin_id: 'p-c', view_id: 'v-c', position: 2 },
    { pin_id: 'p-a', view_id: 'v-a', position: 4 },
  ],
};

function renderPins(readOnly = false) {
  render(
    <ul aria-label="Pinned views">
      <PinnedViews sidebar={sidebar} readOnly={readOnly} />
    </ul>,
  );
  return within(screen.getByRole('list', { name: 'Pinned views' }));
}

describe('PinnedViews', () => {
  test('stand in pin order', () => {
    const list = renderPins();
    expect(list.getAllByRole('button').map((b) => b.textContent)).toEqual(['Blocked', 'Customers', 'Alpha']);
  });

  test('a view pinned twice (one pin refused with 409) stands once, where its standing pin puts it', () => {
    render(
      <ul aria-label="Pinned views">
        <PinnedViews
          sidebar={{
            ...sidebar,
            pins: [{ pin_id: 'local-p', view_id: 'v-a', position: 0, pending: 'failed' }, ...sidebar.pins],
          }}
          readOnly={false}
        />
      </ul>,
    );
    const list = within(screen.getByRole('list', { name: 'Pinned views' }));
    expect(list.getAllByRole('button').map((b) => b.textContent)).toEqual(['Blocked', 'Customers', 'Alpha']);
  });

  test('Alt+↓ moves the focused pin below the next, Alt+↑ above the one before: one position edit each', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op' }));
    const list = renderPins();
    list.getByRole('button', { name: 'Blocked' }).focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    list.getByRole('button', { name: 'Alpha' }).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    // The first pin cannot move up: nothing is sent.
    list.getByRole('button', { name: 'Blocked' }).focus();
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}');
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'view_pin', id: 'p-b', patch: { position: 3 } },
      { kind: 'view_pin', id: 'p-a', patch: { position: 1.5 } },
    ]);
  });

  test('a pin dropped on another goes before it', () => {
    bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op' }));
    const list = renderPins();
    const data = new Map<string, string>();
    const dataTransfer = {
      get types() {
        return [...data.keys()];
      },
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      dropEffect: 'none',
      effectAllowed: 'all',
    };
    const item = (name: string) => list.getByRole('button', { name }).closest('li')!;
    fireEvent.dragStart(item('Alpha'), { dataTransfer });
    fireEvent.dragOver(item('Blocked'), { dataTransfer });
    fireEvent.drop(item('Blocked'), { dataTransfer });
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'view_pin', id: 'p-a', patch: { position: 0 } },
    ]);
  });

  test('an account that can only read moves nothing', async () => {
    const user = userEvent.setup();
    const list = renderPins(true);
    list.getByRole('button', { name: 'Blocked' }).focus();
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    expect(bridge.calls).toEqual([]);
  });
});
