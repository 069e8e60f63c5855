// What a task's row and editor show of its queued edits: one mark (pending,
// blocked, failed, conflict; the strongest wins) and the fields still waiting.
import type { Mirror } from './mirror';
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

/**
 * Marks of the tasks whose operations wait for the person (conflict, failed,
 * blocked), for a page of rows: few, so read per call. Other rows are
 * `pending` while their task has an edit queued.
 */
export class WaitingMarks {
  private readonly marks = new Map<string, TaskSyncMark>();

  constructor(mirror: Mirror) {
    for (const op of mirror.outbox.list(['conflict', 'failed', 'blocked'])) {
      this.marks.set(
        op.entityId,
        strongerMark(this.marks.get(op.entityId) ?? null, MARK_OF_STATE[op.state] ?? null),
      );
    }
  }

  /** The mark of a row: its waiting operations', else pending while an edit is queued. */
  of(taskId: string, pending: boolean): TaskSyncMark {
    return this.marks.get(taskId) ?? (pending ? 'pending' : null);
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
  // (db/task-overlay.ts movedOff) without the change naming it: it waits too.
  if (fields.has('project_id') && !fields.has('milestone_id')) {
    const found = mirror.tasks.get(taskId);
    if (found?.server?.milestone_id != null && found.task.milestone_id == null) fields.add('milestone_id');
  }
  return { mark, pendingFields: [...fields].sort() };
}
