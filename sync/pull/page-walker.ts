// Walks one list (a collection in one scope) page by page, as the contract
// asks: If-None-Match with each page's stored ETag, a 304 reusing the stored
// next_cursor and membership, short and empty pages followed while the cursor
// is not null, a refused cursor restarting the pass, deletions only when the
// chain ended. A refused cursor restarts the pass, with backoff, for as long
// as the run's time allows: the restarted walk goes alone (no other walk of
// the run sending) and fetches nothing ahead, and pages already applied stay.
// Two things make it fast without bending those rules:
// - pages known from the last pass are revalidated concurrently (bounded),
//   keyed by the cursor they were sent with, and used only when the chain
//   actually reaches that cursor;
// - applying page N to the mirror overlaps fetching page N+1.
// Here a pass is begun, resumed or restarted; chain-walk.ts walks its pages.
import { systemApiClock } from '../api/clock';
import { ChainWalk, isRefusedCursor, RefusedCursor } from './chain-walk';
import { CursorAges, issuedAtOf } from './cursor-ages';
import { backoffMs, DEFAULT_PULL_RUN_POLICY, waitWithin } from './pull-run-policy';
import type { WalkOptions, WalkResult } from './walk-types';
import { CursorsRefusedError } from '../events/cursors-refused';

export async function walkList(options: WalkOptions): Promise<WalkResult> {
  const { store, collection, scope } = options;
  const time = options.time ?? {
    clock: systemApiClock,
    deadline: systemApiClock.now() + DEFAULT_PULL_RUN_POLICY.runBudgetMs,
  };
  const ages = options.cursorAges ?? new CursorAges();
  const restartBase = options.restartBaseMs ?? DEFAULT_PULL_RUN_POLICY.restartBaseMs;
  const restartMax = options.restartMaxMs ?? DEFAULT_PULL_RUN_POLICY.restartMaxMs;
  let restarts = 0;
  let restart = false;
  for (;;) {
    const before = await store.pass(collection, scope);
    const resumeFrom =
      !restart && before !== null && before.state === 'running' && before.resume.cursor !== null
        ? before.pages.find((p) => p.passNo === before.passNo && p.pageIndex === before.resume.pageIndex - 1)
        : undefined;
    // A stored cursor as old as one the service refused would be refused too: start over instead.
    if (resumeFrom && !ages.usable(issuedAtOf(resumeFrom), time.clock.now())) restart = true;
    // After a complete pass, the new one begins only when a page turns out to have
    // changed: a re-sync that meets nothing but 304s writes nothing at all.
    const lazy = !restart && before !== null && before.state === 'complete';
    const passNo = lazy
      ? before.passNo + 1
      : (await store.beginPass(collection, scope, { partial: options.partial, restart })).passNo;
    const resuming = !restart && before !== null && before.state === 'running' && before.passNo === passNo;
    const walk = () =>
      new ChainWalk(options, {
        passNo,
        begin: lazy
          ? () => store.beginPass(collection, scope, { partial: options.partial, restart: false })
          : null,
        startIndex: resuming ? before.resume.pageIndex : 0,
        startCursor: resuming ? before.resume.cursor : null,
        startIssuedAt: resuming && resumeFrom ? issuedAtOf(resumeFrom) : time.clock.now(),
        known: before?.pages ?? [],
        doneBefore: resuming ? before.pages.filter((p) => p.passNo === passNo) : [],
        solo: restart,
        time,
        ages,
      }).run();
    try {
      // A list whose cursors were refused walks alone: nothing else of the run competes for the budget.
      const result = restart && options.gate ? await options.gate.alone(walk) : await walk();
      return { ...result, restarts };
    } catch (error) {
      if (!(error instanceof RefusedCursor || isRefusedCursor(error))) throw error;
      const cause = error instanceof RefusedCursor ? error.cause : error;
      if (error instanceof RefusedCursor) ages.refused(error.issuedAt, time.clock.now());
      restarts += 1;
      // The first restart goes at once (a cursor may simply have expired); then with backoff.
      const wait = restarts === 1 ? 0 : backoffMs(restarts - 1, restartBase, restartMax);
      if (!(await waitWithin(time, wait, options.signal)))
        throw new CursorsRefusedError(collection, scope, restarts - 1, { cause });
      restart = true;
    }
  }
}
