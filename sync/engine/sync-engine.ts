// The sync engine's one entry point for the app and the headless command:
// pull, push and a full sync on demand, and a scheduler (start/stop) that
// polls in tiers within the rate budget. Pull and push live in their own
// folders and build-sync-parts.ts builds them; this class drives them and
// turns what happens into SyncEvents.
import { inboxEntryOfPush } from '../push/inbox-of-push';
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import type { Mirror } from '../../db/mirror';
import { isTemporaryId } from '../../db/outbox/outbox-types';
import { writeWhenFree } from '../../db/write-when-free';
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import { ApiError, NetworkError, SignedOutError } from '../api/errors';
import { healthOperation, viewOperations } from '../api/operations';
import type { Task } from '../../protocol/task';
import { openingsSince } from '../pull/comment-watch';
import { AttachmentCache } from '../attachments/attachment-cache';
import { downloadAttachment } from '../attachments/attachment-download';
import type { PullStore } from '../pull/pull-store';
import type { WorkerPullStore } from '../pull/worker-pull-store';
import { BACKGROUND_BUDGET, type PollPolicy } from '../schedule/poll-policy';
import { type SchedulerState, SyncScheduler } from '../schedule/sync-scheduler';
import { buildSyncParts, type SyncPartsOptions } from './build-sync-parts';
import { errorInfo } from '../events/sync-error-info';
import type {
  PullSummary,
  PushSummary,
  SyncEvent,
  SyncEventListener,
  SyncReason,
  SyncSummary,
} from '../events/sync-events';
import type { FullPullScope, PullRunner, PullTier, PushRunner, SyncIdentity } from '../events/sync-parts';

/** The pull store, the pusher and their tuning come as SyncPartsOptions (see build-sync-parts.ts). */
export interface SyncEngineDeps extends SyncPartsOptions {
  mirror: Mirror;
  /** One client per account; the engine caps its background lane at half the budget. */
  api: ApiClient;
  me: SyncIdentity;
  clock?: ApiClock;
  onEvent?: SyncEventListener;
  /** Poll intervals and backoff (defaults in sync/schedule/poll-policy.ts). */
  pollPolicy?: Partial<PollPolicy>;
  /**
   * Keep attachments' content for offline opening (sync/attachments/attachment-cache.ts),
   * filled behind every full sync within `limitBytes` (read each time, so a changed setting
   * applies at once). Absent: none is downloaded in the background (the headless sync).
   */
  attachmentCache?: { limitBytes: () => number };
}

export class SyncEngine {
  readonly clock: ApiClock;
  private readonly listeners = new Set<SyncEventListener>();
  private readonly puller: PullRunner;
  private readonly pullStore: PullStore;
  private readonly workerStore: WorkerPullStore | null;
  private readonly stopWatchingRateLimits: () => void;
  private readonly stopWatchingHolds: () => void;
  private readonly pusher: PushRunner;
  private readonly scheduler: SyncScheduler;
  /** One full sync at a time: a second request joins the one running. */
  private running: Promise<SyncSummary> | null = null;
  /** Fetches of opened tasks' activity under way: opening one twice asks once. Stop ends them. */
  private readonly activity = new Map<string, Promise<boolean>>();
  private activityStop = new AbortController();
  private readonly cache: AttachmentCache | null;
  /** The cache's fill under way (one at a time), so that a full sync never waits for downloads. */
  private filling: Promise<void> | null = null;

  constructor(private readonly deps: SyncEngineDeps) {
    this.clock = deps.clock ?? systemApiClock;
    if (deps.onEvent) this.listeners.add(deps.onEvent);
    const emit: SyncEventListener = (event) => this.emit(event);
    // Background pulling leaves the person their part of each window.
    deps.api.governor.setBackgroundBudget(BACKGROUND_BUDGET);
    // While the client waits out a 429 on its own, nothing fails, so nothing
    // else would tell the person why sync stands still.
    // Likewise a request the client retries after the network failed it: the
    // retries can take seconds, and the status bar must not say "Online" meanwhile.
    let rateLimited = false;
    let connectionLost = false;
    this.stopWatchingRateLimits = deps.api.observe((exchange) => {
      if (exchange.status === 429 && exchange.willRetry) {
        rateLimited = true;
        this.emit({ type: 'rate-limited', retryAfterSeconds: exchange.retryAfterSeconds, cause: 'answer' });
      } else if (rateLimited && exchange.status !== null && exchange.status !== 429) {
        rateLimited = false;
        this.emit({ type: 'rate-limit-lifted' });
      }
      if (exchange.status === null && exchange.willRetry && exchange.attempt >= 2 && !connectionLost) {
        connectionLost = true;
        const cause = new NetworkError(
          exchange.operation,
          exchange.errorCode ?? 'UNKNOWN',
          'the service did not answer; trying again',
          exchange.attempt,
        );
        this.emit({ type: 'connection-lost', error: errorInfo(cause) });
      } else if (connectionLost && exchange.status !== null) {
        connectionLost = false;
        this.emit({ type: 'connection-back' });
      }
    });
    // A person's request held until the window ends, its budget spent (a bulk change of hundreds
    // of tasks): no 429 says so, and their changes would wait up to a minute with no reason shown.
    let heldByBudget = false;
    this.stopWatchingHolds = deps.api.governor.watchHolds((resumesInMs) => {
      if (resumesInMs !== null) {
        heldByBudget = true;
        this.emit({
          type: 'rate-limited',
          retryAfterSeconds: Math.max(1, Math.ceil(resumesInMs / 1000)),
          cause: 'budget',
        });
      } else if (heldByBudget) {
        heldByBudget = false;
        this.emit({ type: 'rate-limit-lifted' });
      }
    });
    this.cache = deps.attachmentCache
      ? new AttachmentCache({
          mirror: deps.mirror,
          api: deps.api,
          files: AttachmentFiles.beside(deps.mirror.file),
          username: deps.me.username,
          now: () => this.clock.now(),
          limitBytes: deps.attachmentCache.limitBytes,
        })
      : null;
    const parts = buildSyncParts({ ...deps, clock: this.clock, emit });
    this.pullStore = parts.pullStore;
    this.workerStore = parts.workerStore;
    this.puller = parts.puller;
    this.pusher = parts.pusher;
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
    this.activityStop.abort();
    this.activityStop = new AbortController();
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
    this.stopWatchingHolds();
    await this.scheduler.stop();
    await this.filling;
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
    if (taskId !== null) this.recordOpening(taskId);
    this.puller.setOpenTask(taskId);
    this.scheduler.openTask(taskId);
  }

  /**
   * Remembers in the mirror that the person opened a task (online or not), so
   * the hot tier keeps its comments fresh for 30 days (sync/pull/comment-watch.ts).
   * A hint, not a person's edit: a write that cannot get the lock is let go.
   */
  private recordOpening(taskId: string): void {
    if (isTemporaryId(taskId)) return;
    const now = this.clock.now();
    const { mirror } = this.deps;
    writeWhenFree(mirror, () =>
      mirror.openings.record(taskId, { at: new Date(now).toISOString(), forgetBefore: openingsSince(now) }),
    ).catch(() => undefined);
  }

  /**
   * The editor shows this task: its comments and history are fetched now, in
   * the person's lane, through the pull store like every pull (so they show
   * offline next time). Resolves true once they landed in the mirror; false
   * when they were not asked for (the engine is stopped, offline or signed
   * out; the task is not on the server yet) or could not be had (the cached
   * ones stay). Never rejects. The opening is recorded either way (comment watch).
   */
  refreshTaskActivity(taskId: string): Promise<boolean> {
    this.recordOpening(taskId);
    const { running, connectivity } = this.scheduler.state();
    if (!running || connectivity === 'offline' || connectivity === 'signed-out' || isTemporaryId(taskId)) {
      return Promise.resolve(false);
    }
    const already = this.activity.get(taskId);
    if (already) return already;
    const fetched = this.puller
      .refreshActivity(taskId, { signal: this.activityStop.signal })
      .then(
        () => true,
        () => false,
      )
      .finally(() => this.activity.delete(taskId));
    this.activity.set(taskId, fetched);
    return fetched;
  }

  /**
   * One page of a saved view's rows as the service answers them (a view whose
   * filters this version does not know is answered by the service only); null
   * when they cannot be asked for now (stopped, offline, signed out) or the
   * service did not give them. Never rejects.
   */
  async serviceViewRows(
    viewId: string,
    page: { after: string | null; limit: number },
  ): Promise<{ items: Task[]; next: string | null } | null> {
    const { running, connectivity } = this.scheduler.state();
    if (!running || connectivity === 'offline' || connectivity === 'signed-out' || isTemporaryId(viewId))
      return null;
    try {
      const answer = await this.deps.api.listPage(
        viewOperations.rows,
        { viewId },
        { cursor: page.after, limit: page.limit },
      );
      return answer.status === 200
        ? { items: answer.body.data, next: answer.body.next_cursor ?? null }
        : null;
    } catch {
      return null;
    }
  }

  /**
   * An attachment's content brought into the account's private files (kept
   * already, or downloaded now, resumed and checked against its sha256);
   * false when it cannot be asked for now (stopped, offline, signed out).
   */
  async attachmentContent(attachmentId: string, sha256: string): Promise<boolean> {
    const files = AttachmentFiles.beside(this.deps.mirror.file);
    if (files.has(sha256)) return true;
    const { running, connectivity } = this.scheduler.state();
    if (
      !running ||
      connectivity === 'offline' ||
      connectivity === 'signed-out' ||
      isTemporaryId(attachmentId)
    )
      return false;
    await downloadAttachment(this.deps.api, files, { attachmentId, sha256 });
    return true;
  }

  /** Resolves once the attachments' cache fill under way (if any) has ended; for a caller that must see it done. */
  async attachmentCacheIdle(): Promise<void> {
    await this.filling;
  }

  /** Fills the attachments' cache behind a sync, one fill at a time; a failure waits for the next sync. */
  private fillCacheBehind(signal: AbortSignal | undefined): void {
    if (this.cache === null || this.filling !== null) return;
    this.filling = this.cache
      .fill(signal)
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.filling = null;
      });
  }

  /** The operating system reports a network change: if sync is offline, it checks at once. */
  networkChanged(): void {
    this.scheduler.networkChanged();
  }

  /** The computer woke from sleep: sync catches up at once (SyncScheduler.woke). */
  woke(): void {
    this.scheduler.woke();
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
      this.fillCacheBehind(signal);
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

  /**
   * `GET /v1/health`: any answer from the service means it is reachable, one
   * that breaks the contract too (taken for no answer, it kept the engine
   * offline for as long as the service answered so). The scheduler's, not
   * the person's: in the background lane, so that it does not count them at work.
   */
  private async probe(signal: AbortSignal): Promise<boolean> {
    try {
      await this.deps.api.read(healthOperation, {}, { signal, lane: 'background' });
      return true;
    } catch (error) {
      return error instanceof ApiError && (error.kind === 'problem' || error.kind === 'invalid-response');
    }
  }

  /** A conflict or refusal of the person's edit is kept in their inbox before anyone hears of it. */
  private keepInInbox(event: SyncEvent): void {
    try {
      const entry = inboxEntryOfPush(event, this.deps.mirror, this.deps.me.username);
      if (entry !== null) this.deps.mirror.feed.add([entry]);
    } catch {
      // The inbox is a record, not the sync: a failed write (a busy file) leaves the event as it is.
    }
  }

  private emit(event: SyncEvent): void {
    this.keepInInbox(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not stop the sync; the app logs its own failures.
      }
    }
  }
}
