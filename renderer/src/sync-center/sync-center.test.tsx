// @vitest-environment happy-dom
// The sync screen as a person uses it. The account panel: each account's
// state and why, its waiting, refused, conflicting and read-only changes
// counted in the inspector's words, Sync now and Pause/Resume sent to main
// (Sync now not offered while paused or signed out). The sync log: searched,
// narrowed, older pages on demand, diagnostics copied. Notification settings:
// a change shown at once and sent, put back when main refuses it.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { SyncLogEntryView } from '../../../ipc/visibility-schemas';
import { changeStateWords } from '../../../protocol/change-state-words';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { syncAccount } from '../testing/screen-fixtures';
import { SyncCenter } from './sync-center';
import { type NotificationSettings, useSyncCenter } from './sync-center-store';

const bridge = fakeBridgeEachTest();

beforeEach(() => useSyncCenter.setState({ overview: null, settings: null }));

/** The value beside a fact's name in the account card (`<dt>` → `<dd>`). */
function fact(card: HTMLElement, name: string): string | null | undefined {
  const term = within(card)
    .getAllByRole('term')
    .find((dt) => dt.textContent === name);
  return term?.nextElementSibling?.textContent;
}

describe('the account panel', () => {
  test('counts the changes waiting, refused, in conflict and read-only, in the inspector’s words', async () => {
    bridge.answer('sync:accounts', () => ({
      paused: false,
      accounts: [syncAccount({ pending: 3, failed: 2, conflicts: 1, blocked: 4 })],
    }));
    render(<SyncCenter tab="status" />);
    const card = await screen.findByRole('region', { name: 'Account ada · Northwind' });
    expect(within(card).getByTestId('account-state').textContent).toBe('Online');
    expect(fact(card, changeStateWords('queued').label)).toBe('3 changes');
    expect(fact(card, changeStateWords('failed').label)).toBe('2');
    expect(fact(card, 'Conflicts')).toBe('1');
    expect(fact(card, changeStateWords('blocked').label)).toBe('4');
  });

  test('offline says why; signed out says to sign in again and offers no Sync now', async () => {
    bridge.answer('sync:accounts', () => ({
      paused: false,
      accounts: [
        syncAccount({
          connection: 'offline',
          problem: { kind: 'network', type: null, message: 'ECONNREFUSED', retry_at: null },
        }),
        syncAccount({ account_id: 'a-2', label: 'bob · Acme', current: false, state: 'signed-out' }),
      ],
    }));
    render(<SyncCenter tab="status" />);
    const ada = await screen.findByRole('region', { name: 'Account ada · Northwind' });
    expect(within(ada).getByTestId('account-state').textContent).toBe('Offline — server unreachable');
    const bob = screen.getByRole('region', { name: 'Account bob · Acme' });
    expect(within(bob).getByTestId('account-state').textContent).toBe('Signed out — sign in again to sync');
    // One account can still sync.
    expect(screen.getByRole('button', { name: 'Sync now' }).hasAttribute('disabled')).toBe(false);
  });

  test('Sync now asks main to sync; Pause pauses, reads the state again and offers Resume, with no Sync now', async () => {
    const user = userEvent.setup();
    let paused = false;
    bridge.answer('sync:accounts', () => ({ paused, accounts: [syncAccount()] }));
    bridge.answer('sync:now', () => null);
    bridge.answer('sync:pause', () => {
      paused = true;
      return { paused };
    });
    bridge.answer('sync:resume', () => {
      paused = false;
      return { paused };
    });
    render(<SyncCenter tab="status" />);
    await user.click(await screen.findByRole('button', { name: 'Sync now' }));
    expect(bridge.callsOf('sync:now')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Pause sync' }));
    await screen.findByRole('button', { name: 'Resume sync' });
    expect(bridge.callsOf('sync:pause')).toHaveLength(1);
    expect(screen.getByTestId('account-state').textContent).toBe(
      'Paused — no polling and no pushes until you resume',
    );
    expect(screen.getByRole('button', { name: 'Sync now' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Resume sync' }));
    await screen.findByRole('button', { name: 'Pause sync' });
    expect(bridge.callsOf('sync:resume')).toHaveLength(1);
  });

  test('a sync status event reads the account state again', async () => {
    let pending = 0;
    bridge.answer('sync:accounts', () => ({ paused: false, accounts: [syncAccount({ pending })] }));
    render(<SyncCenter tab="status" />);
    await screen.findByRole('region', { name: 'Account ada · Northwind' });
    pending = 5;
    // What the event says is not read: the panel asks main for the whole state again.
    act(() => bridge.emit('sync:status-changed', null as never));
    await vi.waitFor(() => expect(screen.getByTestId('account-pending').textContent).toBe('5 changes'));
  });

  test('the tabs go to the sync log', async () => {
    const user = userEvent.setup();
    bridge.answer('sync:accounts', () => ({ paused: false, accounts: [syncAccount()] }));
    render(<SyncCenter tab="status" />);
    expect(screen.getByRole('tab', { name: 'Status' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('tab', { name: 'Sync log' }));
    expect(useView.getState().view).toEqual({ kind: 'sync', tab: 'log' });
  });
});

function logEntry(id: number, message: string): SyncLogEntryView {
  return {
    id,
    at: '2026-11-29T10:00:00Z',
    level: 'info',
    kind: 'push',
    message,
    method: null,
    path: null,
    status: null,
    duration_ms: null,
    request_id: null,
    operation: null,
    detail: null,
  };
}

describe('the sync log', () => {
  const messages = () =>
    within(screen.getByRole('list', { name: 'Sync log, newest first' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.log-message')?.textContent);

  test('searched and narrowed, older entries on demand', async () => {
    const user = userEvent.setup();
    bridge.answer('sync-log:query', (query) =>
      query?.before_id === 2
        ? { account_id: 'a-1', entries: [logEntry(1, 'Sent status of t-1')], next_before_id: null }
        : query?.text === '412'
          ? { account_id: 'a-1', entries: [], next_before_id: null }
          : {
              account_id: 'a-1',
              entries: [logEntry(3, 'Pulled 4 tasks'), logEntry(2, 'Retry')],
              next_before_id: 2,
            },
    );
    render(<SyncCenter tab="log" />);
    await screen.findByRole('list', { name: 'Sync log, newest first' });
    expect(messages()).toEqual(['Pulled 4 tasks', 'Retry']);
    await user.click(screen.getByRole('button', { name: 'Show older entries' }));
    await vi.waitFor(() => expect(messages()).toEqual(['Pulled 4 tasks', 'Retry', 'Sent status of t-1']));
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();

    await user.selectOptions(screen.getByLabelText('Level'), 'Errors');
    await user.type(screen.getByLabelText('Search the sync log'), '412');
    await screen.findByText('Nothing in the log matches “412”.');
    expect(bridge.callsOf('sync-log:query').at(-1)).toEqual({ limit: 100, text: '412', levels: ['error'] });
  });

  test('Copy diagnostics says what was left out of the copy', async () => {
    const user = userEvent.setup();
    bridge.answer('sync-log:query', () => ({ account_id: 'a-1', entries: [], next_before_id: null }));
    bridge.answer('sync-log:copy-diagnostics', () => ({ text: 'report', copied: true }));
    render(<SyncCenter tab="log" />);
    await user.click(screen.getByRole('button', { name: 'Copy diagnostics' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Diagnostics copied: tokens, names and task text are left out.',
    );
  });
});

describe('notification settings', () => {
  const kinds = ['task-assigned', 'task-status-changed', 'task-commented', 'task-mentioned', 'task-conflict'];
  /** Notifications on for every kind, quiet hours off, and closing the window quits the app. */
  const settings: NotificationSettings = {
    enabled: true,
    kinds: Object.fromEntries(kinds.map((kind) => [kind, true])) as NotificationSettings['kinds'],
    quiet_hours: { enabled: false, start: '22:00', end: '07:00' },
    keep_running_in_tray: false,
  };
  const checkbox = (name: string) => screen.getByRole('checkbox', { name: new RegExp(`^${name}`) });

  test('a kind turned off is shown off and sent; with notifications off, no kind can be chosen', async () => {
    const user = userEvent.setup();
    bridge.answer('notification-settings:get', () => settings);
    // Main holds what it was sent and answers with all of it.
    let held = settings;
    bridge.answer('notification-settings:set', (patch) => {
      const kinds = { ...held.kinds };
      for (const [kind, on] of Object.entries(patch.kinds ?? {}))
        if (on !== undefined) kinds[kind as keyof typeof kinds] = on;
      held = { ...held, enabled: patch.enabled ?? held.enabled, kinds };
      return held;
    });
    render(<SyncCenter tab="notifications" />);
    await user.click(await screen.findByRole('checkbox', { name: /^A new comment on my task/ }));
    expect((checkbox('A new comment on my task') as HTMLInputElement).checked).toBe(false);
    expect(bridge.callsOf('notification-settings:set')).toEqual([{ kinds: { 'task-commented': false } }]);

    await user.click(checkbox('Show desktop notifications'));
    expect(checkbox('A task is assigned to me').hasAttribute('disabled')).toBe(true);
    expect(bridge.callsOf('notification-settings:set').at(-1)).toEqual({ enabled: false });
    expect((checkbox('A new comment on my task') as HTMLInputElement).checked).toBe(false);
  });

  test('a change main refuses is put back as main holds it, and said', async () => {
    const user = userEvent.setup();
    bridge.answer('notification-settings:get', () => settings);
    bridge.refuse('notification-settings:set', 'storage-full', 'disk full');
    render(<SyncCenter tab="notifications" />);
    await user.click(await screen.findByRole('checkbox', { name: /^Keep syncing in the tray/ }));
    await vi.waitFor(() =>
      expect((checkbox('Keep syncing in the tray') as HTMLInputElement).checked).toBe(false),
    );
    expect(bridge.callsOf('notification-settings:get')).toHaveLength(2);
    expect(useSession.getState().notice).toMatchObject({
      type: 'storage-full',
      context: 'Saving notification settings',
    });
  });
});
