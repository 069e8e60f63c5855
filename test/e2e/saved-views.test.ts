// Saved views end to end in Chromium, signed in through the browser: a view
// saved from the task list's search text, pinned and shared, reaches the
// service once; opened offline from its pin, it shows the service's rows in
// the service's order, computed from the mirror. A pin the service already
// has (made from a second path while the app's own waited offline) is
// refused with 409 and said on the view (last: its refusal stays waiting). A
// view saved as a board grouped by status opens as that board, its cards in
// the columns of their status; a card moved there by keyboard or dragged to
// another column is an edit of its status, queued offline and sent once.
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { sessionPerFile } from './support/app-session';
import { screenshot } from './support/app-browser';
import { callService } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle, until } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 120 } }), {
  waitTimeoutMs: 15_000,
});

interface ServerView {
  view_id: string;
  name: string;
  visibility: string;
  filters: Record<string, string[]>;
  sort_by: string;
  sort_order: string;
}

async function serverViews(): Promise<ServerView[]> {
  const answer = await callService(session.emulator, 'GET', `/v1/views?org_id=${session.emulator.orgId}`);
  return answer.body.data as ServerView[];
}

async function serverPins(): Promise<{ pin_id: string; view_id: string; position: number }[]> {
  const answer = await callService(session.emulator, 'GET', `/v1/view-pins?org_id=${session.emulator.orgId}`);
  return answer.body.data as { pin_id: string; view_id: string; position: number }[];
}

/** An element as `evaluateAll` hands it over: only its attributes are read. */
type Attributed = { getAttribute(name: string): string | null };

const sidebarGroup = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Workspace' }).getByRole('region', { name });

describe('saved views', () => {
  test('a view saved from the search, pinned and shared reaches the service; opened offline it shows the service’s rows', async () => {
    const { page } = session.app;
    const search = page.getByRole('combobox', { name: 'Search tasks' });
    await search.fill('status:blocked,in_progress');
    // The value's suggestions, open under the box, cover the first column's header: closed first.
    await search.press('Escape');
    await page.getByRole('listbox', { name: 'Search suggestions' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page.getByRole('button', { name: 'Save view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save view' });
    await dialog.getByLabel('Name').fill('Work in the way');
    await screenshot(page, 'saved-views-save-dialog');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await page.getByRole('heading', { name: 'Work in the way', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await sidebarGroup(page, 'Pinned views').getByRole('button', { name: 'Work in the way' }).waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('button', { name: 'Make private' }).waitFor();
    await syncAndSettle(page);

    const saved = (await serverViews()).filter((view) => view.name === 'Work in the way');
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      visibility: 'shared',
      filters: { status: ['blocked', 'in_progress'] },
      sort_by: 'title',
    });
    const viewId = saved[0]?.view_id ?? '';
    expect((await serverPins()).map((pin) => pin.view_id)).toEqual([viewId]);
    const served = await callService(session.emulator, 'GET', `/v1/views/${viewId}/rows?limit=500`);
    const expected = (served.body.data as { task_id: string }[]).map((task) => task.task_id);
    expect(expected.length).toBeGreaterThan(1);

    session.proxy.goOffline();
    try {
      await page.getByRole('button', { name: 'All tasks' }).click();
      await sidebarGroup(page, 'Pinned views').getByRole('button', { name: 'Work in the way' }).click();
      const rows = page.getByRole('list', { name: 'Tasks of Work in the way' });
      await until(
        async () =>
          JSON.stringify(
            await rows
              .locator('li')
              .evaluateAll((items: Attributed[]) => items.map((item) => item.getAttribute('data-task-id'))),
          ) === JSON.stringify(expected),
        'the view’s rows in the service’s order',
      );
      await screenshot(page, 'saved-views-offline');
    } finally {
      session.proxy.goOnline();
    }
  }, 90_000);

  test('a view saved as a board grouped by status opens as that board', async () => {
    const { page } = session.app;
    const made = await callService(session.emulator, 'POST', '/v1/views', {
      body: {
        org_id: session.emulator.orgId,
        name: 'Flow board',
        filters: { status: ['blocked', 'in_progress'] },
        sort_by: 'title',
        sort_order: 'asc',
        layout: 'board',
        group_by: 'status',
      },
    });
    expect(made.status).toBe(201);
    const served = await callService(
      session.emulator,
      'GET',
      `/v1/views/${String(made.body.view_id)}/rows?limit=500`,
    );
    const tasks = served.body.data as { task_id: string; status: string }[];
    const idsOf = (status: string) =>
      tasks.filter((task) => task.status === status).map((task) => task.task_id);
    expect(idsOf('blocked').length).toBeGreaterThan(0);
    expect(idsOf('in_progress').length).toBeGreaterThan(0);
    await syncAndSettle(page);

    await sidebarGroup(page, 'Saved views').getByRole('button', { name: 'Flow board' }).click();
    const board = page.getByRole('group', { name: 'Board of Flow board' });
    await board.waitFor();
    await expect(
      board
        .locator('[data-column-name]')
        .evaluateAll((columns: Attributed[]) =>
          columns.map((column) => column.getAttribute('data-column-name')),
        ),
    ).resolves.toEqual(['Not started', 'In progress', 'Blocked', 'Done']);
    const cardsIn = (name: string) =>
      board
        .getByRole('list', { name: `Tasks in ${name}` })
        .locator('li')
        .evaluateAll((items: Attributed[]) => items.map((item) => item.getAttribute('data-task-id')));
    await expect(cardsIn('Blocked')).resolves.toEqual(idsOf('blocked'));
    await expect(cardsIn('In progress')).resolves.toEqual(idsOf('in_progress'));
    await expect(cardsIn('Done')).resolves.toEqual([]);
    await screenshot(page, 'saved-views-board');
  }, 90_000);

  test('on that board a card moved by keyboard and one dragged to another column are edits of their status, sent through the outbox', async () => {
    const { page } = session.app;
    const board = page.getByRole('group', { name: 'Board of Flow board' });
    const column = (name: string) => board.getByRole('list', { name: `Tasks in ${name}` });
    const idsIn = (name: string) =>
      column(name)
        .locator('li')
        .evaluateAll((items: Attributed[]) => items.map((item) => item.getAttribute('data-task-id')));
    // The view holds blocked and in-progress tasks: each card moves to the other's column and stays in it.
    const [keyed] = await idsIn('In progress');
    const [dragged] = await idsIn('Blocked');
    if (!keyed || !dragged) throw new Error('the board has an empty column');
    const card = (taskId: string) => board.locator(`li[data-task-id="${taskId}"]`);
    const statusOf = (taskId: string) =>
      session.emulator.control.tasks().find((t) => t.task_id === taskId)?.status;

    session.proxy.goOffline();
    try {
      // Dragged first, and onto the column's title: the mouse goes where the card is and lands at
      // the top of the column, where nothing has to scroll (a keyboard move before would shift the cards).
      await card(dragged).dragTo(board.locator('section[data-column-name="In progress"] .column-title'));
      await column('In progress').locator(`li[data-task-id="${dragged}"]`).waitFor();
      await card(keyed).locator('.card-open').focus();
      await page.keyboard.press('Alt+ArrowRight');
      await column('Blocked').locator(`li[data-task-id="${keyed}"]`).waitFor();
      // The focus stays with the card it moved.
      const focusedTask = () =>
        page.evaluate('document.activeElement?.closest("li[data-task-id]")?.getAttribute("data-task-id")');
      await until(async () => (await focusedTask()) === keyed, 'the focus on the moved card');
      expect([statusOf(keyed), statusOf(dragged)]).toEqual(['in_progress', 'blocked']);
    } finally {
      session.proxy.goOnline();
    }

    await syncAndSettle(page);
    expect([statusOf(keyed), statusOf(dragged)]).toEqual(['blocked', 'in_progress']);
    const edits = session.emulator.control
      .requests()
      .filter(
        (r) => r.method === 'PATCH' && (r.path === `/v1/tasks/${keyed}` || r.path === `/v1/tasks/${dragged}`),
      );
    expect(edits.map((r) => [r.status, typeof r.ifMatch, typeof r.idempotencyKey])).toEqual([
      [200, 'string', 'string'],
      [200, 'string', 'string'],
    ]);
  }, 90_000);

  test('a pin the service already has is refused with 409 and said on the view, boxed in the danger colours', async () => {
    const { page } = session.app;
    const made = await callService(session.emulator, 'POST', '/v1/views', {
      body: { org_id: session.emulator.orgId, name: 'Pinned twice', filters: { status: ['blocked'] } },
    });
    expect(made.status).toBe(201);
    const viewId = String(made.body.view_id);
    await syncAndSettle(page);
    await sidebarGroup(page, 'Saved views').getByRole('button', { name: 'Pinned twice' }).click();
    await page.getByRole('heading', { name: 'Pinned twice', level: 1 }).waitFor();

    session.proxy.goOffline();
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await sidebarGroup(page, 'Pinned views').getByRole('button', { name: 'Pinned twice' }).waitFor();
    // The second path: the same person pins it elsewhere before this pin is sent.
    const other = await callService(session.emulator, 'POST', '/v1/view-pins', {
      body: { org_id: session.emulator.orgId, view_id: viewId, position: 9 },
    });
    expect(other.status).toBe(201);
    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();

    const refusal = page.getByTestId('pin-refusal');
    await refusal.getByText('This pin was not created.').waitFor();
    await expect(refusal.textContent()).resolves.toMatch(/409|already/i);
    // It stands out as a sprint's or a column's refusal does: the danger colour's border around it.
    // (A string: the test files are not typed against the DOM.)
    const box = await page.evaluate<{ danger: string; border: string; borderStyle: string }>(`(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      document.body.append(probe);
      const danger = getComputedStyle(probe).color;
      probe.remove();
      const style = getComputedStyle(document.querySelector('[data-testid="pin-refusal"]'));
      return { danger, border: style.borderTopColor, borderStyle: style.borderTopStyle };
    })()`);
    expect(box).toEqual({ danger: box.danger, border: box.danger, borderStyle: 'solid' });
    expect(box.danger).not.toBe('');
    expect((await serverPins()).filter((pin) => pin.view_id === viewId)).toHaveLength(1);
    await screenshot(page, 'saved-views-duplicate-pin');
  }, 90_000);
});
