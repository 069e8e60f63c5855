// @vitest-environment happy-dom
// The three-way conflict view as a person uses it: for each field changed
// here and on the server, the start, mine and theirs side by side, ids named;
// a choice per field (keep mine, take theirs, or a new value) sent to main as
// the resolve of that change; what merged cleanly listed; a refusal said in
// place. A task gone from the server is re-created with the edit (and
// opened) or the edit dropped.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test } from 'vitest';
import type { ConflictView } from '../../../ipc/outbox-schemas';
import { openConflictOf, useTrust } from '../store/trust-store';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { ConflictDialogHost } from './conflict-view';

const bridge = fakeBridgeEachTest();

beforeEach(() => useTrust.setState({ inspectorOpen: false, conflict: null }));

const edited: ConflictView = {
  op_id: 'op-7',
  task_id: 't-1',
  task_title: 'Fix login',
  names: { 's-1': 'To do', 's-2': 'Doing', 's-3': 'Review' },
  kind: 'edited',
  fields: [
    {
      conflict_id: 'c-title',
      field: 'title',
      base: 'Fix login',
      mine: 'Fix the login',
      theirs: 'Fix login now',
    },
    { conflict_id: 'c-section', field: 'section_id', base: 's-1', mine: 's-2', theirs: 's-3' },
  ],
  merged: [{ field: 'priority', how: 'rebased', value: 'high' }],
  gone: null,
};

async function showConflict(view: ConflictView | null) {
  bridge.answer('conflicts:get', () => view);
  act(() => openConflictOf({ task_id: 't-1' }));
  render(<ConflictDialogHost />);
  return screen.findByRole('dialog');
}

describe('a task changed here and on the server', () => {
  test('shows the three versions of each field, ids by name, and what merged by itself', async () => {
    const dialog = await showConflict(edited);
    await within(dialog).findByText('Resolve the conflict');
    const section = within(dialog).getByRole('group', { name: 'Section: the three versions' });
    expect(section.textContent).toBe('When you startedTo doYoursDoingTheirs (on the server)Review');
    const merged = within(dialog).getByRole('region', { name: 'Merged without a conflict' });
    expect(within(merged).getByRole('listitem').textContent).toBe(
      'Priority: High — yours, sent on top of theirs',
    );
  });

  test('mine is kept unless chosen otherwise; theirs and a typed value are sent as chosen, and the view closes', async () => {
    const user = userEvent.setup();
    bridge.answer('conflicts:resolve', () => ({ task_id: 't-1' }));
    const dialog = await showConflict(edited);
    await within(dialog).findByText('Resolve the conflict');
    const title = within(dialog).getByRole('radiogroup', { name: 'Keep which title' });
    await user.click(within(title).getByLabelText('Type a new value'));
    const typed = within(dialog).getByRole('textbox', { name: 'New title' });
    // The new value starts from mine.
    expect((typed as HTMLInputElement).value).toBe('Fix the login');
    await user.clear(typed);
    await user.type(typed, 'Fix login on Safari');
    await user.click(within(dialog).getByRole('button', { name: 'Apply choices' }));

    expect(bridge.callsOf('conflicts:resolve')).toEqual([
      {
        op_id: 'op-7',
        choices: [
          { conflict_id: 'c-title', value: 'Fix login on Safari' },
          { conflict_id: 'c-section', take: 'mine' },
        ],
      },
    ]);
    expect(useTrust.getState().conflict).toBeNull();
    expect(useView.getState().announcement).toBe('Conflict resolved; your choices are being sent.');
  });

  test('take theirs sends theirs; a refusal is said in place and the choices stay', async () => {
    const user = userEvent.setup();
    bridge.refuse('conflicts:resolve', 'validation', 'title too long');
    const dialog = await showConflict(edited);
    await within(dialog).findByText('Resolve the conflict');
    const section = within(dialog).getByRole('radiogroup', { name: 'Keep which section' });
    await user.click(within(section).getByLabelText('Take theirs'));
    await user.click(within(dialog).getByRole('button', { name: 'Apply choices' }));

    expect(bridge.callsOf('conflicts:resolve')[0]?.choices).toEqual([
      { conflict_id: 'c-title', take: 'mine' },
      { conflict_id: 'c-section', take: 'theirs' },
    ]);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'That value was not accepted: title too long',
    );
    expect(useTrust.getState().conflict).not.toBeNull();
    expect(within(section).getByLabelText<HTMLInputElement>('Take theirs').checked).toBe(true);
  });

  test('Decide later closes it and sends nothing', async () => {
    const user = userEvent.setup();
    const dialog = await showConflict(edited);
    await user.click(await within(dialog).findByRole('button', { name: 'Decide later' }));
    expect(useTrust.getState().conflict).toBeNull();
    expect(bridge.callsOf('conflicts:resolve')).toEqual([]);
  });

  test('a task with no open conflict says there is nothing to resolve', async () => {
    const dialog = await showConflict(null);
    expect((await within(dialog).findByText(/Nothing to resolve/)).textContent).toBe(
      'Nothing to resolve: this task has no open conflict.',
    );
  });
});

describe('a task gone from the server', () => {
  const gone: ConflictView = {
    ...edited,
    kind: 'gone',
    fields: [],
    merged: [],
    gone: {
      conflict_id: 'c-gone',
      status: 404,
      draft: { title: 'Fix the login', section_id: 's-2' },
      task: { title: 'Fix login', status: 'in_progress' },
      left_out: ['Section ‘Doing’: it is no longer yours to use'],
    },
  };

  test('says why and shows the edit kept as a draft, with what re-creating leaves out', async () => {
    const dialog = await showConflict(gone);
    await within(dialog).findByText('Task no longer on the server');
    expect(dialog.textContent).toContain('This task was deleted on the server');
    const draft = within(dialog).getByRole('region', { name: 'Your edit' });
    expect(draft.textContent).toContain('SectionDoing');
    expect(within(dialog).getByRole('list', { name: 'Left out of the re-created task' }).textContent).toBe(
      'Section ‘Doing’: it is no longer yours to use',
    );
  });

  test('re-created with my edit, the new task is opened', async () => {
    const user = userEvent.setup();
    bridge.answer('conflicts:resolve', () => ({ task_id: 't-new' }));
    const dialog = await showConflict(gone);
    await user.click(await within(dialog).findByRole('button', { name: 'Re-create the task with my edit' }));
    expect(bridge.callsOf('conflicts:resolve')).toEqual([
      { op_id: 'op-7', choices: [{ conflict_id: 'c-gone', take: 'mine' }] },
    ]);
    expect(useView.getState().openTaskId).toBe('t-new');
    expect(useView.getState().announcement).toBe('The task is re-created with your edit.');
  });

  test('my edit dropped, the gone task is closed', async () => {
    const user = userEvent.setup();
    bridge.answer('conflicts:resolve', () => ({ task_id: null }));
    act(() => useView.setState({ openTaskId: 't-1' }));
    const dialog = await showConflict(gone);
    await user.click(await within(dialog).findByRole('button', { name: 'Drop my edit' }));
    expect(bridge.callsOf('conflicts:resolve')).toEqual([
      { op_id: 'op-7', choices: [{ conflict_id: 'c-gone', take: 'theirs' }] },
    ]);
    expect(useView.getState().openTaskId).toBeNull();
    expect(useView.getState().announcement).toBe('Your edit was dropped.');
  });
});
