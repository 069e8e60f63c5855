// A clock for pull tests whose waits take no real time: every scheduled wait
// moves this clock's time forward by its length and fires on the next turn, so
// a run's backoff and time budget play out in full without the test waiting.
import type { ApiClock } from '../../api/clock';

export class InstantClock implements ApiClock {
  /** Time skipped by waits so far (ms), added to the real time. */
  private skipped = 0;

  now(): number {
    return Date.now() + this.skipped;
  }

  schedule(ms: number, fire: () => void): () => void {
    this.skipped += Math.max(0, ms);
    const timer = setImmediate(fire);
    return () => clearImmediate(timer);
  }

  /** Moves time on as if `ms` had passed (an interrupted run's cursors grow old meanwhile). */
  pass(ms: number): void {
    this.skipped += ms;
  }
}
