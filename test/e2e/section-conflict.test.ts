// A section renamed on both sides, end to end in Chromium against the emulator:
// the peer renames a team's section while we are offline and we rename it too,
// in place on the team's board; the notification names the section and opens
// its three-way view (never a task of the section's id), the inspector tells
// the change in words and opens the same view, and keeping mine leaves the
// server with my name, which the board shows with no mark left.
// Screenshots in light and dark.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { screenshot, screenshotInDark } from './support/app-browser';
import { callService } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced, until } from './support/waits';
import { keepMine, peerRenames, syncIntoOneConflict } from './support/conflict-steps';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 60 } }));

describe('a section renamed by the peer while we renamed it offline', () => {
  test('is announced as the section, shown in the three-way view, and the server ends with the chosen name', async () => {
    const { page } = session.app;
    const teams = await callService(session.emulator, 'GET', `/v1/teams?org_id=${session.emulator.orgId}`);
    const team = (teams.body.data as { team_id: string; name: string }[])[0];
    if (!team) throw new Error('the seed has no team');
    const created = await callService(session.emulator, 'POST', '/v1/sections', {
      body: {
        org_id: session.emulator.orgId,
        scope_type: 'team',
        scope_id: team.team_id,
        name: 'Parked ideas',
      },
    });
    expect(created.status).toBe(201);
    const sectionId = created.body.section_id as string;

    const accountId = session.host.accounts.current()?.id ?? '';
    const { mirror } = session.host.accounts.runtime(accountId);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await until(
      () => mirror.sections.list().some((s) => s.section_id === sectionId),
      'the section in the mirror',
    );

    // Our rename, made on the board while the server is out of reach.
    await page.getByRole('region', { name: 'Sections' }).getByRole('button', { name: team.name }).click();
    const column = page.locator(`section.board-column[data-section-id="${sectionId}"]`);
    await column.getByText('Parked ideas', { exact: true }).waitFor();
    session.proxy.goOffline();
    await column.getByRole('button', { name: 'Rename section Parked ideas' }).click();
    await column.getByLabel('Rename section Parked ideas').fill('Next week');
    await column.getByLabel('Rename section Parked ideas').press('Enter');
    await column.locator('.column-name').filter({ hasText: 'Next week' }).waitFor();
    await column.locator('.column-header [data-sync-mark="pending"]').waitFor();
    expect(mirror.sections.get(sectionId)?.name).toBe('Next week');
    await peerRenames(session.emulator, `/v1/sections/${sectionId}`, 'Soon', ['tasks:read', 'tasks:write']);

    const before = session.host.notifications.length;
    await syncIntoOneConflict(session);
    // The board marks the section as a task in conflict is marked.
    await column.locator('.column-header [data-sync-mark="conflict"]').waitFor();

    // The notification names the section and opens its conflict, not a task of its id.
    await until(() => session.host.notifications.length > before, 'the conflict notification');
    const notification = session.host.notifications.at(-1);
    expect(notification).toMatchObject({
      kind: 'task-conflict',
      body: 'Section “Soon”: name changed on both sides',
      open: { taskId: null, conflict: { entityType: 'section', entityId: sectionId } },
    });

    // The inspector tells the change in words and opens the same view.
    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item[data-state="conflict"]');
    await item.getByText('Rename section ‘Soon’ → ‘Next week’').waitFor({ timeout: 20_000 });
    await expect(item.getByRole('button', { name: 'Open task' }).count()).resolves.toBe(0);
    await item.getByRole('button', { name: 'Resolve…' }).click();
    const view = page.getByRole('dialog', { name: /Resolve the conflict/ });
    await view.getByText('section ‘Soon’').waitFor();
    await view.getByText(/This section changed on the server/).waitFor();
    const field = view.locator('fieldset.conflict-field[data-field="name"]');
    await expect(field.locator('.conflict-column').first().textContent()).resolves.toContain('Parked ideas');
    // Word by word against where the edit started: both words replaced on my side.
    await expect(field.locator('.is-mine ins').allTextContents()).resolves.toEqual(['Next', 'week']);
    await expect(field.locator('.is-mine del').allTextContents()).resolves.toEqual(['Parked', 'ideas']);
    await expect(field.locator('.is-theirs ins').allTextContents()).resolves.toEqual(['Soon']);
    await screenshot(page, 'section-conflict-view');
    await screenshotInDark(session.app.page, 'section-conflict-view');
    await view.getByRole('button', { name: 'Decide later' }).click();
    await view.waitFor({ state: 'detached' });

    // Clicked later, the notification opens the view again (main emits what the notification holds).
    session.host.gate.emit('notification:open', {
      account_id: accountId,
      task_id: null,
      conflict: { entity_type: 'section', entity_id: sectionId },
    });
    await view.waitFor();
    await expect(page.getByTestId('task-editor').count()).resolves.toBe(0);
    await keepMine(view, field);

    await allChangesSynced(page);
    expect((await callService(session.emulator, 'GET', `/v1/sections/${sectionId}`)).body.name).toBe(
      'Next week',
    );
    await column.locator('.column-name').filter({ hasText: 'Next week' }).waitFor();
    await column.locator('.column-header [data-sync-mark]').waitFor({ state: 'detached' });
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
