// A person's own changes of this session as steps to undo and redo: a task's
// edit, move or filing (an edit of its fields), create and delete, a bulk
// change as one step, and a comment's create, edit and delete. An undo is a change like any other, queued in the
// outbox: one not sent yet folds back there (a field set back to its base
// drops out, a create never sent is discarded with its delete), one already
// sent goes as a reverse edit with If-Match, whose 412 is a conflict like any
// other. The service has no undelete: a delete it took is undone by creating
// the task (the comment) again under a new id, and the step's label says so.
import { randomUUID } from 'node:crypto';
import { EDITABLE_TASK_FIELDS } from '../../protocol/task';
import type { Mirror } from '../mirror';
import type { OutboxOp } from '../outbox/outbox-types';
import type { TaskObject } from '../tasks/task-columns';
import type { BulkTaskChanged } from '../tasks/bulk-task-change';
import { nextTurn } from '../next-turn';
import { writeWhenFree } from '../write-when-free';

/** One task's change within a step: the changed fields before and after (a delete: after null; a create: before null). */
interface TaskChange {
  taskId: string;
  before: TaskObject | null;
  after: TaskObject | null;
  /** The operation that carries the change (a delete's: whether it was sent). */
  opId: string | null;
}

interface UndoStep {
  kind: 'edit' | 'create' | 'delete';
  /** What the step changed: tasks, or one comment (its values: content, task_id, parent_comment_id). */
  entity: 'task' | 'comment';
  changes: TaskChange[];
}

/** What an undo or a redo did: its label, the tasks it touched, and the batch of a step of many tasks with something to send. */
export interface UndoneStep {
  /** What it did, as its label said when it began ("Undo status change"). */
  label: string;
  touched: string[];
  /** Null for one task's step, or when nothing is left to send (it all folded back in the outbox). */
  batch: { batchId: string; queued: number } | null;
}

/** The labels of what an undo and a redo would do now; null when there is nothing to. */
export interface UndoLabels {
  undo: string | null;
  redo: string | null;
}

/** The fields a move of a task (on the board, to another project) changes. */
const MOVE_FIELDS = new Set(['section_id', 'position', 'project_id', 'milestone_id']);

/** Tasks changed per write of an undo or redo of a bulk change (a person's edit costs ~0.15 ms, plus a commit). */
const PER_WRITE = 100;
/**
 * A step's operations read a step to tell whether one was sent (Outbox.someSent: ~2 µs each at
 * 100 000 tasks): a bulk delete of 50 000 holds main ~10 ms a read, not ~100 ms in one.
 */
const SENT_CHECKED_PER_READ = 5000;
/** A step's changes whose fields are gathered a turn (fieldsOf): ~1.6 µs a change at a million tasks. */
const FIELDS_READ_PER_TURN = 5000;

const histories = new WeakMap<Mirror, UndoHistory>();

/** The session's history of an account's changes: one per open mirror, kept across screens. */
export function undoHistoryOf(mirror: Mirror): UndoHistory {
  let history = histories.get(mirror);
  if (history === undefined) {
    history = new UndoHistory(mirror);
    histories.set(mirror, history);
  }
  return history;
}

export class UndoHistory {
  private readonly undos: UndoStep[] = [];
  private readonly redos: UndoStep[] = [];
  /** Tasks that came back under another id (a temporary id the server replaced, a re-created task). */
  private readonly moved = new Map<string, string>();
  /** Steps with a delete the server took (someDeleteSent): it stays so. */
  private readonly sentSteps = new WeakSet<UndoStep>();
  /** Each step's fields (fieldsOf). */
  private readonly stepFields = new WeakMap<UndoStep, Promise<string[]>>();

  constructor(private readonly mirror: Mirror) {}

  /** An edit of one task, with its values before; a new change clears what could be redone. */
  edited(taskId: string, before: TaskObject, after: TaskObject, opId: string | null): void {
    this.push({ kind: 'edit', entity: 'task', changes: [{ taskId, before, after, opId }] });
  }

  created(taskId: string, fields: TaskObject, opId: string): void {
    this.push({ kind: 'create', entity: 'task', changes: [{ taskId, before: null, after: fields, opId }] });
  }

  deleted(taskId: string, before: TaskObject, opId: string | null): void {
    this.push({ kind: 'delete', entity: 'task', changes: [{ taskId, before, after: null, opId }] });
  }

  /**
   * A comment's change: created (before null), edited, or deleted (after
   * null); its values are its content, task_id and parent_comment_id.
   */
  commentChanged(
    commentId: string,
    before: TaskObject | null,
    after: TaskObject | null,
    opId: string | null,
  ): void {
    const kind = before === null ? 'create' : after === null ? 'delete' : 'edit';
    this.push({ kind, entity: 'comment', changes: [{ taskId: commentId, before, after, opId }] });
  }

  /** A bulk change, as one step: what it did to each task (queueBulkChange's onChanged). */
  bulkChanged(changes: readonly BulkTaskChanged[]): void {
    if (changes.length === 0) return;
    this.push({
      kind: changes[0]?.after === null ? 'delete' : 'edit',
      entity: 'task',
      changes: [...changes],
    });
  }

  /** A task's id changed (its create was sent): steps naming the old id follow it. */
  renamed(from: string, to: string): void {
    this.moved.set(from, to);
  }

  async labels(): Promise<UndoLabels> {
    const undo = this.undos.at(-1);
    const redo = this.redos.at(-1);
    return {
      undo: undo === undefined ? null : await this.label(undo, 'undo'),
      redo: redo === undefined ? null : await this.label(redo, 'redo'),
    };
  }

  /** Undoes the last step; returns what it did (null: nothing to undo). */
  async undo(): Promise<UndoneStep | null> {
    return this.replay(this.undos, this.redos, 'undo');
  }

  async redo(): Promise<UndoneStep | null> {
    return this.replay(this.redos, this.undos, 'redo');
  }

  /** Undo and redo are one move: the last step of one stack is applied and lands on the other. */
  private async replay(from: UndoStep[], to: UndoStep[], way: 'undo' | 'redo'): Promise<UndoneStep | null> {
    // Taken off its stack before anything awaits: a second undo meanwhile takes the step below,
    // and each one's label names its own step.
    const step = from.pop();
    if (step === undefined) return null;
    const label = await this.label(step, way);
    const done = await this.apply(step, way);
    to.push(done.step);
    return this.outcome(done, label);
  }

  private outcome({ step, batchId }: { step: UndoStep; batchId: string | null }, label: string): UndoneStep {
    const queued = batchId === null ? 0 : this.mirror.outbox.batchProgress(batchId).total;
    return {
      label,
      touched: step.changes.map((change) => change.taskId),
      batch: batchId === null || queued === 0 ? null : { batchId, queued },
    };
  }

  private push(step: UndoStep): void {
    this.undos.push(step);
    this.redos.length = 0;
  }

  private async label(step: UndoStep, way: 'undo' | 'redo'): Promise<string> {
    return `${way === 'undo' ? 'Undo' : 'Redo'} ${await this.describe(step, way)}`;
  }

  private async describe(step: UndoStep, way: 'undo' | 'redo'): Promise<string> {
    if (step.entity === 'comment') {
      if (step.kind !== 'delete') return step.kind === 'create' ? 'new comment' : 'comment edit';
      const sent = way === 'undo' && (await this.someDeleteSent(step));
      return sent ? 'comment delete: posts it again as a new comment' : 'comment delete';
    }
    const count = step.changes.length;
    const tasks = count === 1 ? '' : ` of ${count} tasks`;
    if (step.kind === 'create') return 'new task';
    if (step.kind === 'delete') {
      if (way === 'redo') return `delete${tasks}`;
      // The service has no undelete: a delete it took comes back as a new task.
      return (await this.someDeleteSent(step))
        ? `delete${tasks}: re-creates the task with a new id`
        : `delete${tasks}`;
    }
    const fields = await this.fieldsOf(step);
    // A board move sends its section and place (and a move to another project clears the milestone).
    if (fields.every((field) => MOVE_FIELDS.has(field)) && fields.some((field) => field !== 'milestone_id'))
      return `move${tasks}`;
    return `${fields.map((field) => field.replace(/_id$/, '').replace(/_/g, ' ')).join(', ')} change${tasks}`;
  }

  /** The task's id now: the server's once its create was sent, a re-created task's new one. */
  private current(change: TaskChange, entity: UndoStep['entity']): string {
    let id = change.taskId;
    for (let seen = 0; this.moved.has(id) && seen < 100; seen++) id = this.moved.get(id) as string;
    const held =
      entity === 'task' ? this.mirror.tasks.get(id) !== null : this.mirror.comments.read(id) !== null;
    if (!held && change.opId !== null) {
      const op = this.opOf(change.opId);
      if (op !== null && op.entityId !== id) {
        this.moved.set(id, op.entityId);
        id = op.entityId;
      }
    }
    return id;
  }

  private opOf(opId: string): OutboxOp | null {
    try {
      return this.mirror.outbox.op(opId);
    } catch {
      return null;
    }
  }

  /** A delete the server took or is taking: it can no longer be called back in the outbox. */
  private deleteSent(change: TaskChange): boolean {
    return change.opId !== null && this.mirror.outbox.someSent([change.opId]);
  }

  /**
   * Whether a delete of the step's went to the server (its undo re-creates), its operations read
   * SENT_CHECKED_PER_READ at a time with the event loop free between. Once one has, it stays so:
   * kept, and the step's operations not read again (a label is asked after each change).
   */
  private async someDeleteSent(step: UndoStep): Promise<boolean> {
    if (this.sentSteps.has(step)) return true;
    const opIds = step.changes.flatMap((change) => (change.opId === null ? [] : [change.opId]));
    for (let from = 0; from < opIds.length; from += SENT_CHECKED_PER_READ) {
      if (from > 0) await nextTurn();
      if (this.mirror.outbox.someSent(opIds.slice(from, from + SENT_CHECKED_PER_READ))) {
        this.sentSteps.add(step);
        return true;
      }
    }
    return false;
  }

  /**
   * The fields the step's changes set, in their order first seen: kept per step (its changes
   * never change), read once, FIELDS_READ_PER_TURN changes a step. At a million tasks, gathering
   * them anew for a bulk change's 66 789 changes held main ~38 ms for each label asked, and
   * gathering those of 50 000 once held it 80 ms (CPU profiles of `bench ui`'s bulk change).
   */
  private fieldsOf(step: UndoStep): Promise<string[]> {
    let fields = this.stepFields.get(step);
    if (fields === undefined) {
      fields = fieldsSet(step.changes);
      this.stepFields.set(step, fields);
    }
    return fields;
  }

  /**
   * Applies a step one way; returns the step as it stands after (ids a create
   * gave) and, for a step of many tasks, the batch its operations were queued
   * under: followed and stopped as a bulk change is ("N of M sent").
   */
  private async apply(
    step: UndoStep,
    way: 'undo' | 'redo',
  ): Promise<{ step: UndoStep; batchId: string | null }> {
    const batchId = step.entity === 'task' && step.changes.length > 1 ? randomUUID() : null;
    const out: TaskChange[] = [];
    for (let from = 0; from < step.changes.length; from += PER_WRITE) {
      if (from > 0) await nextTurn();
      const chunk = step.changes.slice(from, from + PER_WRITE);
      const applyChunk = () =>
        chunk.map((change) =>
          step.entity === 'task' ? this.applyOne(change, way) : this.applyToComment(change, way),
        );
      out.push(
        ...(await writeWhenFree(this.mirror, () =>
          batchId === null ? applyChunk() : this.mirror.outbox.inBatch(batchId, applyChunk),
        )),
      );
    }
    return { step: { ...step, changes: out }, batchId };
  }

  /** A comment's change undone or redone, as a task's is (applyOne). */
  private applyToComment(change: TaskChange, way: 'undo' | 'redo'): TaskChange {
    const commentId = this.current(change, 'comment');
    const target = way === 'undo' ? change.before : change.after;
    const comments = this.mirror.comments;
    if (target === null) {
      const deleted = comments.read(commentId) === null ? null : comments.delete(commentId);
      return { ...change, taskId: commentId, opId: deleted?.opId ?? null };
    }
    const content = String(target.content);
    const wasDeleted = way === 'undo' ? change.after === null : change.before === null;
    if (!wasDeleted) {
      comments.edit(commentId, content);
      return { ...change, taskId: commentId };
    }
    if (way === 'undo' && !this.deleteSent(change) && change.opId !== null) {
      this.mirror.outbox.drop(change.opId);
      comments.edit(commentId, content);
      return { ...change, taskId: commentId, opId: null };
    }
    // A reply whose comment is gone meanwhile comes back as a comment of its own.
    const parent = typeof target.parent_comment_id === 'string' ? target.parent_comment_id : null;
    const created = comments.create({
      taskId: String(target.task_id),
      content,
      parentCommentId: parent !== null && comments.read(parent) !== null ? parent : null,
    });
    this.moved.set(commentId, created.commentId);
    return { ...change, taskId: created.commentId, opId: created.opId };
  }

  private applyOne(change: TaskChange, way: 'undo' | 'redo'): TaskChange {
    const taskId = this.current(change, 'task');
    const target = way === 'undo' ? change.before : change.after;
    const tasks = this.mirror.tasks;
    if (target === null) {
      // Undo a create, redo a delete: the task goes (a create never sent is discarded with it).
      const deleted = tasks.get(taskId)?.hidden === false ? tasks.delete(taskId) : null;
      return { ...change, taskId, opId: deleted?.opId ?? null };
    }
    const wasDeleted = way === 'undo' ? change.after === null : change.before === null;
    if (!wasDeleted) {
      tasks.editMany([{ taskId, patch: target }]);
      return { ...change, taskId };
    }
    if (way === 'undo' && !this.deleteSent(change) && change.opId !== null) {
      // A delete never sent is called back: the server's copy shows again, then the edits it made moot.
      this.mirror.outbox.drop(change.opId);
      const editable: TaskObject = {};
      for (const field of EDITABLE_TASK_FIELDS) if (field in target) editable[field] = target[field] ?? null;
      tasks.editMany([{ taskId, patch: editable }]);
      return { ...change, taskId, opId: null };
    }
    // Redo a create, undo a delete the server took: the task comes again under a new id.
    const created = tasks.recreate(target);
    this.moved.set(taskId, created.taskId);
    return { ...change, taskId: created.taskId, opId: created.opId };
  }
}

/** The fields a step's changes set, in their order first seen, with the event loop free between reads. */
async function fieldsSet(changes: readonly TaskChange[]): Promise<string[]> {
  const seen = new Set<string>();
  for (let from = 0; from < changes.length; from += FIELDS_READ_PER_TURN) {
    if (from > 0) await nextTurn();
    const to = Math.min(changes.length, from + FIELDS_READ_PER_TURN);
    for (let at = from; at < to; at++)
      for (const field of Object.keys(changes[at]?.after ?? {})) seen.add(field);
  }
  return [...seen];
}
