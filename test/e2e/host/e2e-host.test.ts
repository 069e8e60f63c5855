// The end-to-end host serves the app's page as Electron shows it, plus the
// bridge shim in the preload's place: the shim runs before the app's code, but
// its fetch holds back neither the parser nor the fetch of the app's scripts,
// which the preload (run with no fetch) never does in the app.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BRIDGE_SHIM_PATH } from './bridge-shim';
import { type E2eHost, startE2eHost } from './e2e-host';

let host: E2eHost;
beforeAll(async () => {
  host = await startE2eHost({ seedTasks: 0 });
});
afterAll(() => host.close());

test("the page names the shim as a deferred script before the app's module script", async () => {
  const html = await (await fetch(host.url)).text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1] ?? '');
  expect(scripts[0]).toContain(`src="${BRIDGE_SHIM_PATH}"`);
  // A classic script without defer (or async) stops the parser until it is fetched and run.
  expect(scripts[0]).toMatch(/\bdefer\b/);
  expect(scripts.slice(1).some((attributes) => /type="module"/.test(attributes))).toBe(true);
});
