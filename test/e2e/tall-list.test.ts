// A list taller than the browser lets an element be (a million rows of 36 px
// are past Chromium's 33 554 428 px): the grid's spacer stops at a cap and the
// scroll maps onto the rows, so the bottom of the scroll and Ctrl+End reach
// the last rows and the middle of the scroll shows the middle of the list.
// The page's `?grid-max-height=` lowers the cap so that a few thousand rows pass it.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SPACER_CAP_PARAMETER } from '../../renderer/src/task-list/spacer-cap';
import { sessionPerFile } from './support/app-session';
import { callService } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';

const TASKS = 3_000;
const ROW_HEIGHT = 36;
/** A third of the rows' height: the scroll's pixels each stand for about three of the rows'. */
const CAP = (TASKS * ROW_HEIGHT) / 3;

const session = sessionPerFile(async () => {
  const started = await startSignedInSession({ emulator: { seedTasks: TASKS } });
  // The same host (it keeps the sign-in), opened again with the lower cap.
  const { page } = started.app;
  await page.goto(`${started.host.url}?${SPACER_CAP_PARAMETER}=${CAP}`);
  await page.getByRole('button', { name: 'All tasks' }).click();
  await page
    .getByTestId('list-count')
    .filter({ hasText: `${TASKS.toLocaleString('en-US')} tasks` })
    .waitFor();
  return started;
});

/** The ids of the service's last `n` tasks by title, the last first. */
async function serviceLast(n: number): Promise<string[]> {
  const { emulator } = session;
  const answer = await callService(
    emulator,
    'GET',
    `/v1/tasks?org_id=${emulator.orgId}&sort_by=title&sort_order=desc&limit=${n}`,
  );
  return (answer.body.data as { task_id: string }[]).map((task) => task.task_id);
}

interface BodyBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  top: number;
}

/** Scrolls the grid's body to `fraction` of its scroll range (null: leaves it) and says where it is. */
async function scrollBody(page: Page, fraction: number | null): Promise<BodyBox> {
  return page.evaluate(`(async () => {
    const body = document.querySelector('[data-testid="task-grid-scroll"]');
    const fraction = ${JSON.stringify(fraction)};
    if (fraction !== null) {
      body.scrollTop = Math.round(fraction * (body.scrollHeight - body.clientHeight));
      // The scroll event, then the rows drawn for it.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    }
    return {
      scrollTop: body.scrollTop,
      scrollHeight: body.scrollHeight,
      clientHeight: body.clientHeight,
      top: body.getBoundingClientRect().top,
    };
  })()`);
}

/** Row `index` (0 is the first task) once its task shows: its task's id and its top, from the body's top. */
async function rowShown(
  page: Page,
  index: number,
  body: BodyBox,
): Promise<{ id: string | null; top: number }> {
  const row = page.locator(`[role="row"][aria-rowindex="${index + 2}"][data-task-id]`);
  await row.waitFor();
  const box = await row.boundingBox();
  return { id: await row.getAttribute('data-task-id'), top: (box?.y ?? Number.NaN) - body.top };
}

describe('a list taller than the spacer may be', () => {
  test('the grid asks for no element taller than the cap, and the bottom of its scroll shows the last tasks', async () => {
    const { page, problems } = session.app;
    const body = await scrollBody(page, 1);
    expect(body.scrollHeight).toBeLessThanOrEqual(CAP);
    const [last, beforeLast] = await serviceLast(2);
    const lastRow = await rowShown(page, TASKS - 1, body);
    expect(lastRow.id).toBe(last);
    // The last row ends where the viewport does; the one before it sits a row higher.
    expect(lastRow.top + ROW_HEIGHT).toBeCloseTo(body.clientHeight, 0);
    const before = await rowShown(page, TASKS - 2, body);
    expect(before.id).toBe(beforeLast);
    expect(lastRow.top - before.top).toBe(ROW_HEIGHT);
    expect(problems).toEqual([]);
  });

  test('a quarter and half way down the scroll, the rows a quarter and half way down the list are at the top', async () => {
    const { page, problems } = session.app;
    for (const fraction of [0.25, 0.5]) {
      const body = await scrollBody(page, fraction);
      expect(body.scrollHeight).toBeLessThanOrEqual(CAP);
      // The scroll's range stands for the rows' own: the same fraction of each.
      const rowsOffset =
        (body.scrollTop / (body.scrollHeight - body.clientHeight)) * (TASKS * ROW_HEIGHT - body.clientHeight);
      const index = Math.floor(rowsOffset / ROW_HEIGHT);
      const top = await rowShown(page, index, body);
      expect(top.top).toBeCloseTo(index * ROW_HEIGHT - rowsOffset, 0);
      const next = await rowShown(page, index + 1, body);
      expect(next.top - top.top).toBe(ROW_HEIGHT);
    }
    expect(problems).toEqual([]);
  });

  test('Ctrl+End makes the last task active and shows it, arrows and Ctrl+Home move from there', async () => {
    const { page, problems } = session.app;
    const grid = page.getByTestId('task-grid');
    await scrollBody(page, 0);
    await grid.focus();
    await page.keyboard.press('Control+End');
    const [last, beforeLast] = await serviceLast(2);
    await expect.poll(() => grid.getAttribute('aria-activedescendant')).toBe(`task-row-${TASKS - 1}`);
    let body = await scrollBody(page, null);
    expect(body.scrollHeight).toBeLessThanOrEqual(CAP);
    expect(body.scrollTop + body.clientHeight).toBeGreaterThanOrEqual(body.scrollHeight - 1);
    const lastRow = await rowShown(page, TASKS - 1, body);
    expect(lastRow.id).toBe(last);
    expect(lastRow.top + ROW_HEIGHT).toBeCloseTo(body.clientHeight, 0);

    await page.keyboard.press('ArrowUp');
    await expect.poll(() => grid.getAttribute('aria-activedescendant')).toBe(`task-row-${TASKS - 2}`);
    expect((await rowShown(page, TASKS - 2, body)).id).toBe(beforeLast);

    // A page up from the end: the active row is still on screen.
    await page.keyboard.press('PageUp');
    const active = await grid.getAttribute('aria-activedescendant');
    const activeIndex = Number(active?.replace('task-row-', ''));
    expect(activeIndex).toBeLessThan(TASKS - 2);
    body = await scrollBody(page, null);
    const activeTop = (await rowShown(page, activeIndex, body)).top;
    // Within a pixel: past the cap a scrollTop's pixel stands for about three of the rows'.
    expect(activeTop).toBeGreaterThanOrEqual(-1);
    expect(activeTop + ROW_HEIGHT).toBeLessThanOrEqual(body.clientHeight + 1);

    await page.keyboard.press('Control+Home');
    await expect.poll(() => grid.getAttribute('aria-activedescendant')).toBe('task-row-0');
    await expect.poll(async () => (await scrollBody(page, null)).scrollTop).toBe(0);
    body = await scrollBody(page, null);
    expect((await rowShown(page, 0, body)).top).toBe(0);
    expect(problems).toEqual([]);
  });
});
