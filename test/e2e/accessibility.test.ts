// Every screen and dialog as a person using a screen reader or only a keyboard
// meets them: an axe-core audit of each (support/accessibility-audit.ts), in
// light and in dark, finds no serious or critical violation. The sign-in
// screen (a refusal, the server settings), the list, the task editor and the
// new-task form, the command palette and the shortcuts, a board, a sprint and
// its form, a team's triage with its accept form and duplicate picker, the goals, a project's milestones, every delete question, the sync
// center's tabs, the pending-changes inspector and a conflict's three-way view.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { blockingViolations } from './support/accessibility-audit';
import { invokeInPage, triageButton } from './support/app-browser';
import { QUICK_RETRY, startAppSession, sessionPerFile } from './support/app-session';
import { signIn } from './support/signed-in-session';

const session = sessionPerFile(() =>
  startAppSession({ emulator: { seedTasks: 80 }, client: { retry: QUICK_RETRY } }),
);

const nav = (page: Page) => page.getByRole('navigation', { name: 'Workspace' });

async function openTask(page: Page, taskId: string): Promise<Locator> {
  await nav(page).getByRole('button', { name: 'All tasks' }).click();
  await page.getByLabel('Search tasks').fill(taskId);
  await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
  const editor = page.getByTestId('task-editor');
  await editor.locator('.task-id').filter({ hasText: taskId }).waitFor();
  return editor;
}

async function closeTask(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close task' }).click();
  await page.getByTestId('task-editor').waitFor({ state: 'detached' });
  await page.getByLabel('Search tasks').fill('');
}

/** Audits an open question (an alertdialog), then answers Cancel. */
async function auditQuestion(page: Page, name: string | RegExp): Promise<void> {
  const question = page.getByRole('alertdialog', { name });
  await auditThenClose(page, question, () => question.getByRole('button', { name: 'Cancel' }).click());
}

/** Audits `shown` (a dialog or form) once it is there, then closes it with `close` and waits until it is gone. */
async function auditThenClose(page: Page, shown: Locator, close: () => Promise<void>): Promise<void> {
  await shown.waitFor();
  expect(await blockingViolations(page)).toEqual([]);
  await close();
  await shown.waitFor({ state: 'detached' });
}

describe('signed out', () => {
  test('the sign-in screen, a refused token, and the server settings', async () => {
    const { page } = session.app;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Access token').fill('svc_live_thisisnotarealtoken000000000000');
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByText('Server settings').click();
    await page.getByLabel('Service address (base URL)').waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.getByLabel('Access token').fill('');
  });
});

describe('signed in through the browser', () => {
  beforeAll(async () => {
    await signIn(session);
    await session.app.page
      .getByTestId('connection')
      .filter({ hasText: 'Online' })
      .waitFor({ timeout: 30_000 });
  });

  test('the task list, scrolled from the keyboard', async () => {
    const { page } = session.app;
    await nav(page).getByRole('button', { name: 'All tasks' }).click();
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${session.emulator.control.taskCount()} tasks` })
      .waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    // The audit leaves the rows' scroller to the grid's keys (MET_OTHERWISE): End takes the list to its end.
    const grid = page.getByTestId('task-grid');
    await grid.focus();
    await page.keyboard.press('End');
    await expect
      .poll(() => page.locator('.grid-body').evaluate((body: { scrollTop: number }) => body.scrollTop))
      .toBeGreaterThan(0);
    await page.keyboard.press('Home');
  });

  test('the task editor, its delete question, and the new-task form', async () => {
    const { page } = session.app;
    const task = session.emulator.control.tasks()[0];
    if (!task) throw new Error('the seed is empty');
    const editor = await openTask(page, task.task_id);
    expect(await blockingViolations(page)).toEqual([]);
    await editor.getByRole('button', { name: 'Delete task' }).click();
    await auditQuestion(page, 'Delete this task?');
    await closeTask(page);

    await page.getByRole('button', { name: 'New task' }).click();
    const form = page.getByRole('heading', { name: 'New task' });
    await auditThenClose(page, form, () => page.keyboard.press('Escape'));
  });

  test('the command palette and the keyboard shortcuts', async () => {
    const { page } = session.app;
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('go to goals');
    await palette.getByRole('option').first().waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Goals', level: 1 }).waitFor();
    await page.locator('body').press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await auditThenClose(page, shortcuts, () => page.keyboard.press('Escape'));
  });

  test('a board, and the question before deleting a section', async () => {
    const { page } = session.app;
    await nav(page)
      .getByRole('button', { name: /^Platform/ })
      .last()
      .click();
    await page.locator('li.card[data-task-id]').first().waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page
      .getByRole('button', { name: /^Delete section / })
      .first()
      .click();
    await auditQuestion(page, /^Delete section/);
  });

  test('a sprint, and the new sprint form', async () => {
    const { page } = session.app;
    await page.locator('body').press('g');
    await page.keyboard.press('s');
    await page.locator('section.sprint-view').waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await nav(page).getByRole('button', { name: 'New sprint in Platform' }).click();
    const form = page.getByTestId('sprint-form');
    await auditThenClose(page, form, () => form.getByRole('button', { name: 'Cancel' }).click());
  });

  test("a team's triage, its accept form and the duplicate picker", async () => {
    const { page } = session.app;
    await triageButton(page, 'Platform').click();
    const list = page.getByRole('listbox', { name: 'Waiting for triage in Platform' });
    await list.getByRole('option').first().waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await list.press('1');
    const form = page.getByRole('dialog', { name: /^Accept / });
    await form.waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    await list.press('3');
    const picker = page.getByRole('dialog', { name: /^Duplicate of/ });
    await picker.getByLabel('Original task').fill('a');
    await picker.getByRole('option').first().waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await picker.waitFor({ state: 'detached' });
  });

  test('the goals, one opened, and the question before deleting one', async () => {
    const { page } = session.app;
    await nav(page).getByRole('button', { name: 'Goals' }).click();
    await page.getByRole('heading', { name: 'Goals', level: 1 }).waitFor();
    const goal = page.locator('.goal').first();
    await goal.locator('.goal-head').click();
    await goal.locator('.task-lines').waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await goal.getByRole('button', { name: 'Delete…' }).click();
    await auditQuestion(page, 'Delete this goal?');
  });

  test("a project's milestones, and the question before deleting one", async () => {
    const { page } = session.app;
    const workspace = await invokeInPage(page, 'workspace:get');
    let projectName: string | null = null;
    for (const project of workspace.projects) {
      const listed = await invokeInPage(page, 'milestones:list', { project_id: project.project_id });
      if (listed.length > 0) {
        projectName = project.name;
        break;
      }
    }
    if (projectName === null) throw new Error('the seed has no project with milestones');
    await page.keyboard.press('Control+k');
    await page.keyboard.type(`Milestones: ${projectName}`);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `${projectName}: milestones`, level: 1 }).waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.locator('li.milestone').first().getByRole('button', { name: 'Delete…' }).click();
    await auditQuestion(page, 'Delete this milestone?');
  });

  test("the sync center's status, log and notification settings", async () => {
    const { page } = session.app;
    await nav(page).getByRole('button', { name: 'Sync' }).click();
    await page.getByTestId('account-card').waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    for (const tab of ['Sync log', 'Notifications']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      expect(await blockingViolations(page)).toEqual([]);
    }
  });

  test("an edit waiting offline, the pending-changes inspector, and a conflict's three-way view", async () => {
    const { page } = session.app;
    const task = session.emulator.control
      .tasks()
      .find((t) => t.title.length < 40 && t.status !== 'completed');
    if (!task) throw new Error('the seed has no task to edit');
    const editor = await openTask(page, task.task_id);
    session.proxy.goOffline();
    await editor.getByLabel('Title').fill(`${task.title} (mine)`);
    await editor.getByLabel('Title').press('Enter');
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    await inspector.locator('li.pending-item').first().waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await inspector.waitFor({ state: 'detached' });

    session.emulator.control.peerEdit(task.task_id, { title: `${task.title} (theirs)` });
    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await editor.locator('[data-sync-mark="conflict"]').waitFor({ timeout: 20_000 });
    expect(await blockingViolations(page)).toEqual([]);
    await editor.getByTestId('sync-mark-notice').getByRole('button', { name: 'Resolve conflict…' }).click();
    const threeWay = page.getByRole('dialog', { name: /Resolve the conflict/ });
    await threeWay.waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await threeWay.waitFor({ state: 'detached' });
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
