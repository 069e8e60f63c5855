// What the pusher needs from the mirror's outbox, as one narrow port: claim an
// operation before it leaves, settle it with the server's answer, rebase it,
// park it in conflict, fail or block it. The mirror adapter implements it, and
// each method is one transaction, so a kill between two of them loses nothing.
import type { JsonValue } from '../merge/three-way-merge';

export type PushOpKind = 'create' | 'update' | 'delete';
export type PushOpState = 'queued' | 'in_flight' | 'done' | 'conflict' | 'failed' | 'blocked';

export type FieldValues = Record<string, JsonValue>;

/** One outbox operation as the pusher sees it. */
export interface PushOp {
  seq: number;
  /** Stable while its body is: sent as the Idempotency-Key. */
  opId: string;
  /** The kind of resource ('task', 'comment'): where its requests go (kinds/). */
  entityType: string;
  /** The resource's id; a temporary id until its create is done. */
  entityId: string;
  /** The parent its routes need (a comment's task); null for a task. */
  parentId: string | null;
  kind: PushOpKind;
  /** The merge-patch (for a create, the body without `org_id`). */
  patch: FieldValues;
  /** `If-Match`; null when unknown (read the task first). */
  baseEtag: string | null;
  /** The server's values of the patched fields when the edit was made: the merge base. */
  baseValues: FieldValues;
  state: PushOpState;
  /** Times it was handed to the network; above 0 it keeps its body and key. */
  attempts: number;
}

/** A server version of a task: the resource and its ETag. */
export interface ServerTask {
  task: FieldValues;
  etag: string | null;
}

export interface PushConflictField {
  field: string;
  base: JsonValue;
  mine: JsonValue;
  theirs: JsonValue;
}

/** Where an operation that did not go through waits. `queued`: a transient failure, sent again with the same key. */
export type UnsentState = 'failed' | 'blocked' | 'queued';

export interface PushStore {
  /** The organization new tasks are created in; null when the mirror does not know it yet. */
  orgId(): Promise<string | null>;
  /**
   * The bytes of an upload waiting in the outbox, found by the SHA-256 its
   * operation carries (the copy the app kept when it was added); null when
   * that copy is gone. Absent: this store keeps no files (no uploads).
   */
  contentOf?(sha256: string): Promise<Uint8Array | null>;
  /**
   * Operations that may be sent now, oldest first: per entity only its oldest
   * unsettled operation, only while queued or in flight, and none that names a
   * temporary id whose create is not done.
   */
  ready(limit: number): Promise<PushOp[]>;
  /**
   * The operation as it stands now (an edit made since it was read may have
   * folded into it while it was never sent); null when it is gone or no longer
   * waits to be sent (discarded, settled, stopped).
   */
  current(opId: string): Promise<PushOp | null>;
  /**
   * Marks it in flight with one more attempt, durably, before the request
   * leaves; returns it as stored, or null when it is gone (the person discarded it).
   */
  start(opId: string): Promise<PushOp | null>;
  /**
   * Puts back an operation exactly as it was before `start` (state and attempts):
   * for a request that certainly never reached the service (signed out).
   */
  unstart(op: PushOp): Promise<void>;
  /**
   * The server accepted it: its answer becomes the server copy; a create's
   * temporary id is replaced by the server's everywhere. Returns the task id after it.
   */
  settle(opId: string, answer: ServerTask | null): Promise<string>;
  /** A newer server version of the operation's resource read while pushing (after a 412) lands as its server copy. */
  landServerCopy(op: PushOp, server: ServerTask): Promise<void>;
  /**
   * After a clean merge of `from` (the operation as the merge read it): send
   * `patch` against `baseEtag` (an empty patch: done, nothing left to send).
   * Returns the operation's id after it (a new id when the body changed), or
   * null, writing nothing, when the operation is no longer as `from` (an edit
   * folded into it meanwhile: merge it again as it is now).
   */
  rebase(
    opId: string,
    rebase: { baseEtag: string | null; patch: FieldValues; baseValues: FieldValues },
    from: PushOp,
  ): Promise<string | null>;
  /**
   * Parks it for the person: `fields` changed on both sides, or (`deleted`) the
   * task is gone from the server. `patch` is what is still to send besides the
   * conflicting fields' values; the base becomes `theirs`. With `from` (the
   * operation as a merge read it): false, writing nothing, when it is no
   * longer so (an edit folded into it meanwhile: merge it again); else true.
   */
  conflict(
    opId: string,
    conflict:
      | {
          deleted: false;
          theirsEtag: string | null;
          fields: PushConflictField[];
          patch: FieldValues;
          baseValues: FieldValues;
          /** Which of my fields merged cleanly, and how (field names). */
          merged: { rebased: string[]; taken: string[]; settled: string[] };
        }
      | {
          deleted: true;
          /** The answer that said so: 404, or 403 when the task is no longer readable. */
          problem: unknown;
        },
    from?: PushOp,
  ): Promise<boolean>;
  /**
   * A delete refused with 412: the task changed on the server after the person
   * deleted it. It waits as `failed` with `problem`, against the new version
   * (its ETag and its values, the base a later 412 is compared with):
   * retrying deletes that version, dropping it keeps the task.
   */
  holdDelete(opId: string, theirs: ServerTask, problem: unknown): Promise<void>;
  /**
   * A re-create ("mine" on a task deleted on the server) refused (422) for
   * references among `fields`: sent again without them under a new key.
   * Returns the operation after, or null when it is not such a re-create
   * (the refusal then waits for the person).
   */
  leaveOut(opId: string, fields: readonly string[]): Promise<PushOp | null>;
  /** Records a failure: failed (the server refused the content), blocked (not allowed) or queued (transient). */
  fail(opId: string, state: UnsentState, problem: unknown): Promise<void>;
  /** Blocked operations back to the queue (the account may have become writable). Returns how many. */
  unblockAll(): Promise<number>;
  /** Open conflicts (one per field, or one for a task deleted remotely). */
  openConflictCount(): Promise<number>;
}
