// Sub-tasks in Chromium against the emulator, signed in through the browser:
// a sub-task added offline shows at once under its parent with the progress,
// and reaches the server under it when the network returns, also under a
// parent that was itself new and offline (its temporary id replaced by the
// server's); completing a parent with an open sub-task asks first and leaves
// the sub-task as it was.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { answerQuestion, openTaskInEditor, screenshot } from './support/app-browser';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 80 } }));

/** An open task of the seed with no sub-task, to be a parent. */
function childlessTask() {
  const tasks = session.emulator.control.tasks();
  const parents = new Set(tasks.map((t) => t.parent_task_id));
  const task = tasks.find(
    (t) =>
      t.status === 'not_started' &&
      t.parent_task_id === null &&
      !parents.has(t.task_id) &&
      t.title.length < 60,
  );
  if (!task) throw new Error('the seed has no open task without sub-tasks');
  return task;
}

describe('sub-tasks', () => {
  test('one added offline shows under its parent at once and reaches the server under it', async () => {
    const { page } = session.app;
    const parent = childlessTask();
    await openTaskInEditor(page, parent.task_id);
    const editor = page.getByTestId('task-editor');
    const subTasks = editor.getByTestId('sub-tasks');

    session.proxy.goOffline();
    await subTasks.getByLabel('New sub-task').fill('Order the banner');
    await subTasks.getByRole('button', { name: 'Add sub-task' }).click();
    await subTasks
      .getByRole('listitem')
      .filter({ hasText: 'Order the banner' })
      .getByText('not sent yet')
      .waitFor();
    await subTasks.getByTestId('sub-task-progress').filter({ hasText: '0 of 1 done' }).waitFor();
    expect(session.emulator.control.tasks().some((t) => t.title === 'Order the banner')).toBe(false);
    await screenshot(page, 'sub-tasks-offline');

    session.proxy.goOnline();
    await syncAndSettle(page);
    const onServer = session.emulator.control.tasks().find((t) => t.title === 'Order the banner');
    expect(onServer?.parent_task_id).toBe(parent.task_id);
    await subTasks.getByText('not sent yet').waitFor({ state: 'detached' });

    // The sub-task opens from its parent, and names its parent, which opens it again.
    await subTasks.getByRole('button', { name: 'Order the banner' }).click();
    await editor
      .getByTestId('task-parent')
      .getByRole('button', { name: `‘${parent.title}’` })
      .click();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(parent.title);
  });

  test('completing a parent with an open sub-task asks first, and the sub-task stays open', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const parentId = session.emulator.control
      .tasks()
      .find((t) => t.title === 'Order the banner')?.parent_task_id;
    if (!parentId) throw new Error('the first test left no sub-task');
    await editor.getByLabel('Status').selectOption('completed');
    const question = page.getByRole('alertdialog', { name: 'Complete this task?' });
    await question.getByText('has 1 open sub-task.').waitFor();
    await screenshot(page, 'sub-tasks-complete-parent');
    await answerQuestion(page, 'Complete this task?', 'Complete anyway');
    await editor.locator('[data-field="status"].is-pending').waitFor();
    await syncAndSettle(page);
    expect(session.emulator.control.task(parentId)?.status).toBe('completed');
    expect(session.emulator.control.tasks().find((t) => t.title === 'Order the banner')?.status).toBe(
      'not_started',
    );
  });

  test('a sub-task of a task created offline reaches the server under the id the server gave its parent', async () => {
    const { page } = session.app;
    await page.getByRole('button', { name: 'Close task' }).click();
    session.proxy.goOffline();
    await page.getByRole('button', { name: 'New task', exact: true }).click();
    const form = page.getByTestId('task-create');
    await form.getByLabel('Title').fill('Plan the offsite');
    await form.getByRole('button', { name: 'Create task' }).click();
    const editor = page.getByTestId('task-editor');
    await editor.getByText('New (not yet on the server)').waitFor();
    const subTasks = editor.getByTestId('sub-tasks');
    await subTasks.getByLabel('New sub-task').fill('Book the venue');
    await subTasks.getByRole('button', { name: 'Add sub-task' }).click();
    await subTasks.getByRole('listitem').filter({ hasText: 'Book the venue' }).waitFor();

    session.proxy.goOnline();
    await syncAndSettle(page);
    const tasks = session.emulator.control.tasks();
    const parent = tasks.find((t) => t.title === 'Plan the offsite');
    const child = tasks.find((t) => t.title === 'Book the venue');
    expect(parent).toBeDefined();
    expect(child?.parent_task_id).toBe(parent?.task_id);
    // The editor followed its task to the server's id and still lists the sub-task.
    await editor.getByText(parent?.task_id ?? '-').waitFor();
    await subTasks.getByRole('listitem').filter({ hasText: 'Book the venue' }).waitFor();
  });
});
