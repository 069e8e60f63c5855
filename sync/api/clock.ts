// The API client's sense of time: reading it and being woken later. Injected so
// that pacing, Retry-After waits and backoff are tested without real waiting.
export interface ApiClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fire` once after `ms`; the returned function cancels it. */
  schedule(ms: number, fire: () => void): () => void;
}

export const systemApiClock: ApiClock = {
  now: () => Date.now(),
  schedule(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, ms));
    return () => clearTimeout(timer);
  },
};

/** Resolves after `ms` on the given clock, or rejects with the signal's reason when aborted. */
export function sleep(clock: ApiClock, ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const cancel = clock.schedule(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface PendingTimer {
  at: number;
  seq: number;
  fire: () => void;
}

/**
 * A clock that only moves when told to (tests of the governor and the
 * scheduler). `advance` fires due timers in time order and lets the promise
 * callbacks they trigger run before moving on.
 */
export class ManualApiClock implements ApiClock {
  private timers: PendingTimer[] = [];
  private seq = 0;

  constructor(private current: number = Date.parse('2026-11-01T09:00:00Z')) {}

  now(): number {
    return this.current;
  }

  schedule(ms: number, fire: () => void): () => void {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    await settle();
    for (;;) {
      const next = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.fire();
      await settle();
    }
    this.current = until;
    await settle();
  }
}

/** Lets every queued promise callback run (a macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
