// Comments in the task editor against the emulator: a comment and a reply
// written offline show at once marked "Not sent yet", reach the server once
// each and in order when the network returns, and keep their place; text that
// looks like HTML stays text; @ completes a member's username by keyboard;
// the server's 403 on another's comment is a refused change, kept; an
// organization owner is offered Delete on others' comments, a member is not
// (and a member's delete of another's, refused, keeps the comment on screen).
// Screenshots of the editor with comments, light and dark.
import { describe, expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { hasFocus, invokeInPage, screenshot, screenshotInDark, signInWithToken } from './support/app-browser';
import { callService, readFromServer } from './support/service-calls';
import { startSignedInSession } from './support/signed-in-session';
import { allChangesSynced } from './support/waits';

/** The task the comments are written on (the first test picks it). */
let taskId = '';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 120 } }));

interface ServerComment {
  comment_id: string;
  content?: string | null;
  parent_comment_id?: string | null;
  created_by?: string | null;
  replies?: ServerComment[] | null;
}

/** A task's comment threads as the service answers them (straight to the emulator, not through the app). */
async function serverThreads(taskId: string): Promise<ServerComment[]> {
  const body = await readFromServer(
    session.emulator,
    `/v1/task-comments?task_id=${encodeURIComponent(taskId)}`,
  );
  return body.data as ServerComment[];
}

/** Every comment of the threads, replies at any depth included, as the Comments heading counts them. */
function threadCount(threads: readonly ServerComment[]): number {
  return threads.reduce((count, c) => count + 1 + threadCount(c.replies ?? []), 0);
}

const PAYLOAD = '<img src=x onerror="window.__injected=1">';

describe('comments written offline', () => {
  test('a comment and a reply show at once, reach the server once each in order, and keep their place', async () => {
    const { page } = session.app;
    const task = session.emulator.control.tasks().find((t) => t.title.length < 60);
    if (!task) throw new Error('the seed has no task');
    taskId = task.task_id;
    const before = await serverThreads(task.task_id);
    const createsBefore = session.emulator.control.creates().comments;
    const workspace = await invokeInPage(page, 'workspace:get');
    const me = workspace.me?.username ?? '';
    const member = workspace.members.find((m) => m.active && m.username !== me && m.username.length > 2);
    if (!member) throw new Error('the seed has no other active member');

    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.getByRole('heading', { name: `Comments (${threadCount(before)})` }).waitFor();

    session.proxy.goOffline();
    const comment = 'Offline **note**: run `npm test`\nsecond line';
    await editor.getByLabel('New comment').fill(comment);
    await editor.getByRole('button', { name: 'Comment', exact: true }).click();
    const thread = editor.locator('ul.comments > li.comment').last();
    await thread.locator('[data-comment-pending]').filter({ hasText: 'Not sent yet' }).waitFor();
    await editor.getByRole('heading', { name: `Comments (${threadCount(before) + 1})` }).waitFor();
    // Styled by splitting the text: bold and code elements, a line break, the words unchanged.
    await expect(thread.locator('> .comment-text strong').textContent()).resolves.toBe('note');
    await expect(thread.locator('> .comment-text code').textContent()).resolves.toBe('npm test');
    await expect(thread.locator('> .comment-text br').count()).resolves.toBe(1);

    // The reply, with @ completion by keyboard and a payload that must stay text.
    await thread.getByRole('button', { name: 'Reply' }).first().click();
    const replyBox = thread.getByRole('combobox', { name: /^Reply to / });
    await replyBox.waitFor();
    await replyBox.pressSequentially(`Thanks @${member.username.slice(0, -1)}`);
    const list = thread.getByRole('listbox', { name: 'Members' });
    await list.waitFor();
    // A reply box at the foot of the editor shows its list whole (above the box), not cut off by the editor's edge.
    const listBox = await list.boundingBox();
    const editorBody = await page.locator('aside.editor .editor-body').boundingBox();
    const shownWhole =
      listBox !== null &&
      editorBody !== null &&
      listBox.y >= editorBody.y - 1 &&
      listBox.y + listBox.height <= editorBody.y + editorBody.height + 1;
    expect(shownWhole).toBe(true);
    // Arrows move the active option (aria-activedescendant) until it is the member's.
    let active = '';
    for (let step = 0; step < 9 && active !== `@${member.username}`; step += 1) {
      if (step > 0) await replyBox.press('ArrowDown');
      const optionId = (await replyBox.getAttribute('aria-activedescendant')) ?? '';
      expect(optionId).not.toBe('');
      active = (await page.locator(`[id="${optionId}"]`).textContent()) ?? '';
    }
    expect(active).toBe(`@${member.username}`);
    await page
      .locator(`[id="${(await replyBox.getAttribute('aria-activedescendant')) ?? ''}"]`)
      .scrollIntoViewIfNeeded();
    await screenshot(page, 'comment-mention');
    await replyBox.press('Enter');
    await list.waitFor({ state: 'hidden' });
    await expect(replyBox.inputValue()).resolves.toBe(`Thanks @${member.username} `);
    await replyBox.pressSequentially(PAYLOAD);
    await thread.getByRole('button', { name: 'Reply', exact: true }).last().click();

    const reply = thread.locator('ul.replies > li.comment').last();
    await reply.locator('[data-comment-pending]').filter({ hasText: 'Not sent yet' }).waitFor();
    await expect(reply.locator('.comment-text').textContent()).resolves.toBe(
      `Thanks @${member.username} ${PAYLOAD}`,
    );
    await expect(reply.locator('.comment-text .mention').textContent()).resolves.toBe(`@${member.username}`);
    await expect(editor.locator('.comment-text img').count()).resolves.toBe(0);
    expect(session.emulator.control.creates().comments).toBe(createsBefore);
    await thread.scrollIntoViewIfNeeded();
    await screenshot(page, 'comments-offline');
    await screenshotInDark(page, 'comments-offline');

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    await editor.locator('[data-comment-pending]').first().waitFor({ state: 'detached', timeout: 20_000 });

    // On the server once each: the comment last among the task's threads, the reply under it.
    expect(session.emulator.control.creates().comments).toBe(createsBefore + 2);
    const after = await serverThreads(task.task_id);
    expect(after).toHaveLength(before.length + 1);
    const sent = after[after.length - 1];
    expect(sent?.content).toBe(comment);
    expect(sent?.created_by).toBe(me);
    expect(sent?.replies?.map((r) => [r.content, r.parent_comment_id])).toEqual([
      [`Thanks @${member.username} ${PAYLOAD}`, sent?.comment_id],
    ]);
    // Shown under the server's ids, in the same place.
    const shown = editor.locator('ul.comments > li.comment').last();
    await expect(shown.getAttribute('data-comment-id')).resolves.toBe(sent?.comment_id);
    await expect(
      shown.locator('ul.replies > li.comment').last().getAttribute('data-comment-id'),
    ).resolves.toBe(sent?.replies?.[0]?.comment_id);
    await expect(shown.locator('> .comment-text').textContent()).resolves.toBe(
      'Offline note: run npm testsecond line',
    );
    await expect(page.evaluate('globalThis.__injected')).resolves.toBeUndefined();
    await editor.getByLabel('New comment').scrollIntoViewIfNeeded();
    await screenshot(page, 'comments');
    await screenshotInDark(page, 'comments');
  });

  test("one's own comment can be edited and deleted; another member's offers a reply and, to an org owner, a delete, never an edit", async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const mine = editor.locator('ul.comments > li.comment').last();
    const reply = mine.locator('ul.replies > li.comment').first();
    // The reply is mine too; its Edit saves through the outbox like any change.
    await reply.getByRole('button', { name: 'Edit' }).click();
    const box = reply.getByRole('combobox', { name: 'Edit comment' });
    await box.fill('Edited reply');
    await reply.getByRole('button', { name: 'Save' }).click();
    await reply.locator('.comment-text').filter({ hasText: 'Edited reply' }).waitFor();
    await expect
      .poll(async () => (await serverThreads(taskId)).at(-1)?.replies?.[0]?.content, { timeout: 20_000 })
      .toBe('Edited reply');

    await reply.getByRole('button', { name: 'Delete' }).click();
    await reply
      .getByRole('group', { name: 'Delete this comment?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await mine.locator('ul.replies > li.comment').waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await serverThreads(taskId)).at(-1)?.replies ?? [], { timeout: 20_000 })
      .toEqual([]);
    await page.getByTestId('pending-count').filter({ hasText: 'All changes synced' }).waitFor();

    const me = (await invokeInPage(page, 'workspace:get')).me?.username;
    const others = editor.locator('li.comment').filter({ hasNot: page.locator('li.comment') });
    let checked = 0;
    for (const item of await others.all()) {
      const author = await item.locator('.comment-meta strong').textContent();
      if (author === me) continue;
      checked += 1;
      await item.locator('.comment-actions').getByRole('button', { name: 'Reply' }).waitFor();
      // The signed-in person (the seed's ada) owns the organization: the service lets her delete anyone's.
      await item.locator('.comment-actions').getByRole('button', { name: 'Delete' }).waitFor();
      await expect(
        item.locator('.comment-actions').getByRole('button', { name: 'Edit' }).count(),
      ).resolves.toBe(0);
    }
    expect(checked).toBeGreaterThan(0);
  });

  test('Escape closes the member list and keeps the task open; Tab takes the active name', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const box = editor.getByRole('combobox', { name: 'New comment' });
    const list = editor.locator('.comment-composer').last().getByRole('listbox', { name: 'Members' });
    await box.fill('');
    await box.pressSequentially('cc @');
    await list.waitFor();
    await box.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(editor.isVisible()).resolves.toBe(true);
    // Typing on reopens it; Tab takes the active (first) name.
    await box.pressSequentially('a');
    await list.waitFor();
    const first = (await list.getByRole('option').first().textContent()) ?? '';
    expect(first.startsWith('@a')).toBe(true);
    await box.press('Tab');
    await expect(box.inputValue()).resolves.toBe(`cc ${first} `);
    await expect(hasFocus(box)).resolves.toBe(true);
    await box.fill('');
  });

  test('a reply being written under a comment still waiting stays open, with its text, when the comment is sent', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    session.proxy.goOffline();
    await editor.getByLabel('New comment').fill('Waiting for its reply');
    await editor.getByRole('button', { name: 'Comment', exact: true }).click();
    const waiting = editor.locator('ul.comments > li.comment').last();
    await waiting.locator('[data-comment-pending]').waitFor();
    await expect(waiting.getAttribute('data-comment-id')).resolves.toMatch(/^local-/);
    await waiting.getByRole('button', { name: 'Reply' }).first().click();
    const replyBox = waiting.getByRole('combobox', { name: /^Reply to / });
    await replyBox.fill('half-written');

    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await allChangesSynced(page);
    const sent = (await serverThreads(taskId)).at(-1);
    expect(sent?.content).toBe('Waiting for its reply');
    await editor.locator(`li.comment[data-comment-id="${sent?.comment_id}"]`).waitFor();
    await expect(
      editor
        .locator(`li.comment[data-comment-id="${sent?.comment_id}"]`)
        .getByRole('combobox', { name: /^Reply to / })
        .inputValue(),
    ).resolves.toBe('half-written');
    await editor
      .locator(`li.comment[data-comment-id="${sent?.comment_id}"]`)
      .getByRole('button', { name: 'Cancel' })
      .click();
  });

  test("the server's 403 on another member's comment shows as a change it refused, nothing lost", async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const me = (await invokeInPage(page, 'workspace:get')).me?.username;
    const theirs = (await serverThreads(taskId)).find((c) => c.created_by !== me);
    if (!theirs) throw new Error('the task has no comment by another member');
    // The screen offers no edit of it; the bridge is asked directly, as a stale screen might.
    await invokeInPage(page, 'comment:edit', { comment_id: theirs.comment_id, content: 'Not mine to edit' });
    const item = editor.locator(`li.comment[data-comment-id="${theirs.comment_id}"]`);
    await item
      .locator('[data-comment-pending="failed"]')
      .filter({ hasText: 'Not saved' })
      .waitFor({ timeout: 20_000 });
    await item.getByRole('button', { name: 'See pending changes' }).waitFor();
    expect((await serverThreads(taskId)).find((c) => c.comment_id === theirs.comment_id)?.content).toBe(
      theirs.content,
    );
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'comment-refused');
    await screenshotInDark(page, 'comment-refused');
  });

  test("an org owner deletes another member's comment; signed in as a member, others' comments offer no delete", async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const me = (await invokeInPage(page, 'workspace:get')).me?.username;
    // A comment of the peer's (a member), written on the server as the peer would.
    const posted = await callService(session.emulator, 'POST', '/v1/task-comments', {
      token: session.emulator.tokens.peer,
      idempotencyKey: 'e2e-peer-comment',
      body: { task_id: taskId, content: 'Written by the peer' },
    });
    expect(posted.status).toBe(201);
    const peers = posted.body as unknown as ServerComment;
    await page.getByRole('button', { name: 'Sync now' }).click();
    await invokeInPage(page, 'task:activity', { task_id: taskId, refresh: true });
    const item = editor.locator(`li.comment[data-comment-id="${peers.comment_id}"]`);
    await item.waitFor({ timeout: 20_000 });
    await item.locator('.comment-actions').getByRole('button', { name: 'Delete' }).click();
    const confirm = item.getByRole('group', {
      name: `Delete this comment by ${session.emulator.peer.username}?`,
    });
    await confirm.waitFor();
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'comment-admin-delete');
    await screenshotInDark(page, 'comment-admin-delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await serverThreads(taskId)).some((c) => c.comment_id === peers.comment_id), {
        timeout: 20_000,
      })
      .toBe(false);

    // The peer, a member of the organization, signed in as a second account: the owner's comments offer a reply only.
    await page.getByRole('button', { name: /Northwind Labs/ }).click();
    await page.getByRole('menuitem', { name: 'Add an account…' }).click();
    await page.getByRole('heading', { name: 'Add an account' }).waitFor();
    await signInWithToken(page, session.emulator.tokens.peer);
    await page
      .locator('.account-user')
      .filter({ hasText: session.emulator.peer.username })
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await invokeInPage(page, 'workspace:get')).me?.username, { timeout: 30_000 })
      .toBe(session.emulator.peer.username);
    await page.getByRole('button', { name: 'All tasks' }).click();
    await page.getByLabel('Search tasks').fill(taskId);
    await page.locator(`[role="row"][data-task-id="${taskId}"]`).click({ timeout: 30_000 });
    const owners = editor
      .locator('li.comment')
      .filter({ has: page.locator(':scope > .comment-meta strong', { hasText: me ?? '' }) });
    await owners
      .first()
      .locator('.comment-actions')
      .getByRole('button', { name: 'Reply' })
      .waitFor({ timeout: 20_000 });
    expect(await owners.count()).toBeGreaterThan(0);
    for (const owned of await owners.all()) {
      const actions = owned.locator(':scope > .comment-actions');
      await actions.getByRole('button', { name: 'Reply' }).waitFor();
      await expect(actions.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
      await expect(actions.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
    }
    await owners.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'comments-as-member');
    await screenshotInDark(page, 'comments-as-member');

    // Asked anyway (a stale screen, say), the service refuses the member's delete: the comment stays, said so.
    const target = (await owners.first().getAttribute('data-comment-id')) ?? '';
    await invokeInPage(page, 'comment:delete', { comment_id: target });
    const refused = editor.locator(`li.comment[data-comment-id="${target}"]`);
    await refused
      .locator('[data-comment-pending="failed"]')
      .filter({ hasText: 'Not deleted' })
      .waitFor({ timeout: 20_000 });
    await refused.getByRole('button', { name: 'See pending changes' }).waitFor();
    await expect(
      refused.locator(':scope > .comment-actions').getByRole('button', { name: 'Delete' }).count(),
    ).resolves.toBe(0);
    expect((await serverThreads(taskId)).some((c) => c.comment_id === target)).toBe(true);
    await refused.scrollIntoViewIfNeeded();
    await screenshot(page, 'comment-delete-refused');
    await screenshotInDark(page, 'comment-delete-refused');
  });

  test('the page reported no errors', () => {
    expect(session.app.problems).toEqual([]);
  });
});
