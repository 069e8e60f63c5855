// The board end to end in Chromium against the emulator: cards dragged to a
// place in another section and reordered, then the same by keyboard (Alt+arrows),
// each move announced, and the server ends with the order shown; sections added,
// renamed, reordered and deleted offline reach the server once when it is back;
// files dropped on a card attached to its task.
// Screenshots in light and dark.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/start';
import type { AppSession } from './support/app-session';
import { hasFocus, type OpenedApp, screenshot, screenshotInDark } from './support/app-browser';
import { filesDropped } from './support/file-drop';
import { callService, firstProject, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle, until } from './support/waits';
import type { SwitchableProxy } from './support/switchable-proxy';

let session: AppSession;
let emulator: RunningEmulator;
let proxy: SwitchableProxy;
let app: OpenedApp;
let project: { project_id: string; name: string };
const sectionIds = new Map<string, string>();
const taskIds = new Map<string, string>();

/** The project's sections on the server, in its order. */
async function serverSections(): Promise<{ section_id: string; name: string; position: number }[]> {
  const answer = await readFromServer(
    emulator,
    `/v1/sections?org_id=${emulator.orgId}&scope_type=project&scope_id=${project.project_id}&limit=1000`,
  );
  return answer.data as { section_id: string; name: string; position: number }[];
}

/** The titles of the named tasks filed in a section on the server, in board order. */
function serverOrder(sectionId: string): string[] {
  const ours = new Set(taskIds.values());
  return emulator.control
    .tasks()
    .filter((task) => ours.has(task.task_id) && task.section_id === sectionId)
    .sort((a, b) => a.position - b.position)
    .map((task) => task.title);
}

function column(name: string) {
  return app.page.locator('section.board-column').filter({
    has: app.page.locator('.column-header').getByText(name, { exact: true }),
  });
}

async function cardTitles(name: string): Promise<string[]> {
  return column(name).locator('li.card .card-title').allTextContents();
}

async function columnNames(): Promise<string[]> {
  return app.page.locator('section.board-column .column-name').allTextContents();
}

/** Whether most of a column is inside the board's scrolling box. */
async function inView(name: string): Promise<boolean> {
  const board = await app.page.locator('.board-columns').boundingBox();
  const box = await column(name).boundingBox();
  if (board === null || box === null) return false;
  const middle = box.x + box.width / 2;
  return middle >= board.x && middle <= board.x + board.width;
}

const announcement = () => app.page.locator('.app-shell > [aria-live="polite"]');

/** Screenshots show the board scrolled to its last columns, where these tests work. */
async function scrolledToEnd(): Promise<void> {
  await app.page
    .locator('.board-columns')
    .evaluate((element: { scrollLeft: number; scrollWidth: number }) => {
      element.scrollLeft = element.scrollWidth;
    });
}

async function inDark(name: string) {
  await scrolledToEnd();
  await screenshotInDark(app.page, name);
}

beforeAll(async () => {
  session = await startSignedInSession({ emulator: { seedTasks: 60 }, beforeSignIn: serverData });
  ({ emulator, proxy, app } = session);
  await app.page
    .getByRole('region', { name: 'Sections' })
    .getByRole('button', { name: project.name })
    .click();
  await column('Doing').waitFor();
});

/** Two sections of our own at the end of the project's board, holding only our tasks, made before the first sync. */
async function serverData(started: AppSession): Promise<void> {
  emulator = started.emulator;
  project = await firstProject(emulator);
  for (const name of ['Todo', 'Doing']) {
    const created = await callService(emulator, 'POST', '/v1/sections', {
      body: { org_id: emulator.orgId, scope_type: 'project', scope_id: project.project_id, name },
    });
    expect(created.status).toBe(201);
    sectionIds.set(name, created.body.section_id as string);
  }
  const filed: [string, string][] = [
    ['Fix login', 'Todo'],
    ['Write docs', 'Todo'],
    ['Ship it', 'Todo'],
    ['Review PR', 'Doing'],
    ['Plan sprint', 'Doing'],
  ];
  for (const [n, [title, section]] of filed.entries()) {
    const created = await callService(emulator, 'POST', '/v1/tasks', {
      body: {
        org_id: emulator.orgId,
        title,
        project_id: project.project_id,
        section_id: sectionIds.get(section),
        position: (n + 1) * 1024,
      },
    });
    expect(created.status).toBe(201);
    taskIds.set(title, created.body.task_id as string);
  }
}

afterAll(() => session?.close());

describe('the columns', () => {
  test('every section the server has in the scope is a column, and those scrolled out of view are said and reached', async () => {
    const { page } = app;
    const onServer = (await serverSections()).map((s) => s.name);
    expect(await columnNames()).toEqual(onServer);
    await page
      .locator('.list-count')
      .filter({ hasText: `${onServer.length} sections` })
      .waitFor();
    // The row is wider than the window: the columns past its right edge are counted and named there.
    const right = page.getByRole('button', { name: 'Show 3 sections to the right' });
    await expect(right.getAttribute('title')).resolves.toBe(onServer.slice(-3).join(', '));
    await expect(page.getByRole('button', { name: /to the left/ }).count()).resolves.toBe(0);
    await right.click();
    const left = page.getByRole('button', { name: `Show ${onServer.length - 3} sections to the left` });
    await left.waitFor();
    await expect(left.getAttribute('title')).resolves.toBe(onServer.slice(0, -3).join(', '));
    await expect(page.getByRole('button', { name: /to the right/ }).count()).resolves.toBe(0);
    expect(await inView('Doing')).toBe(true);
    expect(await inView(onServer[0] ?? '')).toBe(false);
    await left.click();
    await until(() => inView(onServer[0] ?? ''), 'the first column back in view');
  });
});

describe('cards on the board', () => {
  test('dragged by mouse to a place in another section and reordered there; the server ends with that order', async () => {
    expect(await cardTitles('Todo')).toEqual(['Fix login', 'Write docs', 'Ship it']);
    expect(await cardTitles('Doing')).toEqual(['Review PR', 'Plan sprint']);

    // Onto the lower half of 'Review PR': after it, before 'Plan sprint'.
    const reviewCard = column('Doing').locator('li.card').filter({ hasText: 'Review PR' });
    const box = await reviewCard.boundingBox();
    if (box === null) throw new Error('no box for the card');
    await column('Todo')
      .locator('li.card')
      .filter({ hasText: 'Fix login' })
      .dragTo(reviewCard, { targetPosition: { x: box.width / 2, y: box.height - 4 } });
    await until(async () => (await cardTitles('Doing')).length === 3, 'the card in Doing');
    expect(await cardTitles('Doing')).toEqual(['Review PR', 'Fix login', 'Plan sprint']);
    expect(await cardTitles('Todo')).toEqual(['Write docs', 'Ship it']);
    await expect(announcement().textContent()).resolves.toBe('Moved “Fix login” to Doing, position 2 of 3.');
    await column('Doing')
      .locator('li.card', { hasText: 'Fix login' })
      .locator('[data-sync-mark="pending"]')
      .waitFor();

    // Reordered inside Doing: 'Plan sprint' onto the upper half of the first card.
    await column('Doing')
      .locator('li.card')
      .filter({ hasText: 'Plan sprint' })
      .dragTo(reviewCard, { targetPosition: { x: box.width / 2, y: 4 } });
    await until(async () => (await cardTitles('Doing'))[0] === 'Plan sprint', 'the reorder');
    expect(await cardTitles('Doing')).toEqual(['Plan sprint', 'Review PR', 'Fix login']);
    await expect(announcement().textContent()).resolves.toBe(
      'Moved “Plan sprint” to Doing, position 1 of 3.',
    );

    await syncAndSettle(app.page);
    expect(serverOrder(sectionIds.get('Doing') ?? '')).toEqual(['Plan sprint', 'Review PR', 'Fix login']);
    expect(serverOrder(sectionIds.get('Todo') ?? '')).toEqual(['Write docs', 'Ship it']);
  });

  test('moved by keyboard (Alt+arrows on a focused card), focus kept and each move announced; the server ends with it', async () => {
    const { page } = app;
    const card = (title: string) =>
      page.locator(`li.card[data-task-id="${taskIds.get(title) ?? ''}"] .card-open`);
    await card('Write docs').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await until(async () => (await cardTitles('Doing')).includes('Write docs'), 'the card in Doing');
    expect(await cardTitles('Doing')).toEqual(['Write docs', 'Plan sprint', 'Review PR', 'Fix login']);
    await expect(announcement().textContent()).resolves.toBe('Moved “Write docs” to Doing, position 1 of 4.');
    await until(() => hasFocus(card('Write docs')), 'the focus on the moved card');

    await page.keyboard.press('Alt+ArrowDown');
    await expect(announcement().textContent()).resolves.toBe('Moved “Write docs” to Doing, position 2 of 4.');
    await page.keyboard.press('Alt+ArrowDown');
    await expect(announcement().textContent()).resolves.toBe('Moved “Write docs” to Doing, position 3 of 4.');
    expect(await cardTitles('Doing')).toEqual(['Plan sprint', 'Review PR', 'Write docs', 'Fix login']);
    await until(() => hasFocus(card('Write docs')), 'the focus after the moves');
    // Up from the top of a section goes nowhere and says so.
    await card('Ship it').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(announcement().textContent()).resolves.toBe('“Ship it” is already first in Todo.');

    await scrolledToEnd();
    await screenshot(page, 'board');
    await inDark('board');

    await syncAndSettle(app.page);
    expect(serverOrder(sectionIds.get('Doing') ?? '')).toEqual([
      'Plan sprint',
      'Review PR',
      'Write docs',
      'Fix login',
    ]);
    expect(serverOrder(sectionIds.get('Todo') ?? '')).toEqual(['Ship it']);
  });
});

describe('sections on the board', () => {
  test('added, renamed, reordered and deleted offline reach the server once when it is back', async () => {
    const { page } = app;
    const createsBefore = emulator.control.creates().sections;
    const namesBefore = await columnNames();
    expect(namesBefore.slice(-2)).toEqual(['Todo', 'Doing']);
    proxy.goOffline();

    // Added at the end, marked as waiting.
    await page.getByRole('button', { name: '+ Add section' }).click();
    await page.getByLabel('New section name').fill('doing');
    await page.getByRole('button', { name: 'Add section', exact: true }).click();
    await page.getByRole('alert').getByText('There is already a section called “Doing” here.').waitFor();
    await scrolledToEnd();
    await screenshot(page, 'board-add-section');
    await inDark('board-add-section');
    await page.getByLabel('New section name').fill('Next week');
    await page.getByLabel('New section name').press('Enter');
    await column('Next week').waitFor();
    expect((await columnNames()).at(-1)).toBe('Next week');
    await column('Next week').locator('.column-header [data-sync-mark="pending"]').waitFor();

    // Renamed in place: Escape leaves the name, Enter saves.
    await page.getByRole('button', { name: 'Rename section Next week' }).click();
    await page.getByLabel('Rename section Next week').fill('Never mind');
    await page.getByLabel('Rename section Next week').press('Escape');
    await column('Next week').waitFor();
    await page.getByRole('button', { name: 'Rename section Next week' }).click();
    await page.getByLabel('Rename section Next week').fill('Later this month');
    await scrolledToEnd();
    await screenshot(page, 'board-rename');
    await inDark('board-rename');
    await page.getByLabel('Rename section Next week').press('Enter');
    await column('Later this month').waitFor();

    // Reordered: once by its button, once by Alt+← with the focus in its header.
    await page.getByRole('button', { name: 'Move section Later this month left' }).click();
    await until(async () => (await columnNames()).at(-2) === 'Later this month', 'the first move');
    await until(
      () => hasFocus(page.getByRole('button', { name: 'Move section Later this month left' })),
      'the focus on the moved header',
    );
    await page.keyboard.press('Alt+ArrowLeft');
    await until(async () => (await columnNames()).at(-3) === 'Later this month', 'the second move');
    expect((await columnNames()).slice(-3)).toEqual(['Later this month', 'Todo', 'Doing']);
    await expect(announcement().textContent()).resolves.toBe(
      `Moved section “Later this month” to position ${namesBefore.length - 1} of ${namesBefore.length + 1}.`,
    );
    await scrolledToEnd();
    await screenshot(page, 'board-sections-offline');
    await inDark('board-sections-offline');

    // Deleted after a question that says what happens to its task.
    await page.getByRole('button', { name: 'Delete section Todo' }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete section “Todo”?' });
    await question.getByText('Its task is not deleted: it stays in its project, in no section.').waitFor();
    await screenshot(page, 'board-delete-section');
    await inDark('board-delete-section');
    await question.getByRole('button', { name: 'Delete section' }).click();
    await column('Todo').waitFor({ state: 'detached' });
    expect((await columnNames()).slice(-2)).toEqual(['Later this month', 'Doing']);

    // Nothing reached the server while offline.
    expect((await serverSections()).map((s) => s.name)).not.toContain('Later this month');
    expect((await serverSections()).map((s) => s.name)).toContain('Todo');

    proxy.goOnline();
    await syncAndSettle(app.page);
    const after = await serverSections();
    expect(after.map((s) => s.name)).toEqual([...namesBefore.slice(0, -2), 'Later this month', 'Doing']);
    expect(after.filter((s) => s.name === 'Later this month')).toHaveLength(1);
    expect(emulator.control.creates().sections).toBe(createsBefore + 1);
    const shipIt = emulator.control.task(taskIds.get('Ship it') ?? '');
    expect(shipIt?.section_id).toBeNull();
    expect(shipIt?.project_id).toBe(project.project_id);
    // The new section lost its pending mark and kept its place under its server id.
    await column('Later this month').locator('[data-sync-mark]').waitFor({ state: 'detached' });
    expect((await columnNames()).slice(-2)).toEqual(['Later this month', 'Doing']);
  });

  test('a column dragged by its header to another place; the server ends with that order', async () => {
    const names = await columnNames();
    expect(names.slice(-2)).toEqual(['Later this month', 'Doing']);
    const target = column('Later this month');
    const box = await target.boundingBox();
    if (box === null) throw new Error('no box for the column');
    // Onto the left half of 'Later this month': before it.
    await column('Doing')
      .locator('.column-header')
      .dragTo(target, { targetPosition: { x: 10, y: box.height / 2 } });
    await until(async () => (await columnNames()).at(-1) === 'Later this month', 'the column moved');
    expect(await columnNames()).toEqual([...names.slice(0, -2), 'Doing', 'Later this month']);
    await expect(announcement().textContent()).resolves.toBe(
      `Moved section “Doing” to position ${names.length - 1} of ${names.length}.`,
    );
    await syncAndSettle(app.page);
    expect((await serverSections()).map((s) => s.name)).toEqual(await columnNames());
  });

  test('a name a peer took while we were offline: the column says so and Rename and retry lands ours', async () => {
    const { page } = app;
    const createsBefore = emulator.control.creates().sections;
    proxy.goOffline();
    await page.getByRole('button', { name: '+ Add section' }).click();
    await page.getByLabel('New section name').fill('Next week');
    await page.getByLabel('New section name').press('Enter');
    await column('Next week').locator('.column-header [data-sync-mark="pending"]').waitFor();
    const peers = await callService(emulator, 'POST', '/v1/sections', {
      body: {
        org_id: emulator.orgId,
        scope_type: 'project',
        scope_id: project.project_id,
        name: 'Next week',
      },
      token: emulator.tokens.peer,
    });
    expect(peers.status).toBe(201);

    proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    const ours = page
      .locator('section.board-column')
      .filter({ has: page.locator('.column-header [data-sync-mark="failed"]') });
    const refusal = ours.getByTestId('section-refusal');
    await refusal.getByText('This section was not created.').waitFor({ timeout: 20_000 });
    await refusal.getByText(/A section named 'Next week' already exists in this project/).waitFor();
    // The peer's section arrives beside ours.
    await until(
      async () => (await columnNames()).filter((n) => n === 'Next week').length === 2,
      "the peer's section on the board",
    );

    // The taken name again is refused in place, without a round trip.
    const fix = refusal.getByRole('form', { name: 'Rename and retry' });
    await fix.getByRole('button', { name: 'Rename and retry' }).click();
    await fix.getByText('There is already a section called “Next week” here.').waitFor();
    // The pending-changes inspector offers the same fix for the section.
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const change = inspector.locator('li.pending-item[data-state="failed"]');
    await change.getByRole('form', { name: 'Rename and retry' }).waitFor();
    await screenshot(page, 'board-section-name-taken-pending');
    await inspector.getByRole('button', { name: 'Close' }).click();

    await fix.getByLabel('New name').fill('Next week (ada)');
    await ours.scrollIntoViewIfNeeded();
    await screenshot(page, 'board-section-name-taken');
    await screenshotInDark(page, 'board-section-name-taken');
    await fix.getByRole('button', { name: 'Rename and retry' }).click();

    await syncAndSettle(app.page);
    const after = (await serverSections()).map((s) => s.name);
    expect(after.filter((n) => n === 'Next week')).toHaveLength(1);
    expect(after.filter((n) => n === 'Next week (ada)')).toHaveLength(1);
    expect(emulator.control.creates().sections).toBe(createsBefore + 2);
    await column('Next week (ada)').waitFor();
    await column('Next week (ada)').locator('[data-sync-mark]').waitFor({ state: 'detached' });
    await expect(page.getByTestId('section-refusal').count()).resolves.toBe(0);
    expect(await columnNames()).toEqual(after);
  });

  test("files dropped on a card are attached to that card's task as their bytes, a refused one said; nothing names a path", async () => {
    const { page } = app;
    const taskId = taskIds.get('Write docs')!;
    const card = page.locator(`li.card[data-task-id="${taskId}"]`);
    const onCard = await filesDropped(page, [
      { name: 'from the board.txt', type: 'text/plain', text: 'dropped on a card' },
      { name: 'card.html', type: 'text/html', text: '<!doctype html><script>alert(1)</script>' },
    ]);
    await card.dispatchEvent('dragenter', { dataTransfer: onCard });
    await expect(card.getAttribute('class')).resolves.toContain('is-file-target');
    await card.dispatchEvent('drop', { dataTransfer: onCard });
    await expect(card.getAttribute('class')).resolves.not.toContain('is-file-target');
    const notice = page.locator('.notice[data-problem-type="upload-type-not-allowed"]');
    await expect(notice.textContent()).resolves.toContain(
      'card.html was not attached: File type not allowed',
    );

    await syncAndSettle(page);
    expect(
      emulator.control.attachments().map((a) => [a.task_id, a.file_name, a.size_bytes, a.content_type]),
    ).toEqual([[taskId, 'from the board.txt', 17, 'text/plain']]);
    await card.locator('button.card-open').click();
    const editor = page.getByTestId('task-editor');
    await editor.locator('.attachment-list > li').filter({ hasText: 'from the board.txt' }).waitFor();
    await editor.getByRole('heading', { name: 'Attachments (1)' }).waitFor();
  });

  test('the page reported no errors', () => {
    expect(app.problems).toEqual([]);
  });
});
