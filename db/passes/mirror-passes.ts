// `mirror.passes`: the pull's passes over a list as the mirror records them
// (begin, resume, restart, the stored pages) and the pages that land in them
// (a 200, a 304's reuse, a pass's end), each one server-data transaction.
import type { CollectionName } from '../collections/collections';
import type { MirrorTransactions } from '../mirror-transactions';
import type { ChangeList, PageApplication, PageApplied, PageInput } from './page-apply';
import type { PageSummary, PassProgress, PassState, StoredPage, SyncPasses } from './sync-passes';

/**
 * Word-index leaf pages merged after a page of tasks, and after a complete
 * pass (every poll, a few ms of work at most; what edits added meanwhile).
 */
const PAGE_MERGE_PAGES = 64;
const PASS_MERGE_PAGES = 256;

/** The mirror's upkeep after the pull's writes (db/mirror.ts owns the indexes and their build). */
export interface PassUpkeep {
  /** A bounded, best-effort step of merging the word index's segments. */
  tidyWordIndex(pages: number): void;
  /** After a complete pass over the whole task list: build what a first load went without, or refresh statistics. */
  afterFullTaskPass(): void;
}

export class MirrorPasses {
  constructor(
    private readonly tx: MirrorTransactions,
    private readonly passes: SyncPasses,
    private readonly pages: PageApplication,
    private readonly upkeep: PassUpkeep,
  ) {}

  /** Starts a pass over a list, or returns the running one to resume. */
  begin(collection: CollectionName, scope = '', options: { partial?: boolean } = {}): PassState {
    return this.tx.write(() => {
      this.pages.beginTaskPass(collection, scope, options.partial ?? false);
      this.passes.begin(collection, scope, options.partial ?? false, this.tx.now());
      return this.passes.state(collection, scope) as PassState;
    }, 'server');
  }

  /** The pass and its pages as last recorded (null if the list was never pulled). */
  state(collection: CollectionName, scope = ''): PassState | null {
    return this.tx.read(() => this.passes.state(collection, scope));
  }

  /** The same, each page with how many ids it held instead of which: what a walk revalidates by. */
  walkState(collection: CollectionName, scope = ''): PassProgress<PageSummary> | null {
    return this.tx.read(() => this.passes.walkState(collection, scope));
  }

  /** The server refused a cursor: a fresh pass from the first page. */
  restart(collection: CollectionName, scope = '', options: { partial?: boolean } = {}): PassState {
    return this.tx.write(() => {
      this.passes.restart(collection, scope, options.partial ?? false, this.tx.now());
      return this.passes.state(collection, scope) as PassState;
    }, 'server');
  }

  storedPage(collection: CollectionName, scope: string, pageIndex: number): StoredPage | null {
    return this.tx.read(() => this.passes.page(collection, scope, pageIndex));
  }

  /**
   * Stores one page answered 200, with its bookkeeping, in one transaction,
   * and returns what changed (db/passes/page-apply.ts). Starts a pass if none is running.
   */
  applyPage(input: PageInput): PageApplied {
    const applied = this.tx.write(() => this.pages.applyPage(input), 'server');
    if (input.collection === 'tasks') this.upkeep.tidyWordIndex(PAGE_MERGE_PAGES);
    return applied;
  }

  /** A page answered 304: its stored ids count as returned in this pass. Returns the stored page (its next_cursor). */
  reusePage(collection: CollectionName, scope: string, pageIndex: number): StoredPage {
    return this.tx.write(() => this.pages.reusePage(collection, scope, pageIndex), 'server');
  }

  /**
   * Ends a pass whose last page (`lastPageIndex`, whose next_cursor was null)
   * was applied, and, unless the pass was partial, removes what it did not
   * return. Refuses (IncompletePassError) when a page of the chain was not
   * fetched in this pass: only a complete pass may remove anything.
   */
  complete(collection: CollectionName, scope: string, lastPageIndex: number): ChangeList {
    const changes = this.tx.write(() => this.pages.completePass(collection, scope, lastPageIndex), 'server');
    if (collection === 'tasks' && scope === '') this.upkeep.afterFullTaskPass();
    if (collection === 'tasks') this.upkeep.tidyWordIndex(PASS_MERGE_PAGES);
    return changes;
  }
}
