// @vitest-environment happy-dom
// The task list's "Save view" as a person uses it: the list's filters and
// sort saved as a view, which then opens; saved into a view only of one's own
// (or one saved here and not yet sent, whose creator the service has not
// named); cancelled, the focus back on the button; a sign-in that may not
// save views has the button off.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, savedView, workspaceOf } from '../testing/screen-fixtures';
import { SaveViewButton } from './save-view-button';

const bridge = fakeBridgeEachTest();

const query: TaskListQueryInput = {
  filter: { status: ['blocked'], search: 'invoice', overdue: false },
  sort_by: 'due_date',
  sort_order: 'desc',
};

async function showButton() {
  bridge.answer('workspace:get', () => workspaceOf());
  bridge.answer('views:sidebar', () => ({
    views: [
      savedView('v-mine', 'Mine', 'user-ada'),
      savedView('v-theirs', 'Theirs', 'user-bob'),
      savedView('local-v', 'Saved offline', null, 'queued'),
      savedView('v-unknown', 'Creator unknown', null),
    ],
    pins: [],
  }));
  await act(() => loadWorkspace());
  render(<SaveViewButton query={query} />);
  return screen.getByRole('button', { name: 'Save view' });
}

test("the list's filters and sort are saved as a new view, which then opens", async () => {
  const user = userEvent.setup();
  bridge.answer('collection:create', () => ({ id: 'local-v9', op_id: 'op-1' }));
  await user.click(await showButton());
  const dialog = within(screen.getByRole('dialog'));
  await user.type(dialog.getByLabelText('Name'), 'Overdue invoices');
  await user.click(dialog.getByRole('button', { name: 'Save view' }));

  expect(bridge.callsOf('collection:create')).toMatchObject([
    {
      kind: 'view',
      fields: {
        name: 'Overdue invoices',
        filters: { status: ['blocked'], search: ['invoice'] },
        sort_by: 'due_date',
        sort_order: 'desc',
      },
    },
  ]);
  expect(useView.getState().view).toEqual({ kind: 'saved-view', viewId: 'local-v9' });
});

test("only views of one's own, or saved here and not yet sent, can be saved into", async () => {
  const user = userEvent.setup();
  await user.click(await showButton());
  // The sidebar's views arrive after the dialog opens: the choice fills in.
  const target = await screen.findByRole('combobox', { name: 'Save as' });
  await within(target).findByRole('option', { name: /Mine/ });
  expect(
    within(target)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual([
    'A new view',
    'Into ‘Mine’ (its filters replaced)',
    'Into ‘Saved offline’ (its filters replaced)',
  ]);
});

test('cancelled, nothing is saved and the focus is back on the button', async () => {
  const user = userEvent.setup();
  const button = await showButton();
  await user.click(button);
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

  expect(screen.queryByRole('dialog')).toBeNull();
  expect(document.activeElement).toBe(button);
  expect(bridge.callsOf('collection:create')).toEqual([]);
  expect(useView.getState().view.kind).not.toBe('saved-view');
});

test('a sign-in that may not save views has the button off', async () => {
  useSession.setState({ current: account({ read_only: true }) });
  const button = await showButton();
  expect(button).toHaveProperty('disabled', true);
});
