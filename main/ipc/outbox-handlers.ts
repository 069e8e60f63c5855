// The calls behind the pending-changes inspector and the conflict view: every
// waiting operation with its values and the server's last answer; retry,
// discard, and per-field resolution (rules in db/outbox/outbox-review). Each action
// tells the screens (`mirror:changed`, status) and asks the engine to push.
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import type { Mirror } from '../../db/mirror';
import {
  type ConflictChoice as ReviewChoice,
  discardOperation,
  OutboxReviewError,
  resolveConflicts,
  retryOperation,
} from '../../db/outbox/outbox-review';
import { type Conflict, DELETED_REMOTELY, type OutboxOp } from '../../db/outbox/outbox-types';
import type { TaskObject } from '../../db/tasks/task-columns';
import { leftOutWords } from '../../db/tasks/recreate-references';
import {
  DELETED_MARK,
  namesIn,
  referenceNames,
  type ReferenceNames,
} from '../../db/read-models/referenced-names';
import { type WaitsOn, waitsOnFields, waitsOnOf } from '../../db/outbox/outbox-waits';
import { writeWhenFree } from '../../db/write-when-free';
import { collectionOfEntity } from '../../protocol/writable-kinds';
import type { IpcGate, IpcHandlers } from './gate';
import { IpcHandlerError } from './gate';
import type {
  ConflictChoice,
  ConflictView,
  MergedFieldView,
  PendingChange,
  PendingChanges,
  PendingState,
  ServerAnswer,
  WaitsOnView,
} from '../../ipc/outbox-schemas';
import { taskCreateSchema, taskPatchSchema } from '../../ipc/screen-schemas';
import type { ActiveMirror } from './task-handlers';
import { textOf } from '../../protocol/wire-fields';

export interface OutboxHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
}

const STATE_SHOWN: Readonly<Record<string, PendingState>> = {
  queued: 'queued',
  in_flight: 'sending',
  conflict: 'conflict',
  failed: 'failed',
  blocked: 'blocked',
};

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The stored problem (a problem+json body, or the pusher's description of a failure) in the shape screens read. */
export function serverAnswerOf(problem: unknown): ServerAnswer | null {
  const body = record(problem);
  if (body === null) return null;
  const errors = Array.isArray(body.errors) ? body.errors : [];
  return {
    status: typeof body.status === 'number' ? body.status : null,
    type: textOf(body.type),
    detail: textOf(body.detail),
    errors: errors.map((item) => {
      const entry = record(item) ?? {};
      const loc = Array.isArray(entry.loc) ? entry.loc : [];
      const last: unknown = loc.at(-1);
      return {
        field: typeof last === 'string' && last !== 'body' ? last : null,
        message: textOf(entry.msg) ?? textOf(entry.message) ?? 'not accepted',
      };
    }),
  };
}

/** The names of the ids a change's fields point at (before and after), by id. */
function namesOfChanges(
  changes: readonly { field: string; before: unknown; after: unknown }[],
  names: ReferenceNames,
  taskId: string | null = null,
): Record<string, string> | undefined {
  return namesIn(
    changes.map((c) => ({ field: c.field, values: [c.before, c.after] })),
    names,
    taskId,
  );
}

function waitsOnView(waits: WaitsOn | undefined): WaitsOnView | null {
  return waits === undefined ? null : waitsOnFields(waits);
}

/** The tasks whose queued edits are held behind the operation `opId`. */
function tasksHeldBehind(mirror: Mirror, opId: string): string[] {
  const ops = mirror.outbox.list(UNSETTLED_STATES);
  const byId = new Map(ops.map((op) => [op.opId, op]));
  const held = new Set<string>();
  for (const [heldId, waits] of waitsOnOf(mirror, ops)) {
    const op = byId.get(heldId);
    if (waits.opId === opId && op?.entityType === 'task') held.add(op.entityId);
  }
  return [...held];
}

/** Each unsettled change held behind a stopped one, by its id (one read of the outbox). */
function waitsOfAll(mirror: Mirror): Map<string, WaitsOn> {
  return waitsOnOf(mirror, mirror.outbox.list(UNSETTLED_STATES));
}

function pendingChange(
  mirror: Mirror,
  op: OutboxOp,
  names: ReferenceNames = referenceNames(mirror),
  waits: ReadonlyMap<string, WaitsOn> = waitsOfAll(mirror),
): PendingChange {
  if (op.entityType !== 'task') return otherKindChange(mirror, op, names, waits);
  const task = mirror.tasks.get(op.entityId);
  const changes =
    op.kind === 'delete'
      ? []
      : Object.entries(op.patch).map(([field, after]) => ({
          field,
          before: op.kind === 'create' ? null : (op.baseValues[field] ?? task?.server?.[field] ?? null),
          after,
        }));
  const named = namesOfChanges(changes, names);
  return {
    op_id: op.opId,
    task_id: op.entityId,
    task_title: textOf(task?.task.title) ?? textOf(task?.server?.title) ?? textOf(op.patch.title),
    ...changeProgress(op, changes, named, waits),
  };
}

/** Where a change stands, the same for every kind: its fields, state, attempts, times, last answer and waits. */
function changeProgress(
  op: OutboxOp,
  changes: PendingChange['changes'],
  named: PendingChange['names'],
  waits: ReadonlyMap<string, WaitsOn>,
): Omit<PendingChange, 'op_id' | 'entity_type' | 'entity_id' | 'entity_name' | 'task_id' | 'task_title'> {
  return {
    kind: op.kind,
    state: STATE_SHOWN[op.state] ?? 'queued',
    changes,
    ...(named === undefined ? {} : { names: named }),
    attempts: op.attempts,
    created_at: op.createdAt,
    updated_at: op.updatedAt,
    last_answer: serverAnswerOf(op.lastProblem),
    waits_on: waitsOnView(waits.get(op.opId)),
  };
}

/** What names another kind's resource on screen: its kind and id, a named kind's name as shown, a comment's task. */
function entityWords(
  mirror: Mirror,
  op: OutboxOp,
): Pick<PendingChange, 'entity_type' | 'entity_id' | 'entity_name' | 'task_id' | 'task_title'> {
  const taskId = op.entityType === 'comment' ? (op.parentId ?? '') : '';
  const task = taskId === '' ? undefined : mirror.tasks.get(taskId);
  // Sections, sprints, goals and milestones are known by their name.
  const named = mirror.writesOf(op.entityType);
  return {
    entity_type: op.entityType,
    entity_id: op.entityId,
    ...(named
      ? {
          entity_name:
            textOf(op.baseValues.name) ?? textOf(named.get(op.entityId)?.name) ?? textOf(op.patch.name),
        }
      : {}),
    task_id: taskId,
    task_title: textOf(task?.task.title) ?? textOf(task?.server?.title),
  };
}

/** A change to another kind (a comment, a section): told in its own words, its fields as the kind names them. */
function otherKindChange(
  mirror: Mirror,
  op: OutboxOp,
  names: ReferenceNames,
  waits: ReadonlyMap<string, WaitsOn>,
): PendingChange {
  const fields =
    op.kind === 'delete'
      ? []
      : Object.entries(op.patch)
          .filter(([field]) => field !== 'task_id' && field !== 'parent_comment_id')
          .map(([field, after]) => ({
            field,
            before: op.kind === 'create' ? null : (op.baseValues[field] ?? null),
            after,
          }));
  const changes =
    op.kind === 'create' && typeof op.patch.parent_comment_id === 'string'
      ? [...fields, { field: 'parent_comment_id', before: null, after: op.patch.parent_comment_id }]
      : fields;
  // A reply's parent is found in its task's threads (the operation's parent).
  const named = namesOfChanges(changes, names, op.entityType === 'comment' ? op.parentId : null);
  return {
    op_id: op.opId,
    ...entityWords(mirror, op),
    ...changeProgress(op, changes, named, waits),
  };
}

/** Field names of a recorded merge (see db/outbox/outbox-types editedRemotelyProblem). */
function mergedFields(problem: unknown, key: 'rebased' | 'taken' | 'settled'): string[] {
  const merge = record(record(problem)?.merge);
  const list = merge?.[key];
  return Array.isArray(list) ? list.filter((f): f is string => typeof f === 'string') : [];
}

/** The server's value of a field of another kind's resource, as the mirror last had it (null when unknown). */
function serverValueOf(mirror: Mirror, op: OutboxOp, field: string): unknown {
  if (op.entityType !== 'section') return null;
  const row = mirror.sections.list().find((r) => r.section_id === op.entityId);
  return (row as Record<string, unknown> | undefined)?.[field] ?? null;
}

function conflictView(mirror: Mirror, op: OutboxOp, open: readonly Conflict[]): ConflictView {
  const isTask = op.entityType === 'task';
  const task = isTask ? mirror.tasks.get(op.entityId) : null;
  const words = isTask
    ? { task_id: op.entityId, task_title: textOf(task?.task.title) ?? textOf(task?.server?.title) }
    : entityWords(mirror, op);
  const names = referenceNames(mirror);
  const commentTask = op.entityType === 'comment' ? op.parentId : null;
  // Which change this is, and the names of what its values point at.
  const heading = (values: Parameters<typeof namesIn>[0]) => {
    const named = namesIn(values, names, commentTask);
    return { op_id: op.opId, ...words, ...(named === undefined ? {} : { names: named }) };
  };
  const gone = open.find((c) => c.field === DELETED_REMOTELY);
  if (gone !== undefined) {
    const draft = record(gone.mine) ?? {};
    return {
      ...heading(Object.entries(draft).map(([field, value]) => ({ field, values: [value] }))),
      kind: 'gone',
      fields: [],
      merged: [],
      gone: {
        conflict_id: gone.conflictId,
        status: serverAnswerOf(op.lastProblem)?.status ?? null,
        draft,
        task:
          (task?.task as Record<string, unknown> | undefined) ??
          (isTask ? {} : { ...op.baseValues, ...op.patch }),
        left_out: isTask
          ? mirror.tasks
              .leftOutOnRecreate(op.entityId)
              .map((reference) =>
                leftOutWords(
                  reference,
                  names(reference.field, reference.id)?.replace(DELETED_MARK, '') ?? null,
                ),
              )
          : [],
      },
    };
  }
  const conflicting = new Set(open.map((c) => c.field));
  const merged: MergedFieldView[] = [];
  for (const field of mergedFields(op.lastProblem, 'rebased')) {
    if (!conflicting.has(field)) merged.push({ field, how: 'rebased', value: op.patch[field] ?? null });
  }
  for (const how of ['taken', 'settled'] as const) {
    for (const field of mergedFields(op.lastProblem, how)) {
      merged.push({
        field,
        how,
        value: isTask ? (task?.server?.[field] ?? null) : serverValueOf(mirror, op, field),
      });
    }
  }
  return {
    // The three versions and what merged, named where they point at something.
    ...heading([
      ...open.map((c) => ({ field: c.field, values: [c.base, c.mine, c.theirs] })),
      ...merged.map((m) => ({ field: m.field, values: [m.value] })),
    ]),
    kind: 'edited',
    fields: open.map((c) => ({
      conflict_id: c.conflictId,
      field: c.field,
      base: c.base,
      mine: c.mine,
      theirs: c.theirs,
    })),
    merged,
    gone: null,
  };
}

/**
 * A typed value for one field is checked as an edit of that field would be; a
 * draft to re-create as a new task. Another kind's value is checked by its kind.
 */
function checkedChoice(mirror: Mirror, conflict: Conflict, choice: ConflictChoice): ReviewChoice {
  if ('take' in choice) return { conflictId: choice.conflict_id, resolution: { take: choice.take } };
  if (conflict.entityType !== 'task') {
    if (conflict.field === DELETED_REMOTELY) {
      const draft = record(choice.value);
      if (draft === null) throw new IpcHandlerError('validation', 'The draft must be an object of fields.');
      mirror.outbox.checkEdit(conflict.entityType, draft, 'create');
      return { conflictId: choice.conflict_id, resolution: { value: draft } };
    }
    mirror.outbox.checkEdit(conflict.entityType, { [conflict.field]: choice.value }, 'update');
    return { conflictId: choice.conflict_id, resolution: { value: choice.value } };
  }
  const parsed =
    conflict.field === DELETED_REMOTELY
      ? taskCreateSchema.safeParse(choice.value)
      : taskPatchSchema.safeParse({ [conflict.field]: choice.value });
  if (!parsed.success) {
    throw new IpcHandlerError(
      'validation',
      parsed.error.issues[0]?.message ?? 'That value was not accepted.',
    );
  }
  const value: unknown =
    conflict.field === DELETED_REMOTELY
      ? parsed.data
      : (parsed.data as Record<string, unknown>)[conflict.field];
  return { conflictId: choice.conflict_id, resolution: { value } };
}

export function outboxHandlers(dependencies: OutboxHandlerDependencies): IpcHandlers {
  function active(): ActiveMirror {
    const account = dependencies.active();
    if (account === null) throw new IpcHandlerError('signed-out', 'No account is signed in.');
    return account;
  }

  /**
   * Screens refresh (a task's ids; a comment's collection and task; another
   * kind's collection); the engine pushes what re-entered the queue (at once when online).
   */
  function changed(
    account: ActiveMirror,
    op: OutboxOp,
    taskIds: (string | null)[],
    /** Tasks whose edits were held behind it: settling it changes what they wait on (or files them out of it). */
    heldTasks: readonly string[] = [],
  ): void {
    const ids = [...new Set([...taskIds, ...heldTasks].filter((id): id is string => id !== null))];
    const kindCollection = collectionOfEntity(op.entityType);
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      ...(op.entityType === 'task'
        ? { collections: ['tasks'], task_ids: ids }
        : heldTasks.length > 0
          ? {
              collections: [kindCollection, 'tasks'],
              task_ids: [...heldTasks],
            }
          : op.entityType === 'comment'
            ? { collections: ['task_comments'], task_ids: op.parentId === null ? null : [op.parentId] }
            : // A collection kind's waiting delete shows its tasks unfiled (given up, they are filed again), and
              // its create given up takes it out of the task edits filing under it (db/tasks/task-unfiling.ts).
              {
                collections: [kindCollection, ...(op.kind !== 'update' ? ['tasks'] : [])],
                task_ids: null,
              }),
      remapped: [],
    });
    account.edited();
  }

  /** A person's corrections of a refused task edit are a task patch; another kind's are checked by its kind. */
  function correctionsOf(op: OutboxOp, patch: Record<string, unknown> | undefined): TaskObject {
    if (patch === undefined) return {};
    if (op.entityType !== 'task') return patch;
    const parsed = taskPatchSchema.safeParse(patch);
    if (!parsed.success) {
      throw new IpcHandlerError(
        'validation',
        parsed.error.issues[0]?.message ?? 'That value was not accepted.',
      );
    }
    return Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  }

  return {
    'outbox:list': (): PendingChanges => {
      const { mirror } = active();
      const names = referenceNames(mirror);
      const ops = mirror.outbox.list(UNSETTLED_STATES);
      const waits = waitsOnOf(mirror, ops);
      return { changes: ops.map((op) => pendingChange(mirror, op, names, waits)) };
    },

    // Each action waits for the pull worker's write lock on a timer (writeWhenFree), never freezing the window.
    'outbox:retry': async ({ op_id, patch }) => {
      const account = active();
      const op = account.mirror.outbox.op(op_id);
      const values = correctionsOf(op, patch);
      const held = tasksHeldBehind(account.mirror, op_id);
      const opId = await writeWhenFree(account.mirror, () => retryOperation(account.mirror, op_id, values));
      changed(account, op, [op.entityId], held);
      return pendingChange(account.mirror, account.mirror.outbox.op(opId));
    },

    'outbox:discard': async ({ op_id }) => {
      const account = active();
      const op = account.mirror.outbox.op(op_id);
      const held = tasksHeldBehind(account.mirror, op_id);
      await writeWhenFree(account.mirror, () => discardOperation(account.mirror, op_id));
      changed(account, op, [op.entityId], held);
      return null;
    },

    'conflicts:get': (target): ConflictView | null => {
      const { mirror } = active();
      const [entityType, entityId] =
        'task_id' in target ? ['task', target.task_id] : [target.entity_type, target.entity_id];
      const open = mirror.outbox
        .conflicts('open')
        .filter((c) => c.entityType === entityType && c.entityId === entityId);
      const first = open[0];
      if (first === undefined) return null;
      return conflictView(
        mirror,
        mirror.outbox.op(first.opId),
        open.filter((c) => c.opId === first.opId),
      );
    },

    'conflicts:resolve': async ({ op_id, choices }) => {
      const account = active();
      const { mirror } = account;
      const op = mirror.outbox.op(op_id);
      const open = new Map(mirror.outbox.conflicts('open').map((c) => [c.conflictId, c]));
      const checked = choices.map((choice) => {
        const conflict = open.get(choice.conflict_id);
        if (conflict === undefined) {
          throw new OutboxReviewError(
            'conflict-settled',
            `conflict ${choice.conflict_id} is already resolved`,
          );
        }
        return checkedChoice(mirror, conflict, choice);
      });
      const after = await writeWhenFree(mirror, () => resolveConflicts(mirror, op_id, checked));
      changed(account, op, [op.entityId, after]);
      // Another kind's resource is not a task to open: a comment's answer names its task, a section's none.
      if (op.entityType !== 'task') return { task_id: op.entityType === 'comment' ? op.parentId : null };
      return { task_id: after };
    },
  };
}
