import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/support/app-browser';
import { untilBrowserQuiet } from './quiet-browser';

// A page that keeps its renderer busy (50 ms slices) until `spinMs` from now, then records when it stopped.
const spin = (spinMs: number) => `(() => {
  const end = Date.now() + ${spinMs};
  const slice = () => {
    const until = Date.now() + 50;
    while (Date.now() < until) {}
    if (Date.now() < end) setTimeout(slice, 0);
    else window.spunAt = Date.now();
  };
  slice();
})()`;

describe('untilBrowserQuiet', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('waits for a busy page to stop using the CPU before an opening is timed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await untilBrowserQuiet(browser);
    await page.evaluate(spin(1500));
    await untilBrowserQuiet(browser);
    const returnedAt = Date.now();
    const spunAt = await page.evaluate<number | undefined>('window.spunAt');
    expect(spunAt).toBeDefined();
    expect(returnedAt).toBeGreaterThanOrEqual(spunAt!);
    await context.close();
  });

  it('gives up after maxMs when the browser never goes quiet', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.evaluate(spin(20_000));
    const waited = await untilBrowserQuiet(browser, { maxMs: 1000 });
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(await page.evaluate<number | undefined>('window.spunAt')).toBeUndefined();
    await context.close();
  });
});
