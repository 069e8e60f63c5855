// `mirror.tasks`: the task list as screens and the sync engine read it (pages of
// a query, counts, one task, export, board aggregates) and a person's edits
// (queued in the outbox, shown at once), each in one of the mirror's transactions.
import type { Database } from 'better-sqlite3';
import {
  completionCountsOf,
  FILING_COUNTS,
  type FilingCount,
  filingCountInSteps,
  type FilingCountRow,
  type FilingCounts,
  filingCountSql,
  sectionCountsOf,
} from './filing-counts';
import { intakeCounts } from './intake-counts';
import { type EndPage, type EndPageOptions, EndPages } from '../task-query/from-end';
import type { Kysely } from 'kysely';
import { asStorageError } from '../mirror-errors';
import { nextTurn, workAhead } from '../next-turn';
import type { MirrorTransactions } from '../mirror-transactions';
import type { Outbox } from '../outbox/outbox';
import type { ChangeList, PageApplication } from '../passes/page-apply';
import {
  type LeftOutReference,
  leftOutReferences,
  recreateBody,
  withImpliedProject,
} from './recreate-references';
import type { MirrorDatabase } from '../schema';
import type { TaskObject } from './task-columns';
import {
  type BodyServerJson,
  COPY_ROW_COLUMNS,
  type CopyRow,
  storedFormFromRow,
  type StoredTaskJson,
  taskJsonOf,
} from './task-json';
import type { FilingField } from '../../protocol/writable-kind';
import { type FiledTask, filedTasks, tagsInUse } from './task-filing';
import type {
  TaskCountOptions,
  TaskListPage,
  TaskQueries,
  TaskQueryInput,
  TaskQueryOptions,
} from '../task-query/task-query';
import { effectiveTaskOf, serverTaskOf, type TaskStore } from './task-store';
import { asApplied, type TaskOverlay } from './task-overlay';
import { type SubTask, subTasksOf } from './sub-tasks';
import { type BulkTaskChange, type BulkTaskChanged, pickFields, taskPatchOf } from './bulk-task-change';

/** Writes between a page's steps read it again this many times at most; then it reads on through them. */
const PAGE_RESTARTS = 2;

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

/** A statement named an index another connection dropped meanwhile (a first load starting): plan again. */
export function indexWentAway(error: unknown): boolean {
  return error instanceof Error && /no such index/.test(error.message);
}

/** What the task part uses of the mirror besides its transactions. */
export interface MirrorTasksParts {
  db: Database;
  tx: MirrorTransactions;
  /** The database file (for error messages of a count in steps, which runs outside `read`). */
  file: string;
  store: TaskStore;
  /** Its waiting deletes read once for a bulk change's chunk (withWaitingDeletesRead). */
  overlay: TaskOverlay;
  queries: TaskQueries;
  outbox: Outbox;
  pages: PageApplication;
  /** Typed access for the filing reads (db/tasks/task-filing.ts). */
  kysely: Kysely<MirrorDatabase>;
  /** Forgets the cached index list: another connection dropped an index (a first load starting). */
  forgetIndexes: () => void;
}

export class MirrorTasks {
  private readonly db: Database;
  private readonly tx: MirrorTransactions;
  private readonly endPages: EndPages;
  private aggregateCache: { version: string; key: string; value: unknown }[] = [];

  constructor(private readonly parts: MirrorTasksParts) {
    this.db = parts.db;
    this.tx = parts.tx;
    this.endPages = new EndPages(
      parts.db,
      (query, options) => this.pageSteps(query, options),
      (taskId) => parts.store.ridOf(taskId),
    );
  }

  // ---- reading -----------------------------------------------------------------

  /** A page of the task list, in the service's vocabulary and order (see task-query.ts). */
  query(query: TaskQueryInput, options: TaskQueryOptions): TaskListPage {
    return this.tx.read(() => this.retryOnIndexChange(() => this.parts.queries.page(query, options)));
  }

  /**
   * The same page as `query` for the main process: in short steps (task-query.ts's `pageSteps`),
   * `between` awaited between them; a write between steps that may change the answer reads it
   * again (one state of the tasks). Another connection's commit that changed none (a pass's page
   * of tasks the server sent unchanged, many a second at a million tasks) does not restart it.
   */
  queryInSteps(
    query: TaskQueryInput,
    options: TaskQueryOptions,
    between: () => Promise<void> = nextTurn,
  ): Promise<TaskListPage> {
    return this.inSteps(() => this.pageSteps(query, options), between);
  }

  /**
   * Reads the places of the query's order in steps among main's other jobs (task-query.ts's `placesAhead`): asked
   * after the list's own page, as a list in this order may be searched next. Replaces the read
   * asked before; ends when they are all read or dropped (a write moved the data).
   */
  readPlacesAhead(query: TaskQueryInput): Promise<void> {
    const ahead = this.parts.queries.placesAhead(query);
    return workAhead(() => {
      try {
        return ahead();
      } catch (error) {
        // Nothing ahead to read now (another connection dropped the index: a first load starting);
        // a page's own statements meet any failure of the file and report it.
        if (indexWentAway(error)) this.parts.forgetIndexes();
        return null;
      }
    });
  }

  /**
   * A page counted from the list's end (task-query/from-end.ts), as `queryInSteps` runs a page:
   * the list's last rows in one call, where walking to them from the top took minutes at a million.
   */
  async queryFromEndInSteps(
    query: TaskQueryInput,
    options: EndPageOptions,
    between: () => Promise<void> = nextTurn,
  ): Promise<EndPage> {
    return this.inSteps(() => this.endPages.pageSteps(query, options), between);
  }

  /** Runs a read's steps, `between` awaited between them; a write between steps reads it again (one state of the file). */
  private async inSteps<T>(start: () => Generator<void, T, void>, between: () => Promise<void>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const version = this.parts.queries.answersVersion();
      const steps = start();
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) return step.value;
        await between();
        if (attempt < PAGE_RESTARTS && this.parts.queries.answersVersion() !== version) break;
      }
    }
  }

  /** The same page as `query`, a short synchronous step per `next()`: the steps queryInSteps runs. */
  *pageSteps(query: TaskQueryInput, options: TaskQueryOptions): Generator<void, TaskListPage, void> {
    return yield* this.stepsRetried(() => this.parts.queries.pageSteps(query, options));
  }

  /** Every match of the query, in one synchronous call (see `countInSteps` for the main process). */
  count(query: TaskQueryInput, options: TaskCountOptions): number {
    return this.tx.read(() => this.retryOnIndexChange(() => this.parts.queries.count(query, options)));
  }

  /** The same count as `count`, a short synchronous step per `next()` (task-query.ts's `countSteps`). */
  *countSteps(query: TaskQueryInput, options: TaskCountOptions): Generator<void, number, void> {
    return yield* this.stepsRetried(() => this.parts.queries.countSteps(query, options));
  }

  /** A read's steps, run again once when another connection dropped an index it was using (a first load starting). */
  private *stepsRetried<T>(start: () => Generator<void, T, void>): Generator<void, T, void> {
    for (let attempt = 0; ; attempt++) {
      const steps = start();
      try {
        for (;;) {
          const step = steps.next();
          if (step.done) return step.value;
          yield;
        }
      } catch (error) {
        if (attempt > 0 || !indexWentAway(error)) throw asStorageError(error, this.parts.file);
        this.parts.forgetIndexes();
      }
    }
  }

  /**
   * The same count as `count`, in steps with the event loop free between
   * them; null when `signal` aborted it first (nobody wants the answer any more).
   */
  async countInSteps(
    query: TaskQueryInput,
    options: TaskCountOptions,
    signal?: AbortSignal,
  ): Promise<number | null> {
    const steps = this.countSteps(query, options);
    for (;;) {
      if (signal?.aborted) return null;
      const step = steps.next();
      if (step.done) return step.value;
      await nextTurn();
    }
  }

  /** Another connection may drop an index between the plan and the step (a first load starting): plan again. */
  private retryOnIndexChange<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!indexWentAway(error)) throw error;
      this.parts.forgetIndexes();
      return work();
    }
  }

  /** One task, effective and as the server sent it; null when the mirror does not hold it. */
  get(taskId: string): MirroredTask | null {
    return this.tx.read(() => {
      const row = this.parts.store.byId(taskId);
      if (!row) return null;
      const server = serverTaskOf(row);
      return {
        task: effectiveTaskOf(row),
        server,
        etag: row.etag,
        pending: row.pending > 0,
        hidden: row.hidden === 1,
        serverGone: row.server_gone === 1,
      };
    });
  }

  /** Every shown task's effective JSON, one text per task (for export), by task id. */
  *exportJson(): Generator<string> {
    // A thousand at a time by keyset: 100 000 tasks never sit in memory at once.
    const chunk = this.db.prepare(
      `SELECT t.search_id AS k, t.t_id_case AS k_case, b.local_json AS local, b.server_json AS server,
              coalesce(s.text, '') AS search_text, ${COPY_ROW_COLUMNS}
         FROM tasks t INDEXED BY tasks_by_id JOIN task_bodies b ON b.rid = t.rid
         LEFT JOIN task_search_text s ON s.rid = t.rid
        WHERE t.hidden = 0 AND (t.search_id, t.t_id_case) > (?, ?) ORDER BY t.search_id, t.t_id_case LIMIT 1000`,
    );
    // The id index's order (migration 0028): ids by their lower case, then their own order; '' is below every key.
    let after: [string, string | Buffer] = ['', ''];
    for (;;) {
      const rows = this.tx.read(
        () =>
          chunk.all(...after) as ({
            k: string;
            k_case: string | Buffer;
            local: StoredTaskJson | null;
            server: BodyServerJson;
          } & CopyRow)[],
      );
      // A shown task has a server copy or pending edits (a local create): never neither.
      for (const row of rows) yield taskJsonOf(row.local ?? storedFormFromRow(row.server, row));
      const last = rows.at(-1);
      if (!last || rows.length < 1000) return;
      after = [last.k, last.k_case];
    }
  }

  /** How many (effective, shown) tasks the mirror holds. */
  total(): number {
    return this.tx.read(
      () => (this.db.prepare('SELECT count(*) AS n FROM tasks WHERE hidden = 0').get() as { n: number }).n,
    );
  }

  private cachedAggregate<T>(key: string, compute: () => T): T {
    const version = this.tx.read(() => this.tx.version());
    const hit = this.aggregateCache.find((c) => c.key === key && c.version === version);
    if (hit) return hit.value as T;
    const value = this.tx.read(compute);
    this.remember(key, version, value);
    return value;
  }

  private remember(key: string, version: string, value: unknown): void {
    this.aggregateCache = [...this.aggregateCache.filter((c) => c.key !== key), { key, version, value }];
  }

  // The three counts below each walk their partial index alone (filing-counts.ts).

  /** `task_count` per section: tasks filed in it, every status. */
  sectionCounts(): Map<string, number> {
    return sectionCountsOf(this.filingCountRows('sections'));
  }

  /** `task_count` / `completed_count` per sprint. */
  sprintCounts(): Map<string, { total: number; completed: number }> {
    return completionCountsOf(this.filingCountRows('sprints'));
  }

  /** `tasks_total` / `tasks_completed` per goal, subtasks excluded (contract: GoalOut). */
  goalCounts(): Map<string, { total: number; completed: number }> {
    return completionCountsOf(this.filingCountRows('goals'));
  }

  /** A filing count's groups, as last counted unless the tasks changed since (then in one read). */
  private filingCountRows(count: FilingCount): FilingCountRow[] {
    return this.cachedAggregate(
      count,
      () => this.db.prepare(filingCountSql(count)).all() as FilingCountRow[],
    );
  }

  /**
   * The filing counts (sectionCounts, sprintCounts, goalCounts), those the tasks changed since
   * counted again a few groups a read (about `tasksPerRead` tasks) with the event loop free
   * between. At a million tasks each count in one read held main 25-50 ms of CPU, the three
   * ~120 ms, and the sidebar asks for them after every change of tasks (workspace:get).
   * Answered as counted, though the tasks change during the walk: during a bulk change at a
   * million tasks they changed at every step, and the sidebar's call that then read the counts
   * afresh held main ~100 ms in one step. A change during the walk is told (mirror:changed) and
   * the sidebar asks again, which counts again; those calls and the next walk answer from it.
   */
  async countFilingsInSteps(tasksPerRead?: number): Promise<FilingCounts> {
    const counted: Partial<Record<FilingCount, FilingCountRow[]>> = {};
    for (const count of FILING_COUNTS) {
      const version = this.tx.read(() => this.tx.version());
      const kept = this.aggregateCache.find((c) => c.key === count && c.version === version);
      if (kept) {
        counted[count] = kept.value as FilingCountRow[];
        continue;
      }
      const rows = await filingCountInSteps(this.db, (work) => this.tx.read(work), count, tasksPerRead).catch(
        (error: unknown) => {
          // Its index is gone while a first load writes (deferred-indexes.ts: the steps name it): the
          // one read, which SQLite plans without it.
          if (!indexWentAway(error)) throw error;
          return this.tx.read(() => this.db.prepare(filingCountSql(count)).all() as FilingCountRow[]);
        },
      );
      // Kept as of the version the walk began at: a change during it has the next call count again.
      this.remember(count, version, rows);
      counted[count] = rows;
    }
    return {
      sections: sectionCountsOf(counted.sections ?? []),
      sprints: completionCountsOf(counted.sprints ?? []),
      goals: completionCountsOf(counted.goals ?? []),
    };
  }

  /** The visible tasks filed under some sections, sprints or goals, in board order (db/tasks/task-filing.ts). */
  filed(
    field: FilingField,
    values: readonly string[],
    limit: number,
  ): Promise<{ tasks: FiledTask[]; truncated: boolean }> {
    return filedTasks(this.parts.kysely, field, values, limit);
  }

  /** The shown tasks under `parentId`, in board order (db/tasks/sub-tasks.ts). */
  subTasks(parentId: string): SubTask[] {
    return this.tx.read(() => subTasksOf(this.db, parentId));
  }

  /** How many tasks wait in each team's intake, by team id (db/tasks/intake-counts.ts). */
  intakeCounts(): Record<string, number> {
    return this.tx.read(() => intakeCounts(this.db));
  }

  /** The tags in use on visible tasks, most used first (db/tasks/task-filing.ts); `stepRows`: tests. */
  tagsInUse(stepRows?: number): Promise<string[]> {
    return tagsInUse(this.db, (work) => this.tx.read(work), stepRows);
  }

  // ---- a person's edits (queued in the outbox, shown at once) --------------------

  /** Queues a new task; it shows at once under a temporary id (`local-…`). */
  create(fields: TaskObject): { taskId: string; opId: string } {
    return this.tx.write(() => this.parts.outbox.queueCreate(fields));
  }

  /** Queues an edit (only the fields given); shown at once. Null when it changes nothing. */
  edit(taskId: string, patch: TaskObject): { opId: string } | null {
    return this.tx.write(() => this.parts.outbox.queueUpdate(taskId, this.withMoveClearing(taskId, patch)));
  }

  /**
   * A move to another project clears the task's milestone (contract). When
   * the milestone came from an edit still waiting here, that edit would fold
   * into this one and send a milestone of the old project with the move (a
   * 422); so the move says `milestone_id: null` itself. A milestone the server
   * already holds is left to the service to clear (the overlay shows it gone).
   */
  private withMoveClearing(taskId: string, patch: TaskObject): TaskObject {
    if (!('project_id' in patch) || 'milestone_id' in patch) return patch;
    const row = this.parts.store.byId(taskId);
    if (!row) return patch;
    const effective = effectiveTaskOf(row);
    const server = serverTaskOf(row);
    const fromPendingEdit = (effective.milestone_id ?? null) !== (server?.milestone_id ?? null);
    const moved = patch.project_id !== effective.project_id;
    return moved && effective.milestone_id != null && fromPendingEdit
      ? { ...patch, milestone_id: null }
      : patch;
  }

  /**
   * Row ids of tasks (one short read): a bulk change writes its tasks in row
   * id order (db/tasks/bulk-change.ts). A task not stored is left out.
   */
  ridsOf(taskIds: readonly string[]): Map<string, number> {
    return this.tx.read(() => {
      const rids = new Map<string, number>();
      for (const taskId of taskIds) {
        const rid = this.parts.store.ridOf(taskId);
        if (rid !== undefined) rids.set(taskId, rid);
      }
      return rids;
    });
  }

  /**
   * Queues one bulk change for some tasks, as part of `batchId` (one write):
   * per task the edit a person would make of it (tags added to and removed
   * from its own), or its delete. A task gone meanwhile, or one the change
   * leaves as it is, is counted and skipped. With `budgetMs`, takes the ids in
   * order until that time went (at least one): `taken` says how many.
   */
  bulkChunk(
    taskIds: readonly string[],
    change: BulkTaskChange,
    batchId: string,
    /** Stop taking tasks once this much time went (ms): the rest is the caller's next chunk. */
    budgetMs = Infinity,
    /** Hears each task the change changed (an undo's record of it). */
    onChanged?: (changed: BulkTaskChanged) => void,
  ): { taken: number; queued: number; setBack: number; unchanged: number; missing: number } {
    const outcome = { taken: 0, queued: 0, setBack: 0, unchanged: 0, missing: 0 };
    const started = performance.now();
    // A task's edit or delete never queues a goal's, milestone's or section's
    // delete: the waiting ones are read once for the chunk, not up to three
    // queries per task.
    this.tx.write(() =>
      this.parts.overlay.withWaitingDeletesRead(() =>
        this.parts.outbox.inBatch(batchId, () => {
          for (const taskId of taskIds) {
            if (outcome.taken > 0 && performance.now() - started > budgetMs) return;
            outcome.taken += 1;
            const row = this.parts.store.byId(taskId);
            if (!row || row.hidden) {
              outcome.missing += 1;
              continue;
            }
            const effective = effectiveTaskOf(row);
            if (change.kind === 'delete') {
              const deleted = this.parts.outbox.queueDelete(taskId);
              onChanged?.({ taskId, before: effective, after: null, opId: deleted?.opId ?? null });
              outcome.queued += 1;
              continue;
            }
            const patch = taskPatchOf(change, effective);
            const sent = Object.keys(patch).length === 0 ? patch : this.withMoveClearing(taskId, patch);
            if (Object.keys(sent).length === 0) {
              outcome.unchanged += 1;
              continue;
            }
            const queued = this.parts.store.withKnownRow(row, () =>
              this.parts.outbox.queueUpdate(taskId, sent, row),
            );
            // Nothing queued for a task that differed: its waiting change was set back to the
            // service's values and dropped. A change all the same, which its undo puts back.
            if (queued === null) outcome.setBack += 1;
            else outcome.queued += 1;
            const applied = asApplied(effective, sent);
            onChanged?.({
              taskId,
              before: pickFields(effective, applied),
              after: applied,
              opId: queued?.opId ?? null,
            });
          }
        }),
      ),
    );
    return outcome;
  }

  /**
   * Edits of many tasks in one write (an undo or redo of a bulk change): each
   * folds into what is not sent or is queued to send, as a person's edit.
   * Returns the tasks gone meanwhile, left as they are.
   */
  editMany(edits: readonly { taskId: string; patch: TaskObject }[]): string[] {
    return this.tx.write(() => {
      const gone: string[] = [];
      for (const { taskId, patch } of edits) {
        const row = this.parts.store.byId(taskId);
        if (!row || row.hidden) gone.push(taskId);
        else this.parts.outbox.queueUpdate(taskId, patch, row);
      }
      return gone;
    });
  }

  /**
   * Queues a task again from the values it had (an undone delete the server
   * already took: the service has no undelete), under a new id, with what a
   * re-create on a conflict would send (recreateBody).
   */
  recreate(values: TaskObject): { taskId: string; opId: string } {
    return this.tx.write(() => this.parts.outbox.queueCreate(recreateBody(this.db, values)));
  }

  /** Queues a delete; lists stop showing the task at once. Null when the task never reached the server. */
  delete(taskId: string): { opId: string } | null {
    return this.tx.write(() => this.parts.outbox.queueDelete(taskId));
  }

  /**
   * What a re-create of this task ("mine" on its delete on the server) leaves
   * out: references the person can no longer use (db/recreate-references).
   */
  leftOutOnRecreate(taskId: string): LeftOutReference[] {
    return this.tx.read(() => {
      const row = this.parts.store.byId(taskId);
      if (!row) return [];
      const effective = effectiveTaskOf(row);
      return leftOutReferences(this.db, withImpliedProject(this.db, effective));
    });
  }

  // ---- the server's copy of one task -------------------------------------------

  /**
   * A single task read from the server (GET, or the body of a 412 read): it
   * becomes the server copy; pending edits stay on top of it.
   */
  applyServerCopy(task: unknown, etag: string | null): ChangeList {
    return this.tx.write(() => this.parts.pages.applyServerTask(task, etag), 'server');
  }

  /** A single read answered 404: the task is gone from the server (kept while edits are pending). */
  removeServerCopy(taskId: string): ChangeList {
    return this.tx.write(() => this.parts.pages.removeServerTask(taskId), 'server');
  }
}
