// The sync screen in the browser against the real host: the account panel
// (online, offline and why, pause that really stops sending, freshness per
// collection), the sync log searched for a clean merge after a 412 with
// diagnostics copied without secrets, notification settings saved and
// applied, a clicked notification opening its task, and "rate-limited until".
import { beforeAll, describe, expect, test } from 'vitest';
import { signIn } from './support/signed-in-session';
import { QUICK_RETRY, startAppSession, sessionPerFile } from './support/app-session';
import { invokeInPage, screenshot } from './support/app-browser';
import { until } from './support/waits';

const session = sessionPerFile(() =>
  startAppSession({
    emulator: { seedTasks: 200 },
    client: { retry: { ...QUICK_RETRY, maxRateLimitRetries: 0 } },
  }),
);

beforeAll(async () => {
  await signIn(session);
  await session.app.page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor({ timeout: 30_000 });
});

const me = () => session.emulator.control.tasks().filter((t) => t.assignee === session.emulator.me.username);

describe('the account panel', () => {
  test('shows online with counts and when each collection was checked; offline says why', async () => {
    const { page } = session.app;
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name: 'Sync' }).click();
    const card = page.getByTestId('account-card');
    await card.getByTestId('account-state').filter({ hasText: 'Online' }).waitFor();
    const table = card.getByRole('table');
    await table.getByRole('row', { name: /^Tasks just now/ }).waitFor();
    await table.getByRole('row', { name: /^Sprints just now/ }).waitFor();
    await expect(card.getByTestId('account-pending').textContent()).resolves.toBe('0 changes');
    await screenshot(page, 'sync-status-online');

    session.proxy.goOffline();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).click();
    await card
      .getByTestId('account-state')
      .filter({ hasText: 'Offline — server unreachable' })
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('connection').filter({ hasText: 'Offline · server unreachable' }).waitFor();
    await screenshot(page, 'sync-status-offline');
    session.proxy.goOnline();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).click();
    await card.getByTestId('account-state').filter({ hasText: 'Online' }).waitFor({ timeout: 20_000 });
  });

  test('pause stops pushes until resumed; the edit waits, counted, then reaches the server', async () => {
    const { page } = session.app;
    const task = me().find((t) => t.status !== 'completed');
    if (!task) throw new Error('the seed has no open task of mine');
    await page.getByRole('button', { name: 'Pause sync' }).click();
    await page.getByTestId('account-state').filter({ hasText: 'Paused' }).waitFor();
    await page.getByTestId('connection').filter({ hasText: 'Paused' }).waitFor();
    await expect(
      page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).isDisabled(),
    ).resolves.toBe(true);

    // A request aborted by the pause may still be answered (and logged) by the server a moment later.
    await new Promise((resolve) => setTimeout(resolve, 100));
    session.emulator.control.clearRequests();
    await invokeInPage(page, 'task:edit', { task_id: task.task_id, patch: { due_date: '2031-03-04' } });
    await page.getByTestId('account-pending').filter({ hasText: '1 change' }).waitFor();
    await screenshot(page, 'sync-status-paused');
    // Longer than the push debounce and a hot poll would take: nothing goes out while paused.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(session.emulator.control.requests()).toEqual([]);
    expect(session.emulator.control.task(task.task_id)?.due_date).not.toBe('2031-03-04');

    await page.getByRole('button', { name: 'Resume sync' }).click();
    await until(
      () => session.emulator.control.task(task.task_id)?.due_date === '2031-03-04',
      'the edit on the server',
    );
    await page.getByTestId('account-pending').filter({ hasText: '0 changes' }).waitFor({ timeout: 20_000 });
  });
});

describe('the sync log', () => {
  test('a clean merge after a 412 is found by searching the task id; diagnostics hold no secret', async () => {
    const { page } = session.app;
    const task = me().find((t) => t.status !== 'completed' && t.priority !== 'urgent');
    if (!task) throw new Error('the seed has no open task of mine');
    session.proxy.goOffline();
    await invokeInPage(page, 'task:edit', { task_id: task.task_id, patch: { priority: 'urgent' } });
    session.emulator.control.peerEdit(task.task_id, { title: `${task.title} (renamed by the peer)` });
    session.proxy.goOnline();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).click();
    await until(() => session.emulator.control.task(task.task_id)?.priority === 'urgent', 'the merged edit');
    expect(session.emulator.control.task(task.task_id)?.title).toBe(`${task.title} (renamed by the peer)`);

    await page.getByRole('tab', { name: 'Sync log' }).click();
    await page.getByRole('searchbox', { name: 'Search the sync log' }).fill(task.task_id);
    const entries = page.getByTestId('log-entry');
    await entries.filter({ hasText: 'merged cleanly; mine re-sent: priority' }).waitFor();
    await entries.filter({ hasText: '412' }).first().waitFor();
    const texts = await entries.allTextContents();
    expect(texts.length).toBeGreaterThan(1);
    await screenshot(page, 'sync-log-search');

    await page.getByRole('button', { name: 'Copy diagnostics' }).click();
    await page.getByRole('status').filter({ hasText: 'Diagnostics copied' }).waitFor();
    const report = session.host.clipboard.at(-1) ?? '';
    expect(report).toContain('svc-desktop sync diagnostics');
    expect(report).not.toContain(session.emulator.tokens.live);
    // As a word: a random operation id may hold the letters of a short username ('c4aaada6' holds 'ada').
    const username = session.emulator.me.username.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(report).not.toMatch(new RegExp(`(^|[^\\w.-])${username}($|[^\\w-])`));
    expect(report).not.toContain(task.title);

    await page.getByRole('searchbox', { name: 'Search the sync log' }).fill('no-such-thing-here');
    await page.getByText('Nothing in the log matches “no-such-thing-here”.').waitFor();
  });
});

describe('notifications', () => {
  test('settings per kind and quiet hours are saved; an assignment notifies, and its click opens the task', async () => {
    const { page } = session.app;
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('checkbox', { name: /A new comment on my task/ }).uncheck();
    await page.getByRole('checkbox', { name: /No notifications during quiet hours/ }).check();
    await page.getByLabel('Quiet hours start').fill('21:30');
    await expect(invokeInPage(page, 'notification-settings:get')).resolves.toMatchObject({
      kinds: { 'task-commented': false, 'task-assigned': true },
      quiet_hours: { enabled: true, start: '21:30' },
    });
    await screenshot(page, 'notification-settings');
    await page.getByRole('checkbox', { name: /No notifications during quiet hours/ }).uncheck();

    const other = session.emulator.control
      .tasks()
      .find(
        (t) => t.assignee !== session.emulator.me.username && t.created_by !== session.emulator.me.username,
      );
    if (!other) throw new Error('the seed has no task of someone else');
    const before = session.host.notifications.length;
    session.emulator.control.peerEdit(other.task_id, { assignee: session.emulator.me.username });
    await page.getByRole('tab', { name: 'Status' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).click();
    await until(() => session.host.notifications.length > before, 'a notification');
    const notification = session.host.notifications.at(-1);
    expect(notification).toMatchObject({ kind: 'task-assigned', open: { taskId: other.task_id } });

    // Main, on the click: the window shows the account and the task.
    session.host.gate.emit('notification:open', {
      account_id: notification?.open.accountId ?? '',
      task_id: other.task_id,
    });
    await page.getByTestId('task-editor').waitFor();
    await expect(page.getByTestId('task-editor').getByLabel('Title').inputValue()).resolves.toBe(other.title);
  });
});

describe('rate limiting', () => {
  test('the status says until when', async () => {
    const { page } = session.app;
    await page.getByRole('button', { name: 'Close task' }).click();
    await page.getByTestId('task-editor').waitFor({ state: 'detached' });
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name: 'Sync' }).click();
    // `/v1/me` comes first and everything after needs it: the sync stops at the 429.
    session.emulator.control.faults.rateLimitBurst(1, { retryAfterSeconds: 90, pathPrefix: '/v1/me' });
    await page.getByRole('tabpanel').getByRole('button', { name: 'Sync now' }).click();
    const state = page
      .getByTestId('account-state')
      .filter({ hasText: /Offline — rate-limited until \d\d:\d\d/ });
    await state.waitFor({ timeout: 20_000 });
    await page
      .getByTestId('connection')
      .filter({ hasText: /Offline · rate-limited until \d\d:\d\d/ })
      .waitFor();
    await screenshot(page, 'sync-status-rate-limited');
    expect(session.app.problems).toEqual([]);
  });
});
