// Builds what a SyncEngine drives: where pulled pages are written (a worker
// thread, this thread or a given store), the puller over it, and the pusher.
// Kept apart from the engine so that the parts it builds never import it.
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../api/api-client';
import type { ApiClock } from '../api/clock';
import { MirrorPullStore } from '../pull/mirror-pull-store';
import { Puller, type PullerOptions } from '../pull/puller';
import type { PullRunPolicy } from '../pull/pull-run-policy';
import type { PullStore } from '../pull/pull-store';
import { WorkerPullStore, type WorkerPullStoreOptions } from '../pull/worker-pull-store';
import { createMirrorPusher } from '../push/mirror-push-store';
import type { SyncEventListener } from '../events/sync-events';
import type { PullRunner, PusherDeps, PushRunner, SyncIdentity } from '../events/sync-parts';

/** How the engine's parts are built (each has a default); the puller's own knobs are passed on as they are. */
export interface SyncPartsOptions extends Pick<PullerOptions, 'concurrency' | 'commentWatch' | 'taskChains'> {
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
   * the defaults (the .ts entry, bundled, and node_modules' addon) suit Node.
   */
  pullWorker?: WorkerPullStoreOptions;
  /** Where pull writes, instead of either of the above. */
  pullStore?: PullStore;
  /**
   * A full pull's time budget and backoff: how long refused cursors are
   * restarted and failed collections retried (defaults in sync/pull/pull-run-policy.ts).
   */
  pullRunPolicy?: Partial<PullRunPolicy>;
  /**
   * What the puller keeps in memory between pulls (single-read ETags), when
   * the caller read `/v1/me` with it first (readMeAhead in sync/pull/resources/me.ts):
   * the first full pull then takes that answer instead of asking again.
   */
  pullMemo?: Map<string, unknown>;
}

/** What the parts need besides their options: the account's mirror and client, and where events go. */
export interface SyncPartsDeps extends SyncPartsOptions {
  mirror: Mirror;
  api: ApiClient;
  me: SyncIdentity;
  clock: ApiClock;
  emit: SyncEventListener;
}

export interface SyncParts {
  pullStore: PullStore;
  /** The pull store when it is a worker the engine must end on close; else null. */
  workerStore: WorkerPullStore | null;
  puller: PullRunner;
  pusher: PushRunner;
}

export function buildSyncParts(deps: SyncPartsDeps): SyncParts {
  const { clock, emit } = deps;
  let pullStore: PullStore;
  let workerStore: WorkerPullStore | null = null;
  if (deps.pullStore) {
    pullStore = deps.pullStore;
  } else if (deps.pullInWorker ?? true) {
    const worker = (workerStore = new WorkerPullStore(deps.mirror.file, deps.pullWorker));
    pullStore = worker;
    // The app's connection never checkpoints; the worker's does, for it too (Mirror.keepLogShort).
    deps.mirror.checkpointsThrough(() => worker.checkpointLog());
  } else {
    pullStore = new MirrorPullStore(deps.mirror, () => clock.now());
  }
  const puller = new Puller({
    store: pullStore,
    api: deps.api,
    me: deps.me,
    emit,
    now: () => clock.now(),
    clock,
    ...(deps.pullRunPolicy !== undefined ? { runPolicy: deps.pullRunPolicy } : {}),
    ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
    ...(deps.commentWatch !== undefined ? { commentWatch: deps.commentWatch } : {}),
    ...(deps.taskChains !== undefined ? { taskChains: deps.taskChains } : {}),
    ...(deps.pullMemo !== undefined ? { memo: deps.pullMemo } : {}),
  });
  const pusherDeps: PusherDeps = { mirror: deps.mirror, api: deps.api, clock, onEvent: emit };
  const pusher = deps.createPusher ? deps.createPusher(pusherDeps) : createMirrorPusher(pusherDeps);
  return { pullStore, workerStore, puller, pusher };
}
