// @vitest-environment happy-dom
// The sprint dialog as a person uses it: what it sends main for what was
// typed, the slips it tells beside their field before sending anything, and a
// refusal from the call shown beside the field it names with the typed values kept.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { bridgeError, fakeBridgeEachTest } from '../testing/fake-bridge';
import { sprintSummary } from '../testing/screen-fixtures';
import { useView } from '../store/view-store';
import { localDay } from './sprint-draft';
import { SprintFormDialog } from './sprint-form';

const bridge = fakeBridgeEachTest();

function openCreate() {
  const onClose = vi.fn();
  render(
    <SprintFormDialog
      target={{ mode: 'create', teamId: 'team-1', teamName: 'Platform' }}
      onClose={onClose}
    />,
  );
  return onClose;
}

describe('SprintFormDialog, creating', () => {
  test('sends the typed name, today as the start and the length in weeks, then shows the new sprint', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => ({ id: 'local-s1', op_id: 'op-1' }));
    const onClose = openCreate();
    expect(screen.getByRole('heading', { name: 'New sprint in Platform' })).toBeTruthy();

    await user.type(screen.getByLabelText('Name'), '  Sprint 12 ');
    const weeks = screen.getByLabelText('Length in weeks');
    await user.clear(weeks);
    await user.type(weeks, '3');
    await user.type(screen.getByLabelText(/^Goal/), 'Ship the board');
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));

    expect(bridge.callsOf('collection:create')).toEqual([
      {
        kind: 'sprint',
        parent_id: 'team-1',
        fields: { name: 'Sprint 12', start_date: localDay(), duration_weeks: 3, goal: 'Ship the board' },
      },
    ]);
    expect(onClose).toHaveBeenCalledOnce();
    expect(useView.getState().view).toEqual({ kind: 'sprint', sprintId: 'local-s1' });
    expect(useView.getState().announcement).toContain('Sprint ‘Sprint 12’ created');
  });

  test('an end date replaces the weeks: the create carries one or the other, never both', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => ({ id: 'local-s2', op_id: 'op-2' }));
    openCreate();
    const endDate = screen.getByLabelText<HTMLInputElement>('End date');
    expect(endDate.disabled).toBe(true);

    await user.type(screen.getByLabelText('Name'), 'Sprint 13');
    await user.clear(screen.getByLabelText('Starts'));
    await user.type(screen.getByLabelText('Starts'), '2030-01-07');
    await user.click(screen.getByRole('radio', { name: 'Ends on' }));
    expect(endDate.disabled).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Length in weeks').disabled).toBe(true);
    await user.type(endDate, '2030-01-20');
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));

    expect(bridge.callsOf('collection:create')[0]?.fields).toEqual({
      name: 'Sprint 13',
      start_date: '2030-01-07',
      end_date: '2030-01-20',
    });
  });

  test('a missing name is told beside the name and nothing is sent', async () => {
    const user = userEvent.setup();
    const onClose = openCreate();
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));

    expect(screen.getByRole('alert').textContent).toBe('Give the sprint a name.');
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(bridge.calls).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();

    // Typing again takes the slip away.
    await user.type(name, 'S');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('an end before the start, or a length out of 1–52 weeks, is refused before sending', async () => {
    const user = userEvent.setup();
    openCreate();
    await user.type(screen.getByLabelText('Name'), 'Sprint 14');
    const weeks = screen.getByLabelText('Length in weeks');
    await user.clear(weeks);
    await user.type(weeks, '53');
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));
    expect(screen.getByRole('alert').textContent).toBe('A sprint lasts 1 to 52 whole weeks.');
    expect(weeks.getAttribute('aria-invalid')).toBe('true');

    await user.clear(screen.getByLabelText('Starts'));
    await user.type(screen.getByLabelText('Starts'), '2030-02-10');
    await user.click(screen.getByRole('radio', { name: 'Ends on' }));
    await user.type(screen.getByLabelText('End date'), '2030-02-01');
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));
    expect(screen.getByRole('alert').textContent).toBe('The sprint ends before it starts.');
    expect(screen.getByLabelText('End date').getAttribute('aria-invalid')).toBe('true');
    expect(bridge.calls).toEqual([]);
  });

  test("main's refusal of a field is told beside that field and the dialog keeps what was typed", async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => {
      throw bridgeError('validation', "cannot set 'goal': too long for the service");
    });
    const onClose = openCreate();
    await user.type(screen.getByLabelText('Name'), 'Sprint 15');
    await user.type(screen.getByLabelText(/^Goal/), 'Everything');
    await user.click(screen.getByRole('button', { name: 'Create sprint' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe("cannot set 'goal': too long for the service");
    expect(screen.getByLabelText(/^Goal/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Sprint 15');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create sprint' }).disabled).toBe(false);
  });
});

describe('SprintFormDialog, editing', () => {
  const sprint = sprintSummary({
    sprint_id: 'sprint-7',
    name: 'Sprint 7',
    start_date: '2030-03-04',
    end_date: '2030-03-17',
    goal: 'Old goal',
  });

  test('sends only what the person changed, an emptied goal as none', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:edit', () => ({ id: 'sprint-7', op_id: 'op-3' }));
    const onClose = vi.fn();
    render(<SprintFormDialog target={{ mode: 'edit', sprint, waitingWeeks: null }} onClose={onClose} />);
    expect(screen.getByRole('heading', { name: 'Edit Sprint 7' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Ends on' }).checked).toBe(true);

    await user.clear(screen.getByLabelText(/^Goal/));
    await user.click(screen.getByRole('button', { name: 'Save sprint' }));

    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'sprint', id: 'sprint-7', patch: { goal: null } },
    ]);
    expect(onClose).toHaveBeenCalledOnce();
  });

  test('saving with nothing changed sends nothing and closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<SprintFormDialog target={{ mode: 'edit', sprint, waitingWeeks: null }} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Save sprint' }));
    expect(bridge.calls).toEqual([]);
    expect(onClose).toHaveBeenCalledOnce();
  });
});
