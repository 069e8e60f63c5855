// Editing with the server unreachable: each edit applies at once and shows as
// pending, the status bar says offline and counts what waits; when the
// network returns the edits are pushed and the server has them. Creating and
// deleting a task go the same way.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { answerQuestion, screenshot } from './support/app-browser';
import { callService } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 200 } }));

/** A task not completed, so that changing its status is a change. */
function openTaskOnServer() {
  const task = session.emulator.control
    .tasks()
    .find((t) => t.status === 'not_started' && t.title.length < 60);
  if (!task) throw new Error('the seed has no task that is not started');
  return task;
}

describe('editing while the server is unreachable', () => {
  test('edits apply at once, are marked pending, and reach the server when the network returns', async () => {
    const { page } = session.app;
    const task = openTaskOnServer();
    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(task.title);
    await screenshot(page, 'task-editor');

    session.proxy.goOffline();
    await editor.getByLabel('Status').selectOption('in_progress');
    const newTitle = `${task.title} (edited offline)`;
    await editor.getByLabel('Title').fill(newTitle);
    await editor.getByLabel('Title').press('Enter');

    // Shown at once, marked pending, in the editor and in the list.
    await editor.locator('[data-field="status"].is-pending').waitFor();
    await editor.locator('[data-field="title"].is-pending').waitFor();
    await page.locator(`[role="row"][data-task-id="${task.task_id}"] [data-sync-mark="pending"]`).waitFor();
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).getByText(newTitle).waitFor();
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
    await page.getByTestId('connection').filter({ hasText: 'Offline' }).waitFor({ timeout: 20_000 });
    expect(session.emulator.control.task(task.task_id)?.status).toBe('not_started');
    await screenshot(page, 'offline-pending');

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    await editor.locator('[data-field="status"].is-pending').waitFor({ state: 'detached' });
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor();
    const onServer = session.emulator.control.task(task.task_id);
    expect(onServer?.status).toBe('in_progress');
    expect(onServer?.title).toBe(newTitle);
    await page.getByRole('button', { name: 'Close task' }).click();
    await page.getByLabel('Search tasks').fill('');
  });
});

interface Thread {
  replies?: Thread[] | null;
}

function threadCount(threads: readonly Thread[]): number {
  return threads.reduce((count, c) => count + 1 + threadCount(c.replies ?? []), 0);
}

describe('comments and history', () => {
  test('are fetched when a task opens, and stay readable offline', async () => {
    const { page } = session.app;
    let found: { taskId: string; comments: number } | null = null;
    for (const task of session.emulator.control.tasks().slice(0, 60)) {
      const answer = await callService(session.emulator, 'GET', `/v1/task-comments?task_id=${task.task_id}`);
      const body = answer.body as { data: Thread[] };
      if (body.data.length > 0) {
        // The heading counts every comment, replies included.
        found = { taskId: task.task_id, comments: threadCount(body.data) };
        break;
      }
    }
    if (found === null) throw new Error('no task with comments in the first 60 of the seed');
    const row = page.locator(`[role="row"][data-task-id="${found.taskId}"]`);
    const editor = page.getByTestId('task-editor');
    await page.getByLabel('Search tasks').fill(found.taskId);
    await row.click();
    await editor.getByRole('heading', { name: `Comments (${found.comments})` }).waitFor();
    await editor.locator('.history li').first().waitFor();
    await editor.locator('.history').scrollIntoViewIfNeeded();
    await screenshot(page, 'task-activity');
    await editor.getByRole('button', { name: 'Close task' }).click();

    session.proxy.goOffline();
    try {
      await row.click();
      await editor.getByRole('heading', { name: `Comments (${found.comments})` }).waitFor();
      await editor.locator('.history li').first().waitFor();
    } finally {
      session.proxy.goOnline();
      await editor.getByRole('button', { name: 'Close task' }).click();
      await page.getByLabel('Search tasks').fill('');
    }
  });
});

describe('creating and deleting', () => {
  test('a new task shows at once and is created on the server once', async () => {
    const { page } = session.app;
    const before = session.emulator.control.taskCount();
    await page.getByRole('button', { name: 'New task' }).click();
    const form = page.getByTestId('task-create');
    await form.getByLabel('Title').fill('Write the release notes');
    await form.getByLabel('Priority').selectOption('high');
    await screenshot(page, 'task-create');
    await form.getByRole('button', { name: 'Create task' }).click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe('Write the release notes');
    await allChangesSynced(page);
    const created = session.emulator.control.tasks().filter((t) => t.title === 'Write the release notes');
    expect(created).toHaveLength(1);
    expect(created[0]?.priority).toBe('high');
    expect(session.emulator.control.taskCount()).toBe(before + 1);
    // The editor follows the task from its temporary id to the server's.
    await editor
      .locator('.task-id')
      .filter({ hasText: created[0]?.task_id ?? '?' })
      .waitFor();
  });

  test('deleting asks first, then removes the task here and on the server', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const taskId = (await editor.locator('.task-id').textContent()) ?? '';
    await editor.getByRole('button', { name: 'Delete task' }).click();
    await answerQuestion(editor, 'Delete this task?', 'Delete');
    await editor.waitFor({ state: 'detached' });
    await page.locator(`[role="row"][data-task-id="${taskId}"]`).waitFor({ state: 'detached' });
    await allChangesSynced(page);
    expect(session.emulator.control.task(taskId)).toBeUndefined();
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
