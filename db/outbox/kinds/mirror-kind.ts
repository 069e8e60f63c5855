// What one writable kind of resource tells the outbox: how its edits are
// checked, where the server's answer lands in the mirror, and what becomes of
// its row when a temporary id is answered or the resource is gone. Queueing,
// states, coalescing rules, conflicts and remapping of references are the
// outbox's, the same for every kind.
import type { OutboxRow } from '../../schema';
import type { TaskObject } from '../../tasks/task-columns';

export type OutboxOpKind = 'create' | 'update' | 'delete';

export interface MirrorWriteKind {
  /** The outbox's `entity_type` of its operations. */
  readonly entityType: string;
  /** Where its copies live and the id field its answers carry (named in a malformed answer's error). */
  readonly table: string;
  readonly idField: string;
  /** Refuses an edit the server would refuse for its shape (its 422 is still the final word). */
  checkEdit(patch: TaskObject, kind: OutboxOpKind): void;
  /**
   * An edit of it while its create is still unsent: the create's new body and
   * what that body cannot carry, sent as an update right after the create
   * (e.g. a sprint's `status`). Absent: the create takes every field.
   */
  foldIntoCreate?(create: TaskObject, patch: TaskObject): { create: TaskObject; later: TaskObject };
  /** What screens show of it follows its operations (after any of them changed). */
  refresh(entityId: string): void;
  /** Checks a create's or update's answer and returns the id it is for. */
  answeredId(server: unknown): string;
  /** The server's answer becomes the mirror's copy of the resource (after a remap: under its server id). */
  writeServerCopy(entityId: string, parentId: string | null, server: TaskObject, etag: string | null): void;
  /** A create was answered: the mirror's row under the temporary id now goes by the server's. */
  renameRow(from: string, to: string): void;
  /** Its delete went through: its mirror copy goes. */
  removeRow(entityId: string, parentId: string | null): void;
  /** The server no longer has it (404 / unreadable): the mirror marks it, keeping the person's edit. */
  markGone(entityId: string): void;
  /** The person let a remotely deleted resource go: its row goes once nothing else waits on it. */
  dropGone(entityId: string, othersPending: boolean): void;
  /** An operation was given up: a row the server no longer has goes once nothing else waits on it. */
  afterDrop(entityId: string, othersPending: boolean): void;
  /**
   * The person keeps a resource deleted on the server ("mine"): the body of
   * the create that brings it back, from their values (or the row's current
   * ones); the old row goes.
   */
  takeBackForRecreate(row: OutboxRow, values: TaskObject | null): TaskObject;
}
