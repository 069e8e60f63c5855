// Signing in through the browser with a narrower grant: the person leaves
// teams:write unticked on the consent page. The app says sprints cannot be
// changed and why, New sprint is disabled and nothing about sprints is queued;
// "Sign in again to allow changing sprints" asks anew, and once granted the
// sprint controls work.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppSession, QUICK_RETRY, startAppSession } from './support/app-session';
import { screenshot } from './support/app-browser';

let session: AppSession;

beforeAll(async () => {
  session = await startAppSession({ emulator: { seedTasks: 40 }, client: { retry: QUICK_RETRY } });
});

afterAll(() => session?.close());

async function consent(untick: string[]): Promise<void> {
  const { app, host } = session;
  const page = await app.context.newPage();
  await page.goto(await host.nextOpenedUrl());
  for (const scope of untick) await page.getByRole('checkbox', { name: scope }).uncheck();
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'Signed in' }).waitFor();
  await page.close();
}

describe('a browser sign-in granted fewer scopes than asked', () => {
  test('without teams:write: sprint controls disabled with the reason, no sprint queued; signing in again enables them', async () => {
    const { app, host, emulator } = session;
    const { page } = app;
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    await consent(['teams:write']);
    await page.getByRole('navigation', { name: 'Workspace' }).waitFor();

    const team = emulator.control.tasks().find((t) => t.team_id !== null)?.team_id as string;
    const newSprint = page.locator('button[aria-label^="New sprint in"]').first();
    await newSprint.waitFor();
    expect(await newSprint.isDisabled()).toBe(true);
    const note = page.getByTestId('consent-sprint');
    await expect(note.textContent()).resolves.toContain('may not change sprints');
    await expect(note.textContent()).resolves.toContain('teams:write');
    expect(await newSprint.getAttribute('aria-describedby')).toBe('consent-sprint');
    await screenshot(page, 'sprints-not-granted');
    const account = host.accounts.current();
    expect(account?.read_only_kinds).toEqual([{ kind: 'sprint', scope: 'teams:write' }]);
    const mirror = host.accounts.runtime(account?.id as string).mirror;
    expect(mirror.outbox.list().filter((op) => op.entityType === 'sprint')).toEqual([]);
    expect(team).toEqual(expect.any(String));

    await note.getByRole('button', { name: 'Sign in again to allow changing sprints' }).click();
    await consent([]);
    await note.waitFor({ state: 'detached' });
    expect(await newSprint.isDisabled()).toBe(false);
    expect(host.accounts.current()?.read_only_kinds).toEqual([]);
    expect(host.accounts.list()).toHaveLength(1);
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
