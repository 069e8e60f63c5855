// The screen the app opens on runs only its own code (issue 28, first rows at
// 100 000 tasks): reopened signed in, the page asks for no script but those
// its index.html names and the worker that loads the locale's data off its
// thread, and none of them holds the wire schemas' code (zod); a screen the
// person opens later brings its own code then, and shows.
import type { Response } from 'playwright-core';
import { expect, test } from 'vitest';
import { sessionPerFile } from './support/app-session';
import { startSignedInSession } from './support/signed-in-session';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 60 } }));

test('the list asks only for its own code before its rows, and the inbox brings its code when opened', async () => {
  const { page } = session.app;
  const scripts: { path: string; text: Promise<string | null> }[] = [];
  // When the reload below began: a script the page before it asked (a screen's code loaded
  // after its first rows) is not the opening's, and its body goes with that page.
  let reloadedAt = Number.POSITIVE_INFINITY;
  const noteScript = (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith('/assets/') || !path.endsWith('.js')) return;
    if (response.request().timing().startTime < reloadedAt) return;
    // Null when its body is gone with its page: a script the page before the reload asked as the
    // reload began (its request timed after it), or one answered as the session closes.
    scripts.push({ path, text: response.text().catch(() => null) });
  };
  page.on('response', noteScript);
  const html = await (await page.request.get(session.host.url)).text();
  // What the page's policy refused, as the page heard it.
  await page.addInitScript(`
    globalThis.refusedByCsp = [];
    document.addEventListener('securitypolicyviolation', (event) => globalThis.refusedByCsp.push(event.blockedURI));
  `);

  const worker = page.waitForEvent('worker');
  reloadedAt = Date.now();
  await page.reload();
  await page.locator('[role="row"][data-task-id]').first().waitFor();
  // The one script index.html does not name: the locale's data is loaded in a worker (date-formats.ts),
  // which the packaged policy lets start (script-src 'self').
  const workerPath = new URL((await worker).url()).pathname;
  expect(workerPath).toMatch(/^\/assets\/locale-data-worker-[\w-]+\.js$/);
  // The opening's scripts: those whose bodies the reloaded page still holds.
  const noted = scripts.slice();
  const bodies = await Promise.all(noted.map((script) => script.text));
  const openingScripts = noted.filter((_, at) => bodies[at] !== null);
  const opening = openingScripts.map((script) => script.path);
  expect(
    await page.evaluate(() => (globalThis as unknown as { refusedByCsp: string[] }).refusedByCsp),
  ).toEqual([]);
  const pageScripts = opening.filter((path) => path !== workerPath);
  expect(pageScripts.length).toBeGreaterThan(0);
  for (const path of pageScripts) expect(html).toContain(`.${path}`);
  // zod's error class, minified or not, is named in its code: no schema is built on the first screen.
  const texts = await Promise.all(openingScripts.map((script) => script.text));
  expect(opening.filter((_, at) => texts[at]?.includes('ZodError'))).toEqual([]);

  await page.getByRole('button', { name: 'Inbox' }).click();
  await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
  expect(scripts.map((script) => script.path).filter((path) => !opening.includes(path))).not.toEqual([]);
  page.off('response', noteScript);
});
