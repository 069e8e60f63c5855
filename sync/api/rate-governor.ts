// Keeps one token's requests inside the service's rate budget (600 a minute):
// it learns the window from X-RateLimit-Limit/-Remaining/-Reset, lets requests
// go while budget is left, holds them after a 429 for Retry-After, and serves
// person-initiated work before background pulling, which may be capped to a
// share of the budget.
//
// It spends the budget in bursts rather than spreading it evenly: the service
// counts requests per window, and a re-sync wins by revalidating many pages at
// once, which even spacing would forbid.
//
// How much background work may take depends on whether a person is at work:
// while they are, a share of each window (the rest is theirs); while no one
// has asked for anything lately, all of it but a reserve that lets a person's
// first request go at once. A first sync of a million tasks needs two windows
// of requests: held to half, it took four.
import { type ApiClock, systemApiClock } from './clock';

/**
 * `user`: a person is waiting (push an edit, open a task); such a request also
 * says a person is at work. `background`: pulling, polling and probing.
 */
export type RequestLane = 'user' | 'background';

/** What an answer said about the budget; null fields were absent. */
export interface RateObservation {
  status: number;
  limit: number | null;
  remaining: number | null;
  /** Seconds until the window resets (`X-RateLimit-Reset`). */
  resetSeconds: number | null;
  retryAfterSeconds: number | null;
}

export interface RatePermit {
  /**
   * Call once when the request ended: with what the answer said; null when no
   * answer came (the service may have counted it); `not-sent` when the request
   * certainly never reached the service (its connection was refused), which
   * gives its share of the window back.
   */
  release(observation: RateObservation | null | 'not-sent'): void;
}

/** How much of each window background work may use. */
export interface BackgroundBudget {
  /** While a person is at work: this share of the window, 0..1. */
  share: number;
  /** While no one is: all of the window but this share, 0..1, kept for a person's first requests. */
  reserve: number;
  /** A person counts as at work while a request of theirs waits and this long after it was asked (ms). */
  atWorkMs: number;
}

/** No cap: background work may use the whole window, whoever is at work. */
export const UNCAPPED_BACKGROUND: BackgroundBudget = { share: 1, reserve: 0, atWorkMs: 0 };

export interface RateGovernorOptions {
  clock?: ApiClock;
  /** Default UNCAPPED_BACKGROUND. */
  background?: BackgroundBudget;
  /** Wait after a 429 that names no Retry-After, in seconds (default 1). */
  defaultRetryAfterSeconds?: number;
}

export interface RateGovernorState {
  /** False until an answer has told the budget (and again after each window ends). */
  known: boolean;
  limit: number | null;
  /** Requests we may still send in this window, counting those in flight as spent. */
  remaining: number;
  windowEndsAt: number;
  blockedUntil: number;
  inFlight: number;
  backgroundUsed: number;
  queued: { user: number; background: number };
}

interface Waiter {
  lane: RequestLane;
  resolve(permit: RatePermit): void;
  reject(reason: unknown): void;
  detach(): void;
}

/**
 * Reset times come in whole seconds and answers take a while to arrive: resets
 * within this of each other belong to the same window.
 */
const SAME_WINDOW_TOLERANCE_MS = 2000;

export class RateGovernor {
  private readonly clock: ApiClock;
  private background: BackgroundBudget;
  private readonly defaultRetryAfterSeconds: number;

  private known = false;
  private limit: number | null = null;
  private remaining = 0;
  private windowEndsAt = 0;
  private blockedUntil = 0;
  private inFlight = 0;
  /** While the budget is unknown, one request at a time goes to learn it. */
  private probeInFlight = false;
  private backgroundUsed = 0;
  /** When a person last asked for a request (`user` lane). */
  private personAskedAt = Number.NEGATIVE_INFINITY;
  private readonly queues: Record<RequestLane, Waiter[]> = { user: [], background: [] };
  private cancelWake: (() => void) | null = null;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly holdListeners = new Set<(resumesInMs: number | null) => void>();
  /** The window's end last told to holdListeners (null: no person's request held). */
  private holdTold: number | null = null;

  constructor(options: RateGovernorOptions = {}) {
    this.clock = options.clock ?? systemApiClock;
    this.background = clampBudget(options.background ?? UNCAPPED_BACKGROUND);
    this.defaultRetryAfterSeconds = options.defaultRetryAfterSeconds ?? 1;
  }

  /** Waits until a request in `lane` may be sent. Rejects with the signal's reason when aborted. */
  acquire(lane: RequestLane, signal?: AbortSignal): Promise<RatePermit> {
    return new Promise<RatePermit>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        const queue = this.queues[lane];
        const at = queue.indexOf(waiter);
        if (at !== -1) queue.splice(at, 1);
        if (signal) reject(abortReason(signal));
        this.pump();
      };
      const waiter: Waiter = {
        lane,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (lane === 'user') this.personAskedAt = this.clock.now();
      this.queues[lane].push(waiter);
      this.pump();
    });
  }

  /**
   * Tells `listener` when a person's request starts waiting for the window to
   * end because its budget is spent (in how many ms it ends), and when none
   * waits so any more (null): no 429 came, and without it the person would see
   * their changes wait with no reason given. A 429's wait is the client's to
   * tell (its Retry-After). Returns a function that stops telling.
   */
  watchHolds(listener: (resumesInMs: number | null) => void): () => void {
    this.holdListeners.add(listener);
    return () => this.holdListeners.delete(listener);
  }

  /** Changes how much background work may use (the engine sets the app's, sync/schedule/poll-policy.ts). */
  setBackgroundBudget(budget: BackgroundBudget): void {
    this.background = clampBudget(budget);
    this.pump();
  }

  /**
   * The token changed (a refresh): the service counts per token, so what we
   * knew of the old one's budget no longer applies.
   */
  tokenChanged(): void {
    this.known = false;
    this.blockedUntil = 0;
    this.backgroundUsed = 0;
    this.pump();
  }

  state(): RateGovernorState {
    this.rollWindowIfDue(this.clock.now());
    return {
      known: this.known,
      limit: this.limit,
      remaining: this.remaining,
      windowEndsAt: this.windowEndsAt,
      blockedUntil: this.blockedUntil,
      inFlight: this.inFlight,
      backgroundUsed: this.backgroundUsed,
      queued: { user: this.queues.user.length, background: this.queues.background.length },
    };
  }

  private personAtWork(now: number): boolean {
    return this.queues.user.length > 0 || now < this.personAskedAt + this.background.atWorkMs;
  }

  private backgroundCap(now: number): number {
    if (this.limit === null) return Number.POSITIVE_INFINITY;
    return this.personAtWork(now)
      ? Math.floor(this.limit * this.background.share)
      : this.limit - Math.ceil(this.limit * this.background.reserve);
  }

  private rollWindowIfDue(now: number): void {
    if (this.known && now >= this.windowEndsAt) {
      // A new window: send one request to learn it before spending it.
      this.known = false;
      this.backgroundUsed = 0;
    }
  }

  private canSend(lane: RequestLane, now: number): boolean {
    if (now < this.blockedUntil) return false;
    this.rollWindowIfDue(now);
    if (lane === 'background' && this.backgroundUsed >= this.backgroundCap(now)) return false;
    if (!this.known) return !this.probeInFlight;
    return this.remaining > 0;
  }

  private pump(): void {
    const now = this.clock.now();
    for (;;) {
      let lane: RequestLane | null = null;
      if (this.queues.user.length > 0 && this.canSend('user', now)) lane = 'user';
      else if (this.queues.background.length > 0 && this.canSend('background', now)) lane = 'background';
      if (lane === null) break;
      const waiter = this.queues[lane].shift();
      if (!waiter) break;
      waiter.detach();
      waiter.resolve(this.grant(lane));
    }
    this.scheduleWake(now);
    this.tellHold(now);
  }

  private tellHold(now: number): void {
    const held = this.queues.user.length > 0 && this.known && this.remaining <= 0 && now >= this.blockedUntil;
    const until = held ? this.windowEndsAt : null;
    if (until === this.holdTold) return;
    this.holdTold = until;
    for (const listener of this.holdListeners) listener(until === null ? null : until - now);
  }

  private grant(lane: RequestLane): RatePermit {
    const probe = !this.known;
    if (probe) this.probeInFlight = true;
    this.inFlight += 1;
    this.remaining -= 1;
    if (lane === 'background') this.backgroundUsed += 1;
    const window = this.windowEndsAt;
    let released = false;
    return {
      release: (observation) => {
        if (released) return;
        released = true;
        if (observation === 'not-sent') {
          // Never counted by the service (a refused connection): each request tries five times
          // before sync goes offline, and kept as spent those tries held what came after them.
          if (this.known && this.windowEndsAt === window) {
            this.remaining += 1;
            if (lane === 'background') this.backgroundUsed = Math.max(0, this.backgroundUsed - 1);
          }
        } else if (observation) this.observe(observation);
        if (probe) this.probeInFlight = false;
        this.inFlight -= 1;
        this.pump();
      },
    };
  }

  /** Reads an answer's headers; called while the answering request still counts as in flight. */
  private observe(observation: RateObservation): void {
    const now = this.clock.now();
    if (observation.status === 429) {
      const wait = observation.retryAfterSeconds ?? observation.resetSeconds ?? this.defaultRetryAfterSeconds;
      this.blockedUntil = Math.max(this.blockedUntil, now + wait * 1000);
      // Relearn the budget with one request once the wait is over.
      this.known = false;
      return;
    }
    const { limit, remaining, resetSeconds } = observation;
    if (limit === null || remaining === null || resetSeconds === null) return;
    const resetAt = now + resetSeconds * 1000;
    // Others in flight may or may not be counted in `remaining` yet: assume not.
    const othersInFlight = this.inFlight - 1;
    const fresh = remaining - othersInFlight;
    this.limit = limit;
    // The service started a new window sooner than we reckoned: its reset moved
    // well past ours and the budget went back up.
    const newWindow = resetAt > this.windowEndsAt + SAME_WINDOW_TOLERANCE_MS && fresh > this.remaining;
    if (!this.known || newWindow) {
      if (this.known) this.backgroundUsed = 0;
      this.known = true;
      this.remaining = fresh;
      this.windowEndsAt = resetAt;
    } else {
      this.remaining = Math.min(this.remaining, fresh);
      this.windowEndsAt = Math.max(this.windowEndsAt, resetAt);
    }
  }

  private scheduleWake(now: number): void {
    const waiting = this.queues.user.length + this.queues.background.length;
    let at = Number.POSITIVE_INFINITY;
    if (waiting > 0) {
      if (now < this.blockedUntil) at = this.blockedUntil;
      else if (this.known) at = this.windowEndsAt;
      // Unknown and waiting: the answer in flight will pump.
      // Background work held to the person's share may take more once they are done.
      const quietAt = this.personAskedAt + this.background.atWorkMs;
      if (this.queues.background.length > 0 && this.queues.user.length === 0 && now < quietAt)
        at = Math.min(at, quietAt);
    }
    if (at === this.wakeAt) return;
    this.cancelWake?.();
    this.cancelWake = null;
    this.wakeAt = at;
    if (at !== Number.POSITIVE_INFINITY) {
      this.cancelWake = this.clock.schedule(at - now, () => {
        this.cancelWake = null;
        this.wakeAt = Number.POSITIVE_INFINITY;
        this.pump();
      });
    }
  }
}

function clampShare(share: number, otherwise: number): number {
  if (!Number.isFinite(share)) return otherwise;
  return Math.min(1, Math.max(0, share));
}

function clampBudget(budget: BackgroundBudget): BackgroundBudget {
  return {
    share: clampShare(budget.share, 1),
    reserve: clampShare(budget.reserve, 0),
    atWorkMs: Number.isFinite(budget.atWorkMs) ? Math.max(0, budget.atWorkMs) : 0,
  };
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
