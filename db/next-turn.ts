// The event loop's next turn, for work done in short steps on a thread that
// must answer meanwhile (Electron's main process): a page of a search, a count,
// a bulk change's writes, the sidebar's counts. Each such job keeps its own
// steps short, but Node runs every setImmediate queued before its check phase
// in that one phase, back to back: after a bulk change at a million tasks its
// writes, the list's page and count, the sidebar's counts and the status board
// each ran a step in one phase, and timers and I/O (the renderer's calls, the
// push's answers) waited for all of them. Here the steps waiting for a turn
// take it in the order they asked, one step a turn of the loop: timers and I/O
// run between any two steps, whichever jobs they belong to. A step of what the
// person waits to see (a list's page) goes ahead of the others waiting
// (nextTurnFirst); work done ahead of a later call (workAhead) is one of the others.

/** Steps waiting for their turn, in the order they asked. */
const waiting: (() => void)[] = [];
/** Steps of what the person waits to see (nextTurnFirst), let go before any in `waiting`. */
const first: (() => void)[] = [];
let scheduled = false;

/**
 * Lets one waiting step go, and asks for the loop's next turn for the rest:
 * an immediate queued while the check phase runs waits for the next turn,
 * after its timers and I/O.
 */
function release(): void {
  scheduled = false;
  (first.shift() ?? waiting.shift())?.();
  if (first.length > 0 || waiting.length > 0) {
    scheduled = true;
    setImmediate(release);
  }
}

function schedule(): void {
  if (!scheduled) {
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
    schedule();
  });
}

/**
 * As nextTurn, ahead of the steps waiting there: for a list's page, the rows the person waits to
 * see. At a million tasks a broad search's count took 1.7 s of main's CPU in 554 steps, asked with
 * each keystroke's page, and took every other turn from it; the sidebar's counts, a bulk change's
 * writes or an index build did the same. A page's steps now go back to back (the loop's timers
 * and I/O still between any two), the other jobs in the turns after. Pages are short (tens of
 * steps) and a newer keystroke stops the one before, so the others wait a page at a time.
 */
export function nextTurnFirst(): Promise<void> {
  return new Promise<void>((resolve) => {
    first.push(resolve);
    schedule();
  });
}

/** The work ahead now stepping (workAhead): a newer one replaces it. */
let ahead: { ended: () => void } | null = null;

/**
 * Work done ahead of a later call (the sort order's places a search reads): a job of the others,
 * one step a turn after the pages' (nextTurn), in place of the work given before (which ends
 * then). In idle turns only, as it was, it went unread while a person typed at a million tasks:
 * each keystroke's count (`m`: 1.7 s of CPU in 554 steps, dropped at the next key) took every turn
 * between the keys, and `mig` read ~600 000 places in its own steps. Each step answers when to go
 * on: at once (0), after so many milliseconds (the data still moving), or never (null: done).
 * Resolves when it ends: done, or replaced.
 */
export function workAhead(step: () => number | null): Promise<void> {
  ahead?.ended();
  return new Promise<void>((ended) => {
    const work = { ended };
    ahead = work;
    const current = () => ahead === work;
    void (async () => {
      for (;;) {
        await nextTurn();
        if (!current()) return;
        const after = step();
        if (!current()) return;
        if (after === null) break;
        // A wait that never holds the process open (the app quitting does not wait for it).
        if (after > 0) await new Promise((waited) => setTimeout(waited, after).unref());
      }
      ahead = null;
      ended();
    })();
  });
}
