// @vitest-environment happy-dom
// The keyboard shortcuts as a person presses them: Ctrl/Cmd+K anywhere, the
// single keys only when not typing in a field; 1–4 set the selected task's
// status through main, G then a letter moves between screens, C creates, ?
// lists the shortcuts, and Escape closes what is on top first.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskDetail } from '../testing/screen-fixtures';
import { ShortcutsPage } from './testing/shortcuts-page';

const bridge = fakeBridgeEachTest();

function Page() {
  return (
    <ShortcutsPage>
      <label>
        Done <input type="checkbox" />
      </label>
    </ShortcutsPage>
  );
}

describe('global shortcuts', () => {
  test('Ctrl+K opens and closes the palette, even while typing in a field', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.click(screen.getByLabelText('Notes'));
    await user.keyboard('{Control>}k{/Control}');
    expect(useView.getState().paletteOpen).toBe(true);
    await user.keyboard('{Control>}k{/Control}');
    expect(useView.getState().paletteOpen).toBe(false);
  });

  test('a digit sets the status of the selected task through main and says so', async () => {
    const user = userEvent.setup();
    bridge.answer('task:edit', ({ task_id, patch }) =>
      taskDetail({ task_id, title: 'Fix the footer', status: patch.status ?? 'not_started' }),
    );
    useView.setState({ selectedTaskId: 't-1' });
    render(<Page />);
    await user.keyboard('2');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { status: 'in_progress' } }]);
    await vi.waitFor(() =>
      expect(useView.getState().announcement).toBe('Status of “Fix the footer” set to In progress.'),
    );

    // The task open in the editor comes before the list's selected row; completing
    // reads it first (open sub-tasks would be asked about), this one has none.
    bridge.answer('task:get', ({ task_id }) => taskDetail({ task_id, title: 'Fix the footer' }));
    act(() => useView.setState({ openTaskId: 't-open' }));
    await user.keyboard('4');
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit').at(-1)).toEqual({
        task_id: 't-open',
        patch: { status: 'completed' },
      }),
    );
  });

  test('a digit pressed while completing is read is sent after it: the last key pressed wins', async () => {
    const user = userEvent.setup();
    let answerGet: () => void = () => undefined;
    bridge.answer(
      'task:get',
      ({ task_id }) =>
        new Promise((resolve) => {
          answerGet = () => resolve(taskDetail({ task_id, title: 'Fix the footer' }));
        }),
    );
    bridge.answer('task:edit', ({ task_id, patch }) =>
      taskDetail({ task_id, title: 'Fix the footer', status: patch.status ?? 'not_started' }),
    );
    useView.setState({ selectedTaskId: 't-1' });
    render(<Page />);
    await user.keyboard('4');
    await user.keyboard('3');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    await act(() => {
      answerGet();
      return Promise.resolve();
    });
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit').map((call) => call.patch.status)).toEqual(['completed', 'blocked']),
    );
  });

  test('with no task selected a digit changes nothing and says why', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.keyboard('3');
    expect(bridge.calls).toEqual([]);
    expect(useView.getState().announcement).toBe('No task selected.');
  });

  test('single keys typed in a text field are the text, not shortcuts; a checkbox does not take them', async () => {
    const user = userEvent.setup();
    useView.setState({ selectedTaskId: 't-1' });
    render(<Page />);
    await user.click(screen.getByLabelText('Notes'));
    await user.keyboard('2c?');
    expect(bridge.calls).toEqual([]);
    expect(useView.getState()).toMatchObject({ creating: false, shortcutsOpen: false });

    await user.click(screen.getByLabelText('Done'));
    await user.keyboard('c');
    expect(useView.getState().creating).toBe(true);
  });

  test('G then a letter moves between screens; the letter alone does not', async () => {
    const user = userEvent.setup();
    render(<Page />);
    await user.keyboard('o');
    expect(useView.getState().view).toEqual({ kind: 'list', scope: { kind: 'my-tasks' } });
    await user.keyboard('go');
    expect(useView.getState().view).toEqual({ kind: 'goals', goalId: null });
    await user.keyboard('ga');
    expect(useView.getState().view).toEqual({ kind: 'list', scope: { kind: 'all' } });
  });

  test('Escape closes the shortcuts list first, then the open task', async () => {
    const user = userEvent.setup();
    useView.setState({ openTaskId: 't-1' });
    render(<Page />);
    await user.keyboard('?');
    expect(useView.getState().shortcutsOpen).toBe(true);
    await user.keyboard('{Escape}');
    expect(useView.getState()).toMatchObject({ shortcutsOpen: false, openTaskId: 't-1' });
    await user.keyboard('{Escape}');
    expect(useView.getState().openTaskId).toBeNull();
  });

  test('while the palette is up, the single keys are left to it', async () => {
    const user = userEvent.setup();
    useView.setState({ paletteOpen: true, selectedTaskId: 't-1' });
    render(<Page />);
    await user.keyboard('2c');
    expect(bridge.calls).toEqual([]);
    expect(useView.getState().creating).toBe(false);
  });
});
