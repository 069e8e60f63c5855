// Sync bookkeeping per collection and scope: the current (or last) pass over a
// list and the pages it fetched (cursor sent, ETag, next_cursor received, the
// ids each held), so that a 304 can reuse a page, an interrupted pass resumes
// where it stopped, and only a complete pass removes what it did not return.
// A list may also be walked as several chains (disjoint filtered listings, each
// its own scope named by chainScopePrefix): the list's own pass then has no
// pages, and completing it removes what none of its chains' pages holds.
import type { Database, Statement } from 'better-sqlite3';
import type { SyncPageRow, SyncPassRow } from '../schema';

export interface StoredPage {
  pageIndex: number;
  passNo: number;
  cursorSent: string | null;
  /** Send as If-None-Match; null when the page must be fetched again (e.g. it held a malformed row). */
  etag: string | null;
  nextCursor: string | null;
  ids: string[];
  fetchedAt: string;
}

/** A page's place in its pass, without the ids it held. */
export interface PageMark {
  pageIndex: number;
  passNo: number;
  nextCursor: string | null;
}

/** A page as a walk revalidates it (walkState()): StoredPage with how many ids it held, not which. */
export type PageSummary = Omit<StoredPage, 'ids'> & { count: number };

/** A pass and its pages as state() gives them, or only their marks (progress()). */
export interface PassProgress<Page extends PageMark = PageMark> {
  collection: string;
  scope: string;
  passNo: number;
  state: 'running' | 'complete';
  partial: boolean;
  startedAt: string;
  completedAt: string | null;
  /** Some pass over this list completed, this one or an earlier one: the mirror has held the whole list. */
  completedOnce: boolean;
  /** Where a running pass goes on: the first page not yet fetched in it, and the cursor to send for it. */
  resume: { pageIndex: number; cursor: string | null };
  /** The pages fetched so far end with a null next_cursor: the pass can be completed. */
  chainEnded: boolean;
  /** Pages of the last pass (their ETags and cursors allow concurrent revalidation). */
  pages: Page[];
  /** The scopes of this list's chains (see chainScopePrefix), in order of name. */
  chains: string[];
}

export type PassState = PassProgress<StoredPage>;

/**
 * Scopes of the chains a list (collection and scope) is walked as begin with
 * this: `~` for the whole task list (scope ''), which no other scope does.
 */
export function chainScopePrefix(scope: string): string {
  return `${scope}~`;
}

type MarkRow = Pick<SyncPageRow, 'page_index' | 'pass_no' | 'next_cursor'>;
type PlaceRow = Omit<SyncPageRow, 'item_ids' | 'collection' | 'scope'>;

/** A page's record but for what it held: what StoredPage and PageSummary share. */
function placeOf(row: PlaceRow): Omit<StoredPage, 'ids'> {
  return {
    pageIndex: row.page_index,
    passNo: row.pass_no,
    cursorSent: row.cursor_sent,
    etag: row.etag,
    nextCursor: row.next_cursor,
    fetchedAt: row.fetched_at,
  };
}

function pageOf(row: SyncPageRow): StoredPage {
  return { ...placeOf(row), ids: JSON.parse(row.item_ids) as string[] };
}

function summaryOf(row: PlaceRow & { item_count: number }): PageSummary {
  return { ...placeOf(row), count: row.item_count };
}

function markOf(row: MarkRow): PageMark {
  return { pageIndex: row.page_index, passNo: row.pass_no, nextCursor: row.next_cursor };
}

/**
 * True until the list's passes ever completed one: a first sync stays the first
 * (announcing nothing) across restarts and interruptions until it completes.
 */
export function isFirstPass(pass: { completedOnce: boolean } | null): boolean {
  return pass === null || !pass.completedOnce;
}

export class SyncPasses {
  private readonly selectPass: Statement<[string, string], SyncPassRow>;
  private readonly upsertPass: Statement<[string, string, number, number, string]>;
  private readonly selectPages: Statement<[string, string], SyncPageRow>;
  private readonly selectMarks: Statement<[string, string], MarkRow>;
  private readonly selectSummaries: Statement<[string, string], PlaceRow & { item_count: number }>;
  private readonly selectPage: Statement<[string, string, number], SyncPageRow>;
  private readonly upsertPage: Statement<unknown[]>;
  private readonly touch: Statement<[number, string, string, string, number]>;
  private readonly dropAfter: Statement<[string, string, number]>;
  private readonly finish: Statement<[string, string, string]>;
  private readonly selectChains: Statement<[string, string, string], { scope: string }>;
  private readonly makePartial: Statement<[string, string]>;

  constructor(db: Database) {
    this.selectPass = db.prepare('SELECT * FROM sync_passes WHERE collection = ? AND scope = ?');
    this.upsertPass = db.prepare(
      `INSERT INTO sync_passes (collection, scope, pass_no, state, partial, started_at, completed_at)
       VALUES (?, ?, ?, 'running', ?, ?, NULL)
       ON CONFLICT (collection, scope) DO UPDATE SET pass_no = excluded.pass_no, state = 'running',
         partial = excluded.partial, started_at = excluded.started_at, completed_at = NULL`,
    );
    this.selectPages = db.prepare(
      'SELECT * FROM sync_pages WHERE collection = ? AND scope = ? ORDER BY page_index',
    );
    this.selectMarks = db.prepare(
      'SELECT page_index, pass_no, next_cursor FROM sync_pages WHERE collection = ? AND scope = ? ORDER BY page_index',
    );
    this.selectSummaries = db.prepare(
      `SELECT page_index, pass_no, cursor_sent, etag, next_cursor, fetched_at, json_array_length(item_ids) AS item_count
       FROM sync_pages WHERE collection = ? AND scope = ? ORDER BY page_index`,
    );
    this.selectPage = db.prepare(
      'SELECT * FROM sync_pages WHERE collection = ? AND scope = ? AND page_index = ?',
    );
    this.upsertPage = db.prepare(
      `INSERT INTO sync_pages (collection, scope, page_index, pass_no, cursor_sent, etag, next_cursor, item_ids, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (collection, scope, page_index) DO UPDATE SET pass_no = excluded.pass_no,
         cursor_sent = excluded.cursor_sent, etag = excluded.etag, next_cursor = excluded.next_cursor,
         item_ids = excluded.item_ids, fetched_at = excluded.fetched_at`,
    );
    this.touch = db.prepare(
      'UPDATE sync_pages SET pass_no = ?, fetched_at = ? WHERE collection = ? AND scope = ? AND page_index = ?',
    );
    this.dropAfter = db.prepare(
      'DELETE FROM sync_pages WHERE collection = ? AND scope = ? AND page_index > ?',
    );
    this.finish = db.prepare(
      "UPDATE sync_passes SET state = 'complete', completed_at = ?, completed_once = 1 WHERE collection = ? AND scope = ?",
    );
    this.makePartial = db.prepare(
      "UPDATE sync_passes SET partial = 1 WHERE collection = ? AND scope = ? AND state = 'running'",
    );
    // substr, not LIKE: a scope may hold `%` or `_`.
    this.selectChains = db.prepare(
      'SELECT scope FROM sync_passes WHERE collection = ? AND substr(scope, 1, length(?)) = ? ORDER BY scope',
    );
  }

  /** The scopes of the chains of a list (collection and scope) that have a pass. */
  chains(collection: string, scope: string): string[] {
    const prefix = chainScopePrefix(scope);
    return this.selectChains.all(collection, prefix, prefix).map((row) => row.scope);
  }

  row(collection: string, scope: string): SyncPassRow | undefined {
    return this.selectPass.get(collection, scope);
  }

  state(collection: string, scope: string): PassState | null {
    const pass = this.row(collection, scope);
    return pass ? this.progressOf(pass, this.selectPages.all(collection, scope).map(pageOf)) : null;
  }

  /**
   * The pass as state() tells it, its pages without the ids they held: what
   * ending a pass checks, without parsing every id the list's chains hold (a
   * million at the end of a first sync of a million tasks).
   */
  progress(collection: string, scope: string): PassProgress | null {
    const pass = this.row(collection, scope);
    return pass ? this.progressOf(pass, this.selectMarks.all(collection, scope).map(markOf)) : null;
  }

  /**
   * The pass as state() tells it, each page with the number of ids it held:
   * what a walk revalidates by. A re-sync of a million tasks parsed and
   * handed the pull's thread every id the chains' pages held (a million) to
   * count them.
   */
  walkState(collection: string, scope: string): PassProgress<PageSummary> | null {
    const pass = this.row(collection, scope);
    return pass ? this.progressOf(pass, this.selectSummaries.all(collection, scope).map(summaryOf)) : null;
  }

  private progressOf<Page extends PageMark>(pass: SyncPassRow, pages: Page[]): PassProgress<Page> {
    const { collection, scope } = pass;
    let k = 0;
    while (k < pages.length && pages[k]?.pageIndex === k && pages[k]?.passNo === pass.pass_no) k++;
    const previous = k > 0 ? pages[k - 1] : undefined;
    return {
      collection,
      scope,
      passNo: pass.pass_no,
      state: pass.state as PassState['state'],
      partial: pass.partial === 1,
      startedAt: pass.started_at,
      completedAt: pass.completed_at,
      completedOnce: pass.completed_once === 1,
      resume: { pageIndex: k, cursor: previous?.nextCursor ?? null },
      chainEnded: previous !== undefined && previous.nextCursor === null,
      pages,
      chains: this.chains(collection, scope),
    };
  }

  /** Starts a pass, or returns the running one (an interrupted pass resumes). */
  begin(collection: string, scope: string, partial: boolean, at: string): SyncPassRow {
    const pass = this.row(collection, scope);
    if (pass && pass.state === 'running') return pass;
    this.upsertPass.run(collection, scope, (pass?.pass_no ?? 0) + 1, partial ? 1 : 0, at);
    return this.row(collection, scope) as SyncPassRow;
  }

  /** A new pass from the first page (the server refused a cursor): what the old one saw no longer counts. */
  restart(collection: string, scope: string, partial: boolean, at: string): SyncPassRow {
    const pass = this.row(collection, scope);
    this.upsertPass.run(collection, scope, (pass?.pass_no ?? 0) + 1, partial ? 1 : 0, at);
    return this.row(collection, scope) as SyncPassRow;
  }

  page(collection: string, scope: string, pageIndex: number): StoredPage | null {
    const row = this.selectPage.get(collection, scope, pageIndex);
    return row ? pageOf(row) : null;
  }

  pages(collection: string, scope: string): StoredPage[] {
    return this.selectPages.all(collection, scope).map(pageOf);
  }

  record(collection: string, scope: string, page: StoredPage): void {
    this.upsertPage.run(
      collection,
      scope,
      page.pageIndex,
      page.passNo,
      page.cursorSent,
      page.etag,
      page.nextCursor,
      JSON.stringify(page.ids),
      page.fetchedAt,
    );
  }

  reuse(collection: string, scope: string, pageIndex: number, passNo: number, at: string): void {
    this.touch.run(passNo, at, collection, scope, pageIndex);
  }

  /**
   * The running pass removes nothing when it completes (as a partial one):
   * it met a row whose id it could not read, whose previous copy it cannot
   * tell from a row gone from the list. A chain's whole list's pass (the one
   * that removes, over every chain) is made partial with it. The next pass
   * starts as it is asked to.
   */
  forgoRemovals(collection: string, scope: string): void {
    this.makePartial.run(collection, scope);
    const list = chainScopePrefix('');
    if (scope.startsWith(list)) this.makePartial.run(collection, '');
  }

  complete(collection: string, scope: string, lastPageIndex: number, at: string): void {
    this.dropAfter.run(collection, scope, lastPageIndex);
    this.finish.run(at, collection, scope);
  }
}
