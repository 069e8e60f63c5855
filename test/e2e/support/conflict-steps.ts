// The steps of a rename raced by the peer, as the end-to-end files of the
// collections written in the app (goals, milestones, sections) take them: the
// peer's rename on the server, the sync that finds the one conflict, and mine
// kept in the three-way view.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../../emulator/start';
import type { AppSession } from './app-session';
import { peerPatch } from './service-calls';

/** The peer renames the resource at `path` on the server, with `scopes`; the service takes it (200). */
export async function peerRenames(
  emulator: RunningEmulator,
  path: string,
  name: string,
  scopes: string[],
): Promise<void> {
  const theirs = await peerPatch(emulator, path, { name }, scopes);
  expect(theirs.status).toBe(200);
}

/** Back online, the person syncs and the status bar counts the one conflict. */
export async function syncIntoOneConflict(session: AppSession): Promise<void> {
  const { page } = session.app;
  session.proxy.goOnline();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await page.locator('.status-bar').getByText('1 conflict').waitFor({ timeout: 20_000 });
}

/** In the three-way `view`, keeps my side of `field` and applies: the view closes. */
export async function keepMine(view: Locator, field: Locator): Promise<void> {
  await field.getByLabel('Keep mine').check();
  await view.getByRole('button', { name: 'Apply choices' }).click();
  await view.waitFor({ state: 'detached' });
}

/** The three-way view of a `kind` the server changed, open on the page, and its name field. */
export async function nameConflictView(page: Page, kind: string): Promise<{ view: Locator; field: Locator }> {
  const view = page.getByRole('dialog', { name: /Resolve the conflict/ });
  await view.getByText(new RegExp(`This ${kind} changed on the server`)).waitFor();
  return { view, field: view.locator('fieldset.conflict-field[data-field="name"]') };
}
