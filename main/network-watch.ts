// Tells sync when the computer's network comes back, so that an offline
// account checks the service at once rather than at its next probe (up to a
// minute later: sync/schedule/poll-policy.ts). Electron's main process has no
// event for it (a page has `online`, but the app also syncs from the tray with
// no window open), so main reads the operating system's own view every few
// seconds: Electron's `net.isOnline()`, Chromium's record of the network
// interfaces, which makes no request.

/** How often the operating system's view is read: a person back on the network waits at most this. */
export const NETWORK_CHECK_MS = 2_000;

/**
 * Calls `onReturned` each time `isOnline` turns true after it was false.
 * Returns a function that stops watching. The timer does not keep the process alive.
 */
export function watchNetwork(
  isOnline: () => boolean,
  onReturned: () => void,
  everyMs: number = NETWORK_CHECK_MS,
): () => void {
  let online = isOnline();
  const timer = setInterval(() => {
    const now = isOnline();
    if (now && !online) onReturned();
    online = now;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
