// How often each tier of pulling runs, how it backs off while nothing changes
// and how the scheduler probes while offline. The numbers are chosen against
// the budget: 600 requests a minute, of which the background takes at most
// half while a person is at work (BACKGROUND_BUDGET).
//
// At the tightest setting the background spends about 6 (hot) + 20 (the hot
// poll's comment watch, sync/pull/comment-watch.ts) + 1 (new) + 11 (a
// 110-request full pass every 10 minutes) requests a minute: about an eighth
// of its half, leaving room for bursts (a concurrent re-sync, sync now).
import type { BackgroundBudget } from '../api/rate-governor';
import type { PullTier } from '../events/sync-parts';

export interface TierPolicy {
  /** Interval right after something changed. */
  baseMs: number;
  /** Longest interval while nothing changes. */
  maxMs: number;
}

export interface PollPolicy {
  tiers: Record<PullTier, TierPolicy>;
  /** Each poll that changed nothing multiplies its tier's interval by this. */
  backoffFactor: number;
  /** Health probes while offline: first after `probeBaseMs`, doubling up to `probeMaxMs`. */
  probeBaseMs: number;
  probeMaxMs: number;
  /** A burst of local edits is pushed once, this long after the last of them. */
  pushDebounceMs: number;
  /** Pushes that failed on a 5xx or an invalid answer are retried after this. */
  pushRetryMs: number;
  /**
   * After a full pull that could not sync some collection, the next full poll
   * (which pulls only those) comes after this, growing by `backoffFactor` while
   * they keep failing, never later than the full tier's interval.
   */
  failedRetryBaseMs: number;
}

export const DEFAULT_POLL_POLICY: PollPolicy = {
  tiers: {
    // Tasks assigned to me, the open task, the current sprint, comments of the tasks I am likely to open.
    hot: { baseMs: 30_000, maxMs: 5 * 60_000 },
    // Tasks created since the newest we know (filter[created_after]): one request.
    new: { baseMs: 60_000, maxMs: 10 * 60_000 },
    // Every collection, every page revalidated (deletions are only seen here).
    full: { baseMs: 10 * 60_000, maxMs: 60 * 60_000 },
  },
  backoffFactor: 2,
  probeBaseMs: 2_000,
  probeMaxMs: 60_000,
  pushDebounceMs: 250,
  pushRetryMs: 30_000,
  failedRetryBaseMs: 30_000,
};

/**
 * How much of each rate-limit window background pulling may take: half while
 * a person is at work (a request of theirs in the last two minutes: they tend
 * to come in runs), so that their edits and openings never wait for a window;
 * all but a tenth while no one is, so that a first sync or a re-sync of a large
 * organization is not held to half the pace the service allows (a million
 * tasks: ~1 200 requests, two windows instead of four). The tenth lets a
 * person's first requests go at once; from then on they have the other half.
 */
export const BACKGROUND_BUDGET: BackgroundBudget = { share: 0.5, reserve: 0.1, atWorkMs: 2 * 60_000 };
