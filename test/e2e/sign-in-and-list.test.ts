// Signing in with a pasted token, the first sync filling the list, and the
// list's search, filters and sorts, in Chromium against the built renderer.
import { describe, expect, test } from 'vitest';
import { startAppSession, sessionPerFile } from './support/app-session';
import { screenshot, signInWithToken } from './support/app-browser';

const session = sessionPerFile(() => startAppSession({ emulator: { seedTasks: 300 } }));

describe('signing in with a pasted token', () => {
  test('the sign-in screen offers the browser, a token, the server settings and the demo', async () => {
    const { page } = session.app;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Enabled once the server settings arrived.
    await expect
      .poll(() => page.getByRole('button', { name: 'Sign in with your browser' }).isEnabled())
      .toBe(true);
    await expect(page.getByRole('button', { name: 'Try the demo' }).isVisible()).resolves.toBe(true);
    await page.getByText('Server settings').click();
    // The address the app was configured with (SVC_BASE_URL): the session's way to the emulator.
    await expect(page.getByLabel('Service address (base URL)').inputValue()).resolves.toBe(session.proxy.url);
    await screenshot(page, 'sign-in');
  });

  test('a token the service does not know is told in words, and the form stays', async () => {
    const { page } = session.app;
    await page.getByLabel('Access token').fill('svc_live_thisisnotarealtoken000000000000');
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.getAttribute('data-problem-type')).resolves.toBe('token-invalid');
    await expect(alert.textContent()).resolves.toContain('This token is not recognised');
    await screenshot(page, 'sign-in-problem');
  });

  test('a live token signs in, and the first sync fills My tasks', async () => {
    const { page } = session.app;
    await signInWithToken(page, session.host.emulator.tokens.live);
    await page.getByRole('heading', { name: 'My tasks' }).waitFor();
    const mine = session.host.emulator.control
      .tasks()
      .filter((task) => task.assignee === session.host.emulator.me.username).length;
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${mine} task` })
      .waitFor({ timeout: 20_000 });
    await expect(page.getByRole('row').count()).resolves.toBeGreaterThan(5);
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor();
    // The sidebar and the project column fill in once the workspace is read after the sync.
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'task-list');
  });
});

describe('the task list', () => {
  test('All tasks counts every task on the server', async () => {
    const { page } = session.app;
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByRole('heading', { name: 'All tasks' }).waitFor();
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${session.host.emulator.control.taskCount()} tasks` })
      .waitFor();
  });

  test('search narrows the list as one types', async () => {
    const { page } = session.app;
    const target = session.host.emulator.control.tasks()[7];
    if (!target) throw new Error('the seed has too few tasks');
    const word = target.title.split(/\s+/).find((w) => w.length >= 5) ?? target.title;
    await page.getByLabel('Search tasks').fill(word);
    const expected = session.host.emulator.control
      .tasks()
      .filter((task) =>
        [task.title, task.description ?? '', task.task_id, ...task.tags].some((text) =>
          text.toLowerCase().includes(word.toLowerCase()),
        ),
      ).length;
    await page
      .getByTestId('list-count')
      .filter({ hasText: new RegExp(`^${expected} tasks?$`) })
      .waitFor();
    await page.locator(`[data-task-id="${target.task_id}"]`).waitFor();
    await page.getByLabel('Search tasks').fill('');
  });

  test('status chips filter, and a column header sorts', async () => {
    const { page } = session.app;
    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Blocked' }).click();
    const blocked = session.host.emulator.control.tasks().filter((task) => task.status === 'blocked').length;
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${blocked} task` })
      .waitFor();
    await page.getByRole('button', { name: 'Due' }).click();
    await page
      .getByRole('columnheader', { name: 'Due' })
      .and(page.locator('[aria-sort="ascending"]'))
      .waitFor();
    const dues = await page.locator('[role="row"][data-task-id] .cell-due').allTextContents();
    expect(dues.length).toBeGreaterThan(1);
    await screenshot(page, 'task-list-filtered');
    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Blocked' }).click();
  });

  test('the page reported no errors and no CSP refusals', () => {
    expect(session.app.problems).toEqual([]);
  });
});
