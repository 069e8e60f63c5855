// @vitest-environment happy-dom
// The inbox from the keyboard: J/K move, Enter opens the task and marks it
// read, E marks the active entry read, Shift+E marks all read; unread only.
// A conflict or refusal of a record other than a task says which and opens
// the screen that shows it.
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
  entity_type: 'task',
  entity_id: `tsk_${id}`,
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

  test("a conflict or refusal of a section, sprint, goal, milestone or view says so and opens the record's screen", async () => {
    const user = userEvent.setup();
    const conflict = { conflict: 'edited', fields: ['name'] };
    serveInbox([
      entry(6, {
        kind: 'section-conflict',
        entity_type: 'section',
        entity_id: 'sec_1',
        title: 'Later',
        detail: { ...conflict, scope_type: 'team', scope_id: 'team_1' },
      }),
      entry(5, {
        kind: 'sprint-refused',
        entity_type: 'sprint',
        entity_id: 'spr_1',
        detail: { message: 'Ends too soon' },
      }),
      entry(4, {
        kind: 'goal-conflict',
        entity_type: 'goal',
        entity_id: 'goal_1',
        detail: { conflict: 'deleted-remotely' },
      }),
      entry(3, {
        kind: 'milestone-conflict',
        entity_type: 'milestone',
        entity_id: 'ms_1',
        detail: { ...conflict, project_id: 'prj_1' },
      }),
      entry(2, { kind: 'view-refused', entity_type: 'view', entity_id: 'view_1', detail: {} }),
    ]);
    render(<InboxView />);
    expect(await screen.findByText('Your edit of the section met another change of name')).toBeTruthy();
    expect(screen.getByText('Your change of the sprint was refused: Ends too soon')).toBeTruthy();
    expect(screen.getByText('Your edit met the goal deleted on the server')).toBeTruthy();
    expect(screen.getByText('Your change of the view was refused')).toBeTruthy();

    const list = screen.getByRole('listbox', { name: 'Inbox' });
    const opened = [];
    list.focus();
    for (let i = 0; i < 5; i++) {
      await user.keyboard('{Enter}');
      opened.push(useView.getState().view);
      await user.keyboard('j');
    }
    expect(opened).toEqual([
      { kind: 'board', scopeType: 'team', scopeId: 'team_1' },
      { kind: 'sprint', sprintId: 'spr_1' },
      { kind: 'goals', goalId: 'goal_1' },
      { kind: 'milestones', projectId: 'prj_1' },
      { kind: 'saved-view', viewId: 'view_1' },
    ]);
    expect(useView.getState().openTaskId).toBeNull();
  });
});
