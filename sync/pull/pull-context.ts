// What a resource module gets to pull with: the API client, the mirror (as a
// PullStore), who is signed in and into which organization, how many pages to
// revalidate at once, and where progress goes.
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import type { ApiClient } from '../api/api-client';
import type { RequestLane } from '../api/rate-governor';
import type { SyncIdentity } from '../events/sync-parts';
import type { PulledCollection, ResourceChange } from '../events/sync-events';
import type { WalkOptions, WalkProgress } from './walk-types';
import type { PullStore } from './pull-store';
import type { TaskChainPolicy } from './pull-run-policy';

export interface PullContext {
  api: ApiClient;
  store: PullStore;
  me: SyncIdentity;
  /** The organization the token is for (from `/v1/me`, else the only organization listed). */
  orgId: string;
  lane: RequestLane;
  signal: AbortSignal | undefined;
  /** False during the first full sync: pages report no change list. */
  announce: boolean;
  /** Pages revalidated at once. */
  concurrency: number;
  onProgress(collection: PulledCollection | 'task_comments', scope: string, progress: WalkProgress): void;
  /** Where a resource read whole and skipped is said (the sync log): its answer broke the contract. */
  onResourceSkipped(skip: { collection: string; scope: string; error: unknown }): void;
  /** Values kept in memory between pulls of this engine (single-read ETags). */
  memo: Map<string, unknown>;
  /** How the whole task list is split into chains walked at once. */
  taskChains: TaskChainPolicy;
  /** The current time (ms): "today" for the open end of the task list's last chain. */
  now(): number;
  /** Passed to every walk of the run: its deadline, the gate a restarted walk goes alone through, cursor ages. */
  walkRules: Pick<
    WalkOptions,
    'time' | 'gate' | 'cursorAges' | 'restartBaseMs' | 'restartMaxMs' | 'onItemSkipped'
  >;
}

/**
 * One list of a resource that succeeds or fails on its own (a team's sprints,
 * or the resource's single list): retried on its own, and named when it fails.
 */
export interface PullUnit {
  /** '' for a collection listed whole; the team id for a team's sprints. */
  readonly scope: string;
  pull(): Promise<ResourcePullResult>;
}

export interface ResourcePullResult {
  changes: ResourceChange[];
  pulled: number;
  notModified: number;
  restarts: number;
  /** Every list of the resource reached its last page in this pull. */
  complete: boolean;
  /** Stopped edits of tasks this pull found gone, parked as conflicts: announced when it ends. */
  parked: ParkedEdit[];
}

/** One synced resource: every module has this shape and is registered in pulled-resources.ts. */
export interface PulledResource {
  readonly collection: PulledCollection;
  /** What must be pulled first (the organization id comes from `me`; sprints are listed per team). */
  readonly needs: readonly PulledCollection[];
  pull(ctx: PullContext): Promise<ResourcePullResult>;
  /** Its lists as separate units (default: one unit, scope '', that is `pull`). */
  units?(ctx: PullContext): Promise<PullUnit[]>;
}

export const emptyResult = (): ResourcePullResult => ({
  changes: [],
  pulled: 0,
  notModified: 0,
  restarts: 0,
  complete: true,
  parked: [],
});

export function addResult(into: ResourcePullResult, more: ResourcePullResult): ResourcePullResult {
  into.changes.push(...more.changes);
  into.pulled += more.pulled;
  into.notModified += more.notModified;
  into.restarts += more.restarts;
  into.complete &&= more.complete;
  into.parked.push(...more.parked);
  return into;
}
