// @vitest-environment happy-dom
// Completing a task from anywhere (the palette, the 4 key) asks first when
// some of its sub-tasks are open, naming how many; with none open it is done
// at once; cancelled, nothing is sent.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { setTaskStatus } from '../command-palette/commands';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskDetail } from '../testing/screen-fixtures';
import { CompletionQuestion } from './completion-question';

const bridge = fakeBridgeEachTest();

const sub = (task_id: string, status: string) => ({ task_id, title: task_id, status, pending: false });

function mainHolds(subTasks: ReturnType<typeof sub>[]) {
  const done = subTasks.filter((s) => s.status === 'completed').length;
  bridge.answer('task:get', ({ task_id }) =>
    taskDetail({ task_id, title: 'Launch the site' }, { sub_tasks: subTasks, sub_tasks_done: done }),
  );
  bridge.answer('task:edit', ({ task_id, patch }) =>
    taskDetail({ task_id, title: 'Launch the site', status: patch.status ?? 'not_started' }),
  );
  useView.setState({ selectedTaskId: 't-1' });
  render(<CompletionQuestion />);
}

describe('completing a task from the keyboard', () => {
  test('with open sub-tasks it asks first, and is completed only when the person says so', async () => {
    const user = userEvent.setup();
    mainHolds([sub('t-a', 'completed'), sub('t-b', 'in_progress'), sub('t-c', 'not_started')]);
    await act(() => setTaskStatus('completed'));
    const question = screen.getByRole('alertdialog', { name: 'Complete this task?' });
    expect(question.textContent).toContain('‘Launch the site’ has 2 open sub-tasks.');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('task:edit')).toEqual([]);

    await act(() => setTaskStatus('completed'));
    await user.click(screen.getByRole('button', { name: 'Complete anyway' }));
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { status: 'completed' } }]);
  });

  test('with every sub-task done, or another status, nothing is asked', async () => {
    mainHolds([sub('t-a', 'completed')]);
    await act(() => setTaskStatus('completed'));
    await act(() => setTaskStatus('blocked'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bridge.callsOf('task:edit')).toEqual([
      { task_id: 't-1', patch: { status: 'completed' } },
      { task_id: 't-1', patch: { status: 'blocked' } },
    ]);
  });
});
