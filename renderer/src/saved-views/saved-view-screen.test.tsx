// @vitest-environment happy-dom
// A saved view's screen as a person uses it: its rows; the service's refusals
// said on the view in their own words (403: another's view; 409: a pin already
// there, with no rename offered for a pin); delete asked first; a view whose
// filters this version does not know said unavailable, not answered without them.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import type { TaskRow } from '../../../ipc/screen-schemas';
import type { ViewSidebar } from '../../../ipc/view-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskRow } from '../testing/screen-fixtures';
import { SavedViewScreen } from './saved-view-screen';

const bridge = fakeBridgeEachTest();

const sidebar: ViewSidebar = {
  views: [
    {
      view_id: 'v-1',
      name: 'Blocked',
      visibility: 'shared',
      layout: 'list',
      group_by: null,
      sort_by: 'title',
      sort_order: 'asc',
      filters: { status: ['blocked'] },
      created_by: 'u2',
      unknown_filters: null,
    },
  ],
  pins: [{ pin_id: 'local-p1', view_id: 'v-1', position: 1, pending: 'failed' }],
};

const row = (id: string, title: string): TaskRow => taskRow({ task_id: id, title, status: 'blocked' });

const refused = (
  entity_type: string,
  entity_id: string,
  kind: PendingChange['kind'],
  status: number,
  detail: string,
): PendingChange => ({
  op_id: `op-${entity_id}`,
  entity_type,
  entity_id,
  task_id: '',
  task_title: null,
  kind,
  state: 'failed',
  changes: [],
  attempts: 1,
  created_at: '2026-11-29T10:00:00Z',
  updated_at: '2026-11-29T10:00:00Z',
  last_answer: { status, type: 'about:blank', detail, errors: [] },
  waits_on: null,
});

function answerWith(changes: PendingChange[], rows = [row('t1', 'Fix the build'), row('t2', 'Ship it')]) {
  bridge.answer('views:sidebar', () => sidebar);
  bridge.answer('outbox:list', () => ({ changes }));
  bridge.answer('views:rows', () => ({ available: true, source: 'mirror', rows, next: null }));
}

describe('SavedViewScreen', () => {
  test('shows its rows, and the refusals on the view: 403 for another’s view, 409 for a pin already there', async () => {
    answerWith([
      refused('view', 'v-1', 'update', 403, 'Forbidden'),
      refused('view_pin', 'local-p1', 'create', 409, "View 'Blocked' is already pinned."),
    ]);
    render(<SavedViewScreen viewId="v-1" />);
    const rows = await screen.findByRole('list', { name: 'Tasks of Blocked' });
    expect(
      within(rows)
        .getAllByRole('listitem')
        .map((item) => item.dataset.taskId),
    ).toEqual(['t1', 't2']);
    const view = await screen.findByTestId('view-refusal');
    expect(view.textContent).toContain(
      "Only the view's creator or an organization owner or admin may change it (403).",
    );
    const pin = screen.getByTestId('pin-refusal');
    expect(pin.textContent).toContain('This pin was not created.');
    expect(pin.textContent).toContain("View 'Blocked' is already pinned. (409)");
    expect(within(pin).queryByRole('button', { name: /rename/i })).toBeNull();
  });

  test('delete asks first: Cancel sends nothing, Delete view queues the delete', async () => {
    const user = userEvent.setup();
    answerWith([]);
    bridge.answer('collection:delete', ({ id }) => ({ id, op_id: 'op-d' }));
    render(<SavedViewScreen viewId="v-1" />);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this view?' })).getByText('Cancel'),
    );
    expect(bridge.callsOf('collection:delete')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete view' }));
    expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'view', id: 'v-1' }]);
  });

  test('a view whose filters this version does not know says it is unavailable offline', async () => {
    bridge.answer('views:sidebar', () => sidebar);
    bridge.answer('outbox:list', () => ({ changes: [] }));
    bridge.answer('views:rows', () => ({
      available: false,
      reason: 'unknown-filters',
      detail: 'filter[mood] is not a task-list filter',
    }));
    render(<SavedViewScreen viewId="v-1" />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toMatch(
      /does not know \(filter\[mood\].*\): it is shown from the service while online, and is not available offline/,
    );
    expect(screen.queryByRole('list', { name: 'Tasks of Blocked' })).toBeNull();
  });
});
