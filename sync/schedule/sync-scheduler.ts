// Decides when to pull and push: on start, on "sync now", when the network
// returns, when the computer wakes, right after a local edit, and on a tiered
// poll schedule that backs off while nothing changes and tightens when
// something does. Online/offline follows what requests do; while offline only
// health probes run. All timing goes through the injected clock, so every
// decision is tested in fake time.
import { ApiError, NetworkError, SignedOutError } from '../api/errors';
import type { ApiClock } from '../api/clock';
import type { PullTier } from '../events/sync-parts';
import type { SyncReason } from '../events/sync-events';
import { DEFAULT_POLL_POLICY, type PollPolicy } from './poll-policy';

/** What the scheduler makes happen; the engine implements these with pull and push. */
export interface SchedulerActions {
  /**
   * A pull of one tier (the engine pushes around a full one); resolves with
   * whether anything changed remotely and whether some collection could not
   * be synced (`failed`: the next full poll, which retries only those, comes sooner).
   */
  pull(
    tier: PullTier,
    reason: SyncReason,
    signal: AbortSignal,
  ): Promise<{ changed: boolean; failed?: boolean }>;
  push(signal: AbortSignal): Promise<void>;
  /** Revalidates the task a person just opened. */
  refreshTask(taskId: string, signal: AbortSignal): Promise<{ changed: boolean }>;
  /** `GET /v1/health`: resolves true when the service answered. */
  probe(signal: AbortSignal): Promise<boolean>;
}

export type Connectivity = 'unknown' | 'online' | 'offline' | 'signed-out';

export interface SchedulerObserver {
  connectivity?(state: Connectivity, cause: unknown): void;
  pollScheduled?(tier: PullTier, at: number): void;
  /** A scheduled step failed in a way that does not change connectivity (a 4xx/5xx, an invalid answer). */
  failed?(what: PullTier | 'push' | 'open-task', error: unknown): void;
}

export interface SchedulerState {
  connectivity: Connectivity;
  running: boolean;
  pulling: PullTier | null;
  pushing: boolean;
  /** When each tier polls next (null while stopped or offline). */
  nextPoll: Record<PullTier, number | null>;
  intervals: Record<PullTier, number>;
  openTaskId: string | null;
}

const TIERS: readonly PullTier[] = ['full', 'new', 'hot'];

/** Higher first: a full pass covers the others. */
const TIER_RANK: Record<PullTier, number> = { full: 3, new: 2, hot: 1 };

export class SyncScheduler {
  private readonly policy: PollPolicy;
  private connectivity: Connectivity = 'unknown';
  private running = false;
  private stopController = new AbortController();
  private readonly intervals: Record<PullTier, number>;
  private readonly timers: Record<PullTier, { at: number; cancel: () => void } | null> = {
    full: null,
    new: null,
    hot: null,
  };
  /** Pulls waiting for the pull in progress to end, with the reason each was asked for. */
  private readonly pendingPulls = new Map<PullTier, SyncReason>();
  private pulling: PullTier | null = null;
  private pullDone: Promise<void> = Promise.resolve();
  private pushing = false;
  private pushAgain = false;
  private pushDone: Promise<void> = Promise.resolve();
  private pushTimer: (() => void) | null = null;
  private probeTimer: (() => void) | null = null;
  private probeDelay: number;
  private openTaskId: string | null = null;
  /** Full pulls in a row that left some collection failed: the retry poll backs off with them. */
  private failedFullPulls = 0;
  /** Callers of syncNow waiting for a full pull that has not started yet. */
  private fullWaiters: (() => void)[] = [];
  /** Callers of syncNow waiting for the full pull in progress. */
  private runningFullWaiters: (() => void)[] = [];

  constructor(
    private readonly clock: ApiClock,
    private readonly actions: SchedulerActions,
    private readonly observer: SchedulerObserver = {},
    policy: Partial<PollPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_POLL_POLICY, ...policy };
    this.intervals = {
      full: this.policy.tiers.full.baseMs,
      new: this.policy.tiers.new.baseMs,
      hot: this.policy.tiers.hot.baseMs,
    };
    this.probeDelay = this.policy.probeBaseMs;
  }

  state(): SchedulerState {
    return {
      connectivity: this.connectivity,
      running: this.running,
      pulling: this.pulling,
      pushing: this.pushing,
      nextPoll: {
        full: this.timers.full?.at ?? null,
        new: this.timers.new?.at ?? null,
        hot: this.timers.hot?.at ?? null,
      },
      intervals: { ...this.intervals },
      openTaskId: this.openTaskId,
    };
  }

  /** Pulls everything now, then polls. Also pushes what is queued. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopController = new AbortController();
    if (this.connectivity === 'signed-out') this.connectivity = 'unknown';
    this.requestPull('full', 'start');
  }

  /** Cancels timers and aborts the work in progress; resolves when it has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopController.abort(new Error('sync stopped'));
    for (const tier of TIERS) this.clearPoll(tier);
    this.pushTimer?.();
    this.pushTimer = null;
    this.probeTimer?.();
    this.probeTimer = null;
    this.pendingPulls.clear();
    this.releaseFullWaiters();
    await Promise.allSettled([this.pullDone, this.pushDone]);
  }

  /** The person asked: a full pull (pushes around it) now, with the schedule tightened. Resolves when it ended. */
  syncNow(): Promise<void> {
    for (const tier of TIERS) this.intervals[tier] = this.policy.tiers[tier].baseMs;
    const done = new Promise<void>((resolve) => this.fullWaiters.push(resolve));
    if (this.connectivity === 'offline') {
      // Try at once rather than at the next probe.
      this.probeNow();
    } else {
      this.requestPull('full', 'sync-now');
    }
    return done;
  }

  /** A local edit was queued: push it soon (a burst of edits goes in one push). */
  localEdit(): void {
    if (!this.running || this.connectivity === 'offline' || this.connectivity === 'signed-out') return;
    this.pushTimer?.();
    this.pushTimer = this.clock.schedule(this.policy.pushDebounceMs, () => {
      this.pushTimer = null;
      this.requestPush();
    });
  }

  /** The task the person is looking at joins the hot set, and is revalidated now. */
  openTask(taskId: string | null): void {
    this.openTaskId = taskId;
    if (taskId === null || !this.running || this.connectivity === 'offline') return;
    const signal = this.stopController.signal;
    this.actions.refreshTask(taskId, signal).then(
      ({ changed }) => {
        this.markOnline();
        if (changed) this.tighten();
      },
      (error: unknown) => this.onFailure('open-task', error),
    );
  }

  /** The operating system says the network changed: if we were offline, probe now. */
  networkChanged(): void {
    if (this.connectivity === 'offline') this.probeNow();
  }

  /**
   * The computer woke from sleep: what the mirror holds may be hours old, and
   * the timers were held while it slept (Node's clock stops with the machine
   * on Linux and macOS). Offline, a probe goes now; else the quick tiers pull
   * now and what waits is pushed. The full pass keeps its turn: at a million
   * tasks it is thousands of requests, and a laptop wakes many times a day.
   */
  woke(): void {
    if (this.connectivity === 'offline') {
      this.probeNow();
      return;
    }
    this.requestPull('new', 'woke');
    this.requestPull('hot', 'woke');
    this.requestPush();
  }

  /** Something else (a push, a read by the UI) learned whether the service is reachable. */
  reportOutcome(error: unknown): void {
    if (error === null) this.markOnline();
    else this.onFailure('push', error);
  }

  private requestPull(tier: PullTier, reason: SyncReason): void {
    if (!this.running || this.connectivity === 'offline' || this.connectivity === 'signed-out') return;
    const already = this.pendingPulls.get(tier);
    // A person's reason wins over a poll's when both ask for the same tier.
    if (already === undefined || already.startsWith('poll-')) this.pendingPulls.set(tier, reason);
    if (this.pulling === null) this.runNextPull();
  }

  private runNextPull(): void {
    if (!this.running || this.pulling !== null) return;
    let next: PullTier | null = null;
    for (const tier of this.pendingPulls.keys()) {
      if (next === null || TIER_RANK[tier] > TIER_RANK[next]) next = tier;
    }
    if (next === null) return;
    const reason = this.pendingPulls.get(next) ?? 'poll-full';
    this.pendingPulls.delete(next);
    if (next === 'full') {
      // The full pass covers the other tiers: they wait for their next turn.
      this.pendingPulls.clear();
    }
    this.pulling = next;
    const tier = next;
    if (tier === 'full') {
      this.runningFullWaiters = this.fullWaiters;
      this.fullWaiters = [];
    }
    this.clearPoll(tier);
    if (tier === 'full') {
      this.clearPoll('new');
      this.clearPoll('hot');
    }
    const signal = this.stopController.signal;
    // A retry of failed collections says nothing about the pace of remote changes.
    const polled = reason.startsWith('poll-') && reason !== 'poll-retry';
    this.pullDone = this.actions
      .pull(tier, reason, signal)
      .then(
        ({ changed, failed }) => {
          this.markOnline();
          if (tier === 'full') this.failedFullPulls = failed === true ? this.failedFullPulls + 1 : 0;
          // Only polls back off: a pull the person (or a start) asked for says nothing about the pace.
          if (changed) this.tighten();
          else if (polled) this.backOff(tier);
        },
        (error: unknown) => {
          this.onFailure(tier, error);
          if (polled && this.connectivity !== 'offline' && this.connectivity !== 'signed-out')
            this.backOff(tier);
        },
      )
      .finally(() => {
        this.pulling = null;
        if (tier === 'full') release(this.runningFullWaiters.splice(0));
        if (!this.running) return;
        if (this.connectivity !== 'offline' && this.connectivity !== 'signed-out') {
          this.schedulePoll(tier, tier === 'full' ? this.failedRetryDelay() : null);
          if (tier === 'full') {
            this.schedulePoll('new');
            this.schedulePoll('hot');
          }
        }
        this.runNextPull();
      });
  }

  private requestPush(): void {
    if (!this.running || this.connectivity === 'offline' || this.connectivity === 'signed-out') return;
    if (this.pushing) {
      this.pushAgain = true;
      return;
    }
    this.pushing = true;
    this.pushDone = this.actions
      .push(this.stopController.signal)
      .then(
        () => this.markOnline(),
        (error: unknown) => {
          this.onFailure('push', error);
          if (
            this.running &&
            this.connectivity === 'online' &&
            !(error instanceof ApiError && error.kind === 'aborted')
          ) {
            // The service answered but failed (5xx, invalid answer): try again later.
            this.pushTimer?.();
            this.pushTimer = this.clock.schedule(this.policy.pushRetryMs, () => {
              this.pushTimer = null;
              this.requestPush();
            });
          }
        },
      )
      .finally(() => {
        this.pushing = false;
        if (this.pushAgain) {
          this.pushAgain = false;
          this.requestPush();
        }
      });
  }

  /** Something changed: every tier polls at its base rate again. */
  private tighten(): void {
    for (const t of TIERS) {
      this.intervals[t] = this.policy.tiers[t].baseMs;
      const timer = this.timers[t];
      if (timer && timer.at > this.clock.now() + this.intervals[t]) this.schedulePoll(t);
    }
  }

  private backOff(tier: PullTier): void {
    const { maxMs } = this.policy.tiers[tier];
    this.intervals[tier] = Math.min(maxMs, Math.round(this.intervals[tier] * this.policy.backoffFactor));
  }

  /** After a full pull left collections failed: their retry, sooner than the full interval and backing off. */
  private failedRetryDelay(): number | null {
    if (this.failedFullPulls === 0) return null;
    return this.policy.failedRetryBaseMs * this.policy.backoffFactor ** (this.failedFullPulls - 1);
  }

  private schedulePoll(tier: PullTier, sooner: number | null = null): void {
    this.clearPoll(tier);
    if (!this.running) return;
    // Sooner than the tier's interval: a retry of what failed; at the interval, the whole pull again.
    const retry = sooner !== null && sooner < this.intervals[tier];
    const delay = retry ? sooner : this.intervals[tier];
    const at = this.clock.now() + delay;
    const cancel = this.clock.schedule(delay, () => {
      this.timers[tier] = null;
      this.requestPull(tier, retry ? 'poll-retry' : `poll-${tier}`);
    });
    this.timers[tier] = { at, cancel };
    this.observer.pollScheduled?.(tier, at);
  }

  private clearPoll(tier: PullTier): void {
    this.timers[tier]?.cancel();
    this.timers[tier] = null;
  }

  private markOnline(): void {
    if (this.connectivity === 'online' || this.connectivity === 'signed-out') return;
    const wasOffline = this.connectivity === 'offline';
    this.connectivity = 'online';
    this.probeTimer?.();
    this.probeTimer = null;
    this.probeDelay = this.policy.probeBaseMs;
    this.observer.connectivity?.('online', null);
    if (wasOffline && this.running) {
      // Back online: catch up with everything and send what waited.
      this.requestPull('full', 'network-returned');
      this.requestPush();
    }
  }

  private onFailure(what: PullTier | 'push' | 'open-task', error: unknown): void {
    if (error instanceof ApiError && error.kind === 'aborted') return;
    if (error instanceof SignedOutError) {
      this.connectivity = 'signed-out';
      this.observer.connectivity?.('signed-out', error);
      // Stop polling; the app signs in again and calls start().
      this.running = false;
      for (const tier of TIERS) this.clearPoll(tier);
      this.pendingPulls.clear();
      this.releaseFullWaiters();
      return;
    }
    if (error instanceof NetworkError) {
      this.goOffline(error);
      return;
    }
    this.observer.failed?.(what, error);
  }

  private goOffline(cause: unknown): void {
    if (this.connectivity === 'offline') return;
    this.connectivity = 'offline';
    for (const tier of TIERS) this.clearPoll(tier);
    this.pendingPulls.clear();
    this.releaseFullWaiters();
    this.observer.connectivity?.('offline', cause);
    this.probeDelay = this.policy.probeBaseMs;
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.probeTimer?.();
    if (!this.running) return;
    this.probeTimer = this.clock.schedule(this.probeDelay, () => {
      this.probeTimer = null;
      this.runProbe();
    });
  }

  private probeNow(): void {
    this.probeTimer?.();
    this.probeTimer = null;
    this.runProbe();
  }

  private runProbe(): void {
    if (!this.running || this.connectivity !== 'offline') return;
    this.actions.probe(this.stopController.signal).then(
      (up) => {
        if (up) {
          this.markOnline();
          return;
        }
        this.nextProbe();
      },
      () => this.nextProbe(),
    );
  }

  private nextProbe(): void {
    if (this.connectivity !== 'offline') return;
    // A "sync now" that found the service still unreachable is over.
    this.releaseFullWaiters();
    this.probeDelay = Math.min(this.policy.probeMaxMs, this.probeDelay * 2);
    this.scheduleProbe();
  }

  private releaseFullWaiters(): void {
    release(this.fullWaiters.splice(0));
    release(this.runningFullWaiters.splice(0));
  }
}

function release(waiters: readonly (() => void)[]): void {
  for (const resolve of waiters) resolve();
}
