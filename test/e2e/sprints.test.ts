// Sprints end to end in Chromium against the emulator: a sprint created offline
// from the sidebar and filled with three tasks (a list row and a board card
// dragged onto it, one chosen in the editor) reaches the server once with the
// three tasks in it; a name taken by an active sprint (409) is shown on the
// sprint and fixed by "Rename and retry"; a sprint renamed here and by a peer
// while we were offline is settled in the three-way view; edit and complete; a
// sprint completed before it was sent, with a task filed into it from the
// command palette, reaches the server completed; "All sprints (N)" opens a
// team's older sprints from the keyboard. Screenshots light and dark.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { sessionPerFile } from './support/app-session';
import { hasFocus, invokeInPage, screenshot, screenshotInDark, workspaceTeam } from './support/app-browser';
import { callService, peerPatch, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { createSprintLasting, sprintCreatedElsewhere } from './support/sprint-steps';
import { syncAndSettle } from './support/waits';

/** The team the sprints are made in: the person owns it and the peer is on it (seed "Platform"). */
let team = { team_id: '', name: '' };

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 80 } }));

beforeAll(async () => {
  team = await workspaceTeam(session.app.page, 'Platform');
});

interface ServerSprint {
  sprint_id: string;
  name: string;
  status: string;
  start_date: string;
  end_date: string;
  goal: string | null;
  duration_weeks: number | null;
}

async function serverSprints(): Promise<ServerSprint[]> {
  return (await readFromServer(session.emulator, `/v1/teams/${team.team_id}/sprints`)).data as ServerSprint[];
}

/**
 * Back online and synced: the server holds one sprint named `name`, made by
 * one create more than `createsBefore` (the queued create was sent once).
 */
async function sentOnceOnline(name: string, createsBefore: number): Promise<ServerSprint> {
  session.proxy.goOnline();
  await syncAndSettle(session.app.page);
  const created = (await serverSprints()).filter((s) => s.name === name);
  expect(created).toHaveLength(1);
  expect(session.emulator.control.creates().sprints).toBe(createsBefore + 1);
  const [sprint] = created;
  if (!sprint) throw new Error('unreachable');
  return sprint;
}

function sidebarSprint(page: Page, name: string): Locator {
  return page
    .getByRole('navigation', { name: 'Workspace' })
    .locator('li[data-sprint-id]')
    .filter({ hasText: name });
}

/** Tasks the person may file into the team's sprints: in no sprint, of the team or of none, short titles. */
function freeTasks(count: number) {
  const found = session.emulator.control
    .tasks()
    .filter((t) => t.sprint_id === null && (t.team_id === null || t.team_id === team.team_id))
    .filter((t) => t.title.length < 50);
  if (found.length < count) throw new Error(`the seed has fewer than ${count} tasks free to file`);
  return found.slice(0, count);
}

describe('a sprint planned offline', () => {
  test('created from the sidebar and filled with three tasks, it reaches the server once with the three in it', async () => {
    const { page } = session.app;
    const createsBefore = session.emulator.control.creates().sprints;
    const [fromList, fromEditor] = freeTasks(2);
    if (!fromList || !fromEditor) throw new Error('unreachable');

    session.proxy.goOffline();
    await page.getByRole('button', { name: `New sprint in ${team.name}` }).click();
    const form = page.getByTestId('sprint-form');
    await form.getByLabel('Name').fill('Offline sprint');
    // One or the other: the weeks' box is off while an end date is chosen, and the reverse.
    await form.getByRole('radio', { name: 'Ends on' }).check();
    await expect(form.getByLabel('Length in weeks').isDisabled()).resolves.toBe(true);
    await form.getByRole('radio', { name: 'Lasts' }).check();
    await expect(form.getByLabel('End date').isDisabled()).resolves.toBe(true);
    await form.getByLabel('Length in weeks').fill('0');
    await form.getByRole('button', { name: 'Create sprint' }).click();
    // Told beside the field before anything is queued; what was typed stays.
    await form.getByText('A sprint lasts 1 to 52 whole weeks.').waitFor();
    await expect(form.getByLabel('Name').inputValue()).resolves.toBe('Offline sprint');
    await form.getByLabel('Length in weeks').fill('3');
    await form.getByLabel(/^Goal/).fill('Search that answers offline');
    await screenshot(page, 'sprint-form');
    await screenshotInDark(page, 'sprint-form');
    await form.getByRole('button', { name: 'Create sprint' }).click();
    await form.waitFor({ state: 'detached' });

    // Shown at once under its temporary id, with a pending mark, and opened.
    const item = sidebarSprint(page, 'Offline sprint');
    await item.locator('[data-sync-mark="pending"]').waitFor();
    const localId = (await item.getAttribute('data-sprint-id')) ?? '';
    expect(localId).toMatch(/^local-/);
    const view = page.locator('section.sprint-view');
    await view.getByRole('heading', { name: 'Offline sprint' }).waitFor();
    await view.locator('[data-sync-mark="pending"]').waitFor();
    await view.getByText('Search that answers offline').waitFor();
    // Its length as chosen; the end date is the server's to set from it.
    await view.locator('.sprint-facts').getByText('3 weeks').waitFor();
    await view
      .locator('.sprint-facts')
      .getByText(/– set when sent$/)
      .waitFor();
    // Not on the server yet: an edit opens on the weeks it was made with.
    await view.getByRole('button', { name: 'Edit sprint' }).click();
    const editing = page.getByTestId('sprint-form');
    await expect(editing.getByRole('radio', { name: 'Lasts' }).isChecked()).resolves.toBe(true);
    await expect(editing.getByLabel('Length in weeks').inputValue()).resolves.toBe('3');
    await editing.getByRole('button', { name: 'Cancel' }).click();
    await editing.waitFor({ state: 'detached' });

    // 1. A list row dragged onto the sprint in the sidebar.
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(fromList.task_id);
    const row = page.locator(`[role="row"][data-task-id="${fromList.task_id}"]`);
    await row.dragTo(item.getByRole('button'));
    await page
      .locator(`[role="row"][data-task-id="${fromList.task_id}"] [data-sync-mark="pending"]`)
      .waitFor();
    await item.locator('.nav-detail').filter({ hasText: /\/1$/ }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Search tasks').fill('');

    // 2. A board card dragged onto it.
    const board = page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('button', { name: /^Platform/ })
      .last();
    await board.click();
    const card = page
      .locator(
        `li.card[data-task-id]:not([data-task-id="${fromList.task_id}"]):not([data-task-id="${fromEditor.task_id}"])`,
      )
      .first();
    await card.waitFor();
    const fromBoard = (await card.getAttribute('data-task-id')) ?? '';
    await card.dragTo(item.getByRole('button'));
    // The card carries its task's id (board-card.tsx) beside the board's own drag state.
    await item.locator('.nav-detail').filter({ hasText: /\/2$/ }).waitFor({ timeout: 10_000 });

    // 3. Chosen in the editor, where the waiting sprint is offered under its temporary id.
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(fromEditor.task_id);
    await page.locator(`[role="row"][data-task-id="${fromEditor.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.getByLabel('Sprint').selectOption({ label: 'Offline sprint (not sent yet)' });
    await editor.locator('[data-field="sprint_id"].is-pending').waitFor();
    await page.getByRole('button', { name: 'Close task' }).click();
    await page.getByLabel('Search tasks').fill('');

    await item.getByRole('button').click();
    await view.locator('ul.task-lines > li').nth(2).waitFor();
    await expect(view.locator('ul.task-lines > li').count()).resolves.toBe(3);
    await item.locator('.nav-detail').filter({ hasText: /\/3$/ }).waitFor();
    expect(session.emulator.control.creates().sprints).toBe(createsBefore);
    await screenshot(page, 'sprint-offline');
    await screenshotInDark(page, 'sprint-offline');

    const sprint = await sentOnceOnline('Offline sprint', createsBefore);
    expect(sprint).toMatchObject({ duration_weeks: 3, goal: 'Search that answers offline' });
    for (const taskId of [fromList.task_id, fromBoard, fromEditor.task_id])
      expect(session.emulator.control.task(taskId)?.sprint_id).toBe(sprint.sprint_id);

    // The view followed the server's id; the mark is gone.
    await sidebarSprint(page, 'Offline sprint')
      .and(page.locator(`[data-sprint-id="${sprint.sprint_id}"]`))
      .waitFor();
    await view.getByRole('heading', { name: 'Offline sprint' }).waitFor();
    await view.locator('[data-sync-mark]').waitFor({ state: 'detached' });
    await expect(view.locator('ul.task-lines > li').count()).resolves.toBe(3);
    await screenshot(page, 'sprint-view');
    await screenshotInDark(page, 'sprint-view');
  });

  test('edited and completed from its view, the server has the new goal and the sprint completed', async () => {
    const { page } = session.app;
    const view = page.locator('section.sprint-view');
    await view.getByRole('button', { name: 'Edit sprint' }).click();
    const form = page.getByTestId('sprint-form');
    await expect(form.getByLabel('Name').inputValue()).resolves.toBe('Offline sprint');
    await form.getByLabel(/^Goal/).fill('Search that answers offline, fast');
    await form.getByRole('button', { name: 'Save sprint' }).click();
    await form.waitFor({ state: 'detached' });
    await view.getByText('Search that answers offline, fast').waitFor();

    await view.getByRole('button', { name: 'Complete sprint' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Complete Offline sprint?' });
    await confirm.getByText('3 tasks are not done; they stay filed in this sprint.').waitFor();
    await confirm.getByRole('button', { name: 'Complete sprint' }).click();
    await view.getByRole('button', { name: 'Reopen sprint' }).waitFor();
    await syncAndSettle(page);
    const sprint = (await serverSprints()).find((s) => s.name === 'Offline sprint');
    expect(sprint).toMatchObject({ status: 'completed', goal: 'Search that answers offline, fast' });
  });
});

describe('a name taken by an active sprint of the team', () => {
  test('is refused (409), shown on the sprint and in pending changes, and fixed by Rename and retry', async () => {
    const { page } = session.app;
    await sprintCreatedElsewhere(session.emulator, team.team_id, 'Hardening', '2027-05-03', 2);
    const createsBefore = session.emulator.control.creates().sprints;

    await page.getByRole('button', { name: `New sprint in ${team.name}` }).click();
    const form = page.getByTestId('sprint-form');
    await form.getByLabel('Name').fill('hardening');
    await form.getByRole('radio', { name: 'Ends on' }).check();
    await form.getByLabel('Starts').fill('2027-05-17');
    await form.getByLabel('End date').fill('2027-05-28');
    await form.getByRole('button', { name: 'Create sprint' }).click();
    await form.waitFor({ state: 'detached' });

    const item = sidebarSprint(page, 'hardening');
    await item.locator('[data-sync-mark="failed"]').waitFor({ timeout: 20_000 });
    const refusal = page.getByTestId('sprint-refusal');
    await refusal.getByText('This sprint was not created.').waitFor();
    await refusal.getByText(/already has an active sprint named 'Hardening'/).waitFor();
    await screenshot(page, 'sprint-name-taken');
    await screenshotInDark(page, 'sprint-name-taken');

    // In pending changes too, in words, with the server's answer.
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const change = inspector.locator('li.pending-item[data-state="failed"]');
    await change.getByText(/^New sprint ‘hardening’/).waitFor();
    await change.getByText(/already has an active sprint named 'Hardening'/).waitFor();
    await change.getByRole('form', { name: 'Rename and retry' }).waitFor();
    await screenshot(page, 'sprint-name-taken-pending');
    await inspector.getByRole('button', { name: 'Close' }).click();

    // The same name again is refused here, without a round trip.
    const fix = refusal.getByRole('form', { name: 'Rename and retry' });
    await fix.getByRole('button', { name: 'Rename and retry' }).click();
    await fix.getByText('Choose a name no active sprint of the team has.').waitFor();
    await fix.getByLabel('New name').fill('Hardening 2');
    await fix.getByRole('button', { name: 'Rename and retry' }).click();
    await syncAndSettle(page);
    await refusal.waitFor({ state: 'detached' });
    await page.locator('section.sprint-view').getByRole('heading', { name: 'Hardening 2' }).waitFor();

    const named = (await serverSprints()).filter((s) => s.name.toLowerCase().startsWith('hardening'));
    expect(named.map((s) => s.name).sort()).toEqual(['Hardening', 'Hardening 2']);
    expect(named.find((s) => s.name === 'Hardening 2')).toMatchObject({
      start_date: '2027-05-17',
      end_date: '2027-05-28',
    });
    expect(session.emulator.control.creates().sprints).toBe(createsBefore + 1);
  });
});

describe('a sprint completed before it was sent', () => {
  test('a task filed into it from the palette, completed offline: the server has it completed, once, with the task', async () => {
    const { page } = session.app;
    const createsBefore = session.emulator.control.creates().sprints;
    const [task] = freeTasks(1);
    if (!task) throw new Error('unreachable');

    session.proxy.goOffline();
    await createSprintLasting(page, team.name, 'Spike week', 1);
    const item = sidebarSprint(page, 'Spike week');
    await item.locator('[data-sync-mark="pending"]').waitFor();

    // Filed from the keyboard: the palette's command for the open task, said to screen readers.
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('file into sprint spike');
    await expect(palette.getByRole('option').first().textContent()).resolves.toContain(
      `File into sprint: Spike week (${team.name}) (not sent yet)`,
    );
    await screenshot(page, 'sprint-file-from-palette');
    await screenshotInDark(page, 'sprint-file-from-palette');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: `Filed ‘${task.title}’ into sprint ‘Spike week’.` })
      .waitFor();
    await editor.locator('[data-field="sprint_id"].is-pending').waitFor();
    await item.locator('.nav-detail').filter({ hasText: /\/1$/ }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Close task' }).click();
    await page.getByLabel('Search tasks').fill('');

    // Completed while its create still waits: the status goes right after it.
    await item.getByRole('button').click();
    const view = page.locator('section.sprint-view');
    await view.getByRole('heading', { name: 'Spike week' }).waitFor();
    await view.getByRole('button', { name: 'Complete sprint' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Complete Spike week?' });
    await confirm.getByText('1 task is not done; it stays filed in this sprint.').waitFor();
    await confirm.getByRole('button', { name: 'Complete sprint' }).click();
    await view.getByRole('button', { name: 'Reopen sprint' }).waitFor();
    await view.locator('.list-title-row [data-sync-mark="pending"]').waitFor();
    expect(session.emulator.control.creates().sprints).toBe(createsBefore);
    await screenshot(page, 'sprint-completed-unsent');
    await screenshotInDark(page, 'sprint-completed-unsent');

    const created = await sentOnceOnline('Spike week', createsBefore);
    expect(created).toMatchObject({ status: 'completed', duration_weeks: 1 });
    expect(session.emulator.control.task(task.task_id)?.sprint_id).toBe(created.sprint_id);
    await view.getByRole('button', { name: 'Reopen sprint' }).waitFor();
    await view.locator('.list-title-row [data-sync-mark]').waitFor({ state: 'detached' });
  });
});

describe('a team with more sprints than the sidebar lists', () => {
  test('"All sprints (N)" opens the older ones from the keyboard, says so, and closes them again', async () => {
    const { page } = session.app;
    const nav = page.getByRole('navigation', { name: 'Workspace' });
    const sprints =
      (await invokeInPage(page, 'workspace:get')).teams.find((t) => t.team_id === team.team_id)?.sprints ??
      [];
    const oldest = sprints[sprints.length - 1];
    if (!oldest || sprints.length <= 4) throw new Error('the team has no sprint beyond the newest four');
    const moreName = `All sprints in ${team.name} (${sprints.length})`;
    const more = nav.getByRole('button', { name: moreName });
    // An inner locator is matched from the outer one: by role alone, not from the navigation again.
    const teamList = nav.locator('li.nav-team', { has: page.getByRole('button', { name: moreName }) });
    const oldestItem = teamList.locator(`li[data-sprint-id="${oldest.sprint_id}"]`);
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(oldestItem.count()).resolves.toBe(0);

    await more.focus();
    await page.keyboard.press('Enter');
    await oldestItem.waitFor();
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(teamList.locator('li[data-sprint-id]').count()).resolves.toBe(sprints.length);
    await page
      .getByRole('status')
      .filter({ hasText: `Showing all ${sprints.length} sprints of ${team.name}.` })
      .waitFor();
    await oldestItem.scrollIntoViewIfNeeded();
    await screenshot(page, 'sidebar-all-sprints');
    await screenshotInDark(page, 'sidebar-all-sprints');
    // An older sprint opens like any other.
    await oldestItem.getByRole('button').click();
    await page.locator('section.sprint-view').getByRole('heading', { name: oldest.name }).waitFor();

    await more.focus();
    await page.keyboard.press(' ');
    await oldestItem.waitFor({ state: 'detached' });
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(hasFocus(more)).resolves.toBe(true);
  });
});

describe('a sprint renamed by the peer while we renamed it offline', () => {
  test('is a conflict settled in the three-way view; keeping mine leaves the server with my name', async () => {
    const { page } = session.app;
    const sprintId = await sprintCreatedElsewhere(session.emulator, team.team_id, 'Polish', '2027-06-07', 1);
    await page.getByRole('button', { name: 'Sync now' }).click();
    const item = page.locator(`li[data-sprint-id="${sprintId}"]`);
    await item.waitFor({ timeout: 20_000 });
    await item.getByRole('button').click();
    const view = page.locator('section.sprint-view');
    await view.getByRole('heading', { name: 'Polish' }).waitFor();

    session.proxy.goOffline();
    await view.getByRole('button', { name: 'Edit sprint' }).click();
    const form = page.getByTestId('sprint-form');
    await form.getByLabel('Name').fill('Polish and docs');
    await form.getByRole('button', { name: 'Save sprint' }).click();
    await form.waitFor({ state: 'detached' });
    await view.getByRole('heading', { name: 'Polish and docs' }).waitFor();
    await item.locator('[data-sync-mark="pending"]').waitFor();

    const renamed = await peerPatch(
      session.emulator,
      `/v1/teams/${team.team_id}/sprints/${sprintId}`,
      { name: 'Final Polish' },
      ['teams:read', 'teams:write'],
    );
    expect(renamed.status).toBe(200);

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await item.locator('[data-sync-mark="conflict"]').waitFor({ timeout: 20_000 });

    // The inspector tells it in words; the sprint's own view opens the same three-way view.
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const change = inspector.locator('li.pending-item[data-state="conflict"]');
    await change.getByText(/Rename sprint ‘.*’ → ‘Polish and docs’/).waitFor({ timeout: 20_000 });
    await inspector.getByRole('button', { name: 'Close' }).click();
    await screenshot(page, 'sprint-in-conflict');
    await screenshotInDark(page, 'sprint-in-conflict');
    await view.getByRole('button', { name: 'Resolve…' }).click();
    const resolve = page.getByRole('dialog', { name: /Resolve the conflict/ });
    const field = resolve.locator('fieldset.conflict-field[data-field="name"]');
    await expect(field.locator('.conflict-column').first().textContent()).resolves.toContain('Polish');
    // Word by word against where the edit started: my words added after it, theirs before it.
    await expect(field.locator('.is-mine ins').allTextContents()).resolves.toEqual([' and docs']);
    await expect(field.locator('.is-theirs ins').allTextContents()).resolves.toEqual(['Final ']);
    await screenshot(page, 'sprint-conflict');
    await screenshotInDark(page, 'sprint-conflict');
    await field.getByLabel('Keep mine').check();
    await resolve.getByRole('button', { name: 'Apply choices' }).click();
    await resolve.waitFor({ state: 'detached' });
    await syncAndSettle(page);
    expect(
      (await callService(session.emulator, 'GET', `/v1/teams/${team.team_id}/sprints/${sprintId}`)).body.name,
    ).toBe('Polish and docs');
    await item.locator('[data-sync-mark]').waitFor({ state: 'detached' });
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
