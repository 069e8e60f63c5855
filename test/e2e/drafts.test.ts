// Drafts in Chromium against the emulator, signed in through the browser: a
// comment written and left unsent, and a new task's title, are still there
// after the panel closes and the app restarts (a new host on the same data
// folder, a new page, the sign-in remembered), the task marked as having a
// draft; a draft sent is gone, and so is its mark. A reply left unsent is open
// under its comment after a restart, and is sent as a reply to it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { type E2eHost, startE2eHost } from './host/e2e-host';
import {
  launchBrowser,
  type OpenedApp,
  openApp,
  openTaskInEditor,
  screenshot,
  signInThroughBrowser,
} from './support/app-browser';
import { QUICK_RETRY } from './support/app-session';
import { readFromServer } from './support/service-calls';
import { startSwitchableProxy, type SwitchableProxy } from './support/switchable-proxy';
import { syncAndSettle } from './support/waits';

let emulator: RunningEmulator;
let proxy: SwitchableProxy;
let browser: Browser;
let dataDir: string;
let host: E2eHost;
let app: OpenedApp;

/** The app's host and page on the data folder of the file: what a start of the app is. */
async function startApp(): Promise<void> {
  host = await startE2eHost({ emulator, serverUrl: proxy.url, dataDir, client: { retry: QUICK_RETRY } });
  app = await openApp(browser, host);
}

/**
 * Quits and starts again: the page and host go, a new host opens the same
 * accounts and mirrors. The host's keychain lives in memory, so the person
 * signs in again, as on a machine whose sign-ins are not kept: the same
 * account, its mirror file as it was left.
 */
async function restartApp(): Promise<void> {
  await app.context.close();
  await host.close();
  await startApp();
  const workspace = app.page.getByRole('navigation', { name: 'Workspace' });
  const signIn = app.page.getByRole('button', { name: 'Sign in with your browser' });
  await workspace.or(signIn).first().waitFor();
  if (await signIn.isVisible()) await signInThroughBrowser(app, host);
  await workspace.waitFor();
}

beforeAll(async () => {
  emulator = await startEmulator({ seedTasks: 60 });
  proxy = await startSwitchableProxy(emulator.baseUrl);
  browser = await launchBrowser();
  dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-drafts-'));
  await startApp();
  await signInThroughBrowser(app, host);
});

afterAll(async () => {
  await app?.context.close();
  await host?.close();
  await browser?.close();
  await proxy?.close();
  await emulator?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const DRAFT = 'Half a thought about the footer, not sent yet';

describe('drafts that survive', () => {
  test('a comment written and left is there after the panel closes and the app restarts, until sent', async () => {
    const task = emulator.control.tasks().find((t) => t.title.length < 60);
    if (!task) throw new Error('the seed has no task');
    await openTaskInEditor(app.page, task.task_id);
    let editor = app.page.getByTestId('task-editor');
    await editor.getByRole('combobox', { name: 'New comment' }).fill(DRAFT);
    await app.page.getByRole('button', { name: 'Close task' }).click();
    await editor.waitFor({ state: 'detached' });

    await restartApp();
    await openTaskInEditor(app.page, task.task_id);
    // Its row in the list says it has a draft too.
    await app.page.locator(`[role="row"][data-task-id="${task.task_id}"] [data-draft-mark]`).waitFor();
    editor = app.page.getByTestId('task-editor');
    const box = editor.getByRole('combobox', { name: 'New comment' });
    await editor.locator('[data-draft-mark]').waitFor();
    // A kept draft is read after its box shows: wait for it to fill.
    await expect.poll(() => box.inputValue()).toBe(DRAFT);
    await screenshot(app.page, 'draft-after-restart');

    await editor.getByRole('button', { name: 'Comment', exact: true }).click();
    await syncAndSettle(app.page);
    const threads = (await readFromServer(emulator, `/v1/task-comments?task_id=${task.task_id}`)).data as {
      content?: string;
    }[];
    expect(threads.map((c) => c.content)).toContain(DRAFT);
    await editor.locator('[data-draft-mark]').waitFor({ state: 'detached' });
    await expect(box.inputValue()).resolves.toBe('');
    await app.page.getByRole('button', { name: 'Close task' }).click();
  });

  test('a reply written and left is open under its comment after the app restarts, and is sent as a reply to it', async () => {
    const task = emulator.control.tasks().find((t) => t.title.length < 60);
    if (!task) throw new Error('the seed has no task');
    const REPLY = 'Agreed, the footer can wait a week';
    await openTaskInEditor(app.page, task.task_id);
    let editor = app.page.getByTestId('task-editor');
    const comment = () => editor.locator('li').filter({ hasText: DRAFT }).first();
    await comment().getByRole('button', { name: 'Reply', exact: true }).first().click();
    await editor.getByRole('combobox', { name: /^Reply to / }).fill(REPLY);
    await app.page.getByRole('button', { name: 'Close task' }).click();
    await editor.waitFor({ state: 'detached' });

    await restartApp();
    await openTaskInEditor(app.page, task.task_id);
    editor = app.page.getByTestId('task-editor');
    const box = editor.getByRole('combobox', { name: /^Reply to / });
    await expect.poll(() => box.inputValue()).toBe(REPLY);
    await editor.locator('.comment-reply-box').getByRole('button', { name: 'Reply', exact: true }).click();
    await syncAndSettle(app.page);
    const threads = (await readFromServer(emulator, `/v1/task-comments?task_id=${task.task_id}`)).data as {
      content?: string;
      comment_id: string;
      replies?: { content?: string; parent_comment_id?: string | null }[];
    }[];
    const root = threads.find((c) => c.content === DRAFT);
    expect(root?.replies?.map((r) => [r.content, r.parent_comment_id])).toEqual([[REPLY, root?.comment_id]]);
    await box.waitFor({ state: 'detached' });
    await app.page.getByRole('button', { name: 'Close task' }).click();
  });

  test("a new task's title is kept when its form closes and the app restarts, and discarded on request", async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New task', exact: true }).click();
    await page.getByTestId('task-create').getByLabel('Title').fill('Call the printer');
    await page.getByRole('button', { name: 'Close new task' }).click();

    await restartApp();
    await app.page.getByRole('button', { name: 'All tasks' }).click();
    await app.page.getByRole('button', { name: 'New task', exact: true }).click();
    const form = app.page.getByTestId('task-create');
    await expect.poll(() => form.getByLabel('Title').inputValue()).toBe('Call the printer');
    await form.getByRole('button', { name: 'Discard' }).click();
    await form.waitFor({ state: 'detached' });
    await app.page.getByRole('button', { name: 'New task', exact: true }).click();
    await expect(app.page.getByTestId('task-create').getByLabel('Title').inputValue()).resolves.toBe('');
  });
});
