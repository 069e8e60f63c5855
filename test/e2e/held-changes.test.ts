// A change held behind one that stopped, end to end in Chromium (issue 21, defect 2):
// a task filed into a sprint whose create the server refused says on its row and in
// pending changes that it waits for that sprint (never "sent when the server can be
// reached"), the inspector takes the person to the refused sprint, and discarding
// it there takes the filing out, the task back to the server's values.
import { beforeAll, describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { answerQuestion, hasFocus, invokeInPage, screenshot, workspaceTeam } from './support/app-browser';
import { startSignedInSession } from './support/signed-in-session';
import { createSprintLasting, sprintCreatedElsewhere } from './support/sprint-steps';

let team = { team_id: '', name: '' };

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 20 } }));

beforeAll(async () => {
  team = await workspaceTeam(session.app.page, 'Platform');
});

describe('a task filed into a sprint the server refused', () => {
  test('says what it waits for, leads to the refused sprint, and goes back when that is discarded', async () => {
    const { page } = session.app;
    // A teammate's active sprint holds the name: ours is refused (409) and stops as not saved.
    await sprintCreatedElsewhere(session.emulator, team.team_id, 'Crunch', '2027-06-07', 2);
    await createSprintLasting(page, team.name, 'crunch', 2);
    const item = page
      .getByRole('navigation', { name: 'Workspace' })
      .locator('li[data-sprint-id]')
      .filter({ hasText: 'crunch' });
    await item.locator('[data-sync-mark="failed"]').waitFor({ timeout: 20_000 });
    const sprintId = (await item.getAttribute('data-sprint-id')) ?? '';
    expect(sprintId).toMatch(/^local-/);

    const task = session.emulator.control
      .tasks()
      .find((t) => t.sprint_id === null && t.team_id === team.team_id);
    if (!task) throw new Error('the seed has no task of the team outside a sprint');
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(task.task_id);
    const row = page.locator(`[role="row"][data-task-id="${task.task_id}"]`);
    await row.waitFor();
    // Filed as the editor's sprint choice files it.
    await invokeInPage(page, 'task:edit', { task_id: task.task_id, patch: { sprint_id: sprintId } });

    const mark = row.locator('[data-sync-mark="pending"][data-waits-on]');
    await mark.waitFor({ timeout: 10_000 });
    await expect(mark.textContent()).resolves.toBe('Waiting for sprint ‘crunch’');
    await expect(mark.getAttribute('title')).resolves.toMatch(
      /^Sent once sprint ‘crunch’ is created; that change is not saved: /,
    );

    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const held = inspector.locator('li.pending-item[data-waits-on]');
    await held.getByText('Waiting for sprint ‘crunch’', { exact: true }).waitFor();
    await held
      .getByText('Waits for the new sprint ‘crunch’ (Not saved): retry or discard that change.')
      .waitFor();
    await expect(held.getByRole('button', { name: 'Retry now' }).count()).resolves.toBe(0);
    await screenshot(page, 'held-change-pending');

    await held.getByRole('button', { name: 'Show that change' }).click();
    const refused = inspector.locator('li.pending-item[data-state="failed"]');
    await expect(hasFocus(refused)).resolves.toBe(true);
    await refused.getByRole('button', { name: 'Discard…' }).click();
    await answerQuestion(page, 'Discard this change?', 'Discard');
    await held.waitFor({ state: 'detached' });
    await inspector.getByRole('button', { name: 'Close' }).click();

    await row.locator('[data-sync-mark]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(session.emulator.control.task(task.task_id)?.sprint_id ?? null).toBeNull();
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
