// Undo and redo (issue 24) as a person does it in Chromium, signed in through
// the browser: a status set with a key is undone with Ctrl+Z (the row shows its
// old status again) and redone with Shift+Ctrl+Z; once that change reached the
// server, Ctrl+Z sends the old value back and the service holds it after a sync.
import { expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { screenshot } from './support/app-browser';
import { readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 20 } }));

test('key 3 sets Blocked, Ctrl+Z puts the row back, Shift+Ctrl+Z redoes; a sent change undone is undone on the server', async () => {
  const { page } = session.app;
  const rows = page.locator('[role="row"][data-task-id]');
  await rows.nth(5).waitFor();
  // A row not blocked already, so that key 3 changes it.
  let taskId: string | null = null;
  for (let n = 0; n < 6 && taskId === null; n++) {
    const id = await rows.nth(n).getAttribute('data-task-id');
    if (id !== null && session.emulator.control.task(id)?.status !== 'blocked') taskId = id;
  }
  if (taskId === null) throw new Error('every row is blocked');
  const was = session.emulator.control.task(taskId)?.status as string;
  const row = page.locator(`[role="row"][data-task-id="${taskId}"]`);
  await row.click();

  await page.keyboard.press('3');
  await row.locator('.status-pill.status-blocked').waitFor();
  await page.getByTestId('undo-toast').getByRole('button', { name: 'Undo' }).waitFor();
  await screenshot(page, 'undo-toast');

  await page.keyboard.press('Control+z');
  await row.locator(`.status-pill.status-${was}`).waitFor();
  await page.keyboard.press('Control+Shift+z');
  await row.locator('.status-pill.status-blocked').waitFor();

  await syncAndSettle(page);
  expect((await readFromServer(session.emulator, `/v1/tasks/${taskId}`)).status).toBe('blocked');
  await page.keyboard.press('Control+z');
  await row.locator(`.status-pill.status-${was}`).waitFor();
  await syncAndSettle(page);
  expect((await readFromServer(session.emulator, `/v1/tasks/${taskId}`)).status).toBe(was);
});
