// The words the sync engine and the parts it drives share: who syncs, which
// pull runs, and what a puller and a pusher look like from the engine. A leaf
// (types only): pull, push and the scheduler import it, never the engine.
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../api/api-client';
import type { ApiClock } from '../api/clock';
import type { PullSummary, PushSummary, SyncEventListener } from './sync-events';

/** The signed-in person: pull needs the username to tell which tasks are "mine". */
export interface SyncIdentity {
  username: string;
  user_id: string;
}

/** Which part of the data a pull covers (see sync/schedule for when each runs). */
export type PullTier = 'full' | 'hot' | 'new';

/** Which full pull: every collection, or only the units the last ones failed (and what they need). */
export type FullPullScope = 'all' | 'failed';

/** What pulling looks like from the engine; sync/pull's Puller implements it. */
export interface PullRunner {
  /** `scope` (full tier): `failed` pulls only what the last full pulls could not complete. */
  pull(options: {
    tier: PullTier;
    signal?: AbortSignal | undefined;
    scope?: FullPullScope;
  }): Promise<PullSummary>;
  /** Revalidates one task (and its comments) now, in the person's lane. */
  refreshTask(taskId: string, options?: { signal?: AbortSignal }): Promise<PullSummary>;
  /** Fetches a task's comments and history now, in the person's lane, announcing nothing. */
  refreshActivity(taskId: string, options?: { signal?: AbortSignal }): Promise<void>;
  /** The task on screen joins the hot set. */
  setOpenTask(taskId: string | null): void;
}

/** What pushing looks like from the engine; push-engine's Pusher implements it. */
export interface PushRunner {
  pushAll(options?: { signal?: AbortSignal }): Promise<PushSummary>;
  /** Conflicts open now (for the summary); absent: counted as the push reported them. */
  openConflicts?(): number | Promise<number>;
}

/** What a pusher is built from. */
export interface PusherDeps<M = Mirror> {
  mirror: M;
  api: ApiClient;
  clock: ApiClock;
  onEvent: SyncEventListener;
}
