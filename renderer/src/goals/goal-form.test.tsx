// @vitest-environment happy-dom
// The goal form (the dated-item form a milestone shares) as a person uses it:
// what it sends main for what was typed, which project the goal goes in, a
// refusal told with the typed values kept, and the submit held while it cannot be sent.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { useSession } from '../store/session-store';
import { bridgeError, fakeBridgeEachTest } from '../testing/fake-bridge';
import { GoalForm } from './goal-form';

const bridge = fakeBridgeEachTest();

const projects = [
  { project_id: 'p-web', name: 'Website' },
  { project_id: 'p-app', name: 'App' },
];

describe('GoalForm, creating', () => {
  test('sends the typed goal in the chosen project, trimmed, without the fields left empty', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => ({ id: 'local-g1', op_id: 'op-1' }));
    const onDone = vi.fn();
    render(<GoalForm mode="create" projects={projects} projectId="p-web" onDone={onDone} />);
    expect(screen.getByLabelText<HTMLSelectElement>('Project').value).toBe('p-web');

    await user.selectOptions(screen.getByLabelText('Project'), 'App');
    await user.type(screen.getByLabelText('Name'), '  Faster start  ');
    await user.type(screen.getByLabelText('Target date'), '2030-06-30');
    await user.click(screen.getByRole('button', { name: 'Create goal' }));

    expect(bridge.callsOf('collection:create')).toEqual([
      { kind: 'goal', parent_id: 'p-app', fields: { name: 'Faster start', target_date: '2030-06-30' } },
    ]);
    expect(onDone).toHaveBeenCalledWith({ id: 'local-g1', name: 'Faster start' });
  });

  test('while main has not answered, the submit is off and a second Enter sends nothing more', async () => {
    const user = userEvent.setup();
    let answer: (queued: { id: string; op_id: string | null }) => void = () => undefined;
    bridge.answer('collection:create', () => new Promise((resolve) => (answer = resolve)));
    const onDone = vi.fn();
    render(<GoalForm mode="create" projects={projects} projectId="p-web" onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), 'Launch{Enter}');
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Create goal' });
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Name'), '{Enter}');
    expect(bridge.callsOf('collection:create')).toHaveLength(1);

    await act(async () => {
      answer({ id: 'local-g2', op_id: null });
      await Promise.resolve();
    });
    expect(onDone).toHaveBeenCalledWith({ id: 'local-g2', name: 'Launch' });
  });

  test('the submit waits for a name that is more than spaces', async () => {
    const user = userEvent.setup();
    render(<GoalForm mode="create" projects={projects} projectId={null} onDone={vi.fn()} />);
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Create goal' });
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Name'), '   ');
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Name'), 'x');
    expect(submit.disabled).toBe(false);
  });

  test('with no project to put it in, the goal cannot be created', async () => {
    const user = userEvent.setup();
    render(<GoalForm mode="create" projects={[]} projectId={null} onDone={vi.fn()} />);
    await user.type(screen.getByLabelText('Name'), 'Orphan');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Create goal' }).disabled).toBe(true);
    await user.type(screen.getByLabelText('Name'), '{Enter}');
    expect(bridge.calls).toEqual([]);
  });

  test("main's refusal is told in the form and what was typed stays; another failure is the app's notice", async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => {
      throw bridgeError('validation', 'The target date is not a date the service takes.');
    });
    const onDone = vi.fn();
    render(<GoalForm mode="create" projects={projects} projectId="p-web" onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), 'Launch');
    await user.type(screen.getByLabelText('Description'), 'All of it');
    await user.click(screen.getByRole('button', { name: 'Create goal' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The target date is not a date the service takes.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Launch');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toBe('All of it');
    expect(onDone).not.toHaveBeenCalled();
    expect(useSession.getState().notice).toBeNull();

    bridge.answer('collection:create', () => {
      throw bridgeError('storage', 'disk full');
    });
    await user.click(screen.getByRole('button', { name: 'Create goal' }));
    await vi.waitFor(() =>
      expect(useSession.getState().notice).toMatchObject({ type: 'storage', context: 'Creating the goal' }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('Escape leaves the form and goes no further', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    const outside = vi.fn();
    render(
      <div onKeyDown={outside}>
        <GoalForm mode="create" projects={projects} projectId="p-web" onDone={onDone} />
      </div>,
    );
    await user.type(screen.getByLabelText('Name'), 'Half typed{Escape}');
    expect(onDone).toHaveBeenCalledWith(null);
    expect(outside.mock.calls.some(([event]) => (event as KeyboardEvent).key === 'Escape')).toBe(false);
    expect(bridge.calls).toEqual([]);
  });
});

describe('GoalForm, editing', () => {
  const initial = { name: 'Launch', description: 'The whole thing', target_date: '2030-01-31' };

  test('sends only the changed fields, an emptied description as none', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:edit', () => ({ id: 'g-1', op_id: 'op-2' }));
    const onDone = vi.fn();
    render(<GoalForm mode="edit" goalId="g-1" initial={initial} onDone={onDone} />);
    expect(screen.queryByLabelText('Project')).toBeNull();

    await user.clear(screen.getByLabelText('Description'));
    await user.click(screen.getByRole('button', { name: 'Save goal' }));

    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'goal', id: 'g-1', patch: { description: null } },
    ]);
    expect(onDone).toHaveBeenCalledOnce();
  });

  test('saved unchanged, nothing is sent', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    render(<GoalForm mode="edit" goalId="g-1" initial={initial} onDone={onDone} />);
    await user.click(screen.getByRole('button', { name: 'Save goal' }));
    expect(bridge.calls).toEqual([]);
    expect(onDone).toHaveBeenCalledOnce();
  });
});
