// Waiting in an end-to-end test for what the screens started: a condition on
// the server or the mirror, and the outbox emptied by a sync.
import type { Page } from 'playwright-core';

/** Polls `check` until it holds; a wait that cannot end says what it waited for. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until nothing is left to send: the status bar says every change is synced. One that
 * never does says what the status bar said instead (connection, changes waiting and their
 * states), so that a failure in CI tells offline from a change stuck or refused.
 */
export async function allChangesSynced(page: Page, timeoutMs = 20_000): Promise<void> {
  try {
    await page
      .getByTestId('pending-count')
      .filter({ hasText: 'All changes synced' })
      .waitFor({ timeout: timeoutMs });
  } catch (error) {
    const bar = await page
      .locator('footer.status-bar')
      .innerText({ timeout: 1_000 })
      .catch(() => '(no status bar)');
    throw new Error(`"All changes synced" never showed; the status bar said: ${bar.replace(/\s+/g, ' ')}`, {
      cause: error,
    });
  }
}

/** Syncs now and waits until nothing is left to send. */
export async function syncAndSettle(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sync now' }).click();
  await allChangesSynced(page);
}
