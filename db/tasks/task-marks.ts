// What a task's row and editor show of its queued edits: one mark (pending,
// blocked, failed, conflict; the strongest wins), the fields still waiting, and
// the stopped change a queued edit is held behind (db/outbox/outbox-waits).
import type { Mirror } from '../mirror';
import type { OutboxOp } from '../outbox/outbox-types';
import { type WaitsOn, waitsOnOf } from '../outbox/outbox-waits';
import { UNSETTLED_STATES } from './task-overlay';

export type TaskSyncMark = 'pending' | 'blocked' | 'failed' | 'conflict' | null;

/** Unsettled outbox states and the mark each gives a task. */
const MARK_OF_STATE: Readonly<Record<string, Exclude<TaskSyncMark, null>>> = {
  queued: 'pending',
  in_flight: 'pending',
  blocked: 'blocked',
  failed: 'failed',
  conflict: 'conflict',
};
const MARK_STRENGTH: Readonly<Record<Exclude<TaskSyncMark, null>, number>> = {
  pending: 0,
  blocked: 1,
  failed: 2,
  conflict: 3,
};

function strongerMark(a: TaskSyncMark, b: TaskSyncMark): TaskSyncMark {
  if (a === null) return b;
  if (b === null) return a;
  return MARK_STRENGTH[b] > MARK_STRENGTH[a] ? b : a;
}

/** For each task, the stopped change its first held edit waits on; `ops` the unsettled operations. */
function heldTasks(mirror: Mirror, ops: readonly OutboxOp[]): Map<string, WaitsOn> {
  const held = new Map<string, WaitsOn>();
  const byId = new Map(ops.map((op) => [op.opId, op]));
  for (const [opId, waits] of waitsOnOf(mirror, ops)) {
    const op = byId.get(opId);
    if (op?.entityType === 'task' && !held.has(op.entityId)) held.set(op.entityId, waits);
  }
  return held;
}

/**
 * Marks of the tasks whose operations wait for the person (conflict, failed,
 * blocked), for a page of rows: few, so read per call. Other rows are
 * `pending` while their task has an edit queued. Only when something stopped
 * can an edit be held behind it: then the unsettled operations are read once.
 */
export class WaitingMarks {
  private readonly marks = new Map<string, TaskSyncMark>();
  private readonly held: ReadonlyMap<string, WaitsOn>;

  constructor(mirror: Mirror) {
    const stopped = mirror.outbox.list(['conflict', 'failed', 'blocked']);
    for (const op of stopped) {
      this.marks.set(
        op.entityId,
        strongerMark(this.marks.get(op.entityId) ?? null, MARK_OF_STATE[op.state] ?? null),
      );
    }
    this.held = stopped.length === 0 ? new Map() : heldTasks(mirror, mirror.outbox.list(UNSETTLED_STATES));
  }

  /** The mark of a row: its waiting operations', else pending while an edit is queued. */
  of(taskId: string, pending: boolean): TaskSyncMark {
    return this.marks.get(taskId) ?? (pending ? 'pending' : null);
  }

  /** The stopped change a queued edit of the task is held behind; null when none. */
  waitsOn(taskId: string): WaitsOn | null {
    return this.held.get(taskId) ?? null;
  }
}

/** One task's mark and the fields its unsettled edits change (sorted), for the editor. */
export function taskSyncState(
  mirror: Mirror,
  taskId: string,
  pending: boolean,
): { mark: TaskSyncMark; pendingFields: string[] } {
  let mark: TaskSyncMark = pending ? 'pending' : null;
  const fields = new Set<string>();
  for (const op of mirror.outbox.list(UNSETTLED_STATES)) {
    if (op.entityId !== taskId) continue;
    mark = strongerMark(mark, MARK_OF_STATE[op.state] ?? null);
    for (const field of Object.keys(op.patch)) fields.add(field);
  }
  // A move to another project clears the server's milestone on screen at once
  // (db/tasks/task-overlay.ts movedOff) without the change naming it: it waits too.
  if (fields.has('project_id') && !fields.has('milestone_id')) {
    const found = mirror.tasks.get(taskId);
    if (found?.server?.milestone_id != null && found.task.milestone_id == null) fields.add('milestone_id');
  }
  return { mark, pendingFields: [...fields].sort() };
}

/** The stopped change a queued edit of one task is held behind, for the editor; null when none. */
export function taskWaitsOn(mirror: Mirror, taskId: string): WaitsOn | null {
  const ops = mirror.outbox.list(UNSETTLED_STATES);
  if (ops.every((op) => op.state === 'queued' || op.state === 'in_flight')) return null;
  return heldTasks(mirror, ops).get(taskId) ?? null;
}
