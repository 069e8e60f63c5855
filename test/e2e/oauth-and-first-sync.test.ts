// Signing in through the browser: the app opens the consent page, the person
// approves it in the same browser, and the loopback redirect completes the
// sign-in. The first sync then shows its progress in the status bar while the
// list fills.
import { describe, expect, test } from 'vitest';
import { startAppSession, sessionPerFile } from './support/app-session';
import { screenshot } from './support/app-browser';

// Enough tasks, and enough latency, that the first sync takes a few seconds to watch.
const session = sessionPerFile(() => startAppSession({ emulator: { seedTasks: 3000, latencyMs: 40 } }));

describe('signing in through the browser', () => {
  test('denying on the consent page is told in words, and nothing is signed in', async () => {
    const { page, context } = session.app;
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    await page.getByRole('status').filter({ hasText: 'Finish signing in in your browser' }).waitFor();
    const consent = await context.newPage();
    await consent.goto(await session.host.nextOpenedUrl());
    await consent.getByRole('button', { name: 'Deny' }).click();
    await consent.close();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.getAttribute('data-problem-type')).resolves.toBe('oauth-error');
    expect(session.host.accounts.list()).toHaveLength(0);
  });

  test('approving signs in, and the first sync shows its progress while the list fills', async () => {
    const { page, context } = session.app;
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    const consent = await context.newPage();
    await consent.goto(await session.host.nextOpenedUrl());
    await screenshot(consent, 'oauth-consent');
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByRole('heading', { name: 'Signed in' }).waitFor();
    await consent.close();

    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
    const progress = page.getByTestId('first-sync');
    await progress.waitFor({ timeout: 20_000 });
    await expect(progress.getByRole('progressbar', { name: 'First sync progress' }).count()).resolves.toBe(1);
    await screenshot(page, 'first-sync');

    await progress.waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${session.emulator.control.taskCount().toLocaleString('en-US')} tasks` })
      .waitFor();
    const account = session.host.accounts.current();
    expect(account?.identity.username).toBe(session.emulator.me.username);
    expect(account?.token_kind).toBe('oauth');
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
