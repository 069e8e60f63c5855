// The local mirror of one account: the connection to its SQLite file and the
// discipline every write keeps (one immediate transaction, durability chosen
// per write, the word index in step, file problems as MirrorStorageError), and
// its parts, which run through it: `tasks` (reads, queries, a person's edits),
// `outbox`, `passes` (what the pull records), `collections`, `feed`
// (notifications), `identity`, `openings` (tasks opened, comments
// watched) and `drafts` (what the person has not sent yet). All calls are synchronous: no transaction ever spans an await.
import { statSync } from 'node:fs';
import type { Database, Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { BackgroundLogFlush } from './background-log-flush';
import { ChangeFeed } from './passes/change-feed';
import { PageApplication } from './passes/page-apply';
import { goalKind } from '../protocol/goal';
import { milestoneKind } from '../protocol/milestone';
import { sectionKind } from '../protocol/section';
import { sprintKind } from '../protocol/sprint';
import type { WritableKind } from '../protocol/writable-kind';
import { COLLECTION_KINDS } from '../protocol/writable-kinds';
import { CollectionWrites } from './collections/collection-writes';
import { MirrorCollections } from './collections/mirror-collections';
import { MirrorComments } from './collections/mirror-comments';
import { MirrorDrafts } from './drafts/mirror-drafts';
import { asStorageError, MirrorStorageError } from './mirror-errors';
import { MirrorIdentity } from './passes/mirror-identity';
import { MirrorPasses } from './passes/mirror-passes';
import { MirrorTasks } from './tasks/mirror-tasks';
import type { Durability, MirrorTransactions } from './mirror-transactions';
import { Outbox } from './outbox/outbox';
import type { MirrorDatabase } from './schema';
import { SyncPasses } from './passes/sync-passes';
import {
  buildNextSortIndex,
  deferredBuild,
  hasDeferredSortIndexes,
  registersVocabulary,
  wordIndexComplete,
} from './tasks/deferred-indexes';
import { TaskOpenings } from './tasks/task-openings';
import { TaskOverlay } from './tasks/task-overlay';
import { TaskQueries } from './task-query/task-query';
import { TaskStore } from './tasks/task-store';
import { WordIndex } from './tasks/word-index';
import { nextTurn } from './next-turn';

export type { ChangeList, PageApplied, PageInput, Resource } from './passes/page-apply';
export type { RememberedIdentity } from './passes/mirror-identity';
export type { MirroredTask } from './tasks/mirror-tasks';

export interface MirrorOptions {
  /** The current time as ISO 8601 (tests pass a fixed clock). */
  now?: () => string;
  /**
   * When the sort indexes a first load went without are built: one per
   * macrotask after the pass (default), or all inside passes.complete.
   */
  sortIndexBuild?: 'background' | 'at-once';
  /**
   * After each server-data commit (NORMAL, not fsynced) and build step,
   * flush the log to disk in the background: for the pull worker's
   * connection (db/background-log-flush.ts). Default off.
   */
  flushLogInBackground?: boolean;
  /**
   * The write-ahead log's size after a checkpoint restarts it (SQLite's
   * journal_size_limit), and past which keepLogShort asks for a checkpoint.
   * Default LOG_SIZE_LIMIT_BYTES; tests lower it.
   */
  logLimitBytes?: number;
}

/** The log's size limit (MirrorOptions.logLimitBytes): 4 000 pages of 16 KiB. */
export const LOG_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * How long keepLogShort waits for the other connection's checkpoint: one
 * step of the pull worker may be a first load's index build of seconds, and
 * a bulk change should not stall behind it (its log then grows a while more).
 */
const CHECKPOINT_WAIT_MS = 2_000;

export class Mirror {
  readonly words: WordIndex;
  /** The task list: reads, queries, aggregates, a person's edits, a single task's server copy. */
  readonly tasks: MirrorTasks;
  /** The queued changes: what the push sends and settles, conflicts and their resolution. */
  readonly outbox: Outbox;
  /** A person's comments (queued through the outbox) and a task's threads with them applied. */
  readonly comments: MirrorComments;
  /** A person's section changes (queued through the outbox) and the sections with them applied. */
  readonly sections: CollectionWrites;
  /** Sprints (created under a team, edited, completed; no delete), goals and milestones (under a project). */
  readonly sprints: CollectionWrites;
  readonly goals: CollectionWrites;
  readonly milestones: CollectionWrites;
  /** Each collection kind's writes (protocol/writable-kinds.ts), by entity type. */
  private readonly collectionWrites: ReadonlyMap<string, CollectionWrites>;
  /** The pull's passes over lists and the pages that land in them. */
  readonly passes: MirrorPasses;
  /** The stored resources of the other collections. */
  readonly collections: MirrorCollections;
  /** Notifications about remote changes. */
  readonly feed: ChangeFeed;
  /** Whose mirror this is, and the last `/v1/me` answer. */
  readonly identity: MirrorIdentity;
  /** Tasks the person opened, and which tasks' comments the hot tier keeps fresh. */
  readonly openings: TaskOpenings;
  /** Comments, replies and new tasks a person started and has not sent, kept until sent or discarded. */
  readonly drafts: MirrorDrafts;
  private readonly store: TaskStore;
  private readonly now: () => string;
  private readonly dataVersion: Statement<[], { data_version: number }>;
  private readonly taskChanges: Statement<[], number>;
  private readonly countTaskChanges: Statement<[]>;
  /** task_changes as last read, and at which data_version (it is read again only when that moved). */
  private taskChangesRead: { dataVersion: number; n: number } | null = null;
  private readonly schemaVersion: Statement<[], { schema_version: number }>;
  private readonly sortIndexBuild: 'background' | 'at-once';
  /**
   * Flushes the WAL on libuv's threads: after each server commit when
   * flushLogInBackground (the pull worker's connection), after each interim
   * commit always (a bulk change, which waits for it at its end).
   */
  private readonly logFlush: BackgroundLogFlush;
  private readonly flushesServerCommits: boolean;
  private readonly logLimitBytes: number;
  /** Checkpoints this file's log on another connection (checkpointsThrough); null: none does between its commits. */
  private logCheckpointer: (() => Promise<void>) | null = null;
  private indexCache: { schema: number; names: ReadonlySet<string> } | null = null;
  private wordsCache: { version: string; complete: boolean } | null = null;
  /** Which `synchronous` the connection is set to: FULL for local writes, NORMAL for server data and interim steps. */
  private synchronous: 'FULL' | 'NORMAL' = 'FULL';

  constructor(
    private readonly db: Database,
    /** The database file (for error messages). */
    readonly file: string,
    /** Typed access for reads (db/tasks/task-filing.ts, the small collections); writes go through the parts. */
    private readonly kysely: Kysely<MirrorDatabase>,
    options: MirrorOptions = {},
  ) {
    this.now = options.now ?? (() => new Date().toISOString());
    this.sortIndexBuild = options.sortIndexBuild ?? 'background';
    this.logFlush = new BackgroundLogFlush(`${file}-wal`);
    this.flushesServerCommits = options.flushLogInBackground === true;
    this.logLimitBytes = options.logLimitBytes ?? LOG_SIZE_LIMIT_BYTES;
    this.dataVersion = db.prepare('PRAGMA data_version');
    this.taskChanges = db.prepare<[], number>('SELECT n FROM task_changes WHERE id = 1').pluck();
    this.countTaskChanges = db.prepare('UPDATE task_changes SET n = n + 1 WHERE id = 1');
    this.schemaVersion = db.prepare('PRAGMA schema_version');
    // What the parts run through: this mirror's transactions, clock and data version.
    const tx: MirrorTransactions = {
      write: (work, durability) => this.write(work, durability),
      read: (work) => this.read(work),
      now: () => this.now(),
      version: () => this.version(),
    };
    this.words = new WordIndex(db);
    this.store = new TaskStore(db, this.words);
    this.identity = new MirrorIdentity(db, tx);
    const overlay = new TaskOverlay(db, this.store, () => this.identity.account());
    const syncPasses = new SyncPasses(db);
    // The outbox asks which task pass runs only when it settles an edit, after `pages` below is built.
    const runningTaskPass = () => pages.runningTaskPass();
    this.outbox = new Outbox(db, tx, this.store, overlay, runningTaskPass);
    const pages = new PageApplication(db, this.store, overlay, this.outbox, syncPasses, this.now);
    const queries = new TaskQueries(
      db,
      this.words,
      () => this.taskVersion(),
      () => this.taskIndexes(),
      () => this.wordsComplete(),
    );
    this.tasks = new MirrorTasks({
      db,
      tx,
      file,
      store: this.store,
      overlay,
      queries,
      outbox: this.outbox,
      pages,
      kysely: this.kysely,
      forgetIndexes: () => {
        this.indexCache = null;
      },
    });
    this.passes = new MirrorPasses(tx, syncPasses, pages, {
      tidyWordIndex: (mergePages) => this.tidyWordIndex(mergePages),
      afterFullTaskPass: () => this.afterFullTaskPass(),
    });
    this.collections = new MirrorCollections(db, tx, this.kysely);
    this.comments = new MirrorComments(db, tx, this.outbox);
    this.collectionWrites = new Map(
      COLLECTION_KINDS.map((kind) => [kind.entityType, new CollectionWrites(db, tx, this.outbox, kind)]),
    );
    const writesOfKind = (kind: WritableKind): CollectionWrites => {
      const writes = this.writesOf(kind.entityType);
      if (writes === null) throw new Error(`${kind.entityType} is not in protocol/writable-kinds.ts`);
      return writes;
    };
    this.sections = writesOfKind(sectionKind);
    this.sprints = writesOfKind(sprintKind);
    this.goals = writesOfKind(goalKind);
    this.milestones = writesOfKind(milestoneKind);
    // A first load cut short: if its pass is not running any more, finish its build.
    const firstLoad = syncPasses.row('tasks', '');
    if (hasDeferredSortIndexes(db) && !(firstLoad?.state === 'running' && firstLoad.partial === 0)) {
      this.finishDeferredBuild();
    }
    this.feed = new ChangeFeed(db, tx);
    this.openings = new TaskOpenings(db, tx);
    this.drafts = new MirrorDrafts(db, tx);
  }

  /**
   * Changes whenever the data may have: this connection's own writes, and
   * commits by other connections to the file (a sync worker's), which
   * `PRAGMA data_version` reports. Caches of derived answers compare it.
   */
  private version(): string {
    return `${this.store.version}:${this.dataVersion.get()?.data_version ?? 0}`;
  }

  /**
   * Changes whenever a task list's answer may have (task-store.ts contentChanges: this
   * connection's own writes, and another connection's, counted in task_changes), but not
   * on a commit of another connection that changed none (a pass's page of tasks the server
   * sent unchanged, another table's rows): the list's caches compare it. At a million tasks
   * a pass re-checking them committed pages many times a second while the person typed, and each
   * keystroke read its broad search's places in the order again (25 steps, 200-270 ms of CPU).
   */
  private taskVersion(): string {
    const dataVersion = this.dataVersion.get()?.data_version ?? 0;
    if (this.taskChangesRead?.dataVersion !== dataVersion)
      this.taskChangesRead = { dataVersion, n: this.taskChanges.get() ?? 0 };
    return `${this.store.contentChanges}:${this.taskChangesRead.n}`;
  }

  /** Runs a write, counting it in task_changes, in its transaction, when it may have changed a task list's answer. */
  private counted<T>(work: () => T): T {
    const before = this.store.contentChanges;
    const result = work();
    if (this.store.contentChanges !== before) {
      this.countTaskChanges.run();
      // Read again: this connection's own commit leaves data_version as it was.
      this.taskChangesRead = null;
    }
    return result;
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
    if (this.db.inTransaction) return this.db.transaction(() => this.counted(work))();
    return this.transaction(work, durability, 'wait');
  }

  /**
   * Runs `work` (any of this mirror's writes, one or several) as ONE
   * transaction that fails at once as `locked` when another connection (the
   * pull worker: a page, an index build step) holds the write lock, instead
   * of sleeping in SQLite's busy handler, which would freeze this thread.
   * Nothing of `work` has run then; see writeWhenFree, which tries again.
   * It commits 'interim' (no fsync on this thread): writeWhenFree waits for
   * the log's flush when what it wrote must be on disk.
   */
  withoutWaiting<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    return this.transaction(work, 'interim', 'fail-fast');
  }

  private transaction<T>(work: () => T, durability: Durability, lock: 'wait' | 'fail-fast'): T {
    let busyTimeout: unknown = null;
    try {
      // Server data can be fetched again; a person's edit cannot (see open-mirror.ts).
      const synchronous = durability === 'local' ? 'FULL' : 'NORMAL';
      if (this.synchronous !== synchronous) {
        this.db.pragma(`synchronous = ${synchronous}`);
        this.synchronous = synchronous;
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
          return this.counted(work);
        })
        .immediate();
      this.words.committed();
      if (durability === 'interim' || (durability === 'server' && this.flushesServerCommits))
        this.logFlush.soon();
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

  // ---- upkeep --------------------------------------------------------------------

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
   * The end of a first load builds the indexes it went without, in the
   * background; any full pass is when task rows changed most: refresh the
   * planner's statistics.
   */
  private afterFullTaskPass(): void {
    if (this.read(() => hasDeferredSortIndexes(this.db))) this.finishDeferredBuild();
    else this.optimize();
  }

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
          if (this.flushesServerCommits) this.logFlush.soon();
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
        // A turn of its own, as every other stepped job's (next-turn.ts).
        if (more) void nextTurn().then(step);
        else {
          this.indexBuild = null;
          resolve();
        }
      };
      void nextTurn().then(step);
    });
  }

  /** Resolves once no sort index waits to be built (after a first load's last page). */
  async sortIndexesReady(): Promise<void> {
    while (this.indexBuild) await this.indexBuild;
  }

  /** Refreshes the query planner's statistics (bounded work; done after a full task pass). */
  /** The changes of a kind kept as one of the other collections (a section, sprint, goal, milestone); null for others. */
  writesOf(entityType: string): CollectionWrites | null {
    return this.collectionWrites.get(entityType) ?? null;
  }

  optimize(): void {
    this.read(() => this.db.pragma('optimize'));
  }

  /**
   * Copies the write-ahead log into the database file as far as no reader
   * still needs it (PASSIVE: it waits for no lock). The pull worker's
   * connection runs it for the app's, whose commits never do (keepLogShort).
   */
  checkpoint(): void {
    this.read(() => this.db.pragma('wal_checkpoint(PASSIVE)'));
  }

  /**
   * Names the connection that checkpoints this one's log (the sync engine's
   * pull worker; null: none), for keepLogShort. The app's main thread opens
   * its connection so that no commit of it checkpoints (open-mirror.ts:
   * `another-connection`); that worker's connection does, but only inside
   * its own commits.
   */
  checkpointsThrough(checkpoint: (() => Promise<void>) | null): void {
    this.logCheckpointer = checkpoint;
  }

  /**
   * For a writer that commits many times in a row on this connection (a bulk
   * change's chunks), before each write: past the log's size limit, waits
   * (up to CHECKPOINT_WAIT_MS) for the checkpointing connection to copy the
   * log into the file. With no write landing meanwhile the copy is whole, and
   * the next commit then starts the log again from its beginning, cut back to
   * the limit. Without this, a bulk change of 50 000 tasks at a million (~5 MB
   * of log a chunk: its tasks' scattered index pages) grew the log to 9 GB,
   * and the kernel's writeback of it took 7 s of CPU beside the change. A
   * checkpoint that fails is left to the next call: the writes go on.
   */
  async keepLogShort(): Promise<void> {
    if (this.logCheckpointer === null || this.logSize() <= this.logLimitBytes) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CHECKPOINT_WAIT_MS);
    });
    try {
      await Promise.race([this.logCheckpointer().catch(() => undefined), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The write-ahead log file's size in bytes (0 when there is none). */
  private logSize(): number {
    try {
      return statSync(`${this.file}-wal`).size;
    } catch {
      return 0;
    }
  }

  /** Background flushes of the log done (whatever their outcome): tests. */
  get logFlushes(): number {
    return this.logFlush.flushes;
  }

  /**
   * Resolves once no background log flush is running: every commit that asked
   * for one before this call is on disk (a bulk change's interim writes, a
   * person's write through writeWhenFree; tests). Fails as MirrorStorageError
   * `io` when a flush failed meanwhile.
   */
  async logFlushed(): Promise<void> {
    const failures = this.logFlush.failures;
    await this.logFlush.settled();
    // A flush that failed meanwhile may have left these pages off the disk: said as an fsync in a commit would.
    const failed = this.logFlush.failedSince(failures);
    if (failed !== null)
      throw new MirrorStorageError('io', this.file, failed.code ?? null, { cause: failed });
  }

  close(): void {
    if (!this.db.open) return;
    this.logFlush.close();
    try {
      this.db.pragma('optimize');
    } catch {
      // Statistics are an optimisation; closing must not fail for them.
    }
    this.db.close();
  }
}
