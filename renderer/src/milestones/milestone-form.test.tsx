// @vitest-environment happy-dom
// The milestone form as a person uses it: a create in its project with the
// due date typed, an edit sending only what changed, and Cancel sending nothing.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { MilestoneForm } from './milestone-form';

const bridge = fakeBridgeEachTest();

describe('MilestoneForm', () => {
  test('creating sends the name, due date and description in the project', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => ({ id: 'local-m1', op_id: 'op-1' }));
    const onDone = vi.fn();
    render(<MilestoneForm mode="create" projectId="p-web" onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), 'Beta');
    await user.type(screen.getByLabelText('Due date'), '2030-04-01');
    await user.type(screen.getByLabelText('Description'), 'Open to testers');
    await user.click(screen.getByRole('button', { name: 'Create milestone' }));

    expect(bridge.callsOf('collection:create')).toEqual([
      {
        kind: 'milestone',
        parent_id: 'p-web',
        fields: { name: 'Beta', due_date: '2030-04-01', description: 'Open to testers' },
      },
    ]);
    expect(onDone).toHaveBeenCalledWith({ id: 'local-m1', name: 'Beta' });
  });

  test('editing sends the changed due date alone; a cleared date is none', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:edit', () => ({ id: 'm-1', op_id: 'op-2' }));
    const onDone = vi.fn();
    render(
      <MilestoneForm
        mode="edit"
        milestoneId="m-1"
        initial={{ name: 'Beta', description: null, due_date: '2030-04-01' }}
        onDone={onDone}
      />,
    );
    expect(screen.getByLabelText<HTMLInputElement>('Due date').value).toBe('2030-04-01');
    await user.clear(screen.getByLabelText('Due date'));
    await user.click(screen.getByRole('button', { name: 'Save milestone' }));

    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'milestone', id: 'm-1', patch: { due_date: null } },
    ]);
    expect(onDone).toHaveBeenCalledOnce();
  });

  test('Cancel closes the form and sends nothing', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    render(<MilestoneForm mode="create" projectId="p-web" onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), 'Beta');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDone).toHaveBeenCalledWith(null);
    expect(bridge.calls).toEqual([]);
  });
});
