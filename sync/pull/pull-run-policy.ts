// How long one pull run may keep trying, and how it backs off between tries:
// a list whose cursors were refused restarts for as long as the run's time
// allows, and a collection that failed is tried again on its own; how the task
// list is split into chains walked at once. Time is read
// and waited through the injected clock, so tests need not wait.
import { type ApiClock, sleep } from '../api/clock';

export interface PullRunPolicy {
  /** How long a full pull may go on restarting refused lists and retrying failed collections (ms). */
  runBudgetMs: number;
  /** Wait before the first restart of a list whose cursor was refused; doubles per restart. */
  restartBaseMs: number;
  restartMaxMs: number;
  /** Tries of one collection (or one team's sprints) within a run, the first included. */
  unitAttempts: number;
  /** Wait before trying a failed collection again; doubles per try. */
  unitRetryBaseMs: number;
  unitRetryMaxMs: number;
}

export const DEFAULT_PULL_RUN_POLICY: PullRunPolicy = {
  runBudgetMs: 5 * 60_000,
  restartBaseMs: 500,
  restartMaxMs: 30_000,
  unitAttempts: 3,
  unitRetryBaseMs: 2_000,
  unitRetryMaxMs: 30_000,
};

/** How a full pull splits the whole task list into chains walked at once (task-chains.ts). */
export interface TaskChainPolicy {
  /** Chains walked at most (the rate budget and the mirror's write speed bound what more would gain). */
  maxChains: number;
  /** Pages a chain should hold: a range estimated at more is split. */
  targetPages: number;
}

export const DEFAULT_TASK_CHAIN_POLICY: TaskChainPolicy = { maxChains: 4, targetPages: 16 };

/** The clock a run waits on and the moment it must stop starting new tries. */
export interface RunTime {
  clock: ApiClock;
  /** Epoch ms after which no restart or retry begins. */
  deadline: number;
}

/** `base * 2^(n-1)`, at most `max`: the wait before the n-th retry (n from 1). */
export function backoffMs(n: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.max(0, n - 1));
}

/**
 * Waits `ms` unless that would end past the deadline; false when there is no
 * time left for another try (nothing waited then).
 */
export async function waitWithin(time: RunTime, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (time.clock.now() + ms > time.deadline) return false;
  await sleep(time.clock, ms, signal);
  return true;
}
