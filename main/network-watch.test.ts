// The network coming back is told once per return, only then, and not after the watch stops.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { NETWORK_CHECK_MS, watchNetwork } from './network-watch';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** The operating system's view over time, and each return told. */
function network(online: boolean) {
  const state = { online, returns: 0 };
  const stop = watchNetwork(
    () => state.online,
    () => (state.returns += 1),
  );
  return { state, stop };
}

test('the network coming back is told once, within a check, each time it comes back', () => {
  const { state, stop } = network(true);
  vi.advanceTimersByTime(10 * NETWORK_CHECK_MS);
  expect(state.returns).toBe(0);
  state.online = false;
  vi.advanceTimersByTime(3 * NETWORK_CHECK_MS);
  expect(state.returns).toBe(0);
  state.online = true;
  vi.advanceTimersByTime(NETWORK_CHECK_MS);
  expect(state.returns).toBe(1);
  vi.advanceTimersByTime(10 * NETWORK_CHECK_MS);
  expect(state.returns).toBe(1);
  state.online = false;
  vi.advanceTimersByTime(NETWORK_CHECK_MS);
  state.online = true;
  vi.advanceTimersByTime(NETWORK_CHECK_MS);
  expect(state.returns).toBe(2);
  stop();
});

test('an app started without a network tells its first connection; a stopped watch tells nothing', () => {
  const { state, stop } = network(false);
  state.online = true;
  vi.advanceTimersByTime(NETWORK_CHECK_MS);
  expect(state.returns).toBe(1);
  stop();
  state.online = false;
  vi.advanceTimersByTime(NETWORK_CHECK_MS);
  state.online = true;
  vi.advanceTimersByTime(10 * NETWORK_CHECK_MS);
  expect(state.returns).toBe(1);
});
