// The event loop's next turn, for work done in short steps on a thread that
// must answer meanwhile (Electron's main process): a page of a search, a count,
// a bulk change's writes, the sidebar's counts. Each such job keeps its own
// steps short, but Node runs every setImmediate queued before its check phase
// in that one phase, back to back: after a bulk change at a million tasks its
// writes, the list's page and count, the sidebar's counts and the status board
// each ran a step in one phase, and timers and I/O (the renderer's calls, the
// push's answers) waited for all of them. Here the steps waiting for a turn
// take it in the order they asked, one step a turn of the loop: timers and I/O
// run between any two steps, whichever jobs they belong to.

/** Steps waiting for their turn, in the order they asked. */
const waiting: (() => void)[] = [];
let scheduled = false;

/**
 * Lets one waiting step go, and asks for the loop's next turn for the rest:
 * an immediate queued while the check phase runs waits for the next turn,
 * after its timers and I/O.
 */
function release(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) {
    scheduled = true;
    setImmediate(release);
  }
}

/**
 * Resolves on a later turn of the event loop than this one, after the steps
 * that asked before it took theirs, one a turn: what waits in the loop (a
 * newer keystroke's call, a timer) runs before it.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(release);
    }
  });
}
