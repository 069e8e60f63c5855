// Goals written in the goals view, end to end in Chromium against the emulator:
// a goal created offline shows at once with its mark, a task is filed under it
// from the editor and another created from the goal's page, and online the
// server has the goal once and both tasks under its new id; closing and
// reopening reach the server; a delete says how many tasks lost their goal;
// a rename racing the peer's is settled in the three-way view.
// Screenshots of the view, its form, the delete question and the conflict,
// light and dark.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import {
  answerQuestion,
  invokeInPage,
  openTaskInEditor,
  screenshot,
  screenshotInDark,
} from './support/app-browser';
import { callService, readAcrossProjects } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced, syncAndSettle, until } from './support/waits';
import { keepMine, nameConflictView, peerRenames, syncIntoOneConflict } from './support/conflict-steps';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 120 } }), {
  waitTimeoutMs: 15_000,
});

interface ServerGoal {
  goal_id: string;
  project_id: string;
  name: string;
  description?: string | null;
  target_date?: string | null;
  status?: string | null;
}

/** Every live goal on the server. */
async function serverGoals(): Promise<ServerGoal[]> {
  return readAcrossProjects<ServerGoal>(session.emulator, `/v1/goals?org_id=${session.emulator.orgId}`);
}

/** Light, then dark, under artifacts/screenshots/goals-<name>(-dark).png. */
async function shots(name: string) {
  const { page } = session.app;
  await screenshot(page, `goals-${name}`);
  await screenshotInDark(page, `goals-${name}`);
}

async function openGoals() {
  await session.app.page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: 'Goals' })
    .click();
  await session.app.page.getByRole('heading', { name: 'Goals', level: 1 }).waitFor();
}

/** The goal's row in the goals view, by its name (names repeat across projects: a seeded one by its id). */
function goalRow(name: string) {
  return session.app.page
    .locator('li.goal')
    .filter({ has: session.app.page.getByText(name, { exact: true }) });
}

/** The goal the open editor shows chosen. */
function chosenGoal(): Promise<string | null> {
  return session.app.page
    .getByTestId('task-editor')
    .locator('.field[data-field="goal_id"] select')
    .evaluate(
      (select: { selectedOptions: ArrayLike<{ textContent: string | null }> }) =>
        select.selectedOptions[0]?.textContent ?? null,
    );
}

describe('goals written in the goals view', () => {
  test('a goal created offline, with a task filed under it in the editor and one created on its page, reaches the server once with both tasks under its new id', async () => {
    const { page } = session.app;
    const workspace = await invokeInPage(page, 'workspace:get');
    const tasks = session.emulator.control.tasks();
    const project = workspace.projects.find((p) =>
      tasks.some((t) => t.project_id === p.project_id && t.parent_task_id === null && t.goal_id === null),
    );
    if (!project) throw new Error('the seed has no project with an unfiled task');
    const task = tasks.find(
      (t) => t.project_id === project.project_id && t.parent_task_id === null && t.goal_id === null,
    );
    if (!task) throw new Error('no task to file');
    // Another task of the project, filed from the goal's page by a word of its title.
    const other = tasks.find(
      (t) =>
        t.project_id === project.project_id &&
        t.task_id !== task.task_id &&
        t.parent_task_id === null &&
        /^[A-Za-z]{5,}\b/.test(t.title),
    );
    if (!other) throw new Error('no second task to file');
    const createsBefore = session.emulator.control.creates();

    await openGoals();
    session.proxy.goOffline();
    await page.getByRole('button', { name: 'New goal', exact: true }).click();
    const form = page.getByRole('form', { name: 'New goal' });
    await form.getByLabel('Project').selectOption(project.project_id);
    await form.getByLabel('Name').fill('Q3 launch');
    await form.getByLabel('Target date').fill('2026-09-30');
    await form.getByLabel('Description').fill('Everything the launch needs.\nNothing more.');
    await shots('create-form');
    await form.getByRole('button', { name: 'Create goal' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByTestId('goal-notice').filter({ hasText: 'Created ‘Q3 launch’' }).waitFor();
    const row = goalRow('Q3 launch');
    await row.locator('[data-goal-pending="queued"]').getByText('Not sent yet').waitFor();

    // The editor offers the goal still waiting, in the task's project.
    await openTaskInEditor(session.app.page, task.task_id);
    const editor = page.getByTestId('task-editor');
    const goalField = editor.locator('.field[data-field="goal_id"] select');
    await goalField.selectOption({ label: 'Q3 launch (not sent yet)' });
    // Saved at once: the field shows it from the task as the mirror has it now.
    await until(
      async () =>
        (await invokeInPage(page, 'task:get', { task_id: task.task_id })).task.goal_id?.startsWith(
          'local-',
        ) ?? false,
      'the task filed under the waiting goal',
    );
    const chosen = () =>
      goalField.evaluate(
        (select: { selectedOptions: ArrayLike<{ textContent: string | null }> }) =>
          select.selectedOptions[0]?.textContent ?? null,
      );
    await until(async () => (await chosen()) === 'Q3 launch (not sent yet)', 'the goal shown chosen');

    // From the goal's page, a new task is filed under it and in its project.
    await openGoals();
    await row.locator('.goal-head').click();
    await row.getByText('Everything the launch needs.').waitFor();
    await row.locator('.task-line', { hasText: task.title }).waitFor();
    // The goal still waiting counts the task filed under it (the counts follow the edit within the workspace's reload).
    await row.locator('.progress-words').filter({ hasText: '0 of 1 done' }).waitFor();
    await shots('pending-goal');
    await row.getByRole('button', { name: 'New task under this goal' }).click();
    const create = page.getByTestId('task-create');
    await create.getByText('Under the goal ‘Q3 launch’.').waitFor();
    await create.getByLabel('Title').fill('Write the launch checklist');
    await create.getByRole('button', { name: 'Create task' }).click();
    await page.getByTestId('task-editor').waitFor();
    await row.locator('.task-line', { hasText: 'Write the launch checklist' }).waitFor();
    const word = other.title.split(' ')[0] ?? '';
    await row.getByLabel('File a task under this goal').fill(word);
    await row.getByRole('list', { name: 'Tasks to file' }).waitFor();
    await shots('file-task');
    await row
      .getByRole('list', { name: 'Tasks to file' })
      .locator('.task-line', { hasText: other.title })
      .click();
    await row
      .getByRole('list', { name: 'Tasks under this goal' })
      .locator('.task-line', { hasText: other.title })
      .waitFor();
    await expect(row.getByLabel('File a task under this goal').inputValue()).resolves.toBe('');

    session.proxy.goOnline();
    await syncAndSettle(session.app.page);
    await row.locator('[data-goal-pending]').waitFor({ state: 'detached' });

    const made = (await serverGoals()).filter((g) => g.name === 'Q3 launch');
    expect(made).toHaveLength(1);
    const goal = made[0];
    if (!goal) throw new Error('unreachable');
    expect(goal).toMatchObject({
      project_id: project.project_id,
      target_date: '2026-09-30',
      description: 'Everything the launch needs.\nNothing more.',
    });
    expect(session.emulator.control.creates().goals).toBe(createsBefore.goals + 1);
    expect(session.emulator.control.task(task.task_id)?.goal_id).toBe(goal.goal_id);
    const created = session.emulator.control.tasks().filter((t) => t.title === 'Write the launch checklist');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ goal_id: goal.goal_id, project_id: project.project_id });
    expect(session.emulator.control.task(other.task_id)?.goal_id).toBe(goal.goal_id);
    await row
      .locator('.progress-words')
      .filter({ hasText: / of 3 done/ })
      .waitFor();
  });

  test('closing a goal reaches the server, and so does reopening it', async () => {
    const goal = (await serverGoals()).find((g) => g.name === 'Q3 launch');
    if (!goal) throw new Error('the first test made no goal');
    const row = goalRow('Q3 launch');
    await row.getByRole('button', { name: 'Close goal' }).click();
    await row.locator('.goal-facts').filter({ hasText: 'Closed' }).waitFor();
    await syncAndSettle(session.app.page);
    const path = `/v1/projects/${goal.project_id}/goals/${goal.goal_id}`;
    expect((await callService(session.emulator, 'GET', path)).body.status).toBe('closed');
    await row.locator('[data-goal-pending]').waitFor({ state: 'detached' });
    await shots('closed-goal');

    await row.getByRole('button', { name: 'Reopen goal' }).click();
    await row.locator('.goal-facts').filter({ hasText: 'Open' }).waitFor();
    await syncAndSettle(session.app.page);
    expect((await callService(session.emulator, 'GET', path)).body.status).toBe('open');
  });

  test('deleting a goal offline asks first, says how many tasks no longer have a goal, and online the server and the mirror have them unfiled', async () => {
    const { page } = session.app;
    const tasks = session.emulator.control.tasks();
    const goal = (await serverGoals())
      .filter((g) => g.name !== 'Q3 launch')
      .map((g) => ({ ...g, filed: tasks.filter((t) => t.goal_id === g.goal_id).length }))
      .sort((a, b) => b.filed - a.filed)[0];
    if (!goal || goal.filed < 2) throw new Error('the seed has no goal with tasks under it');
    const row = session.app.page.locator(`li.goal[data-goal-id="${goal.goal_id}"]`);
    await row.locator('.goal-head').click();
    await row.locator('.task-lines').waitFor();

    await row.getByRole('button', { name: 'Delete…' }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete this goal?' });
    await question
      .getByText(`Delete the goal ‘${goal.name}’? ${goal.filed} tasks are filed under it`)
      .waitFor();
    await shots('delete-question');
    // Cancelled, nothing changes.
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    await expect(row.count()).resolves.toBe(1);

    session.proxy.goOffline();
    await row.getByRole('button', { name: 'Delete…' }).click();
    await question.getByRole('button', { name: 'Delete goal' }).click();
    await page
      .getByTestId('goal-notice')
      .filter({ hasText: `Deleted ‘${goal.name}’; ${goal.filed} tasks no longer have a goal.` })
      .waitFor();
    await row.waitFor({ state: 'detached' });
    await shots('deleted');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('goal-notice').waitFor({ state: 'detached' });
    // At once, before the delete is sent: its tasks have no goal in the editor and the mirror, as the service will do.
    const filedTasks = tasks.filter((t) => t.goal_id === goal.goal_id);
    await openTaskInEditor(session.app.page, filedTasks[0]?.task_id ?? '');
    await until(async () => (await chosenGoal()) === 'No goal', 'the editor showing no goal');
    await shots('deleted-task-editor');
    for (const task of filedTasks) {
      const shown = await invokeInPage(page, 'task:get', { task_id: task.task_id });
      expect(shown.task.goal_id ?? null).toBeNull();
    }
    // The service unfiles them itself: the goal's delete is the one change waiting.
    const waiting = await invokeInPage(page, 'outbox:list');
    expect(waiting.changes.map((c) => `${c.entity_type ?? 'task'} ${c.kind}`)).toEqual(['goal delete']);
    session.proxy.goOnline();
    await syncAndSettle(session.app.page);
    const path = `/v1/projects/${goal.project_id}/goals/${goal.goal_id}`;
    expect((await callService(session.emulator, 'GET', path)).status).toBe(404);
    expect(session.emulator.control.tasks().filter((t) => t.goal_id === goal.goal_id)).toEqual([]);
    const filed = tasks.filter((t) => t.goal_id === goal.goal_id);
    for (const task of filed) {
      const shown = await invokeInPage(page, 'task:get', { task_id: task.task_id });
      expect(shown.task.goal_id ?? null).toBeNull();
    }
  });

  test('a goal delete given up in the pending changes files its tasks under the goal again', async () => {
    const { page } = session.app;
    const tasks = session.emulator.control.tasks();
    const goal = (await serverGoals())
      .filter((g) => g.name !== 'Q3 launch')
      .map((g) => ({ ...g, filed: tasks.filter((t) => t.goal_id === g.goal_id) }))
      .sort((a, b) => b.filed.length - a.filed.length)[0];
    const task = goal?.filed[0];
    if (!goal || !task) throw new Error('the seed has no other goal with tasks under it');
    await openGoals();
    const row = page.locator(`li.goal[data-goal-id="${goal.goal_id}"]`);
    await row.locator('.goal-head').click();
    session.proxy.goOffline();
    await row.getByRole('button', { name: 'Delete…' }).click();
    await answerQuestion(page, 'Delete this goal?', 'Delete goal');
    await row.waitFor({ state: 'detached' });
    await openTaskInEditor(session.app.page, task.task_id);
    await until(async () => (await chosenGoal()) === 'No goal', 'the editor showing no goal');

    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Type a command or a task title' }).fill('pending changes');
    await page.keyboard.press('Enter');
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item').filter({ hasText: goal.name });
    await item.getByRole('button', { name: 'Discard…' }).click();
    await answerQuestion(item, 'Discard this change?', 'Discard');
    await inspector.getByText('All changes are saved on the server.').waitFor();
    await inspector.getByRole('button', { name: 'Close' }).click();

    // The editor still open shows the goal again, and the goals view has it back with its tasks.
    await until(async () => (await chosenGoal()) === goal.name, 'the editor showing the goal again');
    expect((await invokeInPage(page, 'task:get', { task_id: task.task_id })).task.goal_id).toBe(goal.goal_id);
    await openGoals();
    await row
      .locator('.progress-words')
      .filter({ hasText: ` of ${goal.filed.filter((t) => t.parent_task_id === null).length} done` })
      .waitFor();
    session.proxy.goOnline();
    await syncAndSettle(session.app.page);
    expect(
      (await callService(session.emulator, 'GET', `/v1/projects/${goal.project_id}/goals/${goal.goal_id}`))
        .status,
    ).toBe(200);
    expect(session.emulator.control.task(task.task_id)?.goal_id).toBe(goal.goal_id);
  });

  test('an archived project is not offered for a new goal, and its goals take no new task', async () => {
    const { page } = session.app;
    const workspace = await invokeInPage(page, 'workspace:get');
    const archived = workspace.projects.filter((p) => p.status === 'archived');
    const active = workspace.projects.filter((p) => p.status !== 'archived');
    const project = archived.find((p) => workspace.goals.some((g) => g.project_id === p.project_id));
    const goal = workspace.goals.find((g) => g.project_id === project?.project_id);
    if (!project || !goal) throw new Error('the seed has no archived project with a goal');
    await openGoals();

    await page.getByRole('button', { name: 'New goal', exact: true }).click();
    const form = page.getByRole('form', { name: 'New goal' });
    const offered = await form
      .getByLabel('Project')
      .locator('option')
      .evaluateAll((options: { value: string }[]) => options.map((o) => o.value));
    expect(offered.sort()).toEqual(active.map((p) => p.project_id).sort());
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    const group = page.getByRole('region', { name: project.name });
    await group.getByText('archived', { exact: true }).waitFor();
    await expect(group.getByRole('button', { name: `New goal in ${project.name}` }).count()).resolves.toBe(0);
    const row = page.locator(`li.goal[data-goal-id="${goal.goal_id}"]`);
    await row.locator('.goal-head').click();
    await expect(row.getByRole('button', { name: 'New task under this goal' }).isDisabled()).resolves.toBe(
      true,
    );
    await row.getByText('Its project is archived: new tasks cannot be created in it.').waitFor();
    await row.scrollIntoViewIfNeeded();
    await shots('archived-project');
    await row.locator('.goal-head').click();
  });
});

describe('a goal renamed by the peer while we renamed it offline', () => {
  test('is settled in the three-way view and the server ends with the name chosen', async () => {
    const { page } = session.app;
    const goal = (await serverGoals()).find((g) => g.name === 'Q3 launch');
    if (!goal) throw new Error('the first test made no goal');
    const path = `/v1/projects/${goal.project_id}/goals/${goal.goal_id}`;
    const row = goalRow('Q3 launch');
    await openGoals();
    if ((await row.getByRole('button', { name: 'Edit' }).count()) === 0)
      await row.locator('.goal-head').click();

    session.proxy.goOffline();
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = row.getByRole('form', { name: 'Edit goal' });
    await form.getByLabel('Name').fill('Q3 launch, trimmed');
    await shots('edit-form');
    await form.getByRole('button', { name: 'Save goal' }).click();
    const renamed = goalRow('Q3 launch, trimmed');
    await renamed.locator('[data-goal-pending="queued"]').waitFor();

    await peerRenames(session.emulator, path, 'Q3 launch (beta)', ['projects:read', 'projects:write']);

    await syncIntoOneConflict(session);
    await renamed.locator('[data-goal-pending="conflict"]').waitFor();
    await shots('conflict-mark');

    await page.getByTestId('review-changes').click();
    const inspector = page.getByRole('dialog', { name: 'Pending changes' });
    const item = inspector.locator('li.pending-item[data-state="conflict"]');
    await item
      .getByText('Rename goal ‘Q3 launch (beta)’ → ‘Q3 launch, trimmed’')
      .waitFor({ timeout: 20_000 });
    await item.getByRole('button', { name: 'Resolve…' }).click();
    const { view, field } = await nameConflictView(page, 'goal');
    await expect(field.locator('.conflict-column').first().textContent()).resolves.toContain('Q3 launch');
    await shots('conflict-view');
    await keepMine(view, field);
    if (await inspector.isVisible()) await page.keyboard.press('Escape');

    await allChangesSynced(page);
    expect((await callService(session.emulator, 'GET', path)).body.name).toBe('Q3 launch, trimmed');
    await renamed.locator('[data-goal-pending]').waitFor({ state: 'detached' });
    expect(session.host.notifications.some((n) => n.kind === 'task-conflict')).toBe(true);
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
