// The sync engine's one entry point for the app and the headless command:
// pull, push and a full sync on demand, and a scheduler (start/stop) that
// polls in tiers within the rate budget. Pull and push live in their own
// folders; this class wires them and turns what happens into SyncEvents.
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import { ApiError, SignedOutError } from '../api/errors';
import { healthOperation } from '../api/operations';
import { MirrorPullStore } from '../pull/mirror-pull-store';
import { createMirrorPusher } from '../push/mirror-push-store';
import { type FullPullScope, Puller } from '../pull/puller';
import type { PullRunPolicy } from '../pull/pull-run-policy';
import type { PullStore } from '../pull/pull-store';
import { WorkerPullStore, type WorkerPullStoreOptions } from '../pull/worker-pull-store';
import { BACKGROUND_SHARE, type PollPolicy } from '../schedule/poll-policy';
import { type SchedulerState, SyncScheduler } from '../schedule/sync-scheduler';
import { errorInfo } from './sync-error-info';
import type {
  PullSummary,
  PushSummary,
  SyncEvent,
  SyncEventListener,
  SyncReason,
  SyncSummary,
} from './sync-events';

/** The signed-in person: pull needs the username to tell which tasks are "mine". */
export interface SyncIdentity {
  username: string;
  user_id: string;
}

/** What pushing looks like from here; push-engine's Pusher implements it. */
export interface PushRunner {
  pushAll(options?: { signal?: AbortSignal }): Promise<PushSummary>;
  /** Conflicts open now (for the summary); absent: counted as the push reported them. */
  openConflicts?(): number | Promise<number>;
}

/** Which part of the data a pull covers (see sync/schedule for when each runs). */
export type PullTier = 'full' | 'hot' | 'new';

/** What pulling looks like from here; sync/pull's Puller implements it. */
export interface PullRunner {
  /** `scope` (full tier): `failed` pulls only what the last full pulls could not complete. */
  pull(options: {
    tier: PullTier;
    signal?: AbortSignal | undefined;
    scope?: FullPullScope;
  }): Promise<PullSummary>;
  /** Revalidates one task (and its comments) now, in the person's lane. */
  refreshTask(taskId: string, options?: { signal?: AbortSignal }): Promise<PullSummary>;
  /** The task on screen joins the hot set. */
  setOpenTask(taskId: string | null): void;
}

export interface PusherDeps<M = Mirror> {
  mirror: M;
  api: ApiClient;
  clock: ApiClock;
  onEvent: SyncEventListener;
}

export interface SyncEngineDeps {
  mirror: Mirror;
  /** One client per account; the engine caps its background lane at half the budget. */
  api: ApiClient;
  me: SyncIdentity;
  clock?: ApiClock;
  onEvent?: SyncEventListener;
  /** Builds the pusher; default push-engine's Pusher over the mirror. */
  createPusher?: (deps: PusherDeps) => PushRunner;
  /**
   * Apply pulled pages in a worker thread with its own connection to
   * `mirror.file` (default true), so that no page write stalls this thread.
   * False: in this thread, through `mirror` (each page then blocks for its write).
   */
  pullInWorker?: boolean;
  /**
   * Where the pull worker's script is and which SQLite addon it loads (see
   * WorkerPullStoreOptions). The Electron app passes
   * `{ workerUrl: <out/main/pull-store-worker.js>, nativeBinding: <Electron's better-sqlite3> }`;
   * the defaults (the .ts entry through tsx, node_modules' addon) suit Node.
   */
  pullWorker?: WorkerPullStoreOptions;
  /** Where pull writes, instead of either of the above. */
  pullStore?: PullStore;
  /** Pages revalidated at once during a re-sync (default 8). */
  concurrency?: number;
  /** Poll intervals and backoff (defaults in sync/schedule/poll-policy.ts). */
  pollPolicy?: Partial<PollPolicy>;
  /**
   * A full pull's time budget and backoff: how long refused cursors are
   * restarted and failed collections retried (defaults in sync/pull/pull-run-policy.ts).
   */
  pullRunPolicy?: Partial<PullRunPolicy>;
}

export class SyncEngine {
  readonly clock: ApiClock;
  private readonly listeners = new Set<SyncEventListener>();
  private readonly puller: PullRunner;
  private readonly pullStore: PullStore;
  private workerStore: WorkerPullStore | null = null;
  private readonly stopWatchingRateLimits: () => void;
  private readonly pusher: PushRunner;
  private readonly scheduler: SyncScheduler;
  /** One full sync at a time: a second request joins the one running. */
  private running: Promise<SyncSummary> | null = null;

  constructor(private readonly deps: SyncEngineDeps) {
    this.clock = deps.clock ?? systemApiClock;
    if (deps.onEvent) this.listeners.add(deps.onEvent);
    const emit: SyncEventListener = (event) => this.emit(event);
    // Background pulling never takes more than half of each window: the rest is the person's.
    deps.api.governor.setBackgroundShare(BACKGROUND_SHARE);
    // While the client waits out a 429 on its own, nothing fails, so nothing
    // else would tell the person why sync stands still.
    let rateLimited = false;
    this.stopWatchingRateLimits = deps.api.observe((exchange) => {
      if (exchange.status === 429 && exchange.willRetry) {
        rateLimited = true;
        this.emit({ type: 'rate-limited', retryAfterSeconds: exchange.retryAfterSeconds });
      } else if (rateLimited && exchange.status !== null && exchange.status !== 429) {
        rateLimited = false;
        this.emit({ type: 'rate-limit-lifted' });
      }
    });
    if (deps.pullStore) {
      this.pullStore = deps.pullStore;
    } else if (deps.pullInWorker ?? true) {
      this.pullStore = this.workerStore = new WorkerPullStore(deps.mirror.file, deps.pullWorker);
    } else {
      this.pullStore = new MirrorPullStore(deps.mirror, () => this.clock.now());
    }
    this.puller = new Puller({
      store: this.pullStore,
      api: deps.api,
      me: deps.me,
      emit,
      now: () => this.clock.now(),
      clock: this.clock,
      ...(deps.pullRunPolicy !== undefined ? { runPolicy: deps.pullRunPolicy } : {}),
      ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
    });
    const pusherDeps: PusherDeps = { mirror: deps.mirror, api: deps.api, clock: this.clock, onEvent: emit };
    this.pusher = deps.createPusher ? deps.createPusher(pusherDeps) : createMirrorPusher(pusherDeps);
    this.scheduler = new SyncScheduler(
      this.clock,
      {
        pull: async (tier, reason, signal) => {
          if (tier === 'full') {
            // The poll soon after a partial sync pulls only what failed; every other full pull, all.
            const scope: FullPullScope = reason === 'poll-retry' ? 'failed' : 'all';
            const summary = await this.syncOnce({ signal, reason, scope });
            return { changed: summary.changes > 0, failed: summary.failed_collections.length > 0 };
          }
          const pulled = await this.pullTier(tier, reason, signal);
          return { changed: pulled.changes.length > 0 };
        },
        push: async (signal) => {
          await this.pusher.pushAll({ signal });
        },
        refreshTask: async (taskId, signal) => {
          const pulled = await this.puller.refreshTask(taskId, { signal });
          return { changed: pulled.changes.length > 0 };
        },
        probe: (signal) => this.probe(signal),
      },
      {
        connectivity: (state, cause) => {
          if (state === 'online') this.emit({ type: 'online' });
          else if (state === 'offline') this.emit({ type: 'offline', error: errorInfo(cause) });
          // signed-out is announced by the sync that met it.
        },
        pollScheduled: (tier, at) => this.emit({ type: 'poll-scheduled', tier, at }),
      },
      deps.pollPolicy,
    );
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: SyncEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- on demand -------------------------------------------------------------

  /**
   * One pull: by default a full pass over every collection, in dependency
   * order; `scope: 'failed'` pulls only what the last full pulls could not complete.
   */
  pullOnce(
    options: { signal?: AbortSignal; tier?: PullTier; scope?: FullPullScope } = {},
  ): Promise<PullSummary> {
    return this.puller.pull({
      tier: options.tier ?? 'full',
      signal: options.signal,
      ...(options.scope ? { scope: options.scope } : {}),
    });
  }

  /** Drains the outbox (push-engine's Pusher). */
  pushOnce(options: { signal?: AbortSignal } = {}): Promise<PushSummary> {
    return this.pusher.pushAll(options);
  }

  /** Push, full pull, push: local edits reach the server first, and what the pull rebased goes out after. */
  syncOnce(
    options: { signal?: AbortSignal; reason?: SyncReason; scope?: FullPullScope } = {},
  ): Promise<SyncSummary> {
    if (this.running) return this.running;
    const run = this.runSync(options.reason ?? 'sync-now', options.signal, options.scope ?? 'all').finally(
      () => {
        this.running = null;
      },
    );
    this.running = run;
    return run;
  }

  // ---- scheduled ---------------------------------------------------------------

  /** Pulls now, then keeps polling (tiered) and pushing after edits until stop(). */
  start(): void {
    this.scheduler.start();
  }

  /** Stops polling and aborts the work in progress; resolves when it has ended. */
  stop(): Promise<void> {
    return this.scheduler.stop();
  }

  /**
   * Resolves when pulling can start at once: the pull worker is up and has
   * opened the mirror. Optional (the first pull waits for it anyway); the app
   * calls it at startup so the worker's start never overlaps the first sync.
   */
  ready(): Promise<void> {
    return this.pullStore.ready();
  }

  /** Stops, and ends the pull worker (its connection to the mirror file). The engine may be started again. */
  async close(): Promise<void> {
    this.stopWatchingRateLimits();
    await this.scheduler.stop();
    await this.workerStore?.close();
  }

  /** The person's "sync now": a full sync at once, polling tightened. Resolves when it ended. */
  syncNow(): Promise<void> {
    return this.scheduler.syncNow();
  }

  /** Call after queueing a local edit in the mirror: it is pushed right away when online. */
  localEdit(): void {
    this.scheduler.localEdit();
  }

  /** The task on screen (null when none): revalidated now and kept in the hot set while open. */
  openTask(taskId: string | null): void {
    this.puller.setOpenTask(taskId);
    this.scheduler.openTask(taskId);
  }

  /** The operating system reports a network change: if sync is offline, it checks at once. */
  networkChanged(): void {
    this.scheduler.networkChanged();
  }

  state(): SchedulerState {
    return this.scheduler.state();
  }

  // ---- internals ---------------------------------------------------------------

  private async runSync(
    reason: SyncReason,
    signal: AbortSignal | undefined,
    scope: FullPullScope,
  ): Promise<SyncSummary> {
    this.emit({ type: 'sync-started', reason, tier: 'full' });
    try {
      const signalOption = signal ? { signal } : {};
      const first = await this.pusher.pushAll(signalOption);
      const pulled = await this.puller.pull({ tier: 'full', signal, scope });
      const second = await this.pusher.pushAll(signalOption);
      const summary: SyncSummary = {
        pulled: pulled.pulled,
        pushed: first.pushed + second.pushed,
        conflicts: (await this.pusher.openConflicts?.()) ?? first.conflicts + second.conflicts,
        requests: first.requests + pulled.requests + second.requests,
        not_modified: pulled.notModified,
        failed: first.failed + second.failed,
        changes: pulled.changes.length,
        notifications: pulled.notifications.length,
        failed_collections: pulled.failed,
      };
      this.emit({ type: 'sync-finished', reason, summary });
      return summary;
    } catch (error) {
      this.failed(reason, error);
      throw error;
    }
  }

  private async pullTier(tier: PullTier, reason: SyncReason, signal: AbortSignal): Promise<PullSummary> {
    this.emit({ type: 'sync-started', reason, tier });
    try {
      const pulled = await this.puller.pull({ tier, signal });
      this.emit({
        type: 'sync-finished',
        reason,
        summary: {
          pulled: pulled.pulled,
          pushed: 0,
          conflicts: (await this.pusher.openConflicts?.()) ?? 0,
          requests: pulled.requests,
          not_modified: pulled.notModified,
          failed: 0,
          changes: pulled.changes.length,
          notifications: pulled.notifications.length,
          failed_collections: pulled.failed,
        },
      });
      return pulled;
    } catch (error) {
      this.failed(reason, error);
      throw error;
    }
  }

  private failed(reason: SyncReason, error: unknown): void {
    if (error instanceof SignedOutError) this.emit({ type: 'signed-out', reason: error.reason });
    this.emit({ type: 'sync-failed', reason, error: errorInfo(error) });
  }

  /** `GET /v1/health`: any answer from the service means it is reachable. */
  private async probe(signal: AbortSignal): Promise<boolean> {
    try {
      await this.deps.api.read(healthOperation, {}, { signal, lane: 'user' });
      return true;
    } catch (error) {
      return error instanceof ApiError && error.kind === 'problem';
    }
  }

  private emit(event: SyncEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not stop the sync; the app logs its own failures.
      }
    }
  }
}
