// Local state = server state + pending edits. Computes a task's effective row
// from its server copy (the merge base, kept as sent) and the unsettled outbox
// operations on it, and writes it; called when a server copy lands under
// pending edits and whenever an edit is queued or settled.
import type { Database, Statement } from 'better-sqlite3';
import type { TaskObject } from './task-columns';
import { type StoredTaskJson, storedTaskJson, taskObjectOf } from './task-json';
import type { StoredTask, TaskRowState, TaskStore } from './task-store';
import { type FilingField, isDeletable } from '../../protocol/writable-kind';
import { FILING_KINDS } from '../../protocol/writable-kinds';
import { TASK_FIELDS, type TaskField } from '../../protocol/task';

/** Outbox states whose change is not yet on the server (or not yet given up): they shape the effective row. */
export const UNSETTLED_STATES = ['queued', 'in_flight', 'conflict', 'failed', 'blocked'] as const;
export const UNSETTLED_SQL = `(${UNSETTLED_STATES.map((s) => `'${s}'`).join(', ')})`;

export interface PendingOp {
  kind: string;
  patch: string;
  created_at: string;
}

/** Who the local rows of new tasks say made them. */
export interface AccountIdentity {
  orgId: string | null;
  username: string | null;
}

/**
 * `values` over every field of the contract, in the contract's order (the
 * order the service sends, which the stored form keeps short): the fields not
 * given are null, `without` is left out altogether.
 */
export function contractTask(values: TaskObject, without?: TaskField): TaskObject {
  const task: TaskObject = {};
  for (const field of TASK_FIELDS) if (field !== without) task[field] = null;
  return Object.assign(task, values);
}

/** What a task created here looks like until the server answers with the real one (its create's patch brings the title). */
export function localTaskDefaults(taskId: string, createdAt: string, account: AccountIdentity): TaskObject {
  return contractTask(
    {
      task_id: taskId,
      org_id: account.orgId,
      status: 'not_started',
      tags: [],
      task_type: 'task',
      created_by: account.username,
      updated_by: account.username,
      created_at: createdAt,
      updated_at: createdAt,
    },
    'title',
  );
}

/**
 * What the service changes with a move to another project (contract): the
 * task's milestone belongs to the old project, so it is cleared, and the
 * screen shows that at once rather than after the answer.
 */
function movedOff(task: TaskObject, patch: TaskObject): TaskObject {
  const moved = 'project_id' in patch && patch.project_id !== task.project_id;
  return moved && !('milestone_id' in patch) && task.milestone_id != null ? { milestone_id: null } : {};
}

/**
 * The fields a patch changes as the service applies it to `task`: a move to
 * another project clears the milestone too. An undo's record takes this, so
 * that undoing the move files the task under its milestone again.
 */
export function asApplied(task: TaskObject, patch: TaskObject): TaskObject {
  return { ...movedOff(task, patch), ...patch };
}

/**
 * The filing fields a waiting delete of the resource they name clears: the
 * service unfiles a deleted goal's, milestone's or section's tasks itself, so the screens
 * show that at once without a task edit of ours (sending one would be an extra
 * write that could conflict), and keep showing it over newer server copies
 * until the delete is sent (or given up, when the filing comes back).
 * Every collection kind the service deletes, from its descriptor.
 */
export const UNFILED_BY_DELETE: readonly (readonly [FilingField, string])[] = FILING_KINDS.filter((kind) =>
  isDeletable(kind),
).map((kind) => [kind.filesTasksBy, kind.entityType]);

/** Whether a delete of this resource waits to be sent (queued, in flight, or parked for the person). */
export type WaitingDelete = (entityType: string, entityId: string) => boolean;

/** The task with the filings a waiting delete clears cleared; null when none does. */
function unfiledByWaitingDeletes(task: TaskObject, waiting: WaitingDelete): TaskObject | null {
  let out: TaskObject | null = null;
  for (const [field, entityType] of UNFILED_BY_DELETE) {
    const id = task[field];
    if (typeof id === 'string' && waiting(entityType, id)) out = { ...(out ?? task), [field]: null };
  }
  return out;
}

export interface Effective {
  /** null: nothing to show (no server copy and no create pending). */
  task: TaskObject | null;
  pending: number;
  hidden: boolean;
  /** A waiting goal, milestone or section delete unfiled it: shown apart from its server copy with no edit of its own. */
  unfiled: boolean;
}

/** The row state of a server copy shown as the server sent it (nothing pending, nothing hidden). */
function shownAsSent(
  etag: string | null,
  serverStored: StoredTaskJson | null,
  seenPass: number,
): TaskRowState {
  return {
    serverIsEffective: true,
    etag,
    server_stored: serverStored,
    local_json: null,
    seen_pass: seenPass,
    pending: 0,
    hidden: 0,
    server_gone: 0,
  };
}

/**
 * Applies pending operations in order to a server copy. A merge-patch from us
 * only ever carries whole top-level fields, so applying it is a shallow
 * assign; null stays null (the server keeps nullable fields as null).
 */
export function effectiveTask(
  taskId: string,
  server: TaskObject | null,
  ops: readonly PendingOp[],
  account: AccountIdentity,
  waiting: WaitingDelete = () => false,
): Effective {
  let task = server;
  let hidden = false;
  for (const op of ops) {
    const patch = JSON.parse(op.patch) as TaskObject;
    if (op.kind === 'create')
      task = { ...(task ?? localTaskDefaults(taskId, op.created_at, account)), ...patch };
    else if (op.kind === 'update')
      task = task === null ? null : { ...task, ...movedOff(task, patch), ...patch };
    else hidden = true;
  }
  if (task !== null && task.task_id !== taskId) task = { ...task, task_id: taskId };
  const unfiled = task === null ? null : unfiledByWaitingDeletes(task, waiting);
  return { task: unfiled ?? task, pending: ops.length, hidden, unfiled: unfiled !== null };
}

/** effectiveTask's account where no create is pending (it is read for a create's defaults only). */
const NO_ACCOUNT: AccountIdentity = { orgId: null, username: null };

export class TaskOverlay {
  private readonly unsettled: Statement<[string], PendingOp>;
  private readonly deleteWaiting: Statement<[string, string], { one: number }>;
  private readonly deletesWaiting: Statement<[], { entity_type: string; entity_id: string }>;
  /** While a page is applied: the waiting deletes read once for it (type, NUL, id); null: ask the outbox. */
  private waitingDeletesRead: Set<string> | null = null;
  /** Whether a goal's, milestone's or section's delete waits to be sent (its tasks show unfiled). */
  readonly waitingDelete: WaitingDelete = (entityType, entityId) =>
    this.waitingDeletesRead !== null
      ? this.waitingDeletesRead.has(`${entityType}\0${entityId}`)
      : this.deleteWaiting.get(entityType, entityId) !== undefined;

  constructor(
    db: Database,
    private readonly store: TaskStore,
    private readonly account: () => AccountIdentity,
  ) {
    this.unsettled = db.prepare(
      `SELECT kind, patch, created_at FROM outbox
        WHERE entity_type = 'task' AND entity_id = ? AND state IN ${UNSETTLED_SQL} ORDER BY seq`,
    );
    this.deleteWaiting = db.prepare(
      `SELECT 1 AS one FROM outbox
        WHERE entity_type = ? AND entity_id = ? AND kind = 'delete' AND state IN ${UNSETTLED_SQL} LIMIT 1`,
    );
    this.deletesWaiting = db.prepare(
      `SELECT entity_type, entity_id FROM outbox
        WHERE kind = 'delete' AND entity_type IN (${UNFILED_BY_DELETE.map(([, type]) => `'${type}'`).join(', ')})
          AND state IN ${UNSETTLED_SQL}`,
    );
  }

  /**
   * Runs `work`, which must not queue or settle a delete of a kind that
   * files tasks (a page of server copies, a bulk change's chunk of task edits), answering waitingDelete from one read of the waiting deletes instead of a
   * query per filed task (a page of 1000 tasks asked up to 3000 times).
   */
  withWaitingDeletesRead<T>(work: () => T): T {
    if (this.waitingDeletesRead !== null) return work();
    this.waitingDeletesRead = new Set(
      this.deletesWaiting.all().map((row) => `${row.entity_type}\0${row.entity_id}`),
    );
    try {
      return work();
    } finally {
      this.waitingDeletesRead = null;
    }
  }

  pendingOps(taskId: string): PendingOp[] {
    return this.unsettled.all(taskId);
  }

  /** The task as shown: its server copy (null: none) with its unsettled operations on top. */
  private effectiveOf(taskId: string, server: TaskObject | null): ReturnType<typeof effectiveTask> {
    const ops = this.pendingOps(taskId);
    // Who made it matters only under a create not sent yet: the account is not
    // read (a query) for each task of a bulk change.
    const account = ops.some((op) => op.kind === 'create') ? this.account() : NO_ACCOUNT;
    return effectiveTask(taskId, server, ops, account, this.waitingDelete);
  }

  /**
   * Stores a new server copy of a task and rewrites its effective row: the
   * server copy alone when nothing is pending, or with the pending edits on
   * top (the person keeps seeing their edit; the copy becomes the new base).
   */
  writeServerCopy(
    existing: StoredTask | undefined,
    server: TaskObject,
    /** The server copy's stored form (storedTaskJson); null: not made yet, made only if needed. */
    serverStored: StoredTaskJson | null,
    etag: string | null,
    seenPass: number,
  ): number {
    const plain =
      (existing === undefined || existing.pending === 0) &&
      unfiledByWaitingDeletes(server, this.waitingDelete) === null;
    if (plain) {
      return this.store.write(existing, server, shownAsSent(etag, serverStored, seenPass));
    }
    const taskId = server.task_id as string;
    const effective = this.effectiveOf(taskId, server);
    const task = effective.task ?? server;
    return this.store.write(existing, task, {
      etag,
      server_stored: serverStored ?? storedTaskJson(server),
      local_json: storedTaskJson(task),
      seen_pass: seenPass,
      pending: effective.pending,
      hidden: effective.hidden ? 1 : 0,
      server_gone: 0,
    });
  }

  /**
   * A server copy of a task whose id is likely new (a first load): inserted
   * as writeServerCopy would, unless its id is stored already or a waiting
   * delete unfiles it (undefined then, nothing written: write it as usual).
   */
  insertNewServerCopy(server: TaskObject, etag: string | null, seenPass: number): number | undefined {
    if (unfiledByWaitingDeletes(server, this.waitingDelete) !== null) return undefined;
    return this.store.insertIfNew(server, shownAsSent(etag, null, seenPass));
  }

  /**
   * Recomputes a task's effective row from its stored server copy and its
   * unsettled operations; removes the row when neither is left. Returns the
   * effective task, or null when there is nothing to show.
   */
  refresh(taskId: string): TaskObject | null {
    const existing = this.store.byId(taskId);
    const server = existing?.server_stored ? taskObjectOf(existing.server_stored) : null;
    const effective = this.effectiveOf(taskId, server);
    if (effective.task === null) {
      if (existing) this.store.remove(existing.rid);
      return null;
    }
    this.store.write(existing, effective.task, {
      etag: existing?.etag ?? null,
      server_stored: existing?.server_stored ?? null,
      local_json: effective.pending > 0 || effective.unfiled ? storedTaskJson(effective.task) : null,
      seen_pass: existing?.seen_pass ?? 0,
      pending: effective.pending,
      hidden: effective.hidden ? 1 : 0,
      server_gone: existing?.server_gone ?? 0,
    });
    return effective.task;
  }
}
