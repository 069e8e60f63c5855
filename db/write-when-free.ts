// Mirror writes from a thread that must never block (Electron's main process):
// while the pull worker holds the file's write lock (a page of 1000 tasks, a
// first load's index build step: tens to a few hundred ms), SQLite's busy
// handler would sleep on the calling thread and freeze the window. This waits
// on a timer instead, and writes once the lock is free.
import type { Mirror } from './mirror';
import { MirrorStorageError } from './mirror-errors';

/** How long a write waits for the lock before failing as `locked` (as the connection's busy timeout does). */
const DEFAULT_TIMEOUT_MS = 5000;
/** First pause between attempts; doubles up to the ceiling (a page holds the lock ~50 ms, an index step more). */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 25;

/**
 * Runs `write` (the mirror's writes: one transaction, all or nothing) when
 * the write lock is free, yielding to the event loop meanwhile. Fails with
 * MirrorStorageError `locked` after `timeoutMs`; other errors at once.
 */
export async function writeWhenFree<T>(
  mirror: Mirror,
  write: () => T,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return mirror.withoutWaiting(write);
    } catch (error) {
      const locked = error instanceof MirrorStorageError && error.problem === 'locked';
      if (!locked || performance.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
