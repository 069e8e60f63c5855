// Quitting waits for the services to close, once, and then quits for real.
import { expect, test } from 'vitest';
import { appShutdown } from './app-shutdown';

function quitEvent() {
  const event = { prevented: false, preventDefault: () => (event.prevented = true) };
  return event;
}

test('the first quit is held until the services closed; then quit goes through and is not held again', async () => {
  let closeNow: () => void = () => undefined;
  let closes = 0;
  let quits = 0;
  const shutdown = appShutdown({
    close: () => {
      closes += 1;
      return new Promise<void>((resolve) => (closeNow = resolve));
    },
    quit: () => (quits += 1),
  });
  expect(shutdown.quitting()).toBe(false);
  const first = quitEvent();
  shutdown.beforeQuit(first);
  expect(first.prevented).toBe(true);
  expect(shutdown.quitting()).toBe(true);
  // A second quit while closing (tray, Cmd+Q twice) neither closes twice nor quits early.
  const second = quitEvent();
  shutdown.beforeQuit(second);
  expect(second.prevented).toBe(true);
  expect({ closes, quits }).toEqual({ closes: 1, quits: 0 });

  closeNow();
  await new Promise((resolve) => setImmediate(resolve));
  expect(quits).toBe(1);
  const last = quitEvent();
  shutdown.beforeQuit(last);
  expect(last.prevented).toBe(false);
  expect(closes).toBe(1);
});

test('a failure to close does not keep the app from quitting, and is reported', async () => {
  const errors: unknown[] = [];
  let quits = 0;
  const shutdown = appShutdown({
    close: () => Promise.reject(new Error('mirror busy')),
    quit: () => (quits += 1),
    onCloseError: (error) => errors.push(error),
  });
  shutdown.beforeQuit(quitEvent());
  await new Promise((resolve) => setImmediate(resolve));
  expect(quits).toBe(1);
  expect(String(errors[0])).toContain('mirror busy');
});
