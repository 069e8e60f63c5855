// The local mirror of one account: what every screen reads (effective rows:
// server copy plus pending edits), what the sync engine writes (validated pages
// with their bookkeeping, settled operations), and the outbox in between. All
// methods are synchronous and each write is one SQLite transaction, so no
// transaction ever spans an await; file problems surface as MirrorStorageError.
import type { Database, Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { BackgroundLogFlush } from './background-log-flush';
import { ChangeFeed, type NewNotification, type Notification } from './change-feed';
import {
  type ChangeList,
  PageApplication,
  type PageApplied,
  type PageInput,
  type Resource,
} from './page-apply';
import { type CollectionName, COLLECTIONS, type OtherCollection } from './collections';
import { asStorageError } from './mirror-errors';
import {
  type Conflict,
  type ConflictInput,
  type ConflictResolution,
  Outbox,
  type OutboxOp,
  type OutboxState,
  type ServerAnswer,
} from './outbox';
import type { MirrorDatabase } from './schema';
import { type PassState, type StoredPage, SyncPasses } from './sync-passes';
import {
  buildNextSortIndex,
  deferredBuild,
  hasDeferredSortIndexes,
  registersVocabulary,
  wordIndexComplete,
} from './deferred-indexes';
import type { TaskObject } from './task-columns';
import { type AccountIdentity, TaskOverlay } from './task-overlay';
import { type TaskListPage, TaskQueries, type TaskQueryInput, type TaskQueryOptions } from './task-query';
import { type FiledTask, filedTasks, type FilingField, tagsInUse } from './task-filing';
import { TaskStore } from './task-store';
import { WordIndex } from './word-index';

export type { ChangeList, PageApplied, PageInput, Resource } from './page-apply';

/** The caller's identity as `/v1/me` last answered it, with the answer's ETag. */
export interface RememberedIdentity {
  etag: string;
  me: { user_id: string; username: string; org_id: string | null };
}

export interface MirroredTask {
  /** The effective task: the server's copy with pending local edits applied (raw JSON, unknown fields kept). */
  task: TaskObject;
  /** The server's copy as it sent it; null for a task created here and not yet accepted. */
  server: TaskObject | null;
  etag: string | null;
  pending: boolean;
  /** A delete is pending: lists no longer show it. */
  hidden: boolean;
  serverGone: boolean;
}

export interface MirrorOptions {
  /** The current time as ISO 8601 (tests pass a fixed clock). */
  now?: () => string;
  /**
   * When the sort indexes a first load went without are built: one per
   * macrotask after the pass (default), or all inside completePass.
   */
  sortIndexBuild?: 'background' | 'at-once';
  /**
   * After each server-data commit (NORMAL, not fsynced) and build step,
   * flush the log to disk in the background: for the pull worker's
   * connection (db/background-log-flush.ts). Default off.
   */
  flushLogInBackground?: boolean;
}

/**
 * Word-index leaf pages merged after a page of tasks, and after a complete
 * pass (every poll, a few ms of work at most; what edits added meanwhile).
 */
const PAGE_MERGE_PAGES = 64;

/** A statement named an index another connection dropped meanwhile (a first load starting): plan again. */
function indexWentAway(error: unknown): boolean {
  return error instanceof Error && /no such index/.test(error.message);
}
const PASS_MERGE_PAGES = 256;

export class Mirror {
  readonly words: WordIndex;
  private readonly store: TaskStore;
  private readonly overlay: TaskOverlay;
  private readonly outbox: Outbox;
  private readonly passes: SyncPasses;
  private readonly pages: PageApplication;
  private readonly queries: TaskQueries;
  private readonly feed: ChangeFeed;
  private readonly now: () => string;
  private accountCache: { version: string; account: AccountIdentity } | null = null;
  private aggregateCache: { version: string; key: string; value: unknown }[] = [];
  private readonly dataVersion: Statement<[], { data_version: number }>;
  private readonly schemaVersion: Statement<[], { schema_version: number }>;
  private readonly sortIndexBuild: 'background' | 'at-once';
  private readonly logFlush: BackgroundLogFlush | null;
  private indexCache: { schema: number; names: ReadonlySet<string> } | null = null;
  /** Which `synchronous` the connection is set to: FULL for local writes, NORMAL for server data. */
  private synchronous: 'local' | 'server' = 'local';

  constructor(
    private readonly db: Database,
    /** The database file (for error messages). */
    readonly file: string,
    /** Typed access for reads (db/task-filing.ts, the small collections); writes go through this class. */
    private readonly kysely: Kysely<MirrorDatabase>,
    options: MirrorOptions = {},
  ) {
    this.now = options.now ?? (() => new Date().toISOString());
    this.sortIndexBuild = options.sortIndexBuild ?? 'background';
    this.logFlush = options.flushLogInBackground === true ? new BackgroundLogFlush(`${file}-wal`) : null;
    this.words = new WordIndex(db);
    this.store = new TaskStore(db, this.words);
    this.overlay = new TaskOverlay(db, this.store, () => this.account());
    this.outbox = new Outbox(db, this.store, this.overlay, this.now);
    this.passes = new SyncPasses(db);
    this.pages = new PageApplication(db, this.store, this.overlay, this.outbox, this.passes, this.now);
    this.dataVersion = db.prepare('PRAGMA data_version');
    this.queries = new TaskQueries(
      db,
      this.words,
      () => this.version(),
      () => this.taskIndexes(),
      () => this.wordsComplete(),
    );
    this.schemaVersion = db.prepare('PRAGMA schema_version');
    // A first load cut short: if its pass is not running any more, finish its build.
    const firstLoad = this.passes.row('tasks', '');
    if (hasDeferredSortIndexes(db) && !(firstLoad?.state === 'running' && firstLoad.partial === 0)) {
      this.finishDeferredBuild();
    }
    this.feed = new ChangeFeed(db);
  }

  /**
   * Changes whenever the data may have: this connection's own writes, and
   * commits by other connections to the file (a sync worker's), which
   * `PRAGMA data_version` reports. Caches of derived answers compare it.
   */
  private version(): string {
    return `${this.store.version}:${this.dataVersion.get()?.data_version ?? 0}`;
  }

  /** The indexes of `tasks` as the file has them now (another connection may defer or build them). */
  private taskIndexes(): ReadonlySet<string> {
    const schema = this.schemaVersion.get()?.schema_version ?? 0;
    if (this.indexCache === null || this.indexCache.schema !== schema) {
      const rows = this.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks'")
        .all() as { name: string }[];
      this.indexCache = { schema, names: new Set(rows.map((r) => r.name)) };
    }
    return this.indexCache.names;
  }

  private wordsCache: { version: string; complete: boolean } | null = null;

  /** False while a first load's rows are not all in the word index yet (searches then check every row). */
  private wordsComplete(): boolean {
    const version = this.version();
    if (this.wordsCache === null || this.wordsCache.version !== version) {
      const build = deferredBuild(this.db);
      this.wordsCache = { version, complete: wordIndexComplete(build) };
    }
    return this.wordsCache.complete;
  }

  /** Runs a write as one immediate transaction; file problems become MirrorStorageError. */
  private write<T>(work: () => T, durability: 'local' | 'server' = 'local'): T {
    // Inside withoutWaiting's transaction: a savepoint of it, settled by its commit.
    if (this.db.inTransaction) return this.db.transaction(work)();
    return this.transaction(work, durability, 'wait');
  }

  /**
   * Runs `work` (any of this mirror's writes, one or several) as ONE
   * transaction that fails at once as `locked` when another connection (the
   * pull worker: a page, an index build step) holds the write lock, instead
   * of sleeping in SQLite's busy handler, which would freeze this thread.
   * Nothing of `work` has run then; see writeWhenFree, which tries again.
   */
  withoutWaiting<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    return this.transaction(work, 'local', 'fail-fast');
  }

  private transaction<T>(work: () => T, durability: 'local' | 'server', lock: 'wait' | 'fail-fast'): T {
    let busyTimeout: unknown = null;
    try {
      if (this.synchronous !== durability) {
        // Server data can be fetched again; a person's edit cannot (see open-mirror.ts).
        this.db.pragma(durability === 'local' ? 'synchronous = FULL' : 'synchronous = NORMAL');
        this.synchronous = durability;
      }
      if (lock === 'fail-fast') {
        busyTimeout = this.db.pragma('busy_timeout', { simple: true });
        this.db.pragma('busy_timeout = 0');
      }
      const result = this.db
        .transaction(() => {
          // What a first load in progress (this or another connection's) leaves to its build.
          const build = deferredBuild(this.db);
          this.store.wordsDeferredAbove = build === null ? null : build.wordsFrom;
          this.store.registersDeferredWords = registersVocabulary(build);
          return work();
        })
        .immediate();
      this.words.committed();
      if (durability === 'server') this.logFlush?.soon();
      return result;
    } catch (error) {
      this.words.rolledBack();
      throw asStorageError(error, this.file);
    } finally {
      if (busyTimeout !== null && this.db.open) this.db.pragma(`busy_timeout = ${Number(busyTimeout)}`);
    }
  }

  private read<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw asStorageError(error, this.file);
    }
  }

  // ---- account -------------------------------------------------------------

  account(): AccountIdentity {
    const version = this.read(() => this.version());
    if (this.accountCache === null || this.accountCache.version !== version) {
      const rows = this.read(
        () =>
          this.db.prepare("SELECT key, value FROM meta WHERE key IN ('org_id', 'username')").all() as {
            key: string;
            value: string;
          }[],
      );
      const get = (key: string) => rows.find((r) => r.key === key)?.value ?? null;
      this.accountCache = { version, account: { orgId: get('org_id'), username: get('username') } };
    }
    return this.accountCache.account;
  }

  /** Who this mirror belongs to (one file per signed-in account). */
  setAccount(account: { orgId: string; username: string }): void {
    this.write(() => {
      const upsert = this.db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      );
      upsert.run('org_id', account.orgId);
      upsert.run('username', account.username);
    });
    this.accountCache = null;
  }

  /**
   * The last `/v1/me` answer and its ETag, so that a later process (the headless
   * command runs one per sync) revalidates it with `If-None-Match` instead of
   * reading it again; null until one was kept.
   */
  rememberedIdentity(): RememberedIdentity | null {
    const rows = this.read(
      () =>
        this.db.prepare("SELECT key, value FROM meta WHERE key IN ('me_etag', 'me_body')").all() as {
          key: string;
          value: string;
        }[],
    );
    const etag = rows.find((r) => r.key === 'me_etag')?.value;
    const body = rows.find((r) => r.key === 'me_body')?.value;
    if (etag === undefined || body === undefined) return null;
    try {
      return { etag, me: JSON.parse(body) as RememberedIdentity['me'] };
    } catch {
      return null;
    }
  }

  /** Keeps the `/v1/me` answer and its ETag (see rememberedIdentity). */
  rememberIdentity(identity: RememberedIdentity): void {
    this.write(() => {
      const upsert = this.db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      );
      upsert.run('me_etag', identity.etag);
      upsert.run('me_body', JSON.stringify(identity.me));
    });
  }

  // ---- reading tasks ----------------------------------------------------------

  /** A page of the task list, in the service's vocabulary and order (see task-query.ts). */
  queryTasks(query: TaskQueryInput, options: TaskQueryOptions): TaskListPage {
    return this.read(() => this.retryOnIndexChange(() => this.queries.page(query, options)));
  }

  /** Every match of the query, in one synchronous call (see `countTasksInSteps` for the main process). */
  countTasks(query: TaskQueryInput, options: Pick<TaskQueryOptions, 'me' | 'today'>): number {
    return this.read(() => this.retryOnIndexChange(() => this.queries.count(query, options)));
  }

  /**
   * The same count as `countTasks`, one short synchronous step per `next()`
   * (task-query.ts's `countSteps`), for callers that must not block long.
   */
  *countTaskSteps(
    query: TaskQueryInput,
    options: Pick<TaskQueryOptions, 'me' | 'today'>,
  ): Generator<void, number, void> {
    for (let attempt = 0; ; attempt++) {
      const steps = this.queries.countSteps(query, options);
      try {
        for (;;) {
          const step = steps.next();
          if (step.done) return step.value;
          yield;
        }
      } catch (error) {
        // Another connection dropped an index the count was using (a first load starting): count again.
        if (attempt > 0 || !indexWentAway(error)) throw asStorageError(error, this.file);
        this.indexCache = null;
      }
    }
  }

  /**
   * The same count as `countTasks`, in steps with the event loop free between
   * them; null when `signal` aborted it first (nobody wants the answer any more).
   */
  async countTasksInSteps(
    query: TaskQueryInput,
    options: Pick<TaskQueryOptions, 'me' | 'today'>,
    signal?: AbortSignal,
  ): Promise<number | null> {
    const steps = this.countTaskSteps(query, options);
    for (;;) {
      if (signal?.aborted) return null;
      const step = steps.next();
      if (step.done) return step.value;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Another connection may drop an index between the plan and the step (a first load starting): plan again. */
  private retryOnIndexChange<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!indexWentAway(error)) throw error;
      this.indexCache = null;
      return work();
    }
  }

  getTask(taskId: string): MirroredTask | null {
    return this.read(() => {
      const row = this.store.byId(taskId);
      if (!row) return null;
      const server = row.server_json === null ? null : (JSON.parse(row.server_json) as TaskObject);
      const task = row.local_json === null ? server : (JSON.parse(row.local_json) as TaskObject);
      return {
        task: task as TaskObject,
        server,
        etag: row.etag,
        pending: row.pending > 0,
        hidden: row.hidden === 1,
        serverGone: row.server_gone === 1,
      };
    });
  }

  /** Every shown task's effective JSON, one text per task (for export), by task id. */
  *exportTasks(): Generator<string> {
    // A thousand at a time by keyset: 100 000 tasks never sit in memory at once.
    const chunk = this.db.prepare(
      `SELECT t.search_id AS k, t.task_id AS id, coalesce(b.local_json, b.server_json) AS json
         FROM tasks t INDEXED BY tasks_by_id JOIN task_bodies b ON b.rid = t.rid
        WHERE t.hidden = 0 AND (t.search_id, t.task_id) > (?, ?) ORDER BY t.search_id, t.task_id LIMIT 1000`,
    );
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = this.read(() => chunk.all(...after) as { k: string; id: string; json: string }[]);
      for (const row of rows) yield row.json;
      const last = rows.at(-1);
      if (!last || rows.length < 1000) return;
      after = [last.k, last.id];
    }
  }

  /** How many (effective, shown) tasks the mirror holds. */
  taskCount(): number {
    return this.read(
      () => (this.db.prepare('SELECT count(*) AS n FROM tasks WHERE hidden = 0').get() as { n: number }).n,
    );
  }

  private cachedAggregate<T>(key: string, compute: () => T): T {
    const version = this.read(() => this.version());
    const hit = this.aggregateCache.find((c) => c.key === key && c.version === version);
    if (hit) return hit.value as T;
    const value = this.read(compute);
    this.aggregateCache = [...this.aggregateCache.filter((c) => c.key !== key), { key, version, value }];
    return value;
  }

  /** `task_count` per section: tasks filed in it, every status. */
  sectionTaskCounts(): Map<string, number> {
    return this.cachedAggregate('sections', () => {
      const rows = this.db
        .prepare(
          'SELECT section_id AS id, count(*) AS n FROM tasks WHERE hidden = 0 AND section_id IS NOT NULL GROUP BY section_id',
        )
        .all() as { id: string; n: number }[];
      return new Map(rows.map((r) => [r.id, r.n]));
    });
  }

  /** `task_count` / `completed_count` per sprint. */
  sprintTaskCounts(): Map<string, { total: number; completed: number }> {
    return this.cachedAggregate('sprints', () => this.completionCounts('sprint_id', ''));
  }

  /** `tasks_total` / `tasks_completed` per goal, subtasks excluded (contract: GoalOut). */
  goalTaskCounts(): Map<string, { total: number; completed: number }> {
    return this.cachedAggregate('goals', () =>
      this.completionCounts('goal_id', 'AND parent_task_id IS NULL'),
    );
  }

  private completionCounts(column: string, extra: string): Map<string, { total: number; completed: number }> {
    const rows = this.db
      .prepare(
        `SELECT ${column} AS id, count(*) AS total, sum(k_status_rank = 3) AS completed FROM tasks
          WHERE hidden = 0 AND ${column} IS NOT NULL ${extra} GROUP BY ${column}`,
      )
      .all() as { id: string; total: number; completed: number }[];
    return new Map(rows.map((r) => [r.id, { total: r.total, completed: r.completed }]));
  }

  // ---- reading the other collections -----------------------------------------

  /** Ids of the stored resources of a collection (e.g. team ids, to pull their sprints). */
  resourceIds(collection: OtherCollection, scope?: string): string[] {
    return this.resources(collection, scope).map((r) => r[COLLECTIONS[collection].idField] as string);
  }

  /** The stored resources of a collection (raw JSON as sent), by id; `scope` narrows sprints, comments, history. */
  resources(collection: OtherCollection, scope?: string): Resource[] {
    return this.resourcesJson(collection, scope).map((json) => JSON.parse(json) as Resource);
  }

  /** The same as the JSON text stored (what `export` prints). */
  resourcesJson(collection: OtherCollection, scope?: string): string[] {
    const spec = COLLECTIONS[collection];
    return this.read(() => {
      let query = this.kysely.selectFrom(spec.table).select(['raw_json']);
      if (scope !== undefined) query = query.where('scope', '=', scope);
      const { sql, parameters } = query.orderBy(spec.idField as 'scope').compile();
      const rows = this.db.prepare(sql).all(...parameters) as { raw_json: string }[];
      return rows.map((r) => r.raw_json);
    });
  }

  /** The visible tasks filed under some sections, sprints or goals, in board order (db/task-filing.ts). */
  filedTasks(
    field: FilingField,
    values: readonly string[],
    limit: number,
  ): Promise<{ tasks: FiledTask[]; truncated: boolean }> {
    return filedTasks(this.kysely, field, values, limit);
  }

  /** The tags in use on visible tasks, most used first (db/task-filing.ts). */
  tagsInUse(): Promise<string[]> {
    return tagsInUse(this.kysely);
  }

  // ---- pulling: passes and pages ---------------------------------------------

  /** Starts a pass over a list, or returns the running one to resume. */
  beginPass(collection: CollectionName, scope = '', options: { partial?: boolean } = {}): PassState {
    return this.write(() => {
      this.pages.beginTaskPass(collection, scope, options.partial ?? false);
      this.passes.begin(collection, scope, options.partial ?? false, this.now());
      return this.passes.state(collection, scope) as PassState;
    }, 'server');
  }

  /** The pass and its pages as last recorded (null if the list was never pulled). */
  passState(collection: CollectionName, scope = ''): PassState | null {
    return this.read(() => this.passes.state(collection, scope));
  }

  /** The server refused a cursor: a fresh pass from the first page. */
  restartPass(collection: CollectionName, scope = '', options: { partial?: boolean } = {}): PassState {
    return this.write(() => {
      this.passes.restart(collection, scope, options.partial ?? false, this.now());
      return this.passes.state(collection, scope) as PassState;
    }, 'server');
  }

  storedPage(collection: CollectionName, scope: string, pageIndex: number): StoredPage | null {
    return this.read(() => this.passes.page(collection, scope, pageIndex));
  }

  /**
   * Stores one page answered 200, with its bookkeeping, in one transaction,
   * and returns what changed (db/page-apply.ts). Starts a pass if none is running.
   */
  applyPage(input: PageInput): PageApplied {
    const applied = this.write(() => this.pages.applyPage(input), 'server');
    if (input.collection === 'tasks') this.tidyWordIndex(PAGE_MERGE_PAGES);
    return applied;
  }

  /** A page answered 304: its stored ids count as returned in this pass. Returns the stored page (its next_cursor). */
  reusePage(collection: CollectionName, scope: string, pageIndex: number): StoredPage {
    return this.write(() => this.pages.reusePage(collection, scope, pageIndex), 'server');
  }

  /**
   * Ends a pass whose last page (`lastPageIndex`, whose next_cursor was null)
   * was applied, and, unless the pass was partial, removes what it did not
   * return. Refuses (IncompletePassError) when a page of the chain was not
   * fetched in this pass: only a complete pass may remove anything.
   */
  completePass(collection: CollectionName, scope: string, lastPageIndex: number): ChangeList {
    const changes = this.write(() => this.pages.completePass(collection, scope, lastPageIndex), 'server');
    if (collection === 'tasks' && scope === '') {
      // The end of a first load builds the indexes it went without, in the
      // background; any full pass is when task rows changed most: refresh the
      // planner's statistics.
      if (this.read(() => hasDeferredSortIndexes(this.db))) this.finishDeferredBuild();
      else this.optimize();
    }
    if (collection === 'tasks') this.tidyWordIndex(PASS_MERGE_PAGES);
    return changes;
  }

  /**
   * A bounded step of merging the word index's segments, after the pull's
   * writes (the pull worker's thread in the app): writes themselves never
   * merge (migration 0007), so an edit on the main thread never pays for it.
   * A first load's build merges on its own. Best effort: a failure (the lock
   * busy past the timeout) leaves the work to the next step.
   */
  private tidyWordIndex(pages: number): void {
    try {
      if (deferredBuild(this.db) === null) this.words.mergeStep(pages);
    } catch {
      // Merging only keeps searches quick; the write it follows has landed.
    }
  }

  /**
   * A single task read from the server (GET, or the body of a 412 read): it
   * becomes the server copy; pending edits stay on top of it.
   */
  applyServerTask(task: unknown, etag: string | null): ChangeList {
    return this.write(() => this.pages.applyServerTask(task, etag), 'server');
  }

  /** A single read answered 404: the task is gone from the server (kept while edits are pending). */
  removeServerTask(taskId: string): ChangeList {
    return this.write(() => this.pages.removeServerTask(taskId), 'server');
  }

  // ---- local edits and the outbox -------------------------------------------

  /** Queues a new task; it shows at once under a temporary id (`local-…`). */
  createTask(fields: TaskObject): { taskId: string; opId: string } {
    return this.write(() => this.outbox.create(fields));
  }

  /** Queues an edit (only the fields given); shown at once. Null when it changes nothing. */
  editTask(taskId: string, patch: TaskObject): { opId: string } | null {
    return this.write(() => this.outbox.update(taskId, patch));
  }

  /** Queues a delete; lists stop showing the task at once. Null when the task never reached the server. */
  deleteTask(taskId: string): { opId: string } | null {
    return this.write(() => this.outbox.delete(taskId));
  }

  outboxOps(states?: readonly OutboxState[]): OutboxOp[] {
    return this.read(() => this.outbox.list(states));
  }

  outboxOp(opId: string): OutboxOp {
    return this.read(() => this.outbox.op(opId));
  }

  /** What may be sent now: per task its oldest unsettled operation, if queued or in flight. */
  readyOps(limit = 100): OutboxOp[] {
    return this.read(() => this.outbox.ready(limit));
  }

  /** Marks an operation in flight (durably) just before its request is sent. */
  startOp(opId: string): OutboxOp {
    return this.write(() => this.outbox.start(opId));
  }

  /**
   * The server accepted an operation: `answer` is its reply (task and ETag)
   * for a create or update, null for a delete. Returns the task id after it
   * (the server's id for a create: the temporary one is replaced everywhere).
   */
  settleOp(opId: string, answer: ServerAnswer | null): string {
    return this.write(() => this.outbox.settle(opId, answer, this.pages.runningTaskPass()));
  }

  failOp(opId: string, state: 'failed' | 'blocked' | 'queued', problem: unknown): void {
    this.write(() => this.outbox.fail(opId, state, problem));
  }

  /** Sends a failed or blocked operation again, optionally with changed values (then under a new key). Returns its op id. */
  retryOp(opId: string, patch?: TaskObject): string {
    return this.write(() => this.outbox.retry(opId, patch));
  }

  /** After a 412 merge that left only fields the person changed: re-send against `baseEtag`. Returns the op id to send. */
  rebaseOp(
    opId: string,
    rebase: { baseEtag: string | null; patch?: TaskObject; baseValues?: TaskObject },
  ): string {
    return this.write(() => this.outbox.rebase(opId, rebase));
  }

  /**
   * Parks an operation in conflict for the person (see Outbox.conflict). Land
   * the server's current version first with {@link applyServerTask}.
   */
  conflictOp(opId: string, conflict: ConflictInput): Conflict[] {
    return this.write(() => this.outbox.conflict(opId, conflict));
  }

  /** A delete refused with 412: waits as failed against the newer version. */
  holdDelete(opId: string, theirsEtag: string | null, problem: unknown): void {
    this.write(() => this.outbox.holdDelete(opId, theirsEtag, problem));
  }

  /** Puts an operation back exactly as before startOp (its request certainly never left). */
  unstartOp(opId: string, before: { state: OutboxState; attempts: number }): void {
    this.write(() => this.outbox.unstart(opId, before));
  }

  /** Blocked operations back to the queue. Returns how many. */
  unblockAll(): number {
    return this.write(() => this.outbox.unblockAll());
  }

  openConflictCount(): number {
    return this.read(() => this.outbox.openConflictCount());
  }

  conflicts(state?: 'open' | 'resolved'): Conflict[] {
    return this.read(() => this.outbox.conflicts(state));
  }

  resolveConflict(conflictId: string, resolution: ConflictResolution): Conflict {
    return this.write(() => this.outbox.resolve(conflictId, resolution));
  }

  /** Gives up an operation; its change leaves the effective row. */
  dropOp(opId: string): void {
    this.write(() => this.outbox.drop(opId));
  }

  // ---- notifications -----------------------------------------------------------

  addNotifications(items: readonly NewNotification[]): number[] {
    return this.write(() => this.feed.add(items, this.now()));
  }

  notifications(forUser: string, options: { unseenOnly?: boolean; limit?: number } = {}): Notification[] {
    return this.read(() => this.feed.list(forUser, options));
  }

  markNotificationsSeen(ids: readonly number[]): void {
    this.write(() => this.feed.markSeen(ids, this.now()));
  }

  // ---- upkeep --------------------------------------------------------------------

  /** Milliseconds each background index build step took (one CREATE INDEX each; for benchmarks). */
  readonly indexBuildSteps: number[] = [];
  /** The CPU milliseconds of the same steps (what they cost on a machine nobody else is using). */
  readonly indexBuildCpuSteps: number[] = [];
  private indexBuild: Promise<void> | null = null;

  /** Builds what a first load went without: at once, or in the background (the default). */
  private finishDeferredBuild(): void {
    if (this.sortIndexBuild === 'background') {
      this.scheduleIndexBuild();
      return;
    }
    this.read(() => {
      while (buildNextSortIndex(this.db, this.words));
    });
    this.indexCache = null;
    this.wordsCache = null;
  }

  /**
   * Builds the sort indexes a first load went without, one per macrotask so
   * that no synchronous step holds the thread longer than one index build.
   */
  private scheduleIndexBuild(): void {
    if (this.indexBuild) return;
    this.indexBuild = new Promise<void>((resolve) => {
      const step = () => {
        if (!this.db.open) return resolve();
        let more: boolean;
        try {
          const started = performance.now();
          const cpu = process.cpuUsage();
          more = buildNextSortIndex(this.db, this.words);
          this.logFlush?.soon();
          const used = process.cpuUsage(cpu);
          this.indexBuildSteps.push(performance.now() - started);
          this.indexBuildCpuSteps.push((used.user + used.system) / 1000);
        } catch {
          // Another connection holds the write lock, say: try again shortly (an open builds them too).
          setTimeout(step, 500);
          return;
        }
        this.indexCache = null;
        this.wordsCache = null;
        if (more) setImmediate(step);
        else {
          this.indexBuild = null;
          resolve();
        }
      };
      setImmediate(step);
    });
  }

  /** Resolves once no sort index waits to be built (after a first load's last page). */
  async sortIndexesReady(): Promise<void> {
    while (this.indexBuild) await this.indexBuild;
  }

  /** Refreshes the query planner's statistics (bounded work; done after a full task pass). */
  optimize(): void {
    this.read(() => this.db.pragma('optimize'));
  }

  /** Copies the write-ahead log into the database file when nothing reads it (idle time). */
  checkpoint(): void {
    this.read(() => this.db.pragma('wal_checkpoint(PASSIVE)'));
  }

  /** Resolves once no background log flush is running (tests). */
  async logFlushed(): Promise<void> {
    await this.logFlush?.settled();
  }

  close(): void {
    if (!this.db.open) return;
    this.logFlush?.close();
    try {
      this.db.pragma('optimize');
    } catch {
      // Statistics are an optimisation; closing must not fail for them.
    }
    this.db.close();
  }
}
