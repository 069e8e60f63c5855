// `npm run demo:browser` as a person runs it (test/e2e/host/cli.ts, as its own
// process): it prints the address, the tokens (the peer's too) and the
// emulator's admin secret, each of which works; the person signs in through
// the browser at the address it printed; 'offline' on its stdin makes the
// app's sync fail to reach the service while an edit waits, and 'online'
// brings the service back and the edit reaches it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from './support/app-browser';
import { allChangesSynced } from './support/waits';

const ROOT = resolve(import.meta.dirname, '../..');

let child: ChildProcessWithoutNullStreams;
let browser: Browser;
/** The demo's lines so far (stdout), and what stderr said, for a failure's message. */
const lines: string[] = [];
let stderr = '';
const waiters: {
  pattern: RegExp;
  from: number;
  found: (match: RegExpExecArray) => void;
  fail: (e: Error) => void;
}[] = [];

/** The first line the demo printed, from line `from` on, that matches; waits for it if none has yet. */
function printed(pattern: RegExp, from = 0): Promise<RegExpExecArray> {
  return new Promise((found, fail) => {
    for (const line of lines.slice(from)) {
      const match = pattern.exec(line);
      if (match) return found(match);
    }
    waiters.push({ pattern, from, found, fail });
  });
}

/** The first line matching that the demo prints from now on (an answer to what is typed next). */
function printedNext(pattern: RegExp): Promise<RegExpExecArray> {
  return printed(pattern, lines.length);
}

function heard(line: string): void {
  lines.push(line);
  for (const waiter of [...waiters]) {
    const match = waiter.pattern.exec(line);
    if (match) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.found(match);
    }
  }
}

async function serviceGet(base: string, path: string, headers: Record<string, string>) {
  const response = await fetch(new URL(path, base), { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/e2e/host/cli.ts', '--port', '0', '--seed-tasks', '40'],
    { cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  createInterface({ input: child.stdout }).on('line', heard);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.once('exit', (code) => {
    const gone = new Error(`the demo exited (${code}):\n${lines.join('\n')}\n${stderr}`);
    for (const waiter of waiters.splice(0)) waiter.fail(gone);
  });
  [browser] = await Promise.all([launchBrowser(), printed(/^Ctrl\+C stops it\.$/)]);
});

afterAll(async () => {
  await browser?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('npm run demo:browser', () => {
  test('prints the tokens, the peer token and the admin secret, and each works', async () => {
    const service = (await printed(/^ {2}service: +(http:\/\/\S+) /))[1] ?? '';
    const live = (await printed(/^ {2}live token: +(\S+)$/))[1] ?? '';
    const peer = (await printed(/^ {2}peer token: +(\S+) /))[1] ?? '';
    const admin = (await printed(/^ {2}admin secret: +(\S+) /))[1] ?? '';
    await printed(/^Type 'offline' or 'online' and Enter/);

    const me = await serviceGet(service, '/v1/me', { authorization: `Bearer ${live}` });
    const them = await serviceGet(service, '/v1/me', { authorization: `Bearer ${peer}` });
    expect(me.status).toBe(200);
    expect(them.status).toBe(200);
    expect(them.body['user_id']).not.toBe(me.body['user_id']);
    const counts = await serviceGet(service, '/_emulator/counts', { 'x-emulator-admin': admin });
    expect(counts.status).toBe(200);
    expect(counts.body['tasks']).toBe(40);
  });

  test("'offline' makes the app's sync fail to reach the service while an edit waits; 'online' sends it", async () => {
    const service = (await printed(/^ {2}service: +(http:\/\/\S+) /))[1] ?? '';
    const live = (await printed(/^ {2}live token: +(\S+)$/))[1] ?? '';
    const address = (await printed(/^svc-desktop in the browser: (http:\/\/\S+)$/))[1] ?? '';
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(address);

    // Signed in through the browser, at the address the demo printed.
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    const consentUrl = (await printed(/^ {2}(http:\/\/\S+\/oauth\/authorize\?\S+)$/))[1] ?? '';
    const consent = await context.newPage();
    await consent.goto(consentUrl);
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByRole('heading', { name: 'Signed in' }).waitFor();
    await consent.close();
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor({ timeout: 60_000 });

    const goneOffline = printedNext(/^offline: /);
    child.stdin.write('offline\n');
    await goneOffline;
    await syncNow(page);
    await page
      .getByTestId('connection')
      .filter({ hasText: 'Offline · server unreachable' })
      .waitFor({ timeout: 60_000 });

    await page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('button', { name: 'All tasks' })
      .click();
    // The whole list first: a row read while the screen still changes may not be the one clicked.
    await page.getByTestId('list-count').filter({ hasText: '40 tasks' }).waitFor();
    const taskId =
      (await page.locator('[role="row"][data-task-id]').first().getAttribute('data-task-id')) ?? '';
    await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
    const editor = page.getByTestId('task-editor');
    const original = await serviceGet(service, `/v1/tasks/${taskId}`, { authorization: `Bearer ${live}` });
    await expect.poll(() => editor.getByLabel('Title').inputValue()).toBe(original.body['title']);
    const title = `Edited offline in the demo ${taskId}`;
    await editor.getByLabel('Title').fill(title);
    await editor.getByLabel('Title').press('Enter');
    await page.getByTestId('pending-count').filter({ hasText: '1 change waiting' }).waitFor();
    const before = await serviceGet(service, `/v1/tasks/${taskId}`, { authorization: `Bearer ${live}` });
    expect(before.body['title']).not.toBe(title);

    const backOnline = printedNext(/^online: /);
    child.stdin.write('online\n');
    await backOnline;
    await syncNow(page);
    await allChangesSynced(page, 60_000);
    await page.getByTestId('connection').filter({ hasText: 'Online' }).waitFor();
    const after = await serviceGet(service, `/v1/tasks/${taskId}`, { authorization: `Bearer ${live}` });
    expect(after.body['title']).toBe(title);
    await context.close();
  }, 180_000);
});

async function syncNow(page: Page): Promise<void> {
  await page.locator('.status-bar').getByRole('button', { name: 'Sync now' }).click();
}
