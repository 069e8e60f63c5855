// The ui benchmark's browser, driven through a Playwright server in a process of
// its own: what the benchmark does with it works over the connection, and
// closing it leaves no server or browser behind.
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { launchBrowserApart } from './browser-apart';
import { untilBrowserQuiet } from './quiet-browser';

it('drives a page as the ui benchmark does, from another process, and ends that process when closed', async () => {
  const { browser, server } = await launchBrowserApart();
  const ended = once(server, 'exit');
  try {
    expect(server.pid).not.toBe(process.pid);
    const context = await browser.newContext();
    let heard: number | null = null;
    await context.exposeFunction('__told', (value: number) => {
      heard = value;
    });
    const page = await context.newPage();
    // The browser-wide DevTools session (untilBrowserQuiet) and tracing (the openings' CPU).
    await untilBrowserQuiet(browser, { maxMs: 2000 });
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await page.setContent('<p>here</p>');
    await page.evaluate('window.__told(41 + 1)');
    const trace = await browser.stopTracing();
    expect(heard).toBe(42);
    expect(JSON.parse(trace.toString('utf8'))).toHaveProperty('traceEvents');
  } finally {
    await browser.close();
  }
  const [code] = (await ended) as [number | null];
  expect(code).toBe(0);
});
