// The inbox in Chromium against the emulator, signed in through the browser:
// the peer assigns me a task, the next sync brings it into the inbox with its
// count in the sidebar and the tray; Enter opens the task and marks it read;
// another assignment is cleared with "Mark all read". A teammate's change is
// listed once however often the app polls, and what was read stays read after
// the page reloads and after the app restarts between polls (the inbox lives
// in the mirror, keyed by the change).
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { blockingViolations } from './support/accessibility-audit';
import { screenshot } from './support/app-browser';
import { restartSignedIn, startSignedInSession } from './support/signed-in-session';
import { syncAndSettle } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 80 } }));

/** Open tasks of the seed that neither are mine nor were made by me. */
function othersTasks() {
  const me = session.emulator.me.username;
  return session.emulator.control
    .tasks()
    .filter(
      (t) => t.assignee !== me && t.created_by !== me && t.status !== 'completed' && t.title.length < 60,
    );
}

/** The tray's line of the signed-in account. */
function trayLine(): string {
  const line = session.host.visibility.tray().menu[0];
  return line?.kind === 'action' ? line.label : '';
}

describe('the inbox', () => {
  test('an assignment by the peer arrives with its count, opens its task, and all is marked read', async () => {
    const { page } = session.app;
    const me = session.emulator.me.username;
    const [first, second] = othersTasks();
    if (!first || !second) throw new Error('the seed lacks tasks of others');
    const sidebar = page.getByRole('navigation', { name: 'Workspace' });
    const inboxButton = sidebar.getByRole('button', { name: /^Inbox/ });
    await expect(inboxButton.locator('.nav-badge').count()).resolves.toBe(0);

    session.emulator.control.peerEdit(first.task_id, { assignee: me });
    await syncAndSettle(page);
    await inboxButton.locator('.nav-badge').filter({ hasText: /^1$/ }).waitFor();
    expect(trayLine()).toContain('1 unread in inbox');

    await inboxButton.click();
    const list = page.getByRole('listbox', { name: 'Inbox' });
    const entry = list.getByRole('option').filter({ hasText: first.title });
    await entry.getByText(`Assigned to you by ${session.emulator.peer.username}`).waitFor();
    await entry.getByText('Unread').waitFor();
    await screenshot(page, 'inbox-assigned');
    expect(await blockingViolations(page)).toEqual([]);

    // The keyboard: the newest entry is active; Enter opens its task and marks it read.
    await list.focus();
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('task-editor');
    await expect(editor.getByLabel('Title').inputValue()).resolves.toBe(first.title);
    await entry.getByText('Read', { exact: true }).waitFor();
    await inboxButton.locator('.nav-badge').waitFor({ state: 'detached' });

    // Polling again brings nothing twice; a new assignment is one more entry.
    session.emulator.control.peerEdit(second.task_id, { assignee: me });
    await syncAndSettle(page);
    await syncAndSettle(page);
    await inboxButton.locator('.nav-badge').filter({ hasText: /^1$/ }).waitFor();
    await expect(list.getByRole('option').count()).resolves.toBe(2);

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('0 unread').waitFor();
    await inboxButton.locator('.nav-badge').waitFor({ state: 'detached' });
    await expect.poll(trayLine).not.toContain('unread in inbox');
    await expect(list.getByText('Unread', { exact: true }).count()).resolves.toBe(0);
  });

  test("a teammate's change is listed once across polls, and stays read after a reload and a restart between polls", async () => {
    const me = session.emulator.me.username;
    const [task] = othersTasks();
    if (!task) throw new Error('the seed lacks tasks of others');
    // The page is a new one after a restart: every locator is taken from the page of now.
    const inboxParts = () => {
      const { page } = session.app;
      const sidebar = page.getByRole('navigation', { name: 'Workspace' });
      const inboxButton = sidebar.getByRole('button', { name: /^Inbox/ });
      const list = page.getByRole('listbox', { name: 'Inbox' });
      return {
        page,
        sidebar,
        inboxButton,
        list,
        entries: list.getByRole('option').filter({ hasText: task.title }),
      };
    };
    let { page, sidebar, inboxButton, list, entries } = inboxParts();

    session.emulator.control.peerEdit(task.task_id, { assignee: me });
    await syncAndSettle(page);
    await syncAndSettle(page);
    await inboxButton.locator('.nav-badge').filter({ hasText: /^1$/ }).waitFor();
    await inboxButton.click();
    await entries.getByText('Unread').waitFor();
    await expect(entries.count()).resolves.toBe(1);

    // E marks the active entry (the newest) read.
    await list.focus();
    await page.keyboard.press('e');
    await entries.getByText('Read', { exact: true }).waitFor();
    await inboxButton.locator('.nav-badge').waitFor({ state: 'detached' });

    await page.reload();
    await sidebar.getByRole('button', { name: /^Inbox/ }).click();
    await entries.getByText('Read', { exact: true }).waitFor();
    await expect(entries.count()).resolves.toBe(1);
    await expect(inboxButton.locator('.nav-badge').count()).resolves.toBe(0);

    // The app quits and starts again on the same data between two polls.
    await restartSignedIn(session);
    ({ page, sidebar, inboxButton, list, entries } = inboxParts());
    await syncAndSettle(page);
    await syncAndSettle(page);
    await sidebar.getByRole('button', { name: /^Inbox/ }).click();
    await entries.getByText('Read', { exact: true }).waitFor();
    await expect(entries.count()).resolves.toBe(1);
    await expect(entries.getByText('Unread').count()).resolves.toBe(0);
    await expect(inboxButton.locator('.nav-badge').count()).resolves.toBe(0);
    await expect.poll(trayLine).not.toContain('unread in inbox');
  });
});
