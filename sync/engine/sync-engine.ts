// The sync engine's one entry point for the app and the headless command:
// pull, push and a full sync on demand, and a scheduler (start/stop) that
// polls in tiers within the rate budget. Pull and push live in their own
// folders; this class wires them and turns what happens into SyncEvents.
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import type {
  PullSummary,
  PushSummary,
  SyncEvent,
  SyncEventListener,
  SyncReason,
  SyncSummary,
} from './sync-events';
import { errorInfo } from './sync-error-info';

/** The signed-in person: pull needs the username to tell which tasks are "mine". */
export interface SyncIdentity {
  username: string;
  user_id: string;
}

/** What pushing looks like from here; push-engine's Pusher implements it. */
export interface PushRunner {
  pushAll(options?: { signal?: AbortSignal }): Promise<PushSummary>;
  /** Conflicts open now (for the summary); absent: counted as the push reported them. */
  openConflicts?(): number;
}

/** Which part of the data a pull covers (see sync/schedule for when each runs). */
export type PullTier = 'full' | 'hot' | 'new';

/** What pulling looks like from here; sync/pull implements it. */
export interface PullRunner {
  pull(options: { tier: PullTier; signal?: AbortSignal | undefined }): Promise<PullSummary>;
  /** Revalidates one task now, in the person's lane (opening a task). */
  refreshTask?(taskId: string, options?: { signal?: AbortSignal }): Promise<PullSummary>;
}

export interface SyncEngineDeps<Mirror = unknown> {
  mirror: Mirror;
  api: ApiClient;
  me: SyncIdentity;
  clock?: ApiClock;
  onEvent?: SyncEventListener;
  /** Builds the puller; the default is sync/pull's. */
  createPuller?: (deps: PullerDeps<Mirror>) => PullRunner;
  /** Builds the pusher; push-engine's Pusher wires itself in here. */
  createPusher?: (deps: PusherDeps<Mirror>) => PushRunner;
}

export interface PullerDeps<Mirror = unknown> {
  mirror: Mirror;
  api: ApiClient;
  me: SyncIdentity;
  clock: ApiClock;
  emit: SyncEventListener;
}

export interface PusherDeps<Mirror = unknown> {
  mirror: Mirror;
  api: ApiClient;
  clock: ApiClock;
  onEvent: SyncEventListener;
}

const NO_PUSH: PushRunner = {
  pushAll: () => Promise.resolve({ pushed: 0, conflicts: 0, failed: 0, requests: 0 }),
};

export class SyncEngine<Mirror = unknown> {
  readonly clock: ApiClock;
  private readonly listeners = new Set<SyncEventListener>();
  private readonly puller: PullRunner;
  private readonly pusher: PushRunner;
  /** One sync at a time: a second request joins the one running. */
  private running: Promise<SyncSummary> | null = null;

  constructor(private readonly deps: SyncEngineDeps<Mirror>) {
    this.clock = deps.clock ?? systemApiClock;
    if (deps.onEvent) this.listeners.add(deps.onEvent);
    const emit: SyncEventListener = (event) => this.emit(event);
    if (!deps.createPuller) throw new TypeError('SyncEngine needs createPuller until sync/pull lands');
    this.puller = deps.createPuller({
      mirror: deps.mirror,
      api: deps.api,
      me: deps.me,
      clock: this.clock,
      emit,
    });
    this.pusher =
      deps.createPusher?.({ mirror: deps.mirror, api: deps.api, clock: this.clock, onEvent: emit }) ??
      NO_PUSH;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: SyncEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One full pull pass over every collection, in dependency order. */
  pullOnce(options: { signal?: AbortSignal; tier?: PullTier } = {}): Promise<PullSummary> {
    return this.puller.pull({ tier: options.tier ?? 'full', signal: options.signal });
  }

  /** Drains the outbox (push-engine's Pusher). */
  pushOnce(options: { signal?: AbortSignal } = {}): Promise<PushSummary> {
    return this.pusher.pushAll(options);
  }

  /** Push, pull, push: local edits reach the server before the pull and what the pull rebased goes out after. */
  syncOnce(
    options: { signal?: AbortSignal; reason?: SyncReason; tier?: PullTier } = {},
  ): Promise<SyncSummary> {
    if (this.running) return this.running;
    const reason = options.reason ?? 'sync-now';
    const run = this.runSync(reason, options.tier ?? 'full', options.signal).finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async runSync(
    reason: SyncReason,
    tier: PullTier,
    signal: AbortSignal | undefined,
  ): Promise<SyncSummary> {
    this.emit({ type: 'sync-started', reason, tier });
    try {
      const signalOption = signal ? { signal } : {};
      const first = await this.pusher.pushAll(signalOption);
      const pulled = await this.puller.pull({ tier, signal });
      const second = await this.pusher.pushAll(signalOption);
      const summary: SyncSummary = {
        pulled: pulled.pulled,
        pushed: first.pushed + second.pushed,
        conflicts: this.pusher.openConflicts?.() ?? first.conflicts + second.conflicts,
        requests: first.requests + pulled.requests + second.requests,
        not_modified: pulled.notModified,
        failed: first.failed + second.failed,
        changes: pulled.changes.length,
        notifications: pulled.notifications.length,
      };
      this.emit({ type: 'sync-finished', reason, summary });
      return summary;
    } catch (error) {
      this.emit({ type: 'sync-failed', reason, error: errorInfo(error) });
      throw error;
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
