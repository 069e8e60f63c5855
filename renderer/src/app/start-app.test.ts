// @vitest-environment happy-dom
// What the page does before the first screen: it asks main for the session and
// the first rows before it loads the locale's data for dates (the first Intl
// formatter built, tens of ms of the page's thread on a 2-core machine), and
// loads it while main answers, in a task of its own, so that neither the calls
// nor the first rows drawn wait for it.
import { expect, test, vi } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';

const bridge = fakeBridgeEachTest();

test("the first screen's modules build no date formatter as they load", async () => {
  const built = vi.spyOn(Intl, 'DateTimeFormat');
  try {
    const [{ App }, { startApp }] = await Promise.all([import('./app'), import('./start-app')]);
    expect([typeof App, typeof startApp]).toEqual(['function', 'function']);
    expect(built).not.toHaveBeenCalled();
  } finally {
    built.mockRestore();
  }
});

test('startApp asks main for the first rows and the session first, then builds the rows’ date formatters in a task of its own', async () => {
  const { startApp } = await import('./start-app');
  const built = vi.spyOn(Intl, 'DateTimeFormat');
  const stop = startApp();
  try {
    expect(bridge.calls.map((call) => call.channel)).toEqual(
      expect.arrayContaining(['tasks:query', 'accounts:list']),
    );
    expect(built).not.toHaveBeenCalled();
    await new Promise((done) => setTimeout(done, 0));
    expect(built).toHaveBeenCalled();
  } finally {
    stop();
    built.mockRestore();
  }
});
