// An installed Chrome or Chromium (find-browser.ts says which; nothing
// downloads one) driven by playwright-core, and the helpers every end-to-end
// test uses: open the app from a host, keep what the page reported (errors,
// CSP refusals), and save screenshots.
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { InvokeChannel, InvokeOutput, SvcBridge } from '../../../ipc/contract';
import type { E2eHost } from '../host/e2e-host';
import { findBrowser, isFile } from './find-browser';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../artifacts/screenshots');

/** The Chrome or Chromium to drive; throws one line on how to get one when there is none. */
export function e2eBrowserPath(): string {
  let playwrightChromium: string | undefined;
  try {
    playwrightChromium = chromium.executablePath();
  } catch {
    // Playwright has no build for this platform: only installed browsers count.
  }
  const found = findBrowser(
    { platform: process.platform, env: process.env, home: homedir(), playwrightChromium },
    isFile,
  );
  if (found.ok) return found.path;
  const missing = new Error(found.problem);
  // The line says it all; a stack into this helper would only bury it.
  missing.stack = found.problem;
  throw missing;
}

/** How the tests' browser is started (the benchmarks start it in a process of their own). */
export function browserLaunchOptions(): { executablePath: string; headless: true; args: string[] } {
  return {
    executablePath: e2eBrowserPath(),
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(browserLaunchOptions());
}

/** How long one browser step (a click, a wait) may take when the test gives none. */
const STEP_TIMEOUT_MS = 25_000;

export interface OpenedApp {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors, console errors and CSP refusals the page reported. */
  problems: string[];
}

export async function openApp(
  browser: Browser,
  host: Pick<E2eHost, 'url'>,
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<OpenedApp> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1360, height: options.height ?? 820 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  // Each step gives up before the test's 30 s: a stuck step names itself instead of "Test timed out".
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Chromium notes that a <meta> policy cannot carry frame-ancestors; the header carries it (and applies).
    if (message.type() === 'error' && !message.text().includes("'frame-ancestors' is ignored")) {
      problems.push(`console: ${message.text()}`);
    }
  });
  await page.goto(host.url);
  return { context, page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Signs in as a person does: "Sign in with your browser", the consent page the
 * app opened (the host recorded its URL) approved in another tab of the same
 * browser, the loopback redirect finishing it; resolves when the workspace shows.
 */
export async function signInThroughBrowser(app: OpenedApp, host: E2eHost): Promise<void> {
  const { page, context } = app;
  // The click waits until the button is enabled (once the server settings arrived).
  await page.getByRole('button', { name: 'Sign in with your browser' }).click();
  const consent = await context.newPage();
  try {
    await consent.goto(await host.nextOpenedUrl());
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByRole('heading', { name: 'Signed in' }).waitFor();
  } finally {
    await consent.close();
  }
  await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
}

/** Fills the sign-in form's token field and signs in; resolves when the workspace shows. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
  await page.getByRole('navigation', { name: 'Workspace' }).waitFor();
}

/** Calls the app's bridge from inside the page, as the screens do (to read what they read). */
export function invokeInPage<C extends InvokeChannel>(
  page: Page,
  channel: C,
  input?: unknown,
): Promise<InvokeOutput<C>> {
  return page.evaluate<InvokeOutput<C>, readonly [C, unknown]>(
    ([name, value]) => (globalThis as unknown as { svc: SvcBridge }).svc.invoke(name, value as never),
    [channel, input] as const,
  );
}

/** Answers the question a destructive action asks first (an alertdialog in `scope`) with the button `answer`. */
export async function answerQuestion(scope: Page | Locator, question: string, answer: string): Promise<void> {
  await scope.getByRole('alertdialog', { name: question }).getByRole('button', { name: answer }).click();
}

/** A team of the seed, by name, as the app's workspace lists it. */
export async function workspaceTeam(page: Page, name: string): Promise<{ team_id: string; name: string }> {
  const workspace = await invokeInPage(page, 'workspace:get');
  const team = workspace.teams.find((t) => t.name === name);
  if (!team) throw new Error(`the seed has no team ${name}`);
  return { team_id: team.team_id, name: team.name };
}

/**
 * A team's Triage in the sidebar: named "Triage <team>", then what its count
 * says when tasks wait ("Triage Platform 3 waiting for review").
 */
export function triageButton(page: Page, teamName: string): Locator {
  const team = teamName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: new RegExp(`^Triage ${team}( \\d+ waiting for review)?$`) });
}

/** The id of the focused element. */
/** Opens a task in the editor from the list of all tasks, found by its id. */
export async function openTaskInEditor(page: Page, taskId: string): Promise<void> {
  await page.getByRole('button', { name: 'All tasks' }).click();
  await page.getByLabel('Search tasks').fill(taskId);
  await page.locator(`[role="row"][data-task-id="${taskId}"]`).click();
  await page.getByTestId('task-editor').waitFor();
}

export function focusedId(page: Page): Promise<string> {
  return page.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
}

/** Whether the element the locator finds has the focus. */
export function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element: { ownerDocument: { activeElement: unknown } }) => {
    return element === element.ownerDocument.activeElement;
  });
}

/** The screen as it is, in dark, under `<name>-dark`; the page goes back to light after. */
export async function screenshotInDark(page: Page, name: string): Promise<string> {
  await page.emulateMedia({ colorScheme: 'dark' });
  const path = await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  return path;
}
