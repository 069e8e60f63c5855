// @vitest-environment happy-dom
// The pending-changes inspector as a person uses it: every change not yet
// saved on the server, in words, with its state and the server's answer to a
// refused one; and what can be done about each, sent to main as the outbox
// call it is: retry now, edit and retry, send a refused create without the
// references it was refused for, rename a new sprint whose name is taken, and
// discard (asked first). A call main refuses is said in words, in place.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test } from 'vitest';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { changeStateWords } from '../../../protocol/change-state-words';
import { openPendingChanges, useTrust } from '../store/trust-store';
import { useView } from '../store/view-store';
import { confirmAfterCancel } from '../testing/asked-first';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { pendingChange, serverAnswer } from '../testing/screen-fixtures';
import { PendingChangesInspector } from './pending-changes-inspector';

const bridge = fakeBridgeEachTest();

beforeEach(() => useTrust.setState({ inspectorOpen: false, conflict: null }));

const queued = pendingChange({
  op_id: 'op-queued',
  task_id: 't-1',
  task_title: 'Fix login',
  changes: [{ field: 'status', before: 'not_started', after: 'in_progress' }],
});
const refused = pendingChange({
  op_id: 'op-refused',
  task_id: 't-2',
  task_title: 'Write docs',
  state: 'failed',
  attempts: 2,
  changes: [{ field: 'title', before: 'Write docs', after: '' }],
  last_answer: serverAnswer(422, 'Invalid', {
    type: 'validation',
    errors: [{ field: 'title', message: 'must not be empty' }],
  }),
});
const sending = pendingChange({
  op_id: 'op-sending',
  task_id: 't-3',
  task_title: 'Ship it',
  state: 'sending',
});

async function showInspector(changes: PendingChange[]) {
  bridge.answer('outbox:list', () => ({ changes }));
  act(() => openPendingChanges());
  render(<PendingChangesInspector />);
  return screen.findByRole('list', { name: 'Changes not yet saved on the server' });
}

function row(opId: string): HTMLElement {
  const item = document.querySelector<HTMLElement>(`[data-op-id="${opId}"]`);
  if (item === null) throw new Error(`no row for ${opId}`);
  return item;
}

describe('what it lists', () => {
  test('each change with its state, a refused one with the server’s answer in words, and the count', async () => {
    const list = await showInspector([queued, refused, sending]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(row('op-queued').textContent).toContain(changeStateWords('queued').label);
    expect(row('op-refused').textContent).toContain(changeStateWords('failed').label);
    expect(row('op-refused').textContent).toContain('Refused by the server (422): Title: must not be empty.');
    expect(row('op-refused').textContent).toContain('2 attempts');
    expect(screen.getByRole('dialog').textContent).toContain('3 changes waiting');
  });

  test('nothing waiting says all is saved', async () => {
    bridge.answer('outbox:list', () => ({ changes: [] }));
    act(() => openPendingChanges());
    render(<PendingChangesInspector />);
    await screen.findByText('All changes are saved on the server.');
  });

  test('a change being sent offers neither retry nor discard', async () => {
    await showInspector([sending]);
    expect(within(row('op-sending')).queryByRole('button', { name: 'Retry now' })).toBeNull();
    expect(within(row('op-sending')).queryByRole('button', { name: 'Discard…' })).toBeNull();
  });
});

describe('what can be done', () => {
  test('Retry now sends a refused change again; on a queued one it syncs now', async () => {
    const user = userEvent.setup();
    bridge.answer('outbox:retry', () => refused);
    bridge.answer('sync:now', () => null);
    await showInspector([queued, refused]);
    await user.click(within(row('op-refused')).getByRole('button', { name: 'Retry now' }));
    expect(bridge.callsOf('outbox:retry')).toEqual([{ op_id: 'op-refused' }]);
    expect(useView.getState().announcement).toBe('Sending again.');

    await user.click(within(row('op-queued')).getByRole('button', { name: 'Retry now' }));
    expect(bridge.callsOf('sync:now')).toHaveLength(1);
    expect(bridge.callsOf('outbox:retry')).toHaveLength(1);
  });

  test('Discard asks first: Keep it sends nothing, Discard discards that change', async () => {
    const user = userEvent.setup();
    bridge.answer('outbox:discard', () => null);
    await showInspector([queued, refused]);
    await confirmAfterCancel(user, bridge, {
      open: () => within(row('op-refused')).getByRole('button', { name: 'Discard…' }),
      question: 'Discard this change?',
      says: 'goes back to the server’s values',
      cancel: 'Keep it',
      confirm: 'Discard',
      channel: 'outbox:discard',
    });
    expect(bridge.callsOf('outbox:discard')).toEqual([{ op_id: 'op-refused' }]);
    expect(useView.getState().announcement).toBe('Change discarded.');
  });

  test('Edit opens the refused values to fix, and Save and retry sends the fixed ones', async () => {
    const user = userEvent.setup();
    bridge.answer('outbox:retry', () => refused);
    await showInspector([refused]);
    expect(within(row('op-refused')).queryByRole('button', { name: 'Edit' })).not.toBeNull();
    await user.click(within(row('op-refused')).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit the change' });
    const title = within(form).getByLabelText(/Title/);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(form.textContent).toContain('must not be empty');
    await user.type(title, 'Write the docs');
    await user.click(within(form).getByRole('button', { name: 'Save and retry' }));
    expect(bridge.callsOf('outbox:retry')).toEqual([
      { op_id: 'op-refused', patch: { title: 'Write the docs' } },
    ]);
    expect(useView.getState().announcement).toBe('Change edited and sent again.');
  });

  test('a new task refused for a section it may not use is sent again without it', async () => {
    const user = userEvent.setup();
    const create = pendingChange({
      op_id: 'op-create',
      task_id: 'local-t9',
      task_title: 'Plan the launch',
      kind: 'create',
      state: 'failed',
      attempts: 1,
      changes: [
        { field: 'title', before: null, after: 'Plan the launch' },
        { field: 'section_id', before: null, after: 's-private' },
      ],
      last_answer: serverAnswer(422, 'Invalid', {
        type: 'validation',
        errors: [{ field: 'section_id', message: 'not a section you can use' }],
      }),
    });
    bridge.answer('outbox:retry', () => create);
    await showInspector([create]);
    await user.click(within(row('op-create')).getByRole('button', { name: 'Send without section' }));
    expect(bridge.callsOf('outbox:retry')).toEqual([{ op_id: 'op-create', patch: { section_id: null } }]);
  });

  test('a new sprint whose name is taken (409) is renamed in place and sent again; the same name is refused first', async () => {
    const user = userEvent.setup();
    const taken = pendingChange({
      op_id: 'op-sprint',
      entity_type: 'sprint',
      entity_id: 'local-sp1',
      entity_name: 'Sprint 12',
      kind: 'create',
      state: 'failed',
      attempts: 1,
      changes: [{ field: 'name', before: null, after: 'Sprint 12' }],
      last_answer: serverAnswer(409, "Sprint 'Sprint 12' already exists."),
    });
    bridge.answer('outbox:retry', () => taken);
    await showInspector([taken]);
    const form = within(row('op-sprint')).getByRole('form', { name: 'Rename and retry' });
    const name = within(form).getByLabelText<HTMLInputElement>('New name');
    expect(name.value).toBe('Sprint 12');
    await user.click(within(form).getByRole('button', { name: 'Rename and retry' }));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(form.textContent).toContain('Choose a name no active sprint of the team has.');
    expect(bridge.callsOf('outbox:retry')).toEqual([]);

    await user.clear(name);
    await user.type(name, 'Sprint 12b');
    await user.click(within(form).getByRole('button', { name: 'Rename and retry' }));
    expect(bridge.callsOf('outbox:retry')).toEqual([{ op_id: 'op-sprint', patch: { name: 'Sprint 12b' } }]);
    expect(useView.getState().announcement).toBe('Renamed to ‘Sprint 12b’ and sent again.');
  });

  test('a retry main refuses is said in words, and the change stays listed', async () => {
    const user = userEvent.setup();
    bridge.refuse('outbox:retry', 'validation', 'title: must not be empty');
    await showInspector([refused]);
    await user.click(within(row('op-refused')).getByRole('button', { name: 'Retry now' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Retrying: That value was not accepted (title: must not be empty)',
    );
    expect(row('op-refused')).not.toBeNull();
  });
});
