// @vitest-environment happy-dom
// "Save view" as a person uses it: a new view with the list's filters and sort
// under a name (shared when asked), a name the person already used said here
// and nothing sent, and saving into an existing view replacing its filters
// (the ones gone sent as null, so the merge-patch removes them).
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { ViewSummary } from '../../../ipc/view-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { SaveViewDialog } from './save-view-dialog';

const bridge = fakeBridgeEachTest();

const query = { filters: { status: ['blocked'], assignee: ['me'] }, sort_by: 'due_date', sort_order: 'desc' };

const mine: ViewSummary = {
  view_id: 'v-1',
  name: 'Blocked',
  visibility: 'private',
  layout: 'list',
  group_by: null,
  sort_by: 'title',
  sort_order: 'asc',
  filters: { status: ['in_progress'], tags: ['web'] },
  created_by: 'u1',
  unknown_filters: null,
};

describe('SaveViewDialog', () => {
  test("saves a new shared view with the list's filters and sort", async () => {
    const user = userEvent.setup();
    bridge.answer('collection:create', () => ({ id: 'local-v9', op_id: 'op-1' }));
    const onDone = vi.fn();
    render(<SaveViewDialog query={query} views={[]} onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), '  Mine, blocked ');
    await user.click(screen.getByLabelText('Share with the organization'));
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    expect(bridge.callsOf('collection:create')).toEqual([
      {
        kind: 'view',
        fields: {
          name: 'Mine, blocked',
          visibility: 'shared',
          filters: { status: ['blocked'], assignee: ['me'] },
          sort_by: 'due_date',
          sort_order: 'desc',
          layout: 'list',
        },
      },
    ]);
    expect(onDone).toHaveBeenCalledWith('local-v9');
  });

  test('a name one of your views has is said here, and nothing is sent', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    render(<SaveViewDialog query={query} views={[mine]} onDone={onDone} />);
    await user.type(screen.getByLabelText('Name'), 'Blocked');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    expect(screen.getByRole('alert').textContent).toMatch(/already have a view named ‘Blocked’/);
    expect(bridge.calls).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
  });

  test('saving into a view replaces its filters and sort; a filter it had and the list has not is removed', async () => {
    const user = userEvent.setup();
    bridge.answer('collection:edit', () => ({ id: 'v-1', op_id: 'op-2' }));
    const onDone = vi.fn();
    render(<SaveViewDialog query={query} views={[mine]} onDone={onDone} />);
    await user.selectOptions(screen.getByLabelText('Save as'), 'v-1');
    await user.click(screen.getByRole('button', { name: 'Save view' }));
    expect(bridge.callsOf('collection:edit')).toEqual([
      {
        kind: 'view',
        id: 'v-1',
        patch: {
          filters: { status: ['blocked'], assignee: ['me'], tags: null },
          sort_by: 'due_date',
          sort_order: 'desc',
        },
      },
    ]);
    expect(onDone).toHaveBeenCalledWith('v-1');
  });
});
