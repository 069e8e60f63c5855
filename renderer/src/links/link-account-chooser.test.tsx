// @vitest-environment happy-dom
// A link to a task several signed-in accounts hold: the person is asked which
// account to open it in, each named by user and organisation (its id when it
// is not signed in here), the first one offered first. The chosen account's
// task opens, told to screen readers; a switch the app could not make opens
// nothing on the wrong account; Cancel opens nothing.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, test } from 'vitest';
import { useLinkChoice } from '../store/link-requests';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account } from '../testing/screen-fixtures';
import { LinkAccountChooser } from './link-account-chooser';

const bridge = fakeBridgeEachTest();

const work = account({ account_id: 'acc-work', username: 'ada', org_id: 'org-1', org_name: 'Acme' });
const club = account({ account_id: 'acc-club', username: 'ada.l', org_id: 'org-2', org_name: null });

beforeEach(() => {
  useSession.setState({ accounts: [work, club], current: work });
  useLinkChoice.setState({ choice: null });
});

function askFor(taskId: string, accountIds: string[]) {
  render(<LinkAccountChooser />);
  act(() => useLinkChoice.setState({ choice: { taskId, accountIds } }));
  return within(screen.getByTestId('link-account-chooser'));
}

test('each account holding the task is offered by user and organisation, the first one focused', () => {
  const dialog = askFor('t-7', ['acc-work', 'acc-club', 'acc-gone']);
  const names = dialog.getAllByRole('button').map((button) => button.textContent);
  expect(names).toEqual(['ada · Acme', 'ada.l · org-2', 'acc-gone', 'Cancel']);
  expect(document.activeElement?.textContent).toBe('ada · Acme');
});

test('the account on show, chosen, opens the task there without a switch and says so', async () => {
  const user = userEvent.setup();
  const dialog = askFor('t-7', ['acc-club', 'acc-work']);
  await user.click(dialog.getByRole('button', { name: 'ada · Acme' }));

  expect(bridge.callsOf('accounts:switch')).toEqual([]);
  expect(useView.getState().openTaskId).toBe('t-7');
  expect(useView.getState().announcement).toBe('Opened the task from a link.');
  expect(screen.queryByTestId('link-account-chooser')).toBeNull();
});

test('another account whose switch is refused: the task is not opened on the account on show', async () => {
  const user = userEvent.setup();
  bridge.refuse('accounts:switch', 'signed-out', 'The account is signed out.');
  const dialog = askFor('t-7', ['acc-work', 'acc-club']);
  await user.click(dialog.getByRole('button', { name: 'ada.l · org-2' }));

  await act(() => Promise.resolve());
  expect(bridge.callsOf('accounts:switch')).toEqual([{ account_id: 'acc-club' }]);
  expect(useSession.getState().current?.account_id).toBe('acc-work');
  expect(useView.getState().openTaskId).toBeNull();
});

test('Cancel closes the question and opens nothing', async () => {
  const user = userEvent.setup();
  const dialog = askFor('t-7', ['acc-work', 'acc-club']);
  await user.click(dialog.getByRole('button', { name: 'Cancel' }));

  expect(screen.queryByTestId('link-account-chooser')).toBeNull();
  expect(useView.getState().openTaskId).toBeNull();
  expect(bridge.calls).toEqual([]);
});
