// The end of a list longer than the rows the list keeps in memory (60 pages of
// 100): scrolled to, or reached with Ctrl+End after a sort, its last tasks show
// in their places, fetched from the list's end in one call instead of walked
// to from the top (at a million tasks that walk took minutes).
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { INVOKE_PATH } from './host/bridge-shim';
import { sessionPerFile } from './support/app-session';
import { callService } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';

const TASKS = 6_500;
const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: TASKS } }));

interface QueryInput {
  query: { sort_by: string };
  after?: string | null;
  skip?: number;
  from_end?: true;
}

/** Records the list's page calls (tasks:query) from now on. */
function recordQueries(page: Page): QueryInput[] {
  const asked: QueryInput[] = [];
  page.on('request', (request) => {
    if (!request.url().includes(`${INVOKE_PATH}?${encodeURIComponent('tasks:query')}`)) return;
    asked.push((JSON.parse(request.postData() ?? '{}') as { input: QueryInput }).input);
  });
  return asked;
}

/** The ids of the service's first `n` tasks in a sort order (its last ones, asked in the other order). */
async function serviceFirst(sortBy: string, order: 'asc' | 'desc', n: number): Promise<string[]> {
  const { emulator } = session;
  const answer = await callService(
    emulator,
    'GET',
    `/v1/tasks?org_id=${emulator.orgId}&sort_by=${sortBy}&sort_order=${order}&limit=${n}`,
  );
  return (answer.body.data as { task_id: string }[]).map((task) => task.task_id);
}

/** The task shown on row `index` (0 is the first task) once it shows. */
async function taskOnRow(page: Page, index: number): Promise<string | null> {
  const row = page.locator(`[role="row"][aria-rowindex="${index + 2}"][data-task-id]`);
  await row.waitFor();
  return row.getAttribute('data-task-id');
}

/**
 * Waits until the first sync is over and the list asked for no page for a second: the list shows
 * 6 500 tasks before the sync's pass ends, and what ends it refreshes the list's pages from the top.
 */
async function listSettled(page: Page, asked: readonly QueryInput[]): Promise<void> {
  await page.locator('.syncing').waitFor({ state: 'hidden' });
  for (let seen = -1; seen !== asked.length;) {
    seen = asked.length;
    await new Promise((done) => setTimeout(done, 1000));
  }
}

describe('the end of a long list', () => {
  test('scrolled to the bottom, the last tasks show where the service orders them, asked from the end', async () => {
    const { page, problems } = session.app;
    const settling = recordQueries(page);
    await listSettled(page, settling);
    const asked = recordQueries(page);
    await page.evaluate(`{
      const body = document.querySelector('[data-testid="task-grid-scroll"]');
      body.scrollTop = body.scrollHeight;
    }`);
    const [last, beforeLast] = await serviceFirst('title', 'desc', 2);
    await expect(taskOnRow(page, TASKS - 1)).resolves.toBe(last);
    await expect(taskOnRow(page, TASKS - 2)).resolves.toBe(beforeLast);
    // No page was walked to from the top: every page asked for the end came from the end.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((input) => input.from_end !== true)).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('sorted by due date (tasks without one among them), Ctrl+End reaches the last task', async () => {
    const { page, problems } = session.app;
    await page.getByRole('button', { name: 'Due' }).click();
    await page
      .getByRole('columnheader', { name: 'Due' })
      .and(page.locator('[aria-sort="ascending"]'))
      .waitFor();
    const [first] = await serviceFirst('due_date', 'asc', 1);
    await expect(taskOnRow(page, 0)).resolves.toBe(first);
    // The new order's count: Ctrl+End goes to its last row.
    await page
      .getByTestId('list-count')
      .filter({ hasText: `${TASKS.toLocaleString('en-US')} tasks` })
      .waitFor();
    const asked = recordQueries(page);
    await page.getByTestId('task-grid').focus();
    await page.keyboard.press('Control+End');
    const [last, beforeLast] = await serviceFirst('due_date', 'desc', 2);
    await expect(taskOnRow(page, TASKS - 1)).resolves.toBe(last);
    await expect(taskOnRow(page, TASKS - 2)).resolves.toBe(beforeLast);
    expect(await page.getByTestId('task-grid').getAttribute('aria-activedescendant')).toBe(
      `task-row-${TASKS - 1}`,
    );
    expect(asked.filter((input) => input.query.sort_by === 'due_date' && input.from_end !== true)).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  });
});
