// Links that open tasks, as a person meets them: the OS hands the app a
// svc-desktop://task/<id> link (delivered the way main delivers it, through
// the app's own services), the editor shows that task on the account that
// holds it, a link to a task no account holds or a broken link is a notice,
// several accounts holding the task ask which, and "Copy link" in the editor
// and the palette puts the link on the clipboard.
import { beforeAll, describe, expect, test } from 'vitest';
import { formatTaskLink } from '../../services/links/task-link';
import { screenshot } from './support/app-browser';
import { signIn } from './support/signed-in-session';
import { QUICK_RETRY, startAppSession, sessionPerFile } from './support/app-session';

const session = sessionPerFile(() =>
  startAppSession({ emulator: { seedTasks: 40 }, client: { retry: QUICK_RETRY } }),
);

beforeAll(async () => {
  await signIn(session);
});

/** A seeded task, once the account's first sync has put it in the mirror. */
async function syncedTask(accountId: string, index: number) {
  const task = session.emulator.control.tasks()[index];
  if (!task) throw new Error('the seed is too small');
  await expect
    .poll(() => session.host.accounts.runtime(accountId).mirror.tasks.get(task.task_id) !== null, {
      timeout: 60_000,
    })
    .toBe(true);
  return task;
}

function liveAccountId(): string {
  const id = session.host.accounts.current()?.id;
  if (id === undefined) throw new Error('no account is signed in');
  return id;
}

describe('a task link', () => {
  test('opens the task in the editor', async () => {
    const task = await syncedTask(liveAccountId(), 5);
    await session.host.openLink(formatTaskLink(task.task_id));
    const editor = session.app.page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(task.title);
    await screenshot(session.app.page, 'task-link-opened');
  });

  test('"Copy link" in the editor puts the same link on the clipboard', async () => {
    const task = await syncedTask(liveAccountId(), 5);
    const editor = session.app.page.getByTestId('task-editor');
    await editor.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => session.host.clipboard.at(-1)).toBe(formatTaskLink(task.task_id));
  });

  test('"Copy link" is in the command palette for the selected task', async () => {
    const { page } = session.app;
    const before = session.host.clipboard.length;
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type('copy link');
    await palette.getByRole('option', { name: /Copy link to the selected task/ }).click();
    await palette.waitFor({ state: 'hidden' });
    await expect.poll(() => session.host.clipboard.length).toBe(before + 1);
    expect(session.host.clipboard.at(-1)).toMatch(/^svc-desktop:\/\/task\/tsk_/);
  });

  test("a task in none of the accounts' synced data is a notice, and nothing opens", async () => {
    const { page } = session.app;
    await page.getByTestId('task-editor').getByRole('button', { name: 'Close task' }).click();
    await session.host.openLink('svc-desktop://task/tsk_not_here');
    const notice = page.locator('[data-problem-type="link-task-not-found"]');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toContain('not in any of your accounts’ synced data');
    expect(await page.getByTestId('task-editor').count()).toBe(0);
    await screenshot(page, 'task-link-not-found');
  });

  test.each([
    ['a traversal', 'svc-desktop://task/../accounts', 'link-malformed'],
    ['a query', 'svc-desktop://task/tsk_1?account=other', 'link-malformed'],
    ['another kind of link', 'svc-desktop://project/prj_1', 'link-unsupported'],
  ])('a link with %s is a notice, never acted on', async (_what, raw, problem) => {
    const { page } = session.app;
    const accountBefore = session.host.accounts.current()?.id;
    await session.host.openLink(raw);
    await page.locator(`[data-problem-type="${problem}"]`).waitFor();
    expect(await page.getByTestId('task-editor').count()).toBe(0);
    expect(session.host.accounts.current()?.id).toBe(accountBefore);
  });

  test('held by two accounts, it asks which one, then opens it there', async () => {
    const { page } = session.app;
    const live = liveAccountId();
    const peer = await session.host.accounts.signInWithToken({ token: session.emulator.tokens.peer });
    // The peer sees the same organization's tasks: once both mirrors hold one, a link to it is ambiguous.
    const task = await syncedTask(peer.account.id, 7);
    await syncedTask(live, 7);
    await session.host.openLink(formatTaskLink(task.task_id));
    const chooser = page.getByTestId('link-account-chooser');
    await chooser.waitFor();
    await screenshot(page, 'task-link-choose-account');
    const liveSummary = session.host.accounts.list().find((account) => account.id === live);
    if (!liveSummary) throw new Error('the first account is gone');
    await chooser.getByRole('button', { name: new RegExp(`^${liveSummary.identity.username} · `) }).click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(task.title);
    expect(session.host.accounts.current()?.id).toBe(live);
    expect(session.app.problems).toEqual([]);
  });

  test('a link that launched the app opens its task once the page has loaded', async () => {
    // No page is listening when the link comes (the window is still opening): main keeps it for the page.
    await session.app.page.close();
    // One account holds the task again, so the page opens it without asking.
    const other = session.host.accounts.list().find((account) => account.id !== liveAccountId());
    if (other) await session.host.accounts.signOut(other.id, { keepQueuedEdits: false });
    const task = await syncedTask(liveAccountId(), 9);
    await session.host.openLink(formatTaskLink(task.task_id));
    const page = await session.app.context.newPage();
    await page.goto(session.host.url);
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(task.title);
  });
});
