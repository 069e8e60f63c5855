// Quick repeated actions end to end (issue 21): every move, reorder, filing and
// status key a person fires reaches the server, in order, however fast they come.
// Each control is fired 3 to 5 times at 0, 50 and 150 ms apart, from a board and
// a task put back in a known state first, and the server must end as intended.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/start';
import type { AppSession } from './support/app-session';
import type { OpenedApp } from './support/app-browser';
import { callService, firstProject, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { until } from './support/waits';

let session: AppSession;
let emulator: RunningEmulator;
let app: OpenedApp;
let project: { project_id: string; name: string };
const taskIds = new Map<string, string>();
/** Three sprints the sidebar lists, to file a task into one after another. */
let sprintIds: string[] = [];

/** Our sections, first on the project's board at the start; the seed's follow them. */
const OUR_SECTIONS = ['Pace A', 'Pace B', 'Pace C', 'Pace D'];
/** Our cards: enough in 'Pace A' for a card moved four down after each interval took one away. */
const CARDS: readonly [title: string, section: string][] = [
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`Pace ${n}`, 'Pace A'] as [string, string]),
  ['Pace B1', 'Pace B'],
  ['Pace C1', 'Pace C'],
];
const STATUS_TASK = 'Pace status';
const INTERVALS = [0, 50, 150] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `action` `times` times, `interval` ms apart (0: each right after the one before). */
async function fire(times: number, interval: number, action: (n: number) => Promise<void>): Promise<void> {
  for (let n = 0; n < times; n += 1) {
    if (n > 0 && interval > 0) await sleep(interval);
    await action(n);
  }
}

function column(name: string) {
  return app.page.locator('section.board-column').filter({
    has: app.page.locator('.column-header').getByText(name, { exact: true }),
  });
}

async function columnNames(): Promise<string[]> {
  return app.page.locator('section.board-column .column-name').allTextContents();
}

/** The project's sections on the server, in its order. */
async function serverSections(): Promise<{ section_id: string; name: string }[]> {
  const answer = await readFromServer(
    emulator,
    `/v1/sections?org_id=${emulator.orgId}&scope_type=project&scope_id=${project.project_id}&limit=1000`,
  );
  return (answer.data as { section_id: string; name: string; position: number }[]).sort(
    (a, b) => a.position - b.position,
  );
}

async function serverSectionNames(): Promise<string[]> {
  return (await serverSections()).map((s) => s.name);
}

/** Each section's task titles on the server, in board order (ties by title, as the board shows them). */
async function serverCards(): Promise<Record<string, string[]>> {
  const sections = await serverSections();
  const tasks = emulator.control
    .tasks()
    .sort((a, b) => a.position - b.position || a.title.localeCompare(b.title));
  return Object.fromEntries(
    sections.map((s) => [s.name, tasks.filter((t) => t.section_id === s.section_id).map((t) => t.title)]),
  );
}

/** `list` with the item at `from` put at `to`. */
function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const rest = list.filter((_, n) => n !== from);
  const item = list[from];
  if (item === undefined) throw new Error(`nothing at ${from}`);
  return [...rest.slice(0, to), item, ...rest.slice(to)];
}

/**
 * Waits for the server to hold the intended state (the edits go out on their
 * own, a moment after they are made), and once nothing waits to be sent, that
 * it still does: a later edit must not move it away.
 */
async function expectOnServer<T>(read: () => T | Promise<T>, intended: T): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (JSON.stringify(await read()) !== JSON.stringify(intended) && Date.now() < deadline) await sleep(100);
  await app.page
    .getByTestId('pending-count')
    .filter({ hasText: 'All changes synced' })
    .waitFor({ timeout: 20_000 });
  expect(await read()).toEqual(intended);
}

/** The board shows the server's sections (each case starts where the one before ended). */
async function boardAsOnServer(): Promise<string[]> {
  const names = await serverSectionNames();
  await until(
    async () => JSON.stringify(await columnNames()) === JSON.stringify(names),
    'the board showing the sections the server has',
  );
  return names;
}

async function openBoard(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Sections' }).getByRole('button', { name: project.name }).click();
  await column('Pace A').waitFor();
}

beforeAll(async () => {
  session = await startSignedInSession({
    // Each case syncs a few times and reads the server: the contract's 600 a minute would make it wait on 429s.
    emulator: { seedTasks: 40, rateLimit: { live: 100_000 } },
    beforeSignIn: serverData,
  });
  ({ emulator, app } = session);
  const sprintItems = app.page.getByRole('navigation', { name: 'Workspace' }).locator('li[data-sprint-id]');
  // The sidebar lists sprints once the workspace has loaded them, which may come after the task list.
  await until(async () => (await sprintItems.count()) >= 3, 'the sidebar listing three sprints');
  sprintIds = (
    await sprintItems.evaluateAll((items: { getAttribute(name: string): string | null }[]) =>
      items.map((item) => item.getAttribute('data-sprint-id') ?? ''),
    )
  ).slice(0, 3);
  expect(sprintIds).toHaveLength(3);
  await openBoard(app.page);
});

afterAll(() => session?.close());

/** Our sections first on the first project's board, our cards in them, and the task whose status keys are pressed. */
async function serverData(started: AppSession): Promise<void> {
  emulator = started.emulator;
  project = await firstProject(emulator);
  const sectionIds = new Map<string, string>();
  for (const [n, name] of OUR_SECTIONS.entries()) {
    const created = await callService(emulator, 'POST', '/v1/sections', {
      body: {
        org_id: emulator.orgId,
        scope_type: 'project',
        scope_id: project.project_id,
        name,
        position: n - OUR_SECTIONS.length,
      },
    });
    expect(created.status).toBe(201);
    sectionIds.set(name, created.body.section_id as string);
  }
  for (const [n, [title, section]] of [...CARDS, [STATUS_TASK, null] as const].entries()) {
    const created = await callService(emulator, 'POST', '/v1/tasks', {
      body: {
        org_id: emulator.orgId,
        title,
        project_id: project.project_id,
        section_id: section === null ? null : sectionIds.get(section),
        position: (n + 1) * 1024,
      },
    });
    expect(created.status).toBe(201);
    taskIds.set(title, created.body.task_id as string);
  }
}

describe.each(INTERVALS.map((interval, round) => ({ interval, round })))(
  'fired $interval ms apart',
  ({ interval, round }) => {
    test('Alt+→ on a section header three times moves it three places; the server ends so', async () => {
      const names = await boardAsOnServer();
      const { page } = app;
      await page.getByRole('button', { name: `Rename section ${names[0] ?? ''}` }).focus();
      await fire(3, interval, () => page.keyboard.press('Alt+ArrowRight'));
      await expectOnServer(serverSectionNames, moved(names, 0, 3));
    });

    test('"Move section right" clicked three times moves it three places; the server ends so', async () => {
      const names = await boardAsOnServer();
      const { page } = app;
      const button = page.getByRole('button', { name: `Move section ${names[0] ?? ''} right` });
      await fire(3, interval, () => button.click());
      await expectOnServer(serverSectionNames, moved(names, 0, 3));
    });

    test('Alt+↓ on a card four times moves it four places down; the server ends so', async () => {
      await boardAsOnServer();
      const start = await serverCards();
      const top = start['Pace A']?.[0] ?? '';
      await app.page.locator(`li.card[data-task-id="${taskIds.get(top) ?? ''}"] .card-open`).focus();
      await fire(4, interval, () => app.page.keyboard.press('Alt+ArrowDown'));
      await expectOnServer(serverCards, { ...start, 'Pace A': moved(start['Pace A'] ?? [], 0, 4) });
    });

    test('Alt+→ on a card three times moves it three sections right; the server ends so', async () => {
      const names = await boardAsOnServer();
      const start = await serverCards();
      const top = start['Pace A']?.[0] ?? '';
      const to = names[names.indexOf('Pace A') + 3] ?? '';
      await app.page.locator(`li.card[data-task-id="${taskIds.get(top) ?? ''}"] .card-open`).focus();
      await fire(3, interval, () => app.page.keyboard.press('Alt+ArrowRight'));
      // It keeps its place from the top, the first, in each section it passes.
      await expectOnServer(serverCards, {
        ...start,
        'Pace A': (start['Pace A'] ?? []).slice(1),
        [to]: [top, ...(start[to] ?? [])],
      });
    });

    test('a task dropped on sprint after sprint in the sidebar ends in the last one; the server ends so', async () => {
      const { page } = app;
      const taskId = taskIds.get(STATUS_TASK) ?? '';
      // Each round ends in another sprint than the round before.
      const order = [1, 2, 3, 4, 5].map((n) => sprintIds[(n + round) % 3] ?? '');
      // A drop as the sidebar gets it from a list row or a card (a real drag takes longer than the pace tested).
      const drop = (sprintId: string) => `(() => {
        const carried = new DataTransfer();
        carried.setData('application/x-svc-task', ${JSON.stringify(taskId)});
        carried.setData('text/plain', ${JSON.stringify(STATUS_TASK)});
        document
          .querySelector('li[data-sprint-id=${JSON.stringify(sprintId)}]')
          .dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: carried }));
      })()`;
      await fire(order.length, interval, (n) => page.evaluate(drop(order[n] ?? '')));
      await expectOnServer(() => emulator.control.task(taskId)?.sprint_id, order.at(-1));
    });

    test('the status keys pressed five times end in the last status pressed; the server ends so', async () => {
      const { page } = app;
      const taskId = taskIds.get(STATUS_TASK) ?? '';
      await page.getByRole('button', { name: 'All tasks' }).click();
      await page.getByLabel('Search tasks').fill(STATUS_TASK);
      await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
      // Each round ends in another status than the round before.
      const keys =
        [
          ['2', '3', '4', '1', '3'],
          ['4', '1', '3', '2', '4'],
          ['1', '3', '4', '3', '2'],
        ][round] ?? [];
      await fire(keys.length, interval, (n) => page.keyboard.press(keys[n] ?? ''));
      const intended = { '1': 'not_started', '2': 'in_progress', '3': 'blocked', '4': 'completed' }[
        keys.at(-1) ?? '1'
      ];
      await expectOnServer(() => emulator.control.task(taskId)?.status, intended);
      await page.getByLabel('Search tasks').fill('');
      await openBoard(page);
    });
  },
);

test('the page reported no errors', () => {
  expect(app.problems).toEqual([]);
});
