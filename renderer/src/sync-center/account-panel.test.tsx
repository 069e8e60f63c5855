// @vitest-environment happy-dom
// The Sync screen's account panel names what the last sync left out (issue 27):
// items the server sent in a form the app cannot read were said only in the
// sync log and the headless command, so the person saw "Online" and nothing
// out of date.
import { render, screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import type { SyncStatus } from '../../../ipc/screen-schemas';
import type { SyncAccountView } from '../../../ipc/visibility-schemas';
import { useSession } from '../store/session-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { syncAccount, syncStatus } from '../testing/screen-fixtures';
import { AccountPanel } from './account-panel';

const bridge = fakeBridgeEachTest();

const account = syncAccount({
  account_id: 'acc_1',
  label: 'ada · Acme',
  last_synced_at: '2026-11-29T10:00:00.000Z',
});

function status(leftOut: SyncStatus['left_out']): SyncStatus {
  return syncStatus({ last_synced_at: '2026-11-29T10:00:00.000Z', left_out: leftOut });
}

function showPanel(accounts: SyncAccountView[], leftOut: SyncStatus['left_out']): void {
  bridge.answer('sync:accounts', () => ({ paused: false, accounts }));
  useSession.setState({ status: status(leftOut) });
  render(<AccountPanel />);
}

describe('the items the last sync left out', () => {
  test('are counted and named on the shown account, each with the reason in its tooltip', async () => {
    showPanel([account], {
      items: [
        { collection: 'tasks', id: 'tsk_9', field: 'status', reason: 'expected string, received object' },
        { collection: 'task_comments', id: null, field: 'comment_id', reason: 'expected string' },
        { collection: 'me', id: null, field: '(answer)', reason: 'me.get: the answer broke the contract' },
      ],
      more: 2,
    });
    const card = await screen.findByRole('region', { name: 'Account ada · Acme' });
    const leftOut = within(card).getByTestId('account-left-out');
    expect(leftOut.textContent).toContain('5 items left out of the last sync');
    expect(leftOut.textContent).toContain('Their previous copies are kept');
    const items = within(within(leftOut).getByRole('list', { name: 'Left out' })).getAllByRole('listitem');
    expect(items.map((item) => [item.textContent, item.getAttribute('title')])).toEqual([
      ['Tasks › tsk_9: status could not be read', 'expected string, received object'],
      ['Comments › an item without a readable id: comment_id could not be read', 'expected string'],
      [
        "Your profile › an item without a readable id: the server's answer could not be read",
        'me.get: the answer broke the contract',
      ],
    ]);
    expect(leftOut.textContent).toContain('and 2 more');
  });

  test('one item is said in the singular', async () => {
    showPanel([account], {
      items: [
        { collection: 'tasks', id: 'tsk_1', field: '(row)', reason: 'nests more than 100 levels deep' },
      ],
      more: 0,
    });
    const leftOut = await screen.findByTestId('account-left-out');
    expect(leftOut.textContent).toContain('1 item left out of the last sync');
    expect(leftOut.textContent).toContain('Its previous copy is kept');
    expect(within(leftOut).getByRole('listitem').textContent).toBe('Tasks › tsk_1: could not be read');
  });

  test('nothing is said when nothing was left out, nor on an account whose status is not the one shown', async () => {
    const other = { ...account, account_id: 'acc_2', label: 'grace · Acme', current: false };
    showPanel([account, other], { items: [], more: 0 });
    await screen.findByRole('region', { name: 'Account ada · Acme' });
    expect(screen.queryByTestId('account-left-out')).toBeNull();

    useSession.setState({
      status: {
        ...status({
          items: [{ collection: 'tasks', id: 'tsk_2', field: 'title', reason: 'too long' }],
          more: 0,
        }),
        account_id: 'acc_1',
      },
    });
    const shown = await screen.findByTestId('account-left-out');
    expect(screen.getAllByTestId('account-left-out')).toHaveLength(1);
    expect(
      within(screen.getByRole('region', { name: 'Account ada · Acme' })).getByTestId('account-left-out'),
    ).toBe(shown);
  });
});
