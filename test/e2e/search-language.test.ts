// The search language end to end in Chromium, signed in through the browser:
// typed queries give the rows `GET /v1/tasks` gives for the filters they stand
// for (names resolved, not as the other values, < strict), the chips follow
// the text and the text follows the chips, an unknown key or value is said
// under the filter row with its reason, and keys and values complete from the
// keyboard; the box, its suggestions and its problems pass the accessibility audit.
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { blockingViolations } from './support/accessibility-audit';
import { focusedId, screenshot } from './support/app-browser';
import { readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 300 } }));

/** The service's answer for these filters, in its default order (title ascending): every page. */
async function serviceIds(filters: string): Promise<string[]> {
  const { emulator } = session;
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await readFromServer(
      emulator,
      `/v1/tasks?org_id=${emulator.orgId}&limit=1000&${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    ids.push(...(page.data as { task_id: string }[]).map((t) => t.task_id));
    cursor = page.next_cursor as string | null;
  } while (cursor !== null);
  return ids;
}

async function projectId(name: string): Promise<string> {
  const { emulator } = session;
  const projects = (await readFromServer(emulator, `/v1/projects/${emulator.orgId}?limit=1000`)).data as {
    project_id: string;
    name: string;
  }[];
  const project = projects.find((p) => p.name === name);
  if (!project) throw new Error(`no project ${name}`);
  return project.project_id;
}

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search tasks' });

/** The list shows the service's rows: its count, and its first rows in its order. */
async function expectRows(page: Page, filters: string): Promise<string[]> {
  const ids = await serviceIds(filters);
  expect(ids.length, filters).toBeGreaterThan(0);
  await page
    .getByTestId('list-count')
    .filter({ hasText: new RegExp(`^${ids.length} tasks?$`) })
    .waitFor();
  const shown = Math.min(ids.length, 8);
  const firstRows = async () => {
    const rows: (string | null)[] = [];
    for (let i = 0; i < shown; i++)
      rows.push(await page.locator(`#task-row-${i}`).getAttribute('data-task-id'));
    return rows;
  };
  await expect.poll(firstRows).toEqual(ids.slice(0, shown));
  return ids;
}

async function typeQuery(page: Page, text: string): Promise<void> {
  await searchBox(page).fill(text);
}

test('a typed query shows the rows the service gives for its filters, and the chips follow it', async () => {
  const { page, problems } = session.app;
  const billing = await projectId('Billing Revamp');

  await typeQuery(page, 'status:blocked,in_progress assignee:me');
  await expectRows(page, 'filter[status]=blocked,in_progress&filter[assignee]=me');
  const status = page.getByRole('group', { name: 'Status' });
  await expect(status.getByRole('button', { name: 'Blocked' }).getAttribute('aria-pressed')).resolves.toBe(
    'true',
  );
  await expect(status.getByRole('button', { name: 'Done' }).getAttribute('aria-pressed')).resolves.toBe(
    'false',
  );

  // A project by its name, not as every other status, and strictly before a day.
  await typeQuery(page, 'project:"billing revamp" -status:completed due<2026-12-01');
  await expectRows(
    page,
    `filter[project]=${billing}&filter[status]=not_started,in_progress,blocked&filter[due_before]=2026-11-30`,
  );
  await page.getByRole('button', { name: /^Filters/ }).click();
  const panel = page.getByRole('region', { name: 'More filters' });
  await panel.getByRole('button', { name: 'Remove project Billing Revamp' }).waitFor();
  await expect(status.getByRole('button', { name: 'Done' }).getAttribute('aria-pressed')).resolves.toBe(
    'false',
  );
  await expect(status.getByRole('button', { name: 'Blocked' }).getAttribute('aria-pressed')).resolves.toBe(
    'true',
  );

  // Free words and an exact phrase are the service's search.
  await typeQuery(page, 'type:bug "the"');
  await expectRows(page, 'filter[task_type]=bug&filter[search]=the');
  await screenshot(page, 'search-language-query');
  expect(problems).toEqual([]);
});

test('a chip rewrites the text, and the rows follow', async () => {
  const { page, problems } = session.app;
  await typeQuery(page, 'status:blocked');
  const status = page.getByRole('group', { name: 'Status' });
  await status.getByRole('button', { name: 'In progress' }).click();
  await expect.poll(() => searchBox(page).inputValue()).toBe('status:in_progress,blocked');
  await expectRows(page, 'filter[status]=in_progress,blocked');

  const panel = page.getByRole('region', { name: 'More filters' });
  if (!(await panel.isVisible())) await page.getByRole('button', { name: /^Filters/ }).click();
  await panel.getByRole('group', { name: 'Priority' }).getByRole('button', { name: 'Urgent' }).click();
  await expect.poll(() => searchBox(page).inputValue()).toBe('status:in_progress,blocked priority:urgent');
  await expectRows(page, 'filter[status]=in_progress,blocked&filter[priority]=urgent');

  await status.getByRole('button', { name: 'In progress' }).click();
  await status.getByRole('button', { name: 'Blocked' }).click();
  await expect.poll(() => searchBox(page).inputValue()).toBe('priority:urgent');
  await expectRows(page, 'filter[priority]=urgent');
  expect(problems).toEqual([]);
});

test('an unknown key or value is said under the box with its reason, and the rest still applies', async () => {
  const { page, problems } = session.app;
  await typeQuery(page, 'colour:red priority:high status:done');
  const said = page.getByTestId('search-problems');
  await said.getByText("colour:red not applied: unknown key 'colour'", { exact: false }).waitFor();
  await said
    .getByText(
      "status:done not applied: status cannot be 'done': not_started, in_progress, blocked or completed",
    )
    .waitFor();
  await expect(searchBox(page).getAttribute('aria-invalid')).resolves.toBe('true');
  await expectRows(page, 'filter[priority]=high');
  await screenshot(page, 'search-language-problems');
  expect(await blockingViolations(page)).toEqual([]);

  await typeQuery(page, 'sprint:current');
  await said.getByText('the task list cannot filter by sprint', { exact: false }).waitFor();
  await typeQuery(page, '');
  await expect.poll(() => said.locator('li').count()).toBe(0);
  expect(problems).toEqual([]);
});

test('keys and values complete from the keyboard', async () => {
  const { page, problems } = session.app;
  await typeQuery(page, '');
  await page.getByTestId('task-grid').focus();
  await page.keyboard.press('/');
  await expect.poll(() => focusedId(page)).toBe('task-search');
  await page.keyboard.type('pri');
  const list = page.getByRole('listbox', { name: 'Search suggestions' });
  await list.getByRole('option', { name: /priority:/ }).waitFor();
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: /priority:/ }).getAttribute('aria-selected')).resolves.toBe(
    'true',
  );
  await page.keyboard.press('Enter');
  await expect.poll(() => searchBox(page).inputValue()).toBe('priority:');
  await list.getByRole('option', { name: /urgent/ }).waitFor();
  await page.keyboard.type('urg');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => searchBox(page).inputValue()).toBe('priority:urgent ');
  await expectRows(page, 'filter[priority]=urgent');

  // A name with a space is quoted as it is taken.
  await page.keyboard.type('project:bill');
  await list.getByRole('option', { name: /Billing Revamp/ }).waitFor();
  await screenshot(page, 'search-language-completion');
  await page.keyboard.press('ArrowDown');
  expect(await blockingViolations(page)).toEqual([]);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await expect.poll(() => searchBox(page).inputValue()).toBe('priority:urgent project:"Billing Revamp" ');
  await expectRows(page, `filter[priority]=urgent&filter[project]=${await projectId('Billing Revamp')}`);
  await expect(list.isHidden()).resolves.toBe(true);

  // Escape closes the list, a second one empties the box.
  await page.keyboard.type('sta');
  await list.getByRole('option', { name: /status:/ }).waitFor();
  await page.keyboard.press('Escape');
  await expect(list.isHidden()).resolves.toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => searchBox(page).inputValue()).toBe('');
  expect(problems).toEqual([]);
});

test('the list stays where it is as a search’s first letter is typed and cleared, at every width', async () => {
  const { page } = session.app;
  const gridTop = async () => (await page.getByRole('grid').boundingBox())?.y;
  const clear = page.getByRole('button', { name: 'Clear' });
  try {
    // One line of search, chips and controls down to ~1 280 px, two lines below it.
    for (const width of [1800, 1440, 1360, 1300, 1280, 1250, 1100]) {
      await page.setViewportSize({ width, height: 820 });
      await typeQuery(page, '');
      await clear.waitFor({ state: 'hidden' });
      const top = await gridTop();
      // "Filters (1)" and "Clear" appear as the first letter is typed: the row holds them as it was.
      await typeQuery(page, 'a');
      await clear.waitFor();
      expect(await gridTop(), `${width} px wide`).toBe(top);
      await typeQuery(page, '');
      await clear.waitFor({ state: 'hidden' });
      expect(await gridTop(), `${width} px wide`).toBe(top);
    }
  } finally {
    await page.setViewportSize({ width: 1360, height: 820 });
    await typeQuery(page, '');
  }
});
