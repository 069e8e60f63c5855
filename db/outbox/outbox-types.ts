// The outbox's values as the mirror's callers and the sync engine see them: an
// operation and its states, a conflict and its resolutions, what a push's
// answers and a pull's parked edits carry, and the few pure rules on them
// (temporary ids, JSON equality). No database here: the views, the push and the
// pull import these without the Outbox class (outbox.ts) and its parts.
import type { TaskObject } from '../tasks/task-columns';

export type OutboxState = 'queued' | 'in_flight' | 'done' | 'conflict' | 'failed' | 'blocked';
export type OutboxKind = 'create' | 'update' | 'delete';

/** A queued change as the sync engine sees it. */
export interface OutboxOp {
  seq: number;
  /** Send as the `Idempotency-Key`. */
  opId: string;
  /** The kind of resource: 'task' or 'comment'. */
  entityType: string;
  /** The resource's id; a `local-…` temporary id until its create is done. */
  entityId: string;
  /** The parent its routes and screens need (a comment's task); null for a task. */
  parentId: string | null;
  kind: OutboxKind;
  /** The merge-patch (for a create, the body without `org_id`). */
  patch: TaskObject;
  /** Send as `If-Match`; null when unknown (read the task first) or for a create. */
  baseEtag: string | null;
  /** The server's values of the patched fields when the edit was made: the merge base on 412. */
  baseValues: TaskObject;
  state: OutboxState;
  attempts: number;
  lastProblem: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface FieldConflict {
  field: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** An open (or settled) disagreement between a local edit and the server, for one field. */
export interface Conflict extends FieldConflict {
  conflictId: string;
  opId: string;
  entityType: string;
  entityId: string;
  theirsEtag: string | null;
  state: 'open' | 'resolved';
  resolution: ConflictResolution | null;
  createdAt: string;
  resolvedAt: string | null;
}

/** Keep my value, take theirs, or settle on a new one. */
export type ConflictResolution = { take: 'mine' } | { take: 'theirs' } | { value: unknown };

/** The field of a conflict that stands for "the task was deleted on the server". */
export const DELETED_REMOTELY = '*';

export const TEMPORARY_ID_PREFIX = 'local-';

export function isTemporaryId(id: unknown): boolean {
  return typeof id === 'string' && id.startsWith(TEMPORARY_ID_PREFIX);
}

/** Structural equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return a === b || (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What a 412's per-field merge did besides the conflicts, so the person can see it (field names). */
export interface MergeOutcome {
  /** Changed only here: still to send on top of their version. */
  rebased: string[];
  /** Changed only on the server: their value stands. */
  taken: string[];
  /** Changed to the same value on both sides: nothing left to send. */
  settled: string[];
}

/** How an operation came into conflict (see Outbox.conflict, in conflicts.ts). */
export type ConflictInput =
  | {
      deleted: false;
      theirsEtag: string | null;
      fields: readonly FieldConflict[];
      patch?: TaskObject;
      baseValues?: TaskObject;
      /** Kept as the operation's last problem (a 412 with its merge), shown beside the conflicts. */
      merged?: MergeOutcome;
    }
  | {
      deleted: true;
      /** The server's answer that said so (404, or 403 when the task became unreadable), kept as its last problem. */
      problem?: unknown;
    };

/** The last problem an operation in conflict keeps after a 412 whose merge left conflicts. */
export function editedRemotelyProblem(merged: MergeOutcome): Record<string, unknown> {
  return {
    status: 412,
    type: 'edited-remotely',
    detail: 'The task changed on the server since this edit was made.',
    errors: [],
    merge: merged,
  };
}

/** The last problem of an edit parked because a complete pass of the task list no longer returned its task. */
export const GONE_FROM_LIST_PROBLEM = {
  status: 404,
  type: 'not-found',
  detail: 'The task is no longer on the server: a complete sync of the task list did not return it.',
  errors: [],
} as const;

/** An edit parked as a deleted-remotely conflict because a pull found its task gone: what announcing it needs. */
export interface ParkedEdit {
  opId: string;
  taskId: string;
  /** The fields the edit sets (all of them go with the task, as a push's 404 tells it). */
  fields: string[];
}

/** A server answer to a create or an update: the task and its ETag. */
export interface ServerAnswer {
  task: unknown;
  etag: string | null;
}

/** What the outbox knows of a resource when an edit or delete of it is queued. */
export interface EditTarget {
  entityType: string;
  entityId: string;
  parentId: string | null;
  /** Its values as screens show them (pending edits applied). */
  effective: TaskObject;
  /** The server's copy; null while it was never on the server. */
  server: TaskObject | null;
  /** The server copy's ETag (If-Match); null when unknown. */
  etag: string | null;
}
