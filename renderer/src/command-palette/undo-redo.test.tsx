// @vitest-environment happy-dom
// Undo and redo as a person reaches for them: Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z
// (Ctrl+Y) outside text fields, and the toast offered after a one-key change
// whose Undo asks main and says what it did; a sent delete's undo says that it
// re-creates the task.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { ShortcutsPage } from './testing/shortcuts-page';
import { useView } from '../store/view-store';
import { offerUndo } from '../store/undo-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskDetail } from '../testing/screen-fixtures';
import { UndoToast } from '../ui/undo-toast';

const bridge = fakeBridgeEachTest();

function Page() {
  return (
    <ShortcutsPage>
      <UndoToast />
    </ShortcutsPage>
  );
}

const labels = { undo: 'Undo status change', redo: null };

function answerUndo(): void {
  bridge.answer('undo:labels', () => labels);
  bridge.answer('undo:undo', () => ({
    done: 'Undo status change',
    labels: { undo: null, redo: 'Redo status change' },
    batch: null,
  }));
  bridge.answer('undo:redo', () => ({ done: 'Redo status change', labels, batch: null }));
}

describe('undo and redo', () => {
  test('Ctrl+Z undoes and Shift+Ctrl+Z and Ctrl+Y redo through main, saying what was done', async () => {
    const user = userEvent.setup();
    answerUndo();
    render(<Page />);

    await user.keyboard('{Control>}z{/Control}');
    expect(bridge.callsOf('undo:undo')).toHaveLength(1);
    await vi.waitFor(() => expect(useView.getState().announcement).toBe('Undo status change: done.'));

    await user.keyboard('{Shift>}{Control>}z{/Control}{/Shift}');
    await user.keyboard('{Control>}y{/Control}');
    expect(bridge.callsOf('undo:redo')).toHaveLength(2);
    await user.keyboard('{Meta>}z{/Meta}');
    expect(bridge.callsOf('undo:undo')).toHaveLength(2);
  });

  test('in a text field Ctrl+Z is the field’s own', async () => {
    const user = userEvent.setup();
    answerUndo();
    render(<Page />);
    await user.click(screen.getByLabelText('Notes'));
    await user.keyboard('{Control>}z{/Control}{Control>}y{/Control}');
    expect(bridge.callsOf('undo:undo')).toEqual([]);
    expect(bridge.callsOf('undo:redo')).toEqual([]);
  });

  test('a status set with a key offers Undo in a toast; pressing it undoes and the toast goes', async () => {
    const user = userEvent.setup();
    answerUndo();
    bridge.answer('task:edit', ({ task_id, patch }) =>
      taskDetail({ task_id, title: 'Fix the footer', status: patch.status ?? 'not_started' }),
    );
    useView.setState({ selectedTaskId: 't-1' });
    render(<Page />);

    await user.keyboard('3');
    const toast = await screen.findByTestId('undo-toast');
    expect(toast.textContent).toContain('Status of “Fix the footer” set to Blocked.');
    await user.click(screen.getByRole('button', { name: 'Undo' }));

    expect(bridge.callsOf('undo:undo')).toHaveLength(1);
    expect(screen.queryByTestId('undo-toast')).toBeNull();
  });

  test('the undo of a sent delete says in the toast that it re-creates the task', async () => {
    bridge.answer('undo:labels', () => ({
      undo: 'Undo delete: re-creates the task with a new id',
      redo: null,
    }));
    render(<Page />);
    await offerUndo('Deleted 1 task.');
    expect(
      await screen.findByRole('button', { name: 'Undo delete: re-creates the task with a new id' }),
    ).toBeDefined();
  });
});
