// Sync you can see and trust, end to end: a conflict made by the peer racing
// a local edit is shown per field (base, mine, theirs) and settled field by
// field, and the server ends with the chosen values; the pending-changes
// inspector shows a change the server refused (422) and one blocked under a
// read-only token, and retry, edit and discard work; a task deleted remotely
// while edited offers to re-create it, or drops the edit without a word to
// the server; the dialogs hold the keyboard (Tab, Shift+Tab) until Escape hands
// the focus back to their opener. Screenshots in light and dark.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TaskRecord } from '../../emulator/records';
import type { RunningEmulator } from '../../emulator/start';
import { sessionPerFile } from './support/app-session';
import { invokeInPage, hasFocus, screenshot, screenshotInDark, signInWithToken } from './support/app-browser';
import { callService, peerToken, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced } from './support/waits';

const session = sessionPerFile(() =>
  startSignedInSession({
    emulator: { seedTasks: 120 },
    beforeSignIn: (started) => readArchivedProjects(started.emulator),
  }),
);

/** The task as the API answers it now (over HTTP, as any client would see it). */
async function serverTask(taskId: string): Promise<Record<string, unknown> | null> {
  const answer = await callService(session.emulator, 'GET', `/v1/tasks/${taskId}`);
  return answer.status === 404 ? null : answer.body;
}

const used = new Set<string>();
/** Projects a task cannot be (re-)filed in: a re-created task would be refused there. */
const archived = new Set<string>();

async function readArchivedProjects(server: RunningEmulator): Promise<void> {
  const body = await readFromServer(server, `/v1/projects/${server.orgId}?limit=100`);
  for (const project of body.data as { project_id: string; status: string }[])
    if (project.status === 'archived') archived.add(project.project_id);
}

/**
 * A task not touched by an earlier test, with a short title, in a project it
 * can be (re-)filed in, and that `fits` (by default: not completed).
 */
function freshTask(
  fits: (task: TaskRecord) => boolean = (t) => t.status !== 'completed',
  lacking = 'the seed has no task left to use',
) {
  const task = session.emulator.control
    .tasks()
    .sort((a, b) => a.task_id.localeCompare(b.task_id))
    .find(
      (t) =>
        !used.has(t.task_id) &&
        t.title.length < 40 &&
        fits(t) &&
        (t.project_id === null || !archived.has(t.project_id)),
    );
  if (!task) throw new Error(lacking);
  used.add(task.task_id);
  return task;
}

async function openInEditor(page: Page, taskId: string) {
  await page.getByLabel('Search tasks').fill(taskId);
  await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
  const editor = page.getByTestId('task-editor');
  await editor.locator('.task-id').filter({ hasText: taskId }).waitFor();
  return editor;
}

/** The accessible name of the dialog holding the focus ('' when the focus is outside every dialog). */
function focusedDialog(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const dialog = document.activeElement?.closest('dialog');
    if (!dialog) return '';
    return dialog.getAttribute('aria-label') ?? document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ?? '?';
  })()`);
}

/** Presses the key more times than the dialog has stops; the focus must stay in it and visit every stop. */
async function cycleInside(page: Page, key: 'Tab' | 'Shift+Tab', dialogName: string | RegExp, stops: number) {
  const visited = new Set<string>();
  for (let press = 0; press < stops * 2 + 1; press += 1) {
    await page.keyboard.press(key);
    expect(await focusedDialog(page)).toMatch(dialogName);
    visited.add(await page.evaluate<string>('document.activeElement?.outerHTML.slice(0, 200) ?? ""'));
  }
  expect(visited.size).toBe(stops);
}

describe('a conflict with the peer', () => {
  test('appears on the row, the editor and the status bar, is resolved per field, and the server ends with the choices', async () => {
    const { page } = session.app;
    const task = freshTask();
    const editor = await openInEditor(page, task.task_id);

    session.proxy.goOffline();
    await editor.getByLabel('Title').fill(`${task.title} for SSO users`);
    await editor.getByLabel('Title').press('Enter');
    await editor
      .getByLabel('Description')
      .fill('Users of SSO cannot sign in.\nSteps: open the login page, choose SSO.');
    await editor.getByLabel('Description').press('Control+Enter');
    await editor.getByLabel('Priority').selectOption('urgent');
    await editor.getByLabel('Due').fill('2031-05-20');
    await editor.getByLabel('Due').press('Enter');
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();

    // The peer races the edit on three of the same fields.
    session.emulator.control.peerEdit(task.task_id, {
      title: `${task.title} on mobile`,
      description: 'Mobile users cannot sign in.\nSteps: open the login page on a phone.',
      priority: 'low',
    });

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    const row = page.locator(`[role="row"][data-task-id="${task.task_id}"]`);
    await row.locator('[data-sync-mark="conflict"]').waitFor({ timeout: 20_000 });
    await editor.locator('[data-sync-mark="conflict"]').waitFor();
    await page.locator('.status-bar').getByText('1 conflict').waitFor();
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
    // The person still sees their own edit.
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(`${task.title} for SSO users`);

    await editor.getByTestId('sync-mark-notice').getByRole('button', { name: 'Resolve conflict…' }).waitFor();
    // From the keyboard: the command palette opens the conflict view of the open task.
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Type a command or a task title' }).fill('resolve the conflict');
    await page.keyboard.press('Enter');
    const view = page.getByRole('dialog', { name: /Resolve the conflict/ });
    await view.waitFor();
    const fields = view.locator('fieldset.conflict-field');
    const fieldNames = async () =>
      Promise.all((await fields.all()).map((field) => field.getAttribute('data-field')));
    // The dialog may be drawn before its fields are read from main (CI once found none there).
    await expect.poll(fieldNames).toEqual(['title', 'description', 'priority']);
    const title = view.locator('fieldset[data-field="title"]');
    // Each side marked against where the edit started: only what was added shows as added.
    await expect(title.locator('.is-mine ins').allTextContents()).resolves.toEqual([' for SSO users']);
    await expect(title.locator('.is-theirs ins').allTextContents()).resolves.toEqual([' on mobile']);
    await expect(title.locator('del').count()).resolves.toBe(0);
    const description = view.locator('fieldset[data-field="description"]');
    await expect(description.locator('.is-theirs ins').allTextContents()).resolves.toEqual([
      'Mobile users cannot sign in.\nSteps: open the login page on a phone.',
    ]);
    await view
      .locator('.conflict-merged li[data-field="due_date"]')
      .getByText('yours, sent on top of theirs')
      .waitFor();
    await screenshot(page, 'conflict-view');
    await screenshotInDark(page, 'conflict-view');

    // Title: keep mine (the default); description: take theirs; priority: a new value typed.
    await view.locator('fieldset[data-field="description"]').getByLabel('Take theirs').check();
    await view.locator('fieldset[data-field="priority"]').getByLabel('Type a new value').check();
    await view.getByLabel('New priority').fill('high');
    await view.getByRole('button', { name: 'Apply choices' }).click();
    await view.waitFor({ state: 'detached' });

    await allChangesSynced(page);
    await row.locator('[data-sync-mark]').waitFor({ state: 'detached' });
    const onServer = await serverTask(task.task_id);
    expect(onServer).toMatchObject({
      title: `${task.title} for SSO users`,
      description: 'Mobile users cannot sign in.\nSteps: open the login page on a phone.',
      priority: 'high',
      due_date: '2031-05-20',
    });
    await expect(editor.getByLabel('Description').inputValue()).resolves.toBe(onServer?.description);
    await editor.getByRole('button', { name: 'Close task' }).click();
  });
});

describe('a conflict on a task’s sprint (issue 13)', () => {
  test('the three-way view names the sprints on each side, never their ids; taking theirs files it there', async () => {
    const { page } = session.app;
    const workspace = await invokeInPage(page, 'workspace:get');
    const team = workspace.teams.find((t) => t.name === 'Platform') ?? workspace.teams[0];
    if (!team) throw new Error('the seed has no team');
    const sprintIds: string[] = [];
    for (const [name, start] of [
      ['Sprint Alpha', '2031-01-06'],
      ['Sprint Beta', '2031-01-20'],
    ] as const) {
      const response = await fetch(new URL(`/v1/teams/${team.team_id}/sprints`, session.emulator.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${session.emulator.tokens.live}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name, start_date: start, duration_weeks: 2 }),
      });
      expect(response.status).toBe(201);
      sprintIds.push(((await response.json()) as { sprint_id: string }).sprint_id);
    }
    const [alpha, beta] = sprintIds as [string, string];
    const task = freshTask(
      (t) => t.sprint_id === null && (t.team_id === null || t.team_id === team.team_id),
      'the seed has no task free to file into a sprint',
    );
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    const editor = await openInEditor(page, task.task_id);
    const sprintField = editor.getByLabel('Sprint');
    await sprintField.locator(`option[value="${alpha}"]`).waitFor({ state: 'attached', timeout: 20_000 });

    session.proxy.goOffline();
    await sprintField.selectOption(alpha);
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
    session.emulator.control.peerEdit(task.task_id, { sprint_id: beta });
    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await editor.locator('[data-sync-mark="conflict"]').waitFor({ timeout: 20_000 });

    await editor.getByTestId('sync-mark-notice').getByRole('button', { name: 'Resolve conflict…' }).click();
    const view = page.getByRole('dialog', { name: /Resolve the conflict/ });
    const field = view.locator('fieldset[data-field="sprint_id"]');
    await field.waitFor();
    await expect(field.locator('.conflict-column').allInnerTexts()).resolves.toEqual([
      'When you started\n—',
      'Yours\nSprint Alpha',
      'Theirs (on the server)\nSprint Beta',
    ]);
    const shown = await view.innerText();
    expect(shown).not.toContain(alpha);
    expect(shown).not.toContain(beta);
    await screenshot(page, 'conflict-view-sprint-names');
    await screenshotInDark(page, 'conflict-view-sprint-names');

    // The inspector tells the same change by the sprints' names (before: the server's now).
    await view.getByRole('button', { name: 'Decide later' }).click();
    await view.waitFor({ state: 'detached' });
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    await inspector
      .locator('li.pending-item[data-state="conflict"]')
      .getByText(`Sprint: Sprint Beta → Sprint Alpha on ‘${task.title}’`)
      .waitFor();
    await screenshot(page, 'pending-changes-sprint-names');
    await screenshotInDark(page, 'pending-changes-sprint-names');
    await page.keyboard.press('Escape');
    await inspector.waitFor({ state: 'detached' });
    await editor.getByTestId('sync-mark-notice').getByRole('button', { name: 'Resolve conflict…' }).click();
    await field.waitFor();

    await field.getByLabel('Take theirs').check();
    await view.getByRole('button', { name: 'Apply choices' }).click();
    await view.waitFor({ state: 'detached' });
    await allChangesSynced(page);
    expect((await serverTask(task.task_id))?.sprint_id).toBe(beta);
    await editor.getByRole('button', { name: 'Close task' }).click();
  });
});

/** The task opened in the editor and one of its fields changed while offline: one change waits. */
async function editedOffline(page: Page, taskId: string, label: 'Title' | 'Description', value: string) {
  const editor = await openInEditor(page, taskId);
  session.proxy.goOffline();
  await editor.getByLabel(label).fill(value);
  // A title is saved by Enter; the description, a text area, by Ctrl+Enter.
  await editor.getByLabel(label).press(label === 'Title' ? 'Enter' : 'Control+Enter');
  await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
  return editor;
}

/**
 * The task opened in the editor and its description edited offline, then
 * deleted by the peer; back online, a sync finds it gone and the person opens
 * its view from the editor. `tasksBefore`: the server's task count after the delete.
 */
async function editedThenDeletedRemotely(page: Page, taskId: string, description: string) {
  const editor = await editedOffline(page, taskId, 'Description', description);
  session.emulator.control.peerDelete(taskId);
  const tasksBefore = session.emulator.control.taskCount();

  session.proxy.goOnline();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await editor.getByTestId('sync-mark-notice').getByRole('button', { name: 'Resolve conflict…' }).click({
    timeout: 20_000,
  });
  const view = page.getByRole('dialog', { name: /Task no longer on the server/ });
  return { editor, view, tasksBefore };
}

describe('a task deleted remotely while edited', () => {
  test('is never dropped silently: the edit is offered as a draft and re-created on request', async () => {
    const { page } = session.app;
    const task = freshTask();
    const { view, tasksBefore: before } = await editedThenDeletedRemotely(
      page,
      task.task_id,
      'Notes worth keeping',
    );
    await view
      .locator('.conflict-draft [data-field="description"]')
      .getByText('Notes worth keeping')
      .waitFor();
    await screenshot(page, 'conflict-deleted-remotely');
    // The draft can be copied as text, to keep it elsewhere.
    await session.app.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: session.host.url,
    });
    await view.getByRole('button', { name: 'Copy the draft' }).click();
    await view.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toContain(`Task: ${task.title}`);
    expect(copied).toContain('Description: Notes worth keeping');
    await view.getByRole('button', { name: 'Re-create the task with my edit' }).click();
    await view.waitFor({ state: 'detached' });

    // The editor follows the new task from its temporary id to the server's once the create went through.
    const newId = page.getByTestId('task-editor').locator('.task-id').filter({ hasText: /^tsk_/ });
    await newId.waitFor({ timeout: 20_000 });
    await allChangesSynced(page);
    const recreated = session.emulator.control.tasks().filter((t) => t.description === 'Notes worth keeping');
    expect(recreated).toEqual([
      expect.objectContaining({ title: task.title, task_id: await newId.textContent() }),
    ]);
    expect(session.emulator.control.taskCount()).toBe(before + 1);
    expect(await serverTask(task.task_id)).toBeNull();
    await page.getByTestId('task-editor').getByRole('button', { name: 'Close task' }).click();
  });

  test('"Drop my edit" removes the edit and the task, and sends nothing to the server', async () => {
    const { page } = session.app;
    const task = freshTask();
    const { view, tasksBefore } = await editedThenDeletedRemotely(page, task.task_id, 'An edit to let go');
    await view.locator('.conflict-draft [data-field="description"]').getByText('An edit to let go').waitFor();
    const writes = () => session.emulator.control.requests().filter((r) => r.method !== 'GET').length;
    const writesBefore = writes();
    await view.getByRole('button', { name: 'Drop my edit' }).click();
    await view.waitFor({ state: 'detached' });

    await allChangesSynced(page);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Type a command or a task title' }).fill('pending changes');
    await page.keyboard.press('Enter');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    await inspector.getByText('All changes are saved on the server.').waitFor();
    await page.keyboard.press('Escape');
    await inspector.waitFor({ state: 'detached' });

    expect(writes()).toBe(writesBefore);
    expect(session.emulator.control.taskCount()).toBe(tasksBefore);
    expect(session.emulator.control.tasks().filter((t) => t.description === 'An edit to let go')).toEqual([]);
    expect(await serverTask(task.task_id)).toBeNull();
  });
});

describe('dialogs are modal for the keyboard', () => {
  test('Tab and Shift+Tab stay inside the delete confirmation; Escape closes it and gives the focus back to its button', async () => {
    const { page } = session.app;
    const task = freshTask();
    const editor = await openInEditor(page, task.task_id);
    const deleteButton = editor.getByRole('button', { name: 'Delete task' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Delete this task?' });
    await confirm.waitFor();
    expect(await hasFocus(confirm.getByRole('button', { name: 'Delete' }))).toBe(true);
    await screenshot(page, 'delete-confirm');
    await screenshotInDark(page, 'delete-confirm');

    await cycleInside(page, 'Tab', 'Delete this task?', 2);
    await cycleInside(page, 'Shift+Tab', 'Delete this task?', 2);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await hasFocus(deleteButton)).toBe(true);
    // Escape answered the dialog, not the app: the task stays open and on the server.
    await editor.locator('.task-id').filter({ hasText: task.task_id }).waitFor();
    expect(await serverTask(task.task_id)).not.toBeNull();
    await editor.getByRole('button', { name: 'Close task' }).click();
  });

  test('the pending-changes inspector, and a confirmation opened inside it, each hold the focus until Escape', async () => {
    const { page } = session.app;
    const task = freshTask();
    const editor = await editedOffline(page, task.task_id, 'Title', `${task.title} (modal)`);

    const review = page.getByTestId('review-changes');
    await review.focus();
    await page.keyboard.press('Enter');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item').first();
    await item.getByRole('button', { name: 'Discard…' }).waitFor();
    const stops = await inspector.evaluate(
      (dialog: { querySelectorAll: (s: string) => { length: number } }) =>
        dialog.querySelectorAll('button:not([disabled])').length,
    );
    await cycleInside(page, 'Tab', 'Pending changes', stops);
    await cycleInside(page, 'Shift+Tab', 'Pending changes', stops);

    // A confirmation over the inspector holds the focus in turn, and gives it back to its opener.
    const discard = item.getByRole('button', { name: 'Discard…' });
    await discard.focus();
    await page.keyboard.press('Enter');
    const confirm = item.getByRole('alertdialog', { name: 'Discard this change?' });
    await confirm.waitFor();
    await cycleInside(page, 'Tab', 'Discard this change?', 2);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await hasFocus(discard)).toBe(true);
    await inspector.waitFor();

    await page.keyboard.press('Escape');
    await inspector.waitFor({ state: 'detached' });
    expect(await hasFocus(review)).toBe(true);

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    expect((await serverTask(task.task_id))?.title).toBe(`${task.title} (modal)`);
    await editor.getByRole('button', { name: 'Close task' }).click();
  });
});

describe('the pending-changes inspector', () => {
  test('shows a change the server refused (422) in words; retry sends it again, edit fixes it', async () => {
    const { page } = session.app;
    const task = freshTask();
    await page.getByLabel('Search tasks').fill(task.task_id);
    // An assignee the service does not know: refused with 422.
    await invokeInPage(page, 'task:edit', {
      task_id: task.task_id,
      patch: { assignee: 'nobody-by-that-name' },
    });
    const row = page.locator(`[role="row"][data-task-id="${task.task_id}"]`);
    await row.locator('[data-sync-mark="failed"]').waitFor({ timeout: 20_000 });

    // G then P, from outside any field (the shortcuts leave typing alone).
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item[data-state="failed"]');
    await item
      .getByText(`Assignee: ${task.assignee ?? '—'} → nobody-by-that-name on ‘${task.title}’`)
      .waitFor();
    await item.getByText('Refused by the server (422): Assignee:').waitFor();
    await item.getByText('1 attempt').waitFor();
    await screenshot(page, 'pending-changes-refused');

    const patches = () => session.emulator.control.requests().filter((r) => r.method === 'PATCH').length;
    const sent = patches();
    await item.getByRole('button', { name: 'Retry now' }).click();
    await item.getByText('2 attempts').waitFor({ timeout: 20_000 });
    expect(patches()).toBe(sent + 1);

    await item.getByRole('button', { name: 'Edit' }).click();
    await item
      .getByRole('form', { name: 'Edit the change' })
      .getByLabel('Assignee')
      .fill(session.emulator.peer.username);
    await item.getByRole('button', { name: 'Save and retry' }).click();
    await inspector.getByText('All changes are saved on the server.').waitFor({ timeout: 20_000 });
    expect((await serverTask(task.task_id))?.assignee).toBe(session.emulator.peer.username);
    await inspector.getByRole('button', { name: 'Close' }).click();
  });

  test('a new task refused for a section the person cannot use is sent without it on one click (issue 22)', async () => {
    const { page } = session.app;
    // A teammate's personal section: the service refuses it for us; the mirror never lists it.
    const section = await callService(session.emulator, 'POST', '/v1/sections', {
      token: peerToken(session.emulator, ['tasks:read', 'tasks:write']),
      body: {
        org_id: session.emulator.orgId,
        scope_type: 'user',
        scope_id: session.emulator.peer.username,
        name: 'Peer focus',
      },
      idempotencyKey: 'peer-focus-section',
    });
    expect(section.status, JSON.stringify(section.body)).toBeLessThan(300);
    const title = 'Filed where only a teammate can look';
    await invokeInPage(page, 'task:create', {
      fields: { title, section_id: String(section.body.section_id) },
    });

    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item[data-state="failed"]').filter({ hasText: title });
    await item.getByText('Refused by the server (422): Section:').waitFor({ timeout: 20_000 });
    await item.getByRole('button', { name: 'Send without section' }).click();
    await inspector.getByText('All changes are saved on the server.').waitFor({ timeout: 20_000 });
    expect(session.emulator.control.tasks().filter((t) => t.title === title)).toEqual([
      expect.objectContaining({ section_id: null }),
    ]);
    await inspector.getByRole('button', { name: 'Close' }).click();
  });

  test('shows a change blocked under a read-only token; discard asks first and puts the server values back', async () => {
    const { page } = session.app;
    const task = freshTask();
    const editor = await editedOffline(page, task.task_id, 'Title', `${task.title} (draft)`);
    await editor.getByRole('button', { name: 'Close task' }).click();

    // Signed out keeping the edit, then back in with the same person's read-only test token.
    const accountId = session.host.accounts.list()[0]?.id;
    await invokeInPage(page, 'accounts:sign-out', { account_id: accountId, keep_pending: true });
    session.proxy.goOnline();
    await signInWithToken(page, session.emulator.tokens.test);
    await page.locator('.status-bar .read-only-chip').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(task.task_id);
    const row = page.locator(`[role="row"][data-task-id="${task.task_id}"]`);
    await row.locator('[data-sync-mark="blocked"]').waitFor({ timeout: 20_000 });

    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Type a command or a task title' }).fill('pending changes');
    await page.keyboard.press('Enter');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item[data-state="blocked"]');
    await item
      .getByText('This account can only read (403): the change was not sent.')
      .waitFor({ timeout: 20_000 });
    await item.getByText(`Title: ‘${task.title}’ → ‘${task.title} (draft)’`).waitFor();
    await screenshot(page, 'pending-changes');
    await screenshotInDark(page, 'pending-changes');

    await item.getByRole('button', { name: 'Discard…' }).click();
    const confirm = item.getByRole('alertdialog', { name: 'Discard this change?' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await item.getByRole('button', { name: 'Discard…' }).click();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await inspector.getByText('All changes are saved on the server.').waitFor();
    // The button that opened the confirmation went with the change: the focus stays in the inspector.
    expect(await focusedDialog(page)).toBe('Pending changes');
    await inspector.getByRole('button', { name: 'Close' }).click();

    await allChangesSynced(page);
    expect((await serverTask(task.task_id))?.title).toBe(task.title);
    await row.getByText(task.title, { exact: true }).waitFor();
    await expect(row.locator('[data-sync-mark]').count()).resolves.toBe(0);
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
