// What pulling needs of the mirror, and nothing more: pass bookkeeping, one
// page applied per transaction with its record, a 304 page reused, a pass
// completed (the only place deletions happen), single task reads. Promises,
// so that the writes could be served by a worker without changing pull.
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import type { RememberedIdentity } from '../../db/mirror';
import type { PageSummary } from '../../db/passes/sync-passes';
import type { CommentWatchQuery } from '../../db/tasks/task-openings';
import type { ChangedCollection, ResourceChange, SyncNotification } from '../events/sync-events';

/** A page as the mirror records it (db/passes/sync-passes.ts), with how many items it held. */
export type StoredPageRecord = Omit<PageSummary, 'fetchedAt'> & {
  /** When the page was last received or confirmed (ISO 8601): how old its next_cursor may be. */
  fetchedAt?: string;
};

export interface PassRecord {
  passNo: number;
  state: 'running' | 'complete';
  /** Some pass over this list completed (a first sync that restarted is still the first until one does). */
  completedOnce: boolean;
  /** Where a running pass goes on: the first page not fetched in it and the cursor to send. */
  resume: { pageIndex: number; cursor: string | null };
  /** Pages as last recorded (this pass's and older ones): their cursors and ETags drive revalidation. */
  pages: StoredPageRecord[];
  /** The scopes of the chains the list is walked as (the task list: sync/pull/task-chains.ts). */
  chains: string[];
}

/** A page as the service sent it (200), ready to apply. */
export interface FetchedPage {
  pageIndex: number;
  cursorSent: string | null;
  etag: string | null;
  nextCursor: string | null;
  /** Raw resources, validated and kept whole (unknown fields included); empty when `readAs` is set. */
  items: readonly Record<string, unknown>[];
  /** The page's body was read by the store (PullStore.readPage): it applies the items it kept under this id. */
  readAs?: number;
  /**
   * False for the first full sync: nothing is announced, so the page's change
   * list is neither built nor sent back (100 000 "created" entries would only cost memory).
   */
  announce: boolean;
  /**
   * Set when the items are not validated yet (the API client checked only the
   * envelope): the store checks them against this list operation's schema
   * first, and leaves out (PageOutcome.rejected) those that fail.
   */
  uncheckedFrom?: string;
  /**
   * Items left out before the store got them, with where and why (they nest
   * too deep to be handed to the pull worker): rejected as those failing the
   * schema are. `item` keeps at least the item's id.
   */
  skipped?: readonly { item: unknown; field: string; reason: string }[];
}

/** Lists the mirror keeps pass bookkeeping for. */
export type StoredCollection = ChangedCollection;

export interface PageOutcome {
  changes: ResourceChange[];
  /**
   * Items left out, each keeping its previous copy: those that failed the list's
   * schema and rows the mirror refused (named by id when readable, and field);
   * the rest of the page was applied.
   */
  rejected: { id: string | null; field: string; reason: string }[];
}

/** What a completed pass or a 404 read removed, and the stopped edits of gone tasks it parked as conflicts. */
export interface RemovalOutcome {
  changes: ResourceChange[];
  /** Each parked once, by this call: the pull announces them as a push's conflict is announced. */
  parked: ParkedEdit[];
}

/** A page body the store has read (PullStore.readPage): what the walk needs of it. */
export interface ReadPage {
  /** Names the kept items in FetchedPage.readAs (or PullStore.dropPage). */
  readAs: number;
  nextCursor: string | null;
  total: number | null;
  count: number;
}

export interface PullStore {
  /** True when applyPage validates items itself (pages may then arrive with only their envelope checked). */
  readonly validatesItems: boolean;
  /**
   * Present when the store reads page bodies itself (the worker): it parses
   * the 200 body of list `operation` as received, checks its envelope (an
   * InvalidResponseError naming the operation otherwise), keeps the items
   * until applyPage names them and answers what the walk needs. The caller
   * hands `body` over (it is transferred, unusable here afterwards).
   */
  readPage?(operation: string, body: ArrayBuffer): Promise<ReadPage>;
  /** Forgets a read page that will not be applied (an unused revalidation, a failed walk). */
  dropPage?(readAs: number): void;
  /** Resolves when the store can take calls (a worker has opened the mirror). */
  ready(): Promise<void>;
  /** The pass of this list (running or last complete), or null before the first. */
  pass(collection: StoredCollection, scope: string): Promise<PassRecord | null>;
  /** Starts a pass, or continues the running one; `restart` always starts a new one from page 0. */
  beginPass(
    collection: StoredCollection,
    scope: string,
    options: { partial: boolean; restart: boolean },
  ): Promise<{ passNo: number }>;
  /** Upserts the page's resources and records the page, in one transaction. */
  applyPage(
    collection: StoredCollection,
    scope: string,
    partial: boolean,
    page: FetchedPage,
  ): Promise<PageOutcome>;
  /** A 304: the stored page `pageIndex` counts as returned by this pass. */
  reusePages(collection: StoredCollection, scope: string, pageIndexes: readonly number[]): Promise<void>;
  /**
   * The pass reached its last page: removes what it did not return (never for partial passes).
   * `lastPageIndex` -1: the pass is made of its chains, each complete; removes what none of their pages holds.
   */
  completePass(collection: StoredCollection, scope: string, lastPageIndex: number): Promise<RemovalOutcome>;
  /** A task read on its own (an opened task): its server copy, pending edits kept on top. */
  applyTask(task: Record<string, unknown>, etag: string | null): Promise<ResourceChange[]>;
  /** A single read found the task gone (404). */
  removeTask(taskId: string): Promise<RemovalOutcome>;
  /** The stored server copy and ETag of a task. */
  task(taskId: string): Promise<{ server: Record<string, unknown> | null; etag: string | null } | null>;
  /** Ids of the stored resources of a collection (e.g. team ids, for sprints). */
  ids(collection: Exclude<StoredCollection, 'tasks'>, scope?: string): Promise<string[]>;
  /** Stored resources of a collection, raw. */
  resources(
    collection: Exclude<StoredCollection, 'tasks'>,
    scope?: string,
  ): Promise<Record<string, unknown>[]>;
  /** The tasks whose comments a hot poll refreshes, those refreshed longest ago first (db/tasks/task-openings.ts). */
  commentWatchTaskIds(query: CommentWatchQuery): Promise<string[]>;
  /** These tasks' comments were just asked for (200, 304 or 404), at `at` (ISO 8601): the watch goes on to others. */
  commentsChecked(taskIds: readonly string[], at: string): Promise<void>;
  /** The UTC day of the newest task creation the mirror holds (for `filter[created_after]`). */
  newestTaskDay(): Promise<string | null>;
  /** Keeps notifications in the mirror's change feed (what the UI lists, seen or not). */
  addNotifications(forUser: string, notifications: readonly SyncNotification[]): Promise<void>;
  /** The `/v1/me` answer kept with the mirror, with its ETag (revalidated by the next process too). */
  rememberedIdentity(): Promise<RememberedIdentity | null>;
  rememberIdentity(identity: RememberedIdentity): Promise<void>;
  /** Who the mirror belongs to. */
  setAccount(account: { orgId: string; username: string }): Promise<void>;
}
