// Selecting many tasks and changing them at once (issue 24), as a person does
// it in Chromium: signed in through the browser, a click and a Shift+click
// select a range of rows, the bar sets their status, every row shows it at
// once, and the next sync leaves the server holding it for each of them.
import { expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { screenshot } from './support/app-browser';
import { readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 60 } }));

const STATUSES = ['not_started', 'in_progress', 'blocked', 'completed'] as const;

test('a Shift+click range gets a new status from the bar: every row shows it, and the server has it after a sync', async () => {
  const { page } = session.app;
  const rows = page.locator('[role="row"][data-task-id]');
  await rows.nth(4).waitFor();
  const ids = await Promise.all([0, 1, 2, 3, 4].map((n) => rows.nth(n).getAttribute('data-task-id')));
  const chosen = ids.slice(0, 4) as string[];
  const untouched = ids[4] as string;
  // A status none of the chosen tasks has, so that every one of them changes.
  const status = STATUSES.find((s) => chosen.every((id) => session.emulator.control.task(id)?.status !== s));
  if (status === undefined) throw new Error('the four tasks hold every status');
  const untouchedBefore = session.emulator.control.task(untouched)?.status;

  const row = (id: string) => page.locator(`[role="row"][data-task-id="${id}"]`);
  await row(chosen[0] as string).click();
  await row(chosen[3] as string).click({ modifiers: ['Shift'] });
  for (const id of chosen) await expect(row(id).getAttribute('aria-selected')).resolves.toBe('true');
  const bar = page.getByTestId('bulk-bar');
  await bar.getByText('4 tasks selected').waitFor();

  await bar.getByLabel('Change').selectOption('status');
  await bar.getByLabel('New value').selectOption(status);
  await bar.getByRole('button', { name: 'Apply' }).click();

  // Every row shows the change at once, before anything reached the server.
  for (const id of chosen) await row(id).locator(`.status-pill.status-${status}`).waitFor();
  await page.getByTestId('bulk-progress').waitFor();
  await screenshot(page, 'bulk-edit-applied');

  await syncAndSettle(page);
  await page.getByTestId('bulk-progress').filter({ hasText: '4 of 4 sent' }).waitFor();
  for (const id of chosen) {
    const onServer = await readFromServer(session.emulator, `/v1/tasks/${id}`);
    expect(onServer.status, id).toBe(status);
  }
  expect((await readFromServer(session.emulator, `/v1/tasks/${untouched}`)).status).toBe(untouchedBefore);
});

test('Ctrl+Z after a sent bulk change sends the old values back, followed on the bar as "N of M sent"', async () => {
  const { page } = session.app;
  const rows = page.locator('[role="row"][data-task-id]');
  await rows.nth(9).waitFor();
  const chosen = (await Promise.all(
    [6, 7, 8].map((n) => rows.nth(n).getAttribute('data-task-id')),
  )) as string[];
  const before = chosen.map((id) => session.emulator.control.task(id)?.status);
  const status = STATUSES.find((s) => before.every((was) => was !== s));
  if (status === undefined) throw new Error('the three tasks hold every status');

  const row = (id: string) => page.locator(`[role="row"][data-task-id="${id}"]`);
  await row(chosen[0] as string).click();
  await row(chosen[2] as string).click({ modifiers: ['Shift'] });
  const bar = page.getByTestId('bulk-bar');
  await bar.getByText('3 tasks selected').waitFor();
  await bar.getByLabel('Change').selectOption('status');
  await bar.getByLabel('New value').selectOption(status);
  await bar.getByRole('button', { name: 'Apply' }).click();
  await syncAndSettle(page);
  await page.getByTestId('bulk-progress').filter({ hasText: '3 of 3 sent' }).waitFor();

  await page.keyboard.press('Control+z');
  const undoing = page.getByTestId('bulk-progress').filter({ hasText: 'Undo status change of 3 tasks' });
  await undoing.waitFor();
  await screenshot(page, 'bulk-edit-undo-progress');
  await syncAndSettle(page);
  await undoing.filter({ hasText: '3 of 3 sent' }).waitFor();
  const after = await Promise.all(
    chosen.map(async (id) => (await readFromServer(session.emulator, `/v1/tasks/${id}`)).status),
  );
  expect(after).toEqual(before);
});
