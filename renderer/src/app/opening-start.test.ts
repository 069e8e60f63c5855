// @vitest-environment happy-dom
// The page's entry asks main for what the first screen waits on (the session,
// the first rows) before the modules that take most of its start to evaluate:
// React's DOM renderer first of them. Tested by the calls already made when
// that module is loaded.
import { expect, test, vi } from 'vitest';

const seen = vi.hoisted(() => ({ calls: [] as string[], whenReactDomLoaded: null as string[] | null }));

vi.mock('react-dom/client', () => {
  seen.whenReactDomLoaded = [...seen.calls];
  return { createRoot: () => ({ render: () => undefined, unmount: () => undefined }) };
});

test("the page's entry asks main for the session and the first rows before React's DOM renderer loads", async () => {
  Object.defineProperty(window, 'svc', {
    configurable: true,
    value: {
      // Main never answers here: only what is asked, and when, matters.
      invoke: (channel: string) => {
        seen.calls.push(channel);
        return new Promise(() => undefined);
      },
      on: () => () => undefined,
    },
  });
  document.body.innerHTML = '<div id="root"></div>';
  await import('../main');
  expect(seen.whenReactDomLoaded).toEqual(
    expect.arrayContaining(['accounts:list', 'settings:get', 'accounts:secret-storage', 'tasks:query']),
  );
});
