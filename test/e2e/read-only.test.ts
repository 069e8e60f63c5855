// A test token signs in read-only: the app says so up front and offers no
// change it would have to refuse later, and nothing is ever sent.
import { describe, expect, test } from 'vitest';
import { startAppSession, sessionPerFile } from './support/app-session';
import { screenshot, signInWithToken } from './support/app-browser';

const session = sessionPerFile(() => startAppSession({ emulator: { seedTasks: 120 } }));

describe('a read-only account', () => {
  test('signs in with a test token and says it is read-only', async () => {
    const { page } = session.app;
    await signInWithToken(page, session.host.emulator.tokens.test);
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor({ timeout: 20_000 });
    await expect(page.locator('.account-user').textContent()).resolves.toContain('read-only');
    await expect(page.locator('.status-bar .read-only-chip').textContent()).resolves.toBe('Read-only');
    await expect(page.getByRole('button', { name: 'New task' }).isDisabled()).resolves.toBe(true);
  });

  test('the editor shows the task but offers no change', async () => {
    const { page } = session.app;
    await page.locator('[role="row"][data-task-id]').first().click();
    const editor = page.getByTestId('task-editor');
    await editor.getByText('This account can only read').waitFor();
    for (const label of ['Title', 'Status', 'Priority', 'Assignee', 'Due', 'Description']) {
      await expect(editor.getByLabel(label, { exact: true }).isDisabled()).resolves.toBe(true);
    }
    await expect(editor.getByRole('button', { name: 'Delete task' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'read-only');
  });

  test('a status shortcut is refused in words, and nothing is queued or sent', async () => {
    const { page } = session.app;
    const writesBefore = session.host.emulator.control.requests().filter((r) => r.method !== 'GET').length;
    await page.locator('body').press('4');
    const notice = page.locator('.notice');
    await notice.waitFor();
    await expect(notice.getAttribute('data-problem-type')).resolves.toBe('read-only');
    await expect(notice.textContent()).resolves.toContain('This account can only read');
    await expect(page.getByTestId('pending-count').textContent()).resolves.toBe('All changes synced');
    expect(session.host.emulator.control.requests().filter((r) => r.method !== 'GET').length).toBe(
      writesBefore,
    );
  });

  test('"Try the demo" adds a second account on a local server with sample data, and the switcher goes back', async () => {
    const { page } = session.app;
    await page.getByRole('button', { name: /Northwind Labs/ }).click();
    await page.getByRole('menuitem', { name: 'Add an account…' }).click();
    await page.getByRole('heading', { name: 'Add an account' }).waitFor();
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await page.locator('.account-user').filter({ hasText: 'demo' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByTestId('list-count').filter({ hasText: '2,000 tasks' }).waitFor({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'New task' }).isEnabled()).resolves.toBe(true);
    expect(session.host.accounts.list()).toHaveLength(2);

    await page.locator('.account-button').click();
    await page.getByRole('menuitem', { name: /^Switch to ada .*127\.0\.0\.1/ }).click();
    await page.locator('.account-user').filter({ hasText: 'read-only' }).waitFor();
    await expect(page.getByRole('button', { name: 'New task' }).isDisabled()).resolves.toBe(true);
    // The list is the first account's again, not the demo's.
    await page.getByTestId('list-count').filter({ hasText: '120 tasks' }).waitFor();
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
