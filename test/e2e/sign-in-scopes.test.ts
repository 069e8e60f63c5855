// Signing in through the browser with a narrower grant: the person leaves
// teams:write unticked on the consent page. The app says sprints cannot be
// changed and why, New sprint is disabled and nothing about sprints is queued;
// "Sign in again to allow changing sprints" asks anew, and once granted the
// sprint controls work. And a full grant narrowed afterwards (an administrator
// takes teams:write back): the sprint created then is refused with 403
// insufficient-scope and shown read-only naming the permission, sprints alone
// become read-only while tasks still go, the inspector offers the same
// re-consent instead of a retry, and once signed in again the sprint is sent by
// itself, once. Without tasks:write, task, comment and board controls are off
// with the same notice and action.
import { describe, expect, test } from 'vitest';
import { QUICK_RETRY, startAppSession, sessionPerFile } from './support/app-session';
import { blockingViolations } from './support/accessibility-audit';
import { invokeInPage, screenshot, workspaceTeam } from './support/app-browser';
import { readFromServer } from './support/service-calls';
import { createSprintLasting } from './support/sprint-steps';
import { until } from './support/waits';

const session = sessionPerFile(() =>
  startAppSession({ emulator: { seedTasks: 40 }, client: { retry: QUICK_RETRY } }),
);

async function consent(untick: string[]): Promise<void> {
  const { app, host } = session;
  const page = await app.context.newPage();
  await page.goto(await host.nextOpenedUrl());
  for (const scope of untick) await page.getByRole('checkbox', { name: scope }).uncheck();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'Signed in' }).waitFor();
  await page.close();
}

describe('a browser sign-in granted fewer scopes than asked', () => {
  test('without teams:write: sprint controls disabled with the reason, no sprint queued; signing in again enables them', async () => {
    const { app, host, emulator } = session;
    const { page } = app;
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    await consent(['teams:write']);
    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();

    const team = emulator.control.tasks().find((t) => t.team_id !== null)?.team_id as string;
    const newSprint = page.locator('button[aria-label^="New sprint in"]').first();
    await newSprint.waitFor();
    expect(await newSprint.isDisabled()).toBe(true);
    const note = page.getByTestId('consent-sprint');
    await expect(note.textContent()).resolves.toContain('may not change sprints');
    await expect(note.textContent()).resolves.toContain('teams:write');
    expect(await newSprint.getAttribute('aria-describedby')).toBe('consent-sprint');
    await screenshot(page, 'sprints-not-granted');
    const account = host.accounts.current();
    expect(account?.read_only_kinds).toEqual([{ kind: 'sprint', scope: 'teams:write' }]);
    const mirror = host.accounts.runtime(account?.id as string).mirror;
    expect(mirror.outbox.list().filter((op) => op.entityType === 'sprint')).toEqual([]);
    expect(team).toEqual(expect.any(String));

    await note.getByRole('button', { name: 'Sign in again to allow changing sprints' }).click();
    await consent([]);
    await note.waitFor({ state: 'detached' });
    expect(await newSprint.isDisabled()).toBe(false);
    expect(host.accounts.current()?.read_only_kinds).toEqual([]);
    expect(host.accounts.list()).toHaveLength(1);
  });
});

describe('a write refused for want of a scope after a full sign-in', () => {
  test('a sprint refused with 403 insufficient-scope is read-only with the reason, sprints only; signing in again sends it once', async () => {
    const { app, host, emulator } = session;
    const { page } = app;
    const account = host.accounts.current();
    expect(account?.read_only_kinds).toEqual([]);
    const mirror = host.accounts.runtime(account?.id as string).mirror;
    const team = await workspaceTeam(page, 'Platform');
    const sprintsBefore = emulator.control.creates().sprints;

    // An administrator takes teams:write back from what the app was granted.
    expect(emulator.control.withdrawOAuthScopes(['teams:write'])).toBeGreaterThan(0);
    const newSprint = page.getByRole('button', { name: `New sprint in ${team.name}` });
    await createSprintLasting(page, team.name, 'Sprint after the grant narrowed', 2);

    // Refused: the sprint is read-only, and the sidebar says which permission is missing.
    const sidebar = page.getByRole('navigation', { name: 'Workspace' });
    const item = sidebar.locator('li[data-sprint-id]').filter({ hasText: 'Sprint after the grant narrowed' });
    await item.locator('[data-sync-mark="blocked"]').waitFor({ timeout: 20_000 });
    const note = sidebar.getByTestId('consent-sprint');
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain('may not change sprints');
    await expect(note.textContent()).resolves.toContain('teams:write');
    expect(await newSprint.isDisabled()).toBe(true);
    expect(host.accounts.current()?.read_only_kinds).toEqual([{ kind: 'sprint', scope: 'teams:write' }]);
    // The sprint opened once created says so too, under an id of its own: New sprint names the sidebar's.
    await page.locator('section.sprint-view').getByTestId('consent-sprint-view').waitFor();
    expect(await page.locator('[id="consent-sprint"]').count()).toBe(1);

    // Nothing more of that kind is queued; tasks still go.
    await expect(
      invokeInPage(page, 'collection:create', {
        kind: 'sprint',
        parent_id: team.team_id,
        fields: { name: 'Second refused sprint', start_date: '2026-12-01', duration_weeks: 1 },
      }),
    ).rejects.toThrow(/teams:write/);
    expect(mirror.outbox.list().filter((op) => op.entityType === 'sprint')).toHaveLength(1);
    const task = emulator.control.tasks()[0];
    if (!task) throw new Error('the seed has no task');
    await invokeInPage(page, 'task:edit', {
      task_id: task.task_id,
      patch: { title: `${task.title} (while sprints wait)` },
    });
    await until(
      () => emulator.control.task(task.task_id)?.title === `${task.title} (while sprints wait)`,
      'the task edit on the server',
    );

    // The inspector tells the change as read-only, naming the permission, and offers the same re-consent
    // in place of a retry the service would refuse again.
    await page.getByRole('button', { name: 'Review changes' }).click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const change = inspector.locator('li.pending-item[data-state="blocked"]');
    await change.locator('.pending-state').filter({ hasText: 'Read-only' }).waitFor();
    await change
      .getByText('Your sign-in does not allow this (403): it lacks teams:write; the change was not sent.')
      .waitFor();
    expect(await change.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
    // Edited and sent again it would only be refused again: the re-consent is the one way offered.
    expect(await change.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    const again = inspector.getByTestId('pending-consent-sprint');
    await expect(again.textContent()).resolves.toContain('teams:write');
    await screenshot(page, 'sprint-refused-for-scope');
    expect(await blockingViolations(page)).toEqual([]);

    // Signing in again asks for the scope; what waited is sent by itself, once.
    await again.getByRole('button', { name: 'Sign in again to allow changing sprints' }).click();
    await consent([]);
    await inspector.getByText('All changes are saved on the server.').waitFor({ timeout: 20_000 });
    expect(emulator.control.creates().sprints).toBe(sprintsBefore + 1);
    await inspector.getByRole('button', { name: 'Close' }).click();
    await note.waitFor({ state: 'detached' });
    await item.locator('[data-sync-mark]').waitFor({ state: 'detached' });
    expect(await newSprint.isDisabled()).toBe(false);
    expect(host.accounts.current()?.read_only_kinds).toEqual([]);
    expect(mirror.outbox.list().filter((op) => op.entityType === 'sprint' && op.state !== 'done')).toEqual(
      [],
    );
    const onServer = (await readFromServer(emulator, `/v1/teams/${team.team_id}/sprints`)).data as {
      name: string;
    }[];
    expect(onServer.filter((s) => s.name === 'Sprint after the grant narrowed')).toHaveLength(1);
  });
});

describe('a browser sign-in without tasks:write', () => {
  test('task and comment controls are off with the reason; nothing is queued; signing in again turns them on', async () => {
    const { app, host } = session;
    const { page } = app;
    const current = host.accounts.current();
    const server = {
      base_url: current?.base_url,
      auth_url: current?.auth_url,
      client_id: current?.client_id,
    };
    const signingIn = invokeInPage(page, 'accounts:start-oauth', { server, account_id: current?.id });
    await consent(['tasks:write']);
    await signingIn;
    expect(
      host.accounts
        .current()
        ?.read_only_kinds.map((k) => k.kind)
        .sort(),
    ).toEqual(['attachment', 'comment', 'section', 'task', 'view', 'view_pin']);

    await page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('button', { name: 'All tasks' })
      .click();
    const newTask = page.getByRole('button', { name: 'New task' });
    const note = page.getByTestId('consent-task');
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain('tasks:write');
    expect(await newTask.isDisabled()).toBe(true);
    expect(await newTask.getAttribute('aria-describedby')).toBe('consent-task');

    await page.locator('[role="row"][data-task-id]').first().click();
    const editor = page.getByTestId('task-editor');
    await editor.getByTestId('consent-task-editor').waitFor();
    expect(await editor.getByLabel('Title').isDisabled()).toBe(true);
    await editor.getByRole('heading', { name: /^Comments/ }).waitFor();
    // No comment box is offered to a sign-in that may not send one.
    expect(await editor.getByLabel('New comment').count()).toBe(0);
    await screenshot(page, 'tasks-not-granted');
    expect(await blockingViolations(page)).toEqual([]);
    const mirror = host.accounts.runtime(current?.id as string).mirror;
    expect(mirror.outbox.list().filter((op) => op.state !== 'done')).toEqual([]);

    await note.getByRole('button', { name: 'Sign in again to allow changing tasks' }).click();
    await consent([]);
    await note.waitFor({ state: 'detached' });
    expect(await newTask.isDisabled()).toBe(false);
    expect(await editor.getByLabel('Title').isDisabled()).toBe(false);
    await editor.getByLabel('New comment').waitFor();
    expect(host.accounts.current()?.read_only_kinds).toEqual([]);
  });
});

describe('the page', () => {
  test('reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
