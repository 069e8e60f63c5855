// The outbox of local changes, for every writable kind of resource (tasks,
// comments, collections; each kind's checks and mirror rows in db/outbox/kinds/).
// `mirror.outbox` is this class: one object for its callers, made of the parts
// that do the work, each documented where it lives: the rows and reads every
// part shares (outbox-rows.ts), queueing (queue.ts), the sending lifecycle
// (sending.ts), conflicts with their resolution (conflicts.ts), and a bulk
// change as one unit (outbox-batches.ts). Each public
// method is one of the mirror's transactions (a read, or a write with its
// effective-row update); the queueing methods run inside mirror.tasks' write.
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';
import type { TaskObject } from '../tasks/task-columns';
import type { TaskOverlay } from '../tasks/task-overlay';
import type { TaskStore } from '../tasks/task-store';
import { type BatchProgress, OutboxBatches } from './outbox-batches';
import { OutboxConflicts } from './conflicts';
import type { OutboxCounts } from './outbox-counts';
import { OutboxRows } from './outbox-rows';
import type {
  Conflict,
  ConflictInput,
  ConflictResolution,
  EditTarget,
  OutboxKind,
  OutboxOp,
  OutboxState,
  ParkedEdit,
  ServerAnswer,
} from './outbox-types';
import { OutboxQueue } from './queue';
import { OutboxSending } from './sending';

export class Outbox {
  readonly #rows: OutboxRows;
  readonly #queue: OutboxQueue;
  readonly #sending: OutboxSending;
  readonly #conflicts: OutboxConflicts;
  readonly #batches: OutboxBatches;

  constructor(
    db: Database,
    tx: MirrorTransactions,
    store: TaskStore,
    overlay: TaskOverlay,
    /** The running full task pass, whose number a task settled now is seen in (see PageApplication). */
    runningTaskPass: () => number | null,
  ) {
    this.#rows = new OutboxRows(db, tx, store, overlay, runningTaskPass);
    this.#queue = new OutboxQueue(this.#rows);
    this.#sending = new OutboxSending(this.#rows, this.#queue);
    this.#conflicts = new OutboxConflicts(this.#rows, this.#queue);
    this.#batches = new OutboxBatches(this.#rows, this.#queue);
  }

  // Reads and the kinds' checks (outbox-rows.ts).

  checkEdit(entityType: string, patch: TaskObject, kind: OutboxKind): void {
    this.#rows.checkEdit(entityType, patch, kind);
  }

  op(opId: string): OutboxOp {
    return this.#rows.op(opId);
  }

  /**
   * Whether any of these operations can no longer be called back (an undo's
   * concern): gone (sent and settled), being sent, stopped for the person,
   * or tried once. None of them: false.
   */
  someSent(opIds: readonly string[]): boolean {
    return this.#rows.someSent(opIds);
  }

  opsOf(entityType: string, entityId: string): OutboxOp[] {
    return this.#rows.opsOf(entityType, entityId);
  }

  opsUnder(entityType: string, parentId: string): OutboxOp[] {
    return this.#rows.opsUnder(entityType, parentId);
  }

  opsOfKind(entityType: string): OutboxOp[] {
    return this.#rows.opsOfKind(entityType);
  }

  list(states?: readonly OutboxState[]): OutboxOp[] {
    return this.#rows.list(states);
  }

  counts(): OutboxCounts {
    return this.#rows.counts();
  }

  // Queueing, inside a mirror write, and giving up (queue.ts).

  queueCreate(fields: TaskObject): { taskId: string; opId: string } {
    return this.#queue.queueCreate(fields);
  }

  queueNew(
    entityType: string,
    parentId: string | null,
    fields: TaskObject,
  ): { entityId: string; opId: string } {
    return this.#queue.queueNew(entityType, parentId, fields);
  }

  queueUpdate(...update: Parameters<OutboxQueue['queueUpdate']>): { opId: string } | null {
    return this.#queue.queueUpdate(...update);
  }

  queueEdit(target: EditTarget, patch: TaskObject): { opId: string } | null {
    return this.#queue.queueEdit(target, patch);
  }

  queueDelete(taskId: string): { opId: string } | null {
    return this.#queue.queueDelete(taskId);
  }

  queueRemoval(...removal: Parameters<OutboxQueue['queueRemoval']>): { opId: string } | null {
    return this.#queue.queueRemoval(...removal);
  }

  drop(opId: string): void {
    this.#queue.drop(opId);
  }

  inBatch<T>(batchId: string, work: () => T): T {
    return this.#queue.inBatch(batchId, work);
  }

  // A bulk change's operations as one unit (outbox-batches.ts).

  batchProgress(batchId: string): BatchProgress {
    return this.#batches.progress(batchId);
  }

  batchOps(batchId: string): OutboxOp[] {
    return this.#batches.ops(batchId);
  }

  stopBatchSome(batchId: string, limit: number, budgetMs?: number): { stopped: number; more: boolean } {
    return this.#batches.stopSome(batchId, limit, budgetMs);
  }

  // The sending lifecycle (sending.ts).

  ready(limit?: number): OutboxOp[] {
    return this.#sending.ready(limit);
  }

  start(opId: string): OutboxOp {
    return this.#sending.start(opId);
  }

  settle(opId: string, answer: ServerAnswer | null): string {
    return this.#sending.settle(opId, answer);
  }

  landServerCopy(opId: string, answer: ServerAnswer): void {
    this.#sending.landServerCopy(opId, answer);
  }

  fail(opId: string, state: 'failed' | 'blocked' | 'queued', problem: unknown): void {
    this.#sending.fail(opId, state, problem);
  }

  retry(opId: string, patch?: TaskObject): string {
    return this.#sending.retry(opId, patch);
  }

  unstart(opId: string, before: { state: OutboxState; attempts: number }): void {
    this.#sending.unstart(opId, before);
  }

  unblockAll(): number {
    return this.#sending.unblockAll();
  }

  // 412 outcomes, conflicts and their resolution (conflicts.ts).

  rebase(
    opId: string,
    rebase: { baseEtag: string | null; patch?: TaskObject; baseValues?: TaskObject },
  ): string {
    return this.#conflicts.rebase(opId, rebase);
  }

  conflict(opId: string, conflict: ConflictInput): Conflict[] {
    return this.#conflicts.conflict(opId, conflict);
  }

  holdDelete(opId: string, theirsEtag: string | null, problem: unknown, theirs?: TaskObject): void {
    this.#conflicts.holdDelete(opId, theirsEtag, problem, theirs);
  }

  parkStoppedEditsOfGoneTask(taskId: string): ParkedEdit[] {
    return this.#conflicts.parkStoppedEditsOfGoneTask(taskId);
  }

  openConflictCount(): number {
    return this.#conflicts.openConflictCount();
  }

  conflicts(state?: 'open' | 'resolved'): Conflict[] {
    return this.#conflicts.conflicts(state);
  }

  resolve(conflictId: string, resolution: ConflictResolution): Conflict {
    return this.#conflicts.resolve(conflictId, resolution);
  }

  leaveOutOfRecreate(opId: string, fields: readonly string[]): OutboxOp | null {
    return this.#conflicts.leaveOutOfRecreate(opId, fields);
  }
}
