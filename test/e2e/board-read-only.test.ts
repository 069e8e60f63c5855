// The board for a read-only account (a test token), end to end in Chromium
// against the emulator: every section of the scope is shown with its cards,
// and nothing offers a change the service would refuse (no add, rename,
// reorder or delete of a section, no card dragged or moved by button or
// Alt+arrows); a move tried by keyboard sends and queues nothing.
// Screenshots in light and dark.
import { beforeAll, describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { screenshot, screenshotInDark } from './support/app-browser';
import { firstProject, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';

const session = sessionPerFile(() =>
  startSignedInSession({ emulator: { seedTasks: 60 }, signIn: 'pasted-test' }),
);

let project: { project_id: string; name: string };

/** What the server holds, read with the same read-only token. */
const api = (path: string) => readFromServer(session.emulator, path, session.emulator.tokens.test);

const writes = () => session.emulator.control.requests().filter((r) => r.method !== 'GET').length;

beforeAll(async () => {
  await session.app.page
    .locator('.account-user')
    .filter({ hasText: 'read-only' })
    .waitFor({ timeout: 20_000 });
  project = await firstProject(session.emulator, session.emulator.tokens.test);
});

describe('the board of a read-only account', () => {
  test('shows every section and its cards with no control to change them; a keyboard move sends nothing', async () => {
    const { page } = session.app;
    const writesBefore = writes();
    await page.getByRole('region', { name: 'Sections' }).getByRole('button', { name: project.name }).click();
    const board = page.locator('section.board');
    const onServer = (
      (
        await api(
          `/v1/sections?org_id=${session.emulator.orgId}&scope_type=project&scope_id=${project.project_id}&limit=1000`,
        )
      ).data as { name: string }[]
    ).map((s) => s.name);
    expect(onServer.length).toBeGreaterThan(1);
    await board
      .locator('.list-count')
      .filter({ hasText: `${onServer.length} sections` })
      .waitFor();
    await expect(board.locator('section.board-column .column-name').allTextContents()).resolves.toEqual(
      onServer,
    );
    const cards = board.locator('li.card');
    await cards.first().waitFor();
    const cardCount = await cards.count();

    // Nothing to add, rename, reorder or delete; nothing draggable; no card moves.
    await expect(board.getByRole('button', { name: /Add section/ }).count()).resolves.toBe(0);
    await expect(board.getByRole('button', { name: /^(Rename|Move|Delete) section / }).count()).resolves.toBe(
      0,
    );
    await expect(board.getByRole('button', { name: /^Move (up|down|to )/ }).count()).resolves.toBe(0);
    await expect(board.locator('[draggable="true"]').count()).resolves.toBe(0);
    await expect(board.locator('[aria-keyshortcuts]').count()).resolves.toBe(0);
    // Still read: a card opens its task.
    await expect(board.locator('.card-open').count()).resolves.toBe(cardCount);

    // Alt+→ on a card moves nothing, queues nothing and sends nothing.
    const card = cards.first();
    const taskId = (await card.getAttribute('data-task-id')) ?? '';
    const sectionId = await card.evaluate(
      (element: {
        closest: (selector: string) => { getAttribute: (name: string) => string | null } | null;
      }) => element.closest('section.board-column')?.getAttribute('data-section-id') ?? '',
    );
    await card.locator('.card-open').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByTestId('pending-count').textContent()).resolves.toBe('All changes synced');
    await expect(
      board
        .locator(`section.board-column[data-section-id="${sectionId}"] li.card[data-task-id="${taskId}"]`)
        .count(),
    ).resolves.toBe(1);
    expect(writes()).toBe(writesBefore);

    await screenshot(page, 'board-read-only');
    await screenshotInDark(page, 'board-read-only');
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
