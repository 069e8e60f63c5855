// Sending: the lifecycle of an operation while the sync engine pushes it. Which
// operations may leave now (in order, none naming an id not yet created), the
// claim before a request leaves, the server's answer (a temporary id replaced by
// the server's everywhere, later edits rebased onto the answer), a refusal or a
// transient failure, and a stopped operation sent again.
import { MalformedRowError, OutboxStateError } from '../mirror-errors';
import type { MirrorWriteKind } from './kinds/mirror-kind';
import type { OutboxRow } from '../schema';
import type { TaskObject } from '../tasks/task-columns';
import { UNSETTLED_SQL } from '../tasks/task-overlay';
import { opOf, type OutboxRows } from './outbox-rows';
import {
  isTemporaryId,
  type OutboxKind,
  type OutboxOp,
  type OutboxState,
  type ServerAnswer,
} from './outbox-types';
import type { OutboxQueue } from './queue';

function replaceIdIn(object: TaskObject, from: string, to: string): TaskObject {
  const out: TaskObject = {};
  for (const [k, v] of Object.entries(object)) out[k] = v === from ? to : v;
  return out;
}

/** An operation in `state` that may leave now as far as the queue's order goes (see `ready`). */
function readyInState(state: 'queued' | 'in_flight'): string {
  return `SELECT o.* FROM outbox o WHERE o.state = '${state}'
    AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_type = o.entity_type AND p.entity_id = o.entity_id
                     AND p.seq < o.seq AND p.state IN ${UNSETTLED_SQL})
    AND NOT (o.kind = 'create' AND o.parent_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM outbox c WHERE c.entity_type = o.entity_type AND c.parent_id = o.parent_id
            AND c.kind = 'create' AND c.seq < o.seq AND c.state IN ('queued', 'in_flight')))`;
}

/**
 * The queued and in-flight operations oldest first, each state read in its index's order and the
 * two merged (UNION ALL): SQLite yields a row as soon as it is reached, so `ready` reads as far as
 * its limit and no further. One `state IN (...)` sorted the whole queue on every call: after a bulk
 * change of 50 000 tasks, each batch the pusher asked for read and ordered all 50 000.
 */
export const READY_SQL = `${readyInState('queued')} UNION ALL ${readyInState('in_flight')} ORDER BY seq`;

export class OutboxSending {
  constructor(
    private readonly rows: OutboxRows,
    private readonly queue: OutboxQueue,
  ) {}

  /**
   * Operations that may be sent now, oldest first: for each entity only its
   * oldest unsettled operation, and only while queued or in flight (an
   * in-flight one after a restart is re-sent with the same key). An operation
   * that refers to another task's temporary id waits for that create. Creates
   * under one parent (comments on a task, sections in a scope) leave in the
   * order they were written, so the service lists them as the person wrote
   * them; one that stopped (failed, blocked) holds the others up no longer.
   */
  ready(limit = 100): OutboxOp[] {
    return this.rows.tx.read(() => {
      const rows = this.rows.db.prepare(READY_SQL).iterate() as IterableIterator<OutboxRow>;
      const ready: OutboxOp[] = [];
      const now = this.rows.now();
      for (const row of rows) {
        const op = opOf(row);
        // The service asked this change to wait (503 with Retry-After, past the client's own retries): not before then.
        if (op.state === 'queued' && (waitUntil(op.lastProblem) ?? '') > now) continue;
        if (isTemporaryId(op.entityId) && op.kind !== 'create') continue;
        if (Object.values(op.patch).some(isTemporaryId)) continue;
        ready.push(op);
        if (ready.length >= limit) break;
      }
      return ready;
    });
  }

  /** The engine is about to send it: in flight, one more attempt. Durable before the request leaves. */
  start(opId: string): OutboxOp {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state !== 'queued' && row.state !== 'in_flight')
        throw new OutboxStateError(opId, row.state, 'send it');
      this.rows.db
        .prepare(
          "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, updated_at = ? WHERE op_id = ?",
        )
        .run(this.rows.now(), opId);
      return this.rows.op(opId);
    });
  }

  /**
   * The server accepted the operation. A create's temporary id is replaced by
   * the server's everywhere (its row, its queued operations, references from
   * other tasks' pending edits); the answer becomes the task's server copy and
   * later operations made against the same version are rebased onto the new one.
   * Returns the task id after the operation (the server's id for a create).
   */
  settle(opId: string, answer: ServerAnswer | null): string {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state === 'done') return row.entity_id;
      const kind = this.rows.kind(row.entity_type);
      if (row.kind === 'delete') {
        this.rows.setState.run('done', null, this.rows.now(), opId);
        for (const op of this.rows.entityOps(row))
          this.rows.setState.run('done', null, this.rows.now(), op.op_id);
        kind.removeRow(row.entity_id, row.parent_id);
        return row.entity_id;
      }
      if (!answer)
        throw new OutboxStateError(opId, row.state, 'settle a create or update without the server answer');
      const serverId = kind.answeredId(answer.task);
      const server = answer.task as TaskObject;
      if (row.kind === 'update' && serverId !== row.entity_id) {
        throw new MalformedRowError(
          kind.table,
          serverId,
          kind.idField,
          `answers for ${row.entity_id}, not for it`,
        );
      }
      let taskId = row.entity_id;
      if (row.kind === 'create' && serverId !== taskId) {
        this.remapTemporaryId(kind, taskId, serverId);
        taskId = serverId;
      }
      this.rows.setState.run('done', null, this.rows.now(), opId);

      const sentPatch = JSON.parse(row.patch) as TaskObject;
      for (const later of this.rows.entityOpsOf.all(row.entity_type, taskId)) {
        if (later.kind === 'delete') {
          if (later.base_etag === null || later.base_etag === row.base_etag) {
            this.rows.db
              .prepare('UPDATE outbox SET base_etag = ? WHERE op_id = ?')
              .run(answer.etag, later.op_id);
          }
          continue;
        }
        if (later.kind !== 'update') continue;
        // Queued behind this operation, it was made over this operation's values: they are its base now.
        const patch = JSON.parse(later.patch) as TaskObject;
        const base = JSON.parse(later.base_values) as TaskObject;
        for (const field of Object.keys(patch)) {
          if (row.kind === 'create' || field in sentPatch) base[field] = server[field] ?? null;
        }
        // Made against the version this operation changed (or against no server copy yet), the answer is
        // its version now. Made against another (this one was merged into a newer version on its way, a
        // 412's), it keeps it: its own 412 merges its other fields with what changed since, while the
        // fields it shares with this one now count as its own after this one, not as the server's change
        // (a section moved right three times fast, the first move merged: the third waited as a conflict).
        const version = later.base_etag === row.base_etag ? answer.etag : later.base_etag;
        this.rows.db
          .prepare('UPDATE outbox SET base_etag = ?, base_values = ? WHERE op_id = ?')
          .run(version, JSON.stringify(base), later.op_id);
      }
      kind.writeServerCopy(taskId, row.parent_id, server, answer.etag);
      return taskId;
    });
  }

  /**
   * A version of an operation's resource read while pushing (a 412's merge)
   * becomes its copy in the mirror. Tasks land through mirror.tasks.applyServerCopy.
   */
  landServerCopy(opId: string, answer: ServerAnswer): void {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      const kind = this.rows.kind(row.entity_type);
      if (kind.answeredId(answer.task) !== row.entity_id) return;
      kind.writeServerCopy(row.entity_id, row.parent_id, answer.task as TaskObject, answer.etag);
    }, 'server');
  }

  private remapTemporaryId(kind: MirrorWriteKind, from: string, to: string): void {
    kind.renameRow(from, to);
    const type = kind.entityType;
    this.rows.db
      .prepare('UPDATE outbox SET entity_id = ? WHERE entity_type = ? AND entity_id = ?')
      .run(to, type, from);
    this.rows.db
      .prepare('UPDATE conflicts SET entity_id = ? WHERE entity_type = ? AND entity_id = ?')
      .run(to, type, from);
    // Temporary ids are unique across kinds: a parent named by its temporary id (a new task's comments) follows.
    this.rows.db.prepare('UPDATE outbox SET parent_id = ? WHERE parent_id = ?').run(to, from);
    // A draft written on a new task, or a reply to a new comment, stays with it.
    this.rows.db.prepare('UPDATE drafts SET task_id = ? WHERE task_id = ?').run(to, from);
    this.rows.db.prepare('UPDATE drafts SET reply_to = ? WHERE reply_to = ?').run(to, from);
    // Other pending edits naming the temporary id (a subtask of a new task, a reply to a new comment): point them at the real one.
    const referring = this.rows.db
      .prepare(
        `SELECT op_id, entity_type, entity_id, patch, base_values FROM outbox
          WHERE state IN ${UNSETTLED_SQL} AND (instr(patch, ?) > 0 OR instr(base_values, ?) > 0)`,
      )
      .all(from, from) as OutboxRow[];
    const touched = new Map<string, MirrorWriteKind>();
    for (const op of referring) {
      const patch = replaceIdIn(JSON.parse(op.patch) as TaskObject, from, to);
      const base = replaceIdIn(JSON.parse(op.base_values) as TaskObject, from, to);
      this.rows.updatePatch.run(JSON.stringify(patch), JSON.stringify(base), this.rows.now(), op.op_id);
      touched.set(`${op.entity_type}\u0000${op.entity_id}`, this.rows.kind(op.entity_type));
    }
    for (const [key, other] of touched) {
      const id = key.slice(key.indexOf('\u0000') + 1);
      if (!(other === kind && id === to)) other.refresh(id);
    }
    kind.refresh(to);
  }

  /**
   * The operation did not go through: `failed` (the server refused it, e.g.
   * 422; editable and retryable), `blocked` (not allowed, e.g. a read-only
   * token), or back to `queued` (a transient failure; it will be sent again
   * with the same key).
   */
  fail(opId: string, state: 'failed' | 'blocked' | 'queued', problem: unknown): void {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state === 'done') throw new OutboxStateError(opId, row.state, `mark it ${state}`);
      const now = this.rows.now();
      const kept = state === 'queued' ? withWaitUntil(problem, now) : problem;
      this.rows.setState.run(state, kept === undefined ? null : JSON.stringify(kept), now, opId);
    });
  }

  /** A failed or blocked operation goes back to the queue (under a new key if its body changes). */
  retry(opId: string, patch?: TaskObject): string {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state !== 'failed' && row.state !== 'blocked')
        throw new OutboxStateError(opId, row.state, 'retry it');
      if (patch === undefined) {
        this.rows.setState.run('queued', row.last_problem, this.rows.now(), opId);
        return opId;
      }
      // The whole body is checked: a kind's create has fields that must go together (a section's scope).
      const body = { ...(JSON.parse(row.patch) as TaskObject), ...patch };
      this.rows.kind(row.entity_type).checkEdit(body, row.kind as OutboxKind);
      return this.queue.queueAgain(row, body);
    });
  }

  /** Puts an operation back exactly as before `start` (a request that certainly never left). */
  unstart(opId: string, before: { state: OutboxState; attempts: number }): void {
    return this.rows.tx.write(() => {
      const row = this.rows.row(opId);
      if (row.state !== 'in_flight') throw new OutboxStateError(opId, row.state, 'put it back');
      this.rows.db
        .prepare('UPDATE outbox SET state = ?, attempts = ?, updated_at = ? WHERE op_id = ?')
        .run(before.state, before.attempts, this.rows.now(), opId);
    });
  }

  /** Blocked operations go back to the queue (the account may have become writable). Returns how many. */
  unblockAll(): number {
    return this.rows.tx.write(() => {
      return this.rows.db
        .prepare("UPDATE outbox SET state = 'queued', updated_at = ? WHERE state = 'blocked'")
        .run(this.rows.now()).changes;
    });
  }
}

/**
 * A queued failure the service gave a Retry-After (`retry_after_seconds`, a
 * 503 the client's retries could not outwait) keeps when it may go again on
 * the change itself, so a later push, or one after a restart, does not send it
 * before then.
 */
function withWaitUntil(problem: unknown, now: string): unknown {
  if (typeof problem !== 'object' || problem === null) return problem;
  const seconds = (problem as { retry_after_seconds?: unknown }).retry_after_seconds;
  if (typeof seconds !== 'number' || !(seconds > 0)) return problem;
  return { ...problem, wait_until: new Date(Date.parse(now) + seconds * 1000).toISOString() };
}

/** When a queued change may go again, if the service said (see `withWaitUntil`). */
export function waitUntil(problem: unknown): string | null {
  if (typeof problem !== 'object' || problem === null) return null;
  const at = (problem as { wait_until?: unknown }).wait_until;
  return typeof at === 'string' ? at : null;
}
