// Mirror writes from a thread that must never block (Electron's main process):
// while the pull worker holds the file's write lock (a page of 1000 tasks, a
// first load's index build step: tens to a few hundred ms), SQLite's busy
// handler would sleep on the calling thread and freeze the window. This waits
// on a timer instead, and writes once the lock is free, in the order asked.
import type { Mirror } from './mirror';
import { MirrorStorageError } from './mirror-errors';

/**
 * How long a person's write waits for the lock before failing as `locked`.
 * One step of the pull worker holds it: a page, or a first load's index build,
 * which at a million tasks takes seconds, and on a loaded two-core machine a
 * step was seen holding it 12.5 s; failing the edit then told the person that
 * "another copy of the app" had their data. What holds the lock longer than
 * this is another process (a second copy of the app, the headless command).
 */
const DEFAULT_TIMEOUT_MS = 20_000;
/** First pause between attempts; doubles up to the ceiling (a page holds the lock ~50 ms, an index step more). */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 25;

/**
 * The writes still waiting per mirror: the end of their chain and how many
 * there are. Each starts once the one asked before it has landed or failed,
 * so two edits of a person land in the order they were made (each on a timer
 * of its own, a later one could find the lock free first and be overwritten
 * by the earlier).
 */
const queues = new WeakMap<Mirror, { end: Promise<unknown>; waiting: number }>();

/**
 * Runs `write` (the mirror's writes: one transaction, all or nothing) when
 * the write lock is free and every write asked before it on this mirror has
 * run, yielding to the event loop meanwhile. With none waiting and the lock
 * free it runs at once, before this returns (a caller reading the mirror next
 * sees it). Fails with MirrorStorageError `locked` after `timeoutMs` (counted
 * from the call); other errors at once, and the writes behind it go on.
 *
 * By default (a person's write) it is on disk when the promise resolves.
 * The commit does not fsync on this thread: its log is flushed on libuv's
 * threads and waited for (Mirror.logFlushed). An fsync in the commit flushes
 * every log page not yet on disk, the pull worker's and a bulk change's too,
 * and held main asleep 20-48 ms after a first load and ~40 ms after a bulk
 * change at a million tasks. `awaitFlush: false`: resolved once committed,
 * the flush not waited for (a bulk change's chunks, which wait once at the end).
 */
export async function writeWhenFree<T>(
  mirror: Mirror,
  write: () => T,
  options: { timeoutMs?: number; awaitFlush?: boolean } = {},
): Promise<T> {
  const written = await committed(mirror, write, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (options.awaitFlush !== false) await mirror.logFlushed();
  return written;
}

/** The write committed without an fsync of its own (Durability 'interim'), in its turn. */
function committed<T>(mirror: Mirror, write: () => T, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  const queue = queues.get(mirror) ?? { end: Promise.resolve(), waiting: 0 };
  if (queue.waiting === 0) {
    try {
      return Promise.resolve(mirror.withoutWaiting(write));
    } catch (error) {
      const locked = error instanceof MirrorStorageError && error.problem === 'locked';
      if (!locked) return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  const run = queue.end.then(() => tryWrite(mirror, write, deadline));
  queue.waiting += 1;
  // The chain's end never rejects: a write that failed does not fail those behind it.
  queue.end = run.then(
    () => undefined,
    () => undefined,
  );
  void queue.end.then(() => {
    queue.waiting -= 1;
    if (queue.waiting === 0) queues.delete(mirror);
  });
  queues.set(mirror, queue);
  return run;
}

async function tryWrite<T>(mirror: Mirror, write: () => T, deadline: number): Promise<T> {
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
