// Page application: how the server's answers land in the mirror's server
// copies (a page of a pass, a 304's reuse, a pass's end removing what it did
// not return, a single task read) and what each changed. Every method runs
// inside the mirror's write transaction (the mirror calls them from write()).
import type { Database, Statement } from 'better-sqlite3';
import {
  checkResource,
  type CollectionName,
  COLLECTIONS,
  type CollectionSpec,
  columnValues,
  type OtherCollection,
} from '../collections/collections';
import { deferSortIndexes } from '../tasks/deferred-indexes';
import { IdHints } from './id-hints';
import { IncompletePassError, MalformedRowError, NotInMirrorError } from '../mirror-errors';
import type { Outbox } from '../outbox/outbox';
import { type ParkedEdit, sameJson } from '../outbox/outbox-types';
import { chainScopePrefix, type StoredPage, type SyncPasses } from './sync-passes';
import { checkTask, type TaskObject } from '../tasks/task-columns';
import {
  type BodyServerJson,
  COPY_ROW_COLUMNS,
  type CopyRow,
  storedFormFromRow,
  storedTaskJson,
  taskObjectOf,
} from '../tasks/task-json';
import type { TaskOverlay } from '../tasks/task-overlay';
import type { TaskStore } from '../tasks/task-store';

export type Resource = Record<string, unknown>;

export interface CreatedResource {
  collection: CollectionName;
  id: string;
  after: Resource;
}

export interface UpdatedResource {
  collection: CollectionName;
  id: string;
  before: Resource;
  after: Resource;
  /** Only the fields whose value changed. */
  changes: Record<string, { before: unknown; after: unknown }>;
}

export interface DeletedResource {
  collection: CollectionName;
  id: string;
  before: Resource;
}

/** What a write from the server changed in the mirror's server copies (the feed for notifications). */
export interface ChangeList {
  created: CreatedResource[];
  updated: UpdatedResource[];
  deleted: DeletedResource[];
  /** Their stopped edits this write parked as deleted-remotely conflicts (each once): the pull announces them. */
  parkedEdits: ParkedEdit[];
}

export interface PageInput {
  collection: CollectionName;
  /** '' (default) for a collection listed whole; the team id for sprints; the task id for comments and history. */
  scope?: string;
  /**
   * A filtered listing (e.g. `filter[created_after]`, the hot set): its items
   * are stored, but it never counts toward removing what it did not return.
   */
  partial?: boolean;
  /** 0 for the first page of the pass. */
  pageIndex: number;
  cursorSent: string | null;
  /** The page's ETag (sent back as If-None-Match next time). */
  etag: string | null;
  nextCursor: string | null;
  /** The page's items, already validated by the sync engine; the mirror checks the fields it reads. */
  items: readonly unknown[];
  /** ETags of single items when known (a list page carries none). */
  itemEtags?: ReadonlyMap<string, string>;
  /**
   * Items of the page the sync engine could not read (they failed the list's
   * schema), with where and why: each is rejected as a malformed row is.
   */
  skipped?: readonly { item: unknown; field: string; reason: string }[];
}

/**
 * A malformed row is rejected alone and the rest of the page is applied: one
 * bad row must not stall the whole sync. The rejected row keeps its previous
 * copy (and is not removed by the pass), and the page is recorded without its
 * ETag so the next pass fetches it again rather than getting a 304. A row
 * whose id cannot be read could be any row: its pass removes nothing (it is
 * made partial), for it would remove that row's previous copy.
 */
export interface PageApplied {
  changes: ChangeList;
  rejected: MalformedRowError[];
  /** Items identical to the stored copy. */
  unchanged: number;
  passNo: number;
}

/** The item's id as its collection names it, when it is a non-empty string (as checkTask and checkResource read it). */
function idOf(collection: CollectionName, item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const idField = collection === 'tasks' ? 'task_id' : COLLECTIONS[collection].idField;
  const id = (item as Record<string, unknown>)[idField];
  return typeof id === 'string' && id.length > 0 ? id : null;
}

const emptyChanges = (): ChangeList => ({
  created: [],
  updated: [],
  deleted: [],
  parkedEdits: [],
});

function fieldChanges(
  before: Resource,
  after: Resource,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!sameJson(before[key], after[key]))
      changes[key] = { before: before[key] ?? null, after: after[key] ?? null };
  }
  return changes;
}

/** The scopes of the whole task list's chains (sync/pull/task-chains.ts). */
const TASK_CHAIN_PREFIX = chainScopePrefix('');

/**
 * How a page's tasks go in during a first load; `listApart`: a partial list's other than the chains (a full
 * pass brings each task once).
 */
interface TaskLoad {
  insertFirst: boolean;
  fromChain: boolean;
  listApart: boolean;
}

interface CollectionStatements {
  select: Statement<[string], { raw_json: string; seen_pass: number }>;
  upsert: Statement<unknown[]>;
  seen: Statement<[number, string]>;
  seenMany: Statement<[number, string]>;
  removeUnseen: Statement<[string, number], { id: string; raw_json: string }>;
}

/** Applies the server's answers; the caller holds the write transaction. */
export class PageApplication {
  private readonly collectionStatements = new Map<OtherCollection, CollectionStatements>();
  /**
   * Tasks a first load inserted from a list apart from the chains (the
   * person's own, walked beside them): a chain's page bringing one again
   * compares it instead of building a row for an insert that finds its id
   * taken. A hint (a stale or false one costs that attempt, or a lookup, only), emptied when the load ends.
   */
  private readonly insertedApart = new IdHints();

  constructor(
    private readonly db: Database,
    private readonly store: TaskStore,
    private readonly overlay: TaskOverlay,
    private readonly outbox: Outbox,
    private readonly passes: SyncPasses,
    private readonly now: () => string,
  ) {}

  /** A first full pass into an empty mirror loads without the sort indexes (see deferred-indexes.ts). */
  beginTaskPass(collection: CollectionName, scope: string, partial: boolean): void {
    const running = this.passes.row(collection, scope)?.state === 'running';
    if (collection === 'tasks' && scope === '' && !partial && !running) deferSortIndexes(this.db);
  }

  /** Stores one page answered 200 with its bookkeeping; starts a pass if none is running. */
  applyPage(input: PageInput): PageApplied {
    const scope = input.scope ?? '';
    const partial = input.partial ?? false;
    this.beginTaskPass(input.collection, scope, partial);
    const pass = this.passes.begin(input.collection, scope, partial, this.now());
    // A first load under way (its build deferred, the full pass running): most ids are new, insert before looking up.
    const loading =
      input.collection === 'tasks' && this.store.wordsDeferredAbove !== null ? this.runningTaskPass() : null;
    if (loading === null) this.insertedApart.clear();
    const fromChain = scope.startsWith(TASK_CHAIN_PREFIX);
    // A first load's chain page is its full pass's own: what it brings is seen in it, so the pass's end looks up
    // no row in the chains' pages (a restarted chain's old task stays till the next full pass, as a read's does).
    const seenPass = partial ? (fromChain ? loading : null) : pass.pass_no;
    const result: PageApplied = {
      changes: emptyChanges(),
      rejected: [],
      unchanged: 0,
      passNo: pass.pass_no,
    };
    const ids: string[] = [];
    const load: TaskLoad = { insertFirst: loading !== null, fromChain, listApart: partial && !fromChain };
    // Writing server copies queues nothing: the waiting deletes are read once for the page.
    this.overlay.withWaitingDeletesRead(() => {
      for (const item of input.items) {
        const id =
          input.collection === 'tasks'
            ? this.applyTaskItem(item, seenPass, input.itemEtags, result, load)
            : this.applyResourceItem(
                COLLECTIONS[input.collection],
                scope,
                item,
                seenPass,
                input.itemEtags,
                result,
              );
        if (id !== null) ids.push(id);
      }
    });
    for (const { item, field, reason } of input.skipped ?? []) {
      const id = this.keepRejected(input.collection, idOf(input.collection, item), seenPass);
      result.rejected.push(new MalformedRowError(input.collection, id, field, reason));
      if (id !== null) ids.push(id);
    }
    if (result.rejected.some((bad) => bad.id === null)) this.passes.forgoRemovals(input.collection, scope);
    this.passes.record(input.collection, scope, {
      pageIndex: input.pageIndex,
      passNo: pass.pass_no,
      cursorSent: input.cursorSent,
      etag: result.rejected.length > 0 ? null : input.etag,
      nextCursor: input.nextCursor,
      ids,
      fetchedAt: this.now(),
    });
    return result;
  }

  private applyTaskItem(
    item: unknown,
    seenPass: number | null,
    itemEtags: ReadonlyMap<string, string> | undefined,
    result: PageApplied,
    load: TaskLoad,
  ): string | null {
    const bad = checkTask(item);
    if (bad) {
      result.rejected.push(bad);
      return this.keepRejected('tasks', bad.id, seenPass);
    }
    const task = item as TaskObject;
    const id = task.task_id as string;
    const etag = itemEtags?.get(id) ?? null;
    const storedApart = load.fromChain && this.insertedApart.take(id);
    if (
      load.insertFirst &&
      !storedApart &&
      this.overlay.insertNewServerCopy(task, etag, seenPass ?? 0) !== undefined
    ) {
      if (load.listApart) this.insertedApart.add(id);
      result.changes.created.push({ collection: 'tasks', id, after: task });
      return id;
    }
    const existing = this.store.byId(id);
    // A new task's stored form is made only if its row cannot hold the copy (TaskStore.write).
    const stored = existing === undefined ? null : storedTaskJson(task);
    if (existing && existing.server_stored === stored && !existing.server_gone) {
      if (seenPass !== null && existing.seen_pass !== seenPass) this.store.seen(existing.rid, seenPass);
      result.unchanged++;
      return id;
    }
    this.overlay.writeServerCopy(existing, task, stored, etag, seenPass ?? existing?.seen_pass ?? 0);
    this.noteChange('tasks', id, existing?.server_json ?? null, task, result.changes);
    return id;
  }

  /** A rejected row keeps its previous copy: seen in this pass, so that the pass does not remove it. */
  private keepRejected(
    collection: CollectionName,
    id: string | null,
    seenPass: number | null,
  ): string | null {
    if (id === null || seenPass === null) return id;
    if (collection === 'tasks') {
      const existing = this.store.byId(id);
      if (existing) this.store.seen(existing.rid, seenPass);
    } else this.statementsFor(COLLECTIONS[collection]).seen.run(seenPass, id);
    return id;
  }

  private noteChange(
    collection: CollectionName,
    id: string,
    beforeJson: string | null,
    after: Resource,
    changes: ChangeList,
  ): void {
    if (beforeJson === null) {
      changes.created.push({ collection, id, after });
      return;
    }
    const before = JSON.parse(beforeJson) as Resource;
    const fields = fieldChanges(before, after);
    if (Object.keys(fields).length > 0)
      changes.updated.push({ collection, id, before, after, changes: fields });
  }

  private statementsFor(spec: CollectionSpec): CollectionStatements {
    let statements = this.collectionStatements.get(spec.table);
    if (!statements) {
      const columns = spec.columns.map(([name]) => name);
      const all = [spec.idField, 'scope', 'seen_pass', ...columns, 'etag', 'fetched_at', 'raw_json'];
      statements = {
        select: this.db.prepare(`SELECT raw_json, seen_pass FROM ${spec.table} WHERE ${spec.idField} = ?`),
        upsert: this.db.prepare(
          `INSERT INTO ${spec.table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})
           ON CONFLICT (${spec.idField}) DO UPDATE SET ${all
             .slice(1)
             .map((c) => `${c} = excluded.${c}`)
             .join(', ')}`,
        ),
        seen: this.db.prepare(`UPDATE ${spec.table} SET seen_pass = ? WHERE ${spec.idField} = ?`),
        seenMany: this.db.prepare(
          `UPDATE ${spec.table} SET seen_pass = ? WHERE ${spec.idField} IN (SELECT value FROM json_each(?))`,
        ),
        removeUnseen: this.db.prepare(
          `DELETE FROM ${spec.table} WHERE scope = ? AND seen_pass < ? RETURNING ${spec.idField} AS id, raw_json`,
        ),
      };
      this.collectionStatements.set(spec.table, statements);
    }
    return statements;
  }

  private applyResourceItem(
    spec: CollectionSpec,
    scope: string,
    item: unknown,
    seenPass: number | null,
    itemEtags: ReadonlyMap<string, string> | undefined,
    result: PageApplied,
  ): string | null {
    const statements = this.statementsFor(spec);
    const checked = checkResource(spec, item);
    if ('reason' in checked) {
      result.rejected.push(checked);
      return this.keepRejected(spec.table, checked.id, seenPass);
    }
    const { id, object } = checked;
    const json = JSON.stringify(object);
    const existing = statements.select.get(id);
    if (existing && existing.raw_json === json) {
      if (seenPass !== null && existing.seen_pass !== seenPass) statements.seen.run(seenPass, id);
      result.unchanged++;
      return id;
    }
    statements.upsert.run(
      id,
      scope,
      seenPass ?? existing?.seen_pass ?? 0,
      ...columnValues(spec, object),
      itemEtags?.get(id) ?? null,
      this.now(),
      json,
    );
    this.noteChange(spec.table, id, existing?.raw_json ?? null, object, result.changes);
    return id;
  }

  /** A page answered 304: its stored ids count as returned in this pass. */
  reusePage(collection: CollectionName, scope: string, pageIndex: number): StoredPage {
    const page = this.passes.page(collection, scope, pageIndex);
    if (!page) throw new NotInMirrorError('page', `${collection}/${scope}/${pageIndex}`);
    const pass = this.passes.begin(collection, scope, false, this.now());
    this.passes.reuse(collection, scope, pageIndex, pass.pass_no, this.now());
    if (pass.partial === 0) {
      if (collection === 'tasks') {
        for (const id of page.ids) this.store.seenById(id, pass.pass_no);
      } else this.statementsFor(COLLECTIONS[collection]).seenMany.run(pass.pass_no, JSON.stringify(page.ids));
    }
    return { ...page, passNo: pass.pass_no };
  }

  /**
   * Ends a pass whose last page was applied and, unless it was partial,
   * removes what it did not return; refuses (IncompletePassError) when a page
   * of the chain was not fetched in this pass.
   */
  completePass(collection: CollectionName, scope: string, lastPageIndex: number): ChangeList {
    const state = this.passes.progress(collection, scope);
    if (!state || state.state !== 'running') throw new IncompletePassError(collection, scope, 0);
    for (let i = 0; i <= lastPageIndex; i++) {
      const page = state.pages.find((p) => p.pageIndex === i);
      if (!page || page.passNo !== state.passNo) throw new IncompletePassError(collection, scope, i);
    }
    // A pass of no pages of its own (lastPageIndex -1) is made of its chains: every one must have ended.
    const chains = lastPageIndex < 0 ? state.chains : null;
    for (const chain of chains ?? []) {
      const chainState = this.passes.progress(collection, chain);
      if (!chainState || chainState.state !== 'complete' || !chainState.chainEnded)
        throw new IncompletePassError(collection, chain, chainState?.resume.pageIndex ?? 0);
    }
    this.passes.complete(collection, scope, lastPageIndex, this.now());
    const changes = emptyChanges();
    if (state.partial) return changes;
    if (collection === 'tasks') this.removeUnseenTasks(state.passNo, changes, chains);
    else {
      for (const row of this.statementsFor(COLLECTIONS[collection]).removeUnseen.all(scope, state.passNo)) {
        changes.deleted.push({ collection, id: row.id, before: JSON.parse(row.raw_json) as Resource });
      }
    }
    return changes;
  }

  /**
   * Removes the tasks the pass did not see. `chains`: the pass was walked as
   * these chains, whose pages say what it saw (their pages are not marked
   * seen: an unchanged chain is only revalidated); what a single read or a
   * push wrote while the pass ran was seen in it too (runningTaskPass).
   */
  private removeUnseenTasks(passNo: number, changes: ChangeList, chains: readonly string[] | null): void {
    const inChains =
      chains === null
        ? ''
        : `AND t.task_id NOT IN (SELECT j.value FROM sync_pages p, json_each(p.item_ids) j
            WHERE p.collection = 'tasks' AND p.scope IN (SELECT value FROM json_each(?)))`;
    const unseen = this.db
      .prepare(
        `SELECT t.rid, b.server_json, t.pending, coalesce(s.text, '') AS search_text, ${COPY_ROW_COLUMNS}
           FROM tasks t JOIN task_bodies b ON b.rid = t.rid LEFT JOIN task_search_text s ON s.rid = t.rid
          WHERE t.seen_pass < ? AND b.server_json IS NOT NULL AND t.server_gone = 0 ${inChains}`,
      )
      .all(...(chains === null ? [passNo] : [passNo, JSON.stringify(chains)])) as {
      rid: number;
      task_id: string;
      server_json: BodyServerJson;
      pending: number;
    }[] &
      CopyRow[];
    const markGone = this.db.prepare('UPDATE tasks SET server_gone = 1 WHERE rid = ?');
    const dropCached = [
      this.db.prepare('DELETE FROM task_comments WHERE scope = ?'),
      this.db.prepare('DELETE FROM task_history WHERE scope = ?'),
    ];
    for (const row of unseen) {
      if (row.pending > 0) {
        markGone.run(row.rid);
        changes.parkedEdits.push(...this.outbox.parkStoppedEditsOfGoneTask(row.task_id));
        continue;
      }
      this.store.remove(row.rid);
      for (const statement of dropCached) statement.run(row.task_id);
      changes.deleted.push({
        collection: 'tasks',
        id: row.task_id,
        before: taskObjectOf(storedFormFromRow(row.server_json, row)),
      });
    }
  }

  /** The running full task pass, whose number a task written now is seen in. */
  runningTaskPass(): number | null {
    const pass = this.passes.row('tasks', '');
    return pass && pass.state === 'running' && pass.partial === 0 ? pass.pass_no : null;
  }

  /** A single task read from the server: it becomes the server copy; pending edits stay on top of it. */
  applyServerTask(task: unknown, etag: string | null): ChangeList {
    const bad = checkTask(task);
    if (bad) throw bad;
    const object = task as TaskObject;
    const id = object.task_id as string;
    const stored = storedTaskJson(object);
    const existing = this.store.byId(id);
    const changes = emptyChanges();
    const seenPass = this.runningTaskPass() ?? existing?.seen_pass ?? 0;
    if (existing && existing.server_stored === stored && existing.etag === etag && !existing.server_gone)
      return changes;
    this.overlay.writeServerCopy(existing, object, stored, etag, seenPass);
    this.noteChange('tasks', id, existing?.server_json ?? null, object, changes);
    return changes;
  }

  /** A single read answered 404: the task is gone from the server (kept while edits are pending). */
  removeServerTask(taskId: string): ChangeList {
    const changes = emptyChanges();
    const row = this.store.byId(taskId);
    if (!row || row.server_json === null) return changes;
    if (row.pending > 0) {
      this.db.prepare('UPDATE tasks SET server_gone = 1 WHERE rid = ?').run(row.rid);
      changes.parkedEdits.push(...this.outbox.parkStoppedEditsOfGoneTask(taskId));
    } else {
      this.store.remove(row.rid);
      changes.deleted.push({
        collection: 'tasks',
        id: taskId,
        before: JSON.parse(row.server_json) as Resource,
      });
    }
    return changes;
  }
}
