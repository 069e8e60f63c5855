// What a list walk (page-walker.ts) is given and gives back: the list source
// it fetches pages from and their answers, its options, its progress and its
// result. Apart from the walk so that the sources, the pull context and the
// chain walk (chain-walk.ts) name them without importing the walk itself.
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import type { ResourceChange } from '../events/sync-events';
import type { ApplyBacklog } from './apply-backlog';
import type { CursorAges } from './cursor-ages';
import type { RunTime } from './pull-run-policy';
import type { SoloGate } from './solo-gate';
import type { PullStore, StoredCollection } from './pull-store';

export type PageAnswer =
  | {
      status: 200;
      etag: string | null;
      items: Record<string, unknown>[];
      nextCursor: string | null;
      /** The service's count of the whole list, when it says. */
      total: number | null;
      /** The items were not validated yet: the store checks them against this operation. */
      uncheckedFrom?: string;
      /** The store read the body itself (PullStore.readPage) and keeps its `count` items; `items` is empty. */
      read?: { readAs: number; count: number };
    }
  | { status: 304 };

/** One list on the service: how to fetch a page of it. */
export interface ListSource {
  /**
   * `onNextCursor`, when given, may be told the next page's cursor as soon as
   * the answer shows it, before the page is read and answered (a hint: the
   * answer's own `nextCursor` is what the walk follows).
   */
  fetch(
    cursor: string | null,
    ifNoneMatch: string | null,
    signal: AbortSignal,
    onNextCursor?: (cursor: string) => void,
  ): Promise<PageAnswer>;
}

export interface WalkProgress {
  pagesDone: number;
  itemsDone: number;
  notModified: number;
  estimatedTotal: number | null;
}

export interface WalkOptions {
  collection: StoredCollection;
  scope: string;
  source: ListSource;
  store: PullStore;
  /** A filtered listing: recorded, but never removes anything. */
  partial: boolean;
  /** Pages revalidated at once (1: one after another). */
  concurrency: number;
  signal?: AbortSignal | undefined;
  onProgress?: (progress: WalkProgress) => void;
  /** False: build no change list for 200 pages (the first full sync). Default true. */
  announce?: boolean;
  /** The run's clock and deadline: restarts after refused cursors go on until then. Default: 5 minutes from now. */
  time?: RunTime;
  /** Wait before the first restart but one (the first is at once); doubles per restart. */
  restartBaseMs?: number;
  restartMaxMs?: number;
  /** Shared by the walks of one run: a restarted walk goes alone through it. */
  gate?: SoloGate;
  /** What the service showed about cursor lifetimes (shared by the walks of an engine). */
  cursorAges?: CursorAges;
  /** Shared by walks going at once (the task list's chains): bounds their pages waiting for the store together. */
  backlog?: ApplyBacklog;
  /** Told of each item a page left out (it failed the schema, or the mirror refused it): the sync log names it. */
  onItemSkipped?: (skip: ItemSkipped) => void;
}

/** An item left out of an applied page: it keeps its previous copy, and its page is fetched whole next time. */
export interface ItemSkipped {
  collection: StoredCollection;
  scope: string;
  id: string | null;
  field: string;
  reason: string;
}

export interface WalkResult {
  changes: ResourceChange[];
  /** Resources received in 200 pages. */
  pulled: number;
  notModified: number;
  pages: number;
  restarts: number;
  /** Ids held by the pages of this pass (the list's size when complete). */
  items: number;
  /** Rows the mirror refused (the rest of their pages applied; those pages are fetched whole next time). */
  rejected: number;
  /** Edits the completed pass parked as conflicts (their tasks were gone from it). */
  parked: ParkedEdit[];
}
