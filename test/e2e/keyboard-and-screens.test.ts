// The app worked from the keyboard alone (search, list, editor, shortcuts,
// command palette), and the other main screens: the sections board (moving a
// task between sections), a sprint with its progress, goals with their
// counts, and the dark theme.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { signIn } from './support/signed-in-session';
import { startAppSession, sessionPerFile } from './support/app-session';
import { focusedId, hasFocus, invokeInPage, screenshot } from './support/app-browser';

const session = sessionPerFile(() => startAppSession({ emulator: { seedTasks: 240 } }));

beforeAll(async () => {
  await signIn(session);
  await session.app.page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor({ timeout: 20_000 });
});

const activeRow = (page: Page) => page.getByTestId('task-grid').getAttribute('aria-activedescendant');
const synced = (page: Page) =>
  page.getByTestId('pending-count').filter({ hasText: 'All changes synced' }).waitFor({ timeout: 20_000 });

describe('keyboard only', () => {
  test('"/" searches, Escape clears, ↓ moves into the list and the arrows move in it', async () => {
    const { page, problems } = session.app;
    const keyboard = page.keyboard;
    await keyboard.press('/');
    await expect.poll(() => focusedId(page)).toBe('task-search');
    await keyboard.type('zzzz-nothing-matches');
    await page.getByText('No tasks match these filters.').waitFor();
    await keyboard.press('Escape');
    await expect(page.getByLabel('Search tasks').inputValue()).resolves.toBe('');
    await keyboard.press('ArrowDown');
    await expect(hasFocus(page.getByTestId('task-grid'))).resolves.toBe(true);
    expect(await activeRow(page)).toBe('task-row-0');
    await keyboard.press('ArrowDown');
    await keyboard.press('j');
    expect(await activeRow(page)).toBe('task-row-2');
    await keyboard.press('End');
    const last = await activeRow(page);
    expect(last).not.toBe('task-row-2');
    await page.locator(`#${last}`).waitFor();
    await keyboard.press('Home');
    expect(await activeRow(page)).toBe('task-row-0');
    expect(problems).toEqual([]);
  });

  test('Enter opens the task, "e" edits its title, Tab reaches the status, Escape returns to the list', async () => {
    const { page } = session.app;
    const keyboard = page.keyboard;
    await keyboard.press('ArrowDown');
    const rowId = await page.locator('#task-row-1').getAttribute('data-task-id');
    if (!rowId) throw new Error('no second row');
    await keyboard.press('Enter');
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await keyboard.press('e');
    await expect(hasFocus(editor.getByLabel('Title'))).resolves.toBe(true);
    await keyboard.press('ControlOrMeta+a');
    await keyboard.type('Renamed from the keyboard');
    await keyboard.press('Enter');
    await keyboard.press('Tab');
    await expect(hasFocus(editor.getByLabel('Status'))).resolves.toBe(true);
    await editor.getByLabel('Status').selectOption('blocked');
    await keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await expect(hasFocus(page.getByTestId('task-grid'))).resolves.toBe(true);
    // The status bar can read "synced" in the moment before the status edit is
    // queued, so wait on the server itself: both edits arrive there.
    await expect
      .poll(() => session.host.emulator.control.task(rowId), { timeout: 20_000 })
      .toMatchObject({ title: 'Renamed from the keyboard', status: 'blocked' });
    await synced(page);
  });

  test('a digit sets the status of the selected row and says so', async () => {
    const { page } = session.app;
    const rowId = await page.locator('#task-row-1').getAttribute('data-task-id');
    await page.keyboard.press('4');
    await page.getByRole('status').filter({ hasText: 'set to Done' }).waitFor();
    await synced(page);
    expect(session.host.emulator.control.task(rowId ?? '')?.status).toBe('completed');
  });

  test('Ctrl+K opens the palette, typing filters, Enter runs; "?" lists the shortcuts', async () => {
    const { page } = session.app;
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('goals');
    await expect(palette.getByRole('option').first().textContent()).resolves.toContain('Go to Goals');
    await screenshot(page, 'command-palette');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Goals' }).waitFor();
    await page.locator('body').press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'detached' });
  });
});

describe('the other screens', () => {
  test('goals show tasks_completed of tasks_total as the server counts them', async () => {
    const { page } = session.app;
    const goal = page.locator('.goal').first();
    // By its id: goal names repeat across projects.
    const goalId = await goal.getAttribute('data-goal-id');
    expect(goalId).toBeTruthy();
    const under = session.host.emulator.control
      .tasks()
      .filter((t) => t.goal_id === goalId && t.parent_task_id === null);
    await goal.locator('.goal-head').click();
    await goal.locator('.task-lines').waitFor();
    const words = (await goal.locator('.progress-words').textContent()) ?? '';
    expect(words).toContain(
      `${under.filter((t) => t.status === 'completed').length} of ${under.length} done`,
    );
    await screenshot(page, 'goals');
  });

  test('a sprint shows its dates, length and progress', async () => {
    const { page } = session.app;
    await page.locator('body').press('g');
    await page.keyboard.press('s');
    const view = page.locator('.sprint-view');
    await view.waitFor();
    const sprintName = (await view.getByRole('heading').first().textContent()) ?? '';
    const words = (await view.locator('.progress-words').textContent()) ?? '';
    const [done, total] = (/(\d+) of (\d+)/.exec(words) ?? []).slice(1).map(Number);
    // The progress comes with the workspace, the filed tasks with their own read: wait for those rows.
    if (total !== undefined && total > 0)
      await view
        .locator('.title-text')
        .nth(total - 1)
        .waitFor();
    const sprintTitles = await view.locator('.title-text').allTextContents();
    expect(sprintTitles.length).toBe(total);
    const tasks = session.host.emulator.control.tasks().filter((t) => sprintTitles.includes(t.title));
    expect(tasks.filter((t) => t.status === 'completed').length).toBe(done);
    expect(sprintName.length).toBeGreaterThan(0);
    await expect(view.getByText('Length').isVisible()).resolves.toBe(true);
    await screenshot(page, 'sprint');
  });

  test('the board moves a task to the next section, here and on the server', async () => {
    const { page } = session.app;
    await page.keyboard.press('Control+k');
    await page.keyboard.type('board');
    await page.keyboard.press('Enter');
    const board = page.locator('.board');
    await board.waitFor();
    const card = board.locator('.board-column').first().locator('.card').first();
    await card.waitFor();
    const taskId = (await card.getAttribute('data-task-id')) ?? '';
    const next = board.locator('.board-column').nth(1);
    const nextSection = await next.getAttribute('data-section-id');
    await screenshot(page, 'board');
    await card.locator('.card-open').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await next.locator(`.card[data-task-id="${taskId}"]`).waitFor();
    await synced(page);
    expect(session.host.emulator.control.task(taskId)?.section_id).toBe(nextSection);
  });

  test("a card focused on the board is the task the palette's 'File into sprint' files, as a drop on the sprint does", async () => {
    const { page } = session.app;
    const board = page.locator('.board');
    const cards = board.locator('.card[data-task-id]');
    let taskId = '';
    for (let index = 0; index < (await cards.count()); index += 1) {
      const id = (await cards.nth(index).getAttribute('data-task-id')) ?? '';
      if (session.host.emulator.control.task(id)?.sprint_id === null) {
        taskId = id;
        break;
      }
    }
    if (taskId === '') throw new Error('the board has no card in no sprint');
    const title = session.host.emulator.control.task(taskId)?.title ?? '';
    await board.locator(`.card[data-task-id="${taskId}"] .card-open`).focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await page.keyboard.type('file into sprint');
    const option = (await palette.getByRole('option').first().textContent()) ?? '';
    const sprintName = /File into sprint: (.+?) \(/.exec(option)?.[1] ?? '';
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Filed ‘${title}’ into sprint ‘${sprintName}’.` })
      .waitFor();
    await synced(page);
    const workspace = await invokeInPage(page, 'workspace:get');
    const sprint = workspace.teams.flatMap((team) => team.sprints).find((s) => s.name === sprintName);
    expect(session.host.emulator.control.task(taskId)?.sprint_id).toBe(sprint?.sprint_id);
  });

  test('the dark theme, chosen in the palette, turns the whole app dark', async () => {
    const { page } = session.app;
    await page.keyboard.press('Control+k');
    await page.keyboard.type('theme dark');
    await page.keyboard.press('Enter');
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.getByRole('heading', { name: 'All tasks' }).waitFor();
    await page.locator('[role="row"][data-task-id]').first().click();
    await page.getByTestId('task-editor').waitFor();
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(23, 27, 34)');
    await screenshot(page, 'task-list-dark');
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
