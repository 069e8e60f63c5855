// An update that finds the saved tasks an older version of the app wrote, as a
// person meets it: the window opens at once ("Opening…"), says it is upgrading
// their saved tasks and how far while the upgrade runs off main's thread (the
// page's calls wait at the gate meanwhile), then shows the workspace, still
// signed in, and syncs. The host starts main's services as Electron's main
// does: after the window opened (test/e2e/host/e2e-host.ts, beforeServices).
import { expect, test } from 'vitest';
import { MIGRATIONS_AFTER_OLDER_MIRROR, writeOlderMirror } from '../../db/testing/other-version-mirrors';
import { removeMirrorFiles } from '../../sync/accounts/account-manager';
import { sessionPerFile } from './support/app-session';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle } from './support/waits';

/** Tasks in the older mirror: enough that its upgrade (task rows rebuilt) lasts beyond a frame or two. */
const OLDER_TASKS = 30_000;

// A machine with a keychain: the sign-in outlives the restart, as it does for most people.
const session = sessionPerFile(() => startSignedInSession({ keychain: true }));

test('an older version’s saved tasks are upgraded behind a splash that says how far, then the workspace shows, signed in', async () => {
  const mirrorPath = session.host.accounts.list()[0]?.mirror_path ?? '';
  expect(mirrorPath).not.toBe('');
  const total = MIGRATIONS_AFTER_OLDER_MIRROR.length;
  const shown: string[] = [];

  await session.restart({
    // The person's mirror as the older version left it.
    whileQuit: async () => {
      await removeMirrorFiles(mirrorPath);
      await writeOlderMirror(mirrorPath, OLDER_TASKS);
    },
    whileStarting: async ({ page }) => {
      const splash = page.getByRole('status').filter({ hasText: /Opening|Upgrading/ });
      await splash.waitFor();
      shown.push((await splash.textContent()) ?? '');
      // Told how far, a step of the upgrade's migrations.
      const upgrading = page.getByText(
        new RegExp(`^Upgrading your saved tasks for this version of the app \\(step \\d+ of ${total}\\)…$`),
      );
      await upgrading.waitFor({ timeout: 60_000 });
      shown.push((await upgrading.textContent()) ?? '');
    },
  });

  expect(shown[0]).toMatch(/^(Opening…|Upgrading)/);
  expect(shown[1]).toMatch(/^Upgrading/);

  // Then the workspace, without asking to sign in again, and the service's tasks once it synced.
  const { page } = session.app;
  await page.getByRole('navigation', { name: 'Workspace' }).waitFor({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Sign in with your browser' }).count()).resolves.toBe(0);

  await syncAndSettle(page);

  await page.getByRole('button', { name: 'All tasks' }).click();
  await page
    .getByTestId('list-count')
    .filter({ hasText: `${session.emulator.control.taskCount().toLocaleString('en-US')} tasks` })
    .waitFor({ timeout: 60_000 });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /Upgrading/ })
      .count(),
  ).resolves.toBe(0);
}, 120_000);

test('the page reported no errors', () => {
  expect(session.app.problems).toEqual([]);
});
