// @vitest-environment happy-dom
// The inbox from the keyboard: J/K move, Enter opens the task and marks it
// read, E marks the active entry read, Shift+E marks all read; unread only.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Inbox, InboxEntry } from '../../../ipc/inbox-schemas';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { InboxView } from './inbox-view';

const bridge = fakeBridgeEachTest();

const entry = (id: number, fields: Partial<InboxEntry>): InboxEntry => ({
  id,
  kind: 'task-assigned',
  task_id: `tsk_${id}`,
  title: `Task ${id}`,
  by: 'grace',
  detail: {},
  created_at: '2026-11-29T10:00:00.000Z',
  read: false,
  ...fields,
});

/** Main as the inbox handlers answer: entries, newest first, marked read by id or all at once. */
function serveInbox(entries: InboxEntry[]) {
  let held = entries;
  bridge.answer('inbox:list', (): Inbox => ({ entries: held, unread: held.filter((e) => !e.read).length }));
  bridge.answer('inbox:mark-read', ({ ids }) => {
    held = held.map((e) => (ids === undefined || ids.includes(e.id) ? { ...e, read: true } : e));
    return null;
  });
}

const options = () => within(screen.getByRole('listbox', { name: 'Inbox' })).getAllByRole('option');
const selected = () => options().find((o) => o.getAttribute('aria-selected') === 'true');

describe('InboxView', () => {
  test('J/K move, Enter opens the task and marks it read, E marks read, Shift+E marks all read', async () => {
    const user = userEvent.setup();
    serveInbox([
      entry(3, { kind: 'task-mentioned', title: 'Ship it', detail: { excerpt: '@ada look' } }),
      entry(2, { kind: 'task-status-changed', detail: { from: 'in_progress', to: 'completed' } }),
      entry(1, { kind: 'task-conflict', detail: { conflict: 'edited', fields: ['title'] }, read: true }),
    ]);
    render(<InboxView />);
    expect(await screen.findByText('2 unread')).toBeTruthy();
    expect(screen.getByText('Your edit met another change of title')).toBeTruthy();
    expect(screen.getByText('grace mentioned you: @ada look')).toBeTruthy();
    expect(screen.getByText('In progress → Done by grace')).toBeTruthy();

    screen.getByRole('listbox', { name: 'Inbox' }).focus();
    expect(selected()?.textContent).toContain('Ship it');
    await user.keyboard('j');
    expect(selected()?.textContent).toContain('Task 2');
    await user.keyboard('{ArrowDown}');
    expect(selected()?.textContent).toContain('Task 1');
    await user.keyboard('k');
    await user.keyboard('k');
    await user.keyboard('{Enter}');
    expect(useView.getState().openTaskId).toBe('tsk_3');
    expect(bridge.callsOf('inbox:mark-read')).toEqual([{ ids: [3] }]);
    expect(await screen.findByText('1 unread')).toBeTruthy();

    await user.keyboard('j');
    await user.keyboard('e');
    expect(bridge.callsOf('inbox:mark-read').at(-1)).toEqual({ ids: [2] });
    expect(await screen.findByText('0 unread')).toBeTruthy();

    // An entry already read is not sent again.
    await user.keyboard('j');
    await user.keyboard('e');
    expect(bridge.callsOf('inbox:mark-read')).toHaveLength(2);
  });

  test('Shift+E marks every entry read; Unread shows only what is unread', async () => {
    const user = userEvent.setup();
    serveInbox([entry(2, {}), entry(1, { read: true })]);
    render(<InboxView />);
    expect(await screen.findByText('1 unread')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Unread' }));
    expect(options().map((o) => o.textContent)).toEqual([expect.stringContaining('Task 2')]);
    screen.getByRole('listbox', { name: 'Inbox' }).focus();
    await user.keyboard('E');
    expect(bridge.callsOf('inbox:mark-read')).toEqual([{}]);
    expect(await screen.findByText('Nothing unread.')).toBeTruthy();
  });
});
