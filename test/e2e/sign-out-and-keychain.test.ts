// Sign-in persistence and sign-out as a person meets them: without a real
// keychain the sign-in screen says a sign-in lasts this session and offers to
// keep it anyway; signing out with an edit still unsent asks first, keeps it,
// and after signing in again to the same account (another person's token is
// refused) the edit reaches the server.
// A clicked desktop notification opens its task.
import { describe, expect, test } from 'vitest';
import { QUICK_RETRY, startAppSession, sessionPerFile } from './support/app-session';
import { invokeInPage, screenshot, signInWithToken } from './support/app-browser';
import { allChangesSynced } from './support/waits';

const session = sessionPerFile(() =>
  startAppSession({ emulator: { seedTasks: 60 }, client: { retry: QUICK_RETRY } }),
);

describe('without a real keychain', () => {
  test('the sign-in screen says a sign-in lasts this session, and the person can choose to keep it', async () => {
    const { page } = session.app;
    const notice = page.getByRole('region', { name: 'Staying signed in' });
    await notice.getByText('you will sign in again each time you start the app').waitFor();
    await screenshot(page, 'sign-in-without-keychain');
    const keep = notice.getByLabel('Stay signed in without a keychain');
    // A controlled box: it turns once main has moved the sign-ins, so click and wait for the words.
    await keep.click();
    await notice.getByText('You stay signed in after quitting').waitFor();
    expect(await keep.isChecked()).toBe(true);
    // Main asked the person in its own dialog; the page's click alone changes nothing.
    expect(session.host.keychainQuestions()).toBe(1);
    await expect(invokeInPage(page, 'accounts:secret-storage')).resolves.toEqual({
      persistence: 'unencrypted-by-choice',
    });
    await keep.click();
    await notice.getByText('you will sign in again each time you start the app').waitFor();
    await expect(invokeInPage(page, 'accounts:secret-storage')).resolves.toEqual({
      persistence: 'session-only',
    });
  });
});

describe('a clicked notification', () => {
  test('opens its task', async () => {
    const { page } = session.app;
    await signInWithToken(page, session.emulator.tokens.live);
    const task = session.emulator.control.tasks()[3];
    if (!task) throw new Error('the seed is too small');
    const accountId = session.host.accounts.current()?.id ?? '';
    session.host.gate.emit('notification:open', { account_id: accountId, task_id: task.task_id });
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(task.title);
    await editor.getByRole('button', { name: 'Close task' }).click();
  });
});

describe('signing out with an edit unsent', () => {
  test('asks first, keeps the edit, and pushes it after signing in again to the same account', async () => {
    const { page } = session.app;
    await page.getByRole('button', { name: 'All tasks' }).click();
    const task = session.emulator.control.tasks().find((t) => t.title.length < 60);
    if (!task) throw new Error('no task to edit');
    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();

    session.proxy.goOffline();
    const newTitle = `${task.title} (kept over a sign-out)`;
    await editor.getByLabel('Title').fill(newTitle);
    await editor.getByLabel('Title').press('Enter');
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();

    await page.locator('.account-button').click();
    await page.getByRole('menuitem', { name: `Sign out of ${session.emulator.me.username}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Sign out with unsent changes?' });
    await confirm.getByText('1 change has not reached the server yet').waitFor();
    await screenshot(page, 'sign-out-unsent-changes');
    await confirm.getByRole('button', { name: 'Keep and sign out' }).click();

    const signedOut = page.getByRole('region', { name: 'Signed-out accounts' });
    await signedOut.getByText(session.emulator.me.username).waitFor();
    expect(session.emulator.control.task(task.task_id)?.title).toBe(task.title);

    session.proxy.goOnline();
    await signedOut.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByTestId('signing-in-again').getByText(`As ${session.emulator.me.username}`).waitFor();
    // Another person's token cannot take this account (and its waiting edit) over.
    await page.getByLabel('Access token').fill(session.emulator.tokens.peer);
    await page.getByRole('button', { name: 'Sign in with token' }).click();
    await page.locator('[data-problem-type="account-mismatch"]').waitFor();
    await screenshot(page, 'sign-in-again-mismatch');
    expect(session.host.accounts.list()).toHaveLength(1);
    await signInWithToken(page, session.emulator.tokens.live);
    await allChangesSynced(page);
    expect(session.emulator.control.task(task.task_id)?.title).toBe(newTitle);
    expect(session.host.accounts.list()).toHaveLength(1);
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
