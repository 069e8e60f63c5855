// What a person may do with a change that waits (retry it, discard it, settle
// its conflicts), with the rules of when each is allowed, in one place for the
// app's inspector and the headless command.
import type { Mirror } from '../mirror';
import type { ConflictResolution } from './outbox-types';
import type { TaskObject } from '../tasks/task-columns';

export type OutboxReviewProblem =
  'not-retryable' | 'not-discardable' | 'conflict-settled' | 'conflict-elsewhere';

/** An action the operation's state does not allow; `type` says which rule. */
export class OutboxReviewError extends Error {
  override readonly name = 'OutboxReviewError';
  constructor(
    readonly type: OutboxReviewProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Sends a failed or blocked operation again, with `patch` over its values when the person edited it. Returns its id after. */
export function retryOperation(mirror: Mirror, opId: string, patch?: TaskObject): string {
  const { state } = mirror.outbox.op(opId);
  if (state !== 'failed' && state !== 'blocked') {
    throw new OutboxReviewError(
      'not-retryable',
      `operation ${opId} is ${state}; only failed or blocked ones are retried`,
    );
  }
  return mirror.outbox.retry(
    opId,
    patch === undefined || Object.keys(patch).length === 0 ? undefined : patch,
  );
}

/** Gives up an operation the person chose to drop (its open conflicts go with it). */
export function discardOperation(mirror: Mirror, opId: string): void {
  const { state } = mirror.outbox.op(opId);
  if (state === 'done' || state === 'in_flight') {
    throw new OutboxReviewError('not-discardable', `operation ${opId} is ${state} and cannot be given up`);
  }
  mirror.outbox.drop(opId);
}

export interface ConflictChoice {
  conflictId: string;
  resolution: ConflictResolution;
}

/**
 * Settles conflicts of one operation, all checked before any is applied, so a
 * stale screen changes nothing. Returns the task's id after (a task re-created
 * after a remote delete has a new one), or null when the task is gone.
 */
export function resolveConflicts(
  mirror: Mirror,
  opId: string | null,
  choices: readonly ConflictChoice[],
): string | null {
  const all = mirror.outbox.conflicts();
  for (const choice of choices) {
    const conflict = all.find((c) => c.conflictId === choice.conflictId);
    if (conflict === undefined || conflict.state !== 'open') {
      throw new OutboxReviewError(
        'conflict-settled',
        `conflict ${choice.conflictId} is already resolved; list the open ones again`,
      );
    }
    if (opId !== null && conflict.opId !== opId) {
      throw new OutboxReviewError(
        'conflict-elsewhere',
        `conflict ${choice.conflictId} belongs to another change than ${opId}`,
      );
    }
  }
  let taskId: string | null = null;
  for (const choice of choices) {
    taskId = mirror.outbox.resolve(choice.conflictId, choice.resolution).entityId;
  }
  if (taskId === null) return null;
  const task = mirror.tasks.get(taskId);
  return task === null || task.hidden ? null : taskId;
}
