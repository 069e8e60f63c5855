// A team's triage end to end in Chromium, signed in through the browser with
// the scopes the app asks for: the team's pending tasks as the service's intake
// lists them; from the keyboard one is accepted (project, assignee, priority
// chosen in its form) online, then offline one is declined and one marked a
// duplicate of another task, each leaving the intake at once and listed as
// not sent yet; back online the service holds the review values, the accepted
// task's fields and the comment naming the original. Screenshots of the
// screen, its accept form and the duplicate picker, light and dark. The
// sidebar counts each team's intake, follows a pull that brings a new one and
// a triage made here.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { invokeInPage, screenshot, screenshotInDark, triageButton } from './support/app-browser';
import { readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced, syncAndSettle, until } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 160 } }), {
  waitTimeoutMs: 15_000,
});

/** The team whose intake is longest, so three tasks can be triaged. */
function busiestTeam(): string {
  const pending = new Map<string, number>();
  for (const task of session.emulator.control.tasks())
    if (task.team_id !== null && task.review === 'pending')
      pending.set(task.team_id, (pending.get(task.team_id) ?? 0) + 1);
  const [teamId, count] = [...pending].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (count < 3) throw new Error('no team has three tasks waiting for review in the seed');
  return teamId;
}

/** The intake as the service lists it, oldest first (as the screen orders it). */
async function servedIntake(teamId: string): Promise<string[]> {
  const body = await readFromServer(
    session.emulator,
    `/v1/teams/${teamId}/intake?sort_by=created_at&limit=1000`,
  );
  return (body.data as { task_id: string }[]).map((t) => t.task_id);
}

async function shots(name: string) {
  const { page } = session.app;
  await screenshot(page, `triage-${name}`);
  await screenshotInDark(page, `triage-${name}`);
}

describe('triage of a team’s intake', () => {
  test('accept online, decline and duplicate offline, all from the keyboard; the service has them once back online', async () => {
    const { page } = session.app;
    const teamId = busiestTeam();
    const workspace = await invokeInPage(page, 'workspace:get');
    const teamName = workspace.teams.find((t) => t.team_id === teamId)?.name ?? '';
    const intake = await servedIntake(teamId);

    await triageButton(page, teamName).click();
    await page.getByRole('heading', { name: `${teamName}: triage`, level: 1 }).waitFor();
    const list = page.getByRole('listbox', { name: `Waiting for triage in ${teamName}` });
    await page
      .getByTestId('triage-count')
      .filter({ hasText: `${intake.length} waiting` })
      .waitFor();
    const shown = await Promise.all(
      (await list.getByRole('option').all()).map((row) => row.getAttribute('data-task-id')),
    );
    expect(shown).toEqual(intake);
    const active = () => list.locator('[role="option"][aria-selected="true"]').getAttribute('data-task-id');
    await shots('intake');

    // 1: accept the first, choosing where it goes.
    const acceptedId = intake[0] ?? '';
    expect(await active()).toBe(acceptedId);
    const project = workspace.projects.find((p) => p.status !== 'archived');
    const assignee = workspace.members.find((m) => m.active && m.username !== workspace.me?.username);
    if (!project || !assignee) throw new Error('the seed has no active project or other member');
    await page.keyboard.press('1');
    const form = page.getByRole('dialog', { name: /^Accept / });
    await form.getByLabel('Project').selectOption(project.project_id);
    await form.getByLabel('Assignee').selectOption(assignee.username);
    await form.getByLabel('Priority').selectOption('high');
    await shots('accept-form');
    await form.getByLabel('Priority').press('Control+Enter');
    await form.waitFor({ state: 'detached' });
    await list.locator(`[data-task-id="${acceptedId}"]`).waitFor({ state: 'detached' });
    await until(
      () => session.emulator.control.task(acceptedId)?.review === 'accepted',
      'the accept on the server',
    );

    // Offline: J moves past one (left pending), 2 declines the next, K back and 3 marks that one a duplicate.
    session.proxy.goOffline();
    const [keptId, declinedId] = [intake[1] ?? '', intake[2] ?? ''];
    expect(await active()).toBe(keptId);
    await page.keyboard.press('j');
    expect(await active()).toBe(declinedId);
    await page.keyboard.press('2');
    await list.locator(`[data-task-id="${declinedId}"]`).waitFor({ state: 'detached' });
    await page.keyboard.press('k');
    const duplicateId = (await active()) ?? '';
    expect(duplicateId).toBe(keptId);
    // The original: a task outside the intake, found by a word of its title.
    const original = session.emulator.control
      .tasks()
      .find((t) => !intake.includes(t.task_id) && t.title.length > 6 && /^[\w ]+$/.test(t.title));
    if (!original) throw new Error('the seed has no plainly titled task outside the intake');
    await page.keyboard.press('3');
    const picker = page.getByRole('dialog', { name: /^Duplicate of/ });
    await picker.getByLabel('Original task').fill(original.title);
    const option = picker.getByRole('option').filter({ hasText: original.task_id });
    await option.waitFor();
    // ↓ until the original is the active match, then Enter chooses it.
    for (let i = 0; i < 20 && (await option.getAttribute('aria-selected')) !== 'true'; i++)
      await picker.getByLabel('Original task').press('ArrowDown');
    await shots('duplicate-picker');
    await picker.getByLabel('Original task').press('Enter');
    await picker.waitFor({ state: 'detached' });
    await list.locator(`[data-task-id="${duplicateId}"]`).waitFor({ state: 'detached' });

    // Not sent yet: both listed below the intake with their marks; the service still has them pending.
    const done = page.getByRole('region', { name: 'Triaged here, not yet on the server' });
    for (const id of [declinedId, duplicateId])
      await done.locator(`[data-task-id="${id}"] [data-sync-mark="pending"]`).waitFor();
    await page
      .getByTestId('triage-count')
      .filter({ hasText: `${intake.length - 3} waiting` })
      .waitFor();
    expect(await servedIntake(teamId)).toEqual(intake.slice(1));
    await shots('offline');

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    await done.waitFor({ state: 'detached' });

    const read = async (id: string) => readFromServer(session.emulator, `/v1/tasks/${id}`);
    expect(await read(acceptedId)).toMatchObject({
      review: 'accepted',
      project_id: project.project_id,
      assignee: assignee.username,
      priority: 'high',
    });
    expect(await read(declinedId)).toMatchObject({ review: 'rejected' });
    expect(await read(duplicateId)).toMatchObject({ review: 'rejected' });
    await until(async () => {
      const comments = await readFromServer(session.emulator, `/v1/task-comments?task_id=${duplicateId}`);
      return (comments.data as { content?: string }[]).some(
        (c) => c.content?.includes(original.title) && c.content.includes(original.task_id),
      );
    }, 'the comment naming the original on the server');
    const declinedComments = await readFromServer(
      session.emulator,
      `/v1/task-comments?task_id=${declinedId}`,
    );
    expect(JSON.stringify(declinedComments.data)).not.toContain('Duplicate of');
    expect(await servedIntake(teamId)).toEqual(
      intake.filter((id) => ![acceptedId, declinedId, duplicateId].includes(id)),
    );
  });

  test("the sidebar counts a team's intake, with the next pull and with a triage made here", async () => {
    const { page } = session.app;
    const teamId = busiestTeam();
    const workspace = await invokeInPage(page, 'workspace:get');
    const teamName = workspace.teams.find((t) => t.team_id === teamId)?.name ?? '';
    const waiting = (await servedIntake(teamId)).length;
    const button = triageButton(page, teamName);
    const badge = (count: number) =>
      button.locator('.nav-badge').filter({ hasText: new RegExp(`^${count} waiting for review$`) });
    await badge(waiting).waitFor();
    // A screen reader hears the count with the button's name.
    await page
      .getByRole('button', { name: `Triage ${teamName} ${waiting} waiting for review`, exact: true })
      .waitFor();

    session.emulator.control.peerCreate({ title: 'Printer on fire', team_id: teamId, review: 'pending' });
    await syncAndSettle(page);
    await badge(waiting + 1).waitFor();

    // Declined here, offline: the count drops at once, before the server hears of it.
    await button.click();
    const list = page.getByRole('listbox', { name: `Waiting for triage in ${teamName}` });
    await list.getByRole('option').first().waitFor();
    session.proxy.goOffline();
    await list.focus();
    await page.keyboard.press('2');
    await badge(waiting).waitFor();
    session.proxy.goOnline();
    await syncAndSettle(page);
    await badge(waiting).waitFor();
    expect(await servedIntake(teamId)).toHaveLength(waiting);
  });
});
