// Everything the sync engine tells the app, as one tagged union the main
// process forwards to the UI: progress of a pass, online/offline, sign-out,
// remote changes and notifications, and (added by the push side) pushes and
// conflicts. Plain data only, so events cross IPC and worker boundaries as is.
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import type { SignedOutReason } from '../api/errors';

/** The collections pull mirrors, in the order a full pass visits them (the collection kinds' from their descriptors). */
export const PULLED_COLLECTIONS = [
  'organizations',
  'me',
  'projects',
  'teams',
  'organization_members',
  ...COLLECTION_KINDS.map((kind) => kind.collection),
  'tasks',
] as const;
export type PulledCollection = (typeof PULLED_COLLECTIONS)[number];

/** What a change can be about: the pulled collections, and comments and history (cached per task on demand). */
export type ChangedCollection = Exclude<PulledCollection, 'me'> | 'task_comments' | 'task_history';

/** Why a sync ran: the scheduler's reasons, and the person's. */
export type SyncReason =
  | 'start'
  | 'sync-now'
  | 'network-returned'
  /** The computer woke from sleep: the quick tiers catch up. */
  | 'woke'
  | 'poll-full'
  | 'poll-hot'
  | 'poll-new'
  /** Soon after a full pull that could not sync some collection: pulls only those. */
  | 'poll-retry'
  | 'local-edit'
  | 'open-task';

/** One changed field of an updated resource. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What a pull changed in the mirror, remote changes only (local edits are not listed). */
export interface ResourceChange {
  collection: ChangedCollection;
  id: string;
  kind: 'created' | 'updated' | 'deleted';
  /** For `updated`: the fields whose server value changed. Empty otherwise. */
  fields: FieldChange[];
  /** The resource's server copy after the change (before it, for `deleted`). */
  resource: Readonly<Record<string, unknown>>;
}

export type NotificationKind = 'task-assigned' | 'task-status-changed' | 'task-commented' | 'task-mentioned';

/** A change worth telling the signed-in person about. */
export interface SyncNotification {
  kind: NotificationKind;
  task_id: string;
  title: string;
  /** Who made the change, when the service says (`updated_by`, or a comment's author). */
  by: string | null;
  /** `task-status-changed`: from and to; `task-commented`: how many new comments; `task-mentioned`: the comment. */
  detail: Readonly<Record<string, unknown>>;
  /** The change it stands for (the task's version, the comments' ids): the inbox keeps one entry per key. */
  key: string;
}

/** Progress of one collection within a pass; the UI shows it as is. */
export interface PullProgress {
  collection: PulledCollection | 'task_comments';
  /** '' for a collection listed whole; the team id for sprints. */
  scope: string;
  pagesDone: number;
  /** Items received in this pass so far (from 200 pages and from pages confirmed by 304). */
  itemsDone: number;
  /** Best guess of the collection's size: the last pass's count or the service's `total`; null when unknown. */
  estimatedTotal: number | null;
  /** Pages answered 304 so far. */
  notModified: number;
}

/** What went wrong, in a form that crosses IPC; the UI branches on `kind` and `type`. */
export interface SyncErrorInfo {
  /** `network`, `problem`, `invalid-response`, `signed-out`, `aborted`, `storage`, `cursor-refused` or `internal`. */
  kind: string;
  /** The problem type for `problem`, the storage problem for `storage`; null otherwise. */
  type: string | null;
  status: number | null;
  operation: string | null;
  message: string;
  /** Seconds the service asked us to wait before trying again (`Retry-After`, e.g. rate-limited), when it said. */
  retryAfterSeconds?: number | null;
}

/**
 * A collection (or one scope of it, such as a team's sprints) that this pull
 * could not bring up to date, and why. The others went on without it; the
 * next poll tries it again.
 */
export interface CollectionFailure {
  collection: PulledCollection;
  /** '' for a collection listed whole; the team id for a team's sprints. */
  scope: string;
  /** What failed it: its last try's error, or for a skipped one the error of what it needs. */
  error: SyncErrorInfo;
  /** Not tried because this collection, which it needs, failed; null when it was tried. */
  skippedBecause: PulledCollection | null;
  /** Tries within this pull (0 when skipped). */
  attempts: number;
}

/**
 * A collection failure as tools and screens are told it: snake_case plain data
 * (the headless command's `failed` list, the status's `unsynced`).
 */
export interface CollectionFailureLine {
  collection: string;
  /** '' for a collection listed whole; the team id for a team's sprints. */
  scope: string;
  /** Not tried because this collection, which it needs, failed; null when it was tried and failed. */
  skipped_because: string | null;
  /** `problem`, `network`, `invalid-response`, `cursor-refused`, … */
  kind: string;
  /** The problem type (`internal`, `invalid-parameter`, …) when the service named one. */
  type: string | null;
  status: number | null;
  message: string;
}

export function collectionFailureLine(failure: CollectionFailure): CollectionFailureLine {
  return {
    collection: failure.collection,
    scope: failure.scope,
    skipped_because: failure.skippedBecause,
    kind: failure.error.kind,
    type: failure.error.type,
    status: failure.error.status,
    message: failure.error.message,
  };
}

export interface PullSummary {
  /** Resources received in 200 answers. */
  pulled: number;
  /** 304 answers. */
  notModified: number;
  /** HTTP requests sent for this pull (retries included). */
  requests: number;
  /** Pages whose pass restarted because the service refused a cursor. */
  restarts: number;
  /** Every collection whose pass reached its last page (deletions were applied for these). */
  completed: PulledCollection[];
  changes: ResourceChange[];
  notifications: SyncNotification[];
  /** True when this pull was the first complete one of this mirror: its changes are not announced. */
  initial: boolean;
  /** Collections (or scopes) it could not complete, and those skipped because of them; empty when all went well. */
  failed: CollectionFailure[];
}

/** Push-engine owns the meaning of these counts; the façade only adds them up. */
export interface PushSummary {
  /** Operations the server accepted. */
  pushed: number;
  /** Conflicts opened by this push. */
  conflicts: number;
  /** Operations that failed (422 and the like) or were blocked (read-only). */
  failed: number;
  /** HTTP requests sent for this push. */
  requests: number;
}

export interface SyncSummary {
  pulled: number;
  pushed: number;
  /** Conflicts open after the sync. */
  conflicts: number;
  requests: number;
  not_modified: number;
  failed: number;
  changes: number;
  notifications: number;
  /** Collections the pull could not complete (the others were synced): why, and what was skipped for it. */
  failed_collections: CollectionFailure[];
}

export type SyncEvent =
  | { type: 'sync-started'; reason: SyncReason; tier: 'full' | 'hot' | 'new' | 'push' }
  | ({ type: 'progress' } & PullProgress)
  | { type: 'sync-finished'; reason: SyncReason; summary: SyncSummary }
  | { type: 'sync-failed'; reason: SyncReason; error: SyncErrorInfo }
  | { type: 'online' }
  | { type: 'offline'; error: SyncErrorInfo }
  /**
   * The service answered 429 and the client waits out its `Retry-After`
   * before sending again (on its own; a sync that gives up reports
   * `sync-failed`), or (`budget`) a person's request waits for the window's
   * end, its budget spent (sync/api/rate-governor.ts). `rate-limit-lifted`
   * follows with the next answer that is not a 429, or once nothing waits for
   * the window.
   */
  | { type: 'rate-limited'; retryAfterSeconds: number | null; cause: 'answer' | 'budget' }
  | { type: 'rate-limit-lifted' }
  /**
   * A request failed to reach the service twice in a row and the client is
   * trying it again on its own: the person is told at once, not after the
   * retries run out (`offline` follows then). One failure is not enough: a
   * kept-alive socket the server closed fails once and is common.
   * `connection-back` follows with the next answer the service gives.
   */
  | { type: 'connection-lost'; error: SyncErrorInfo }
  | { type: 'connection-back' }
  | { type: 'signed-out'; reason: SignedOutReason }
  /** Remote changes a pull applied, and the notifications they raise (never for the first full sync). */
  | { type: 'changes'; changes: ResourceChange[]; notifications: SyncNotification[] }
  /** When the scheduler will next poll, and which tier. */
  | { type: 'poll-scheduled'; tier: 'full' | 'hot' | 'new'; at: number }
  /** The server accepted a queued operation (`serverId`: the task's id after a create). */
  | {
      type: 'pushed';
      opId: string;
      entityType: string;
      entityId: string;
      kind: 'create' | 'update' | 'delete';
      serverId: string;
    }
  /**
   * A 412 merged cleanly per field against the edit's base: `rebased` fields
   * (only mine changed) go out again on the new version, `taken` (only theirs)
   * and `settled` (the same on both sides) need nothing more.
   */
  | {
      type: 'merged';
      opId: string;
      entityType: string;
      entityId: string;
      rebased: string[];
      taken: string[];
      settled: string[];
    }
  /**
   * An upload's body on its way: `sentBytes` of `totalBytes` (the whole
   * form's) written so far, at most a few times a second. A new attempt
   * (a retry, a restart) starts again from 0: the contract has no resumable upload.
   */
  | {
      type: 'upload-progress';
      opId: string;
      entityType: string;
      entityId: string;
      sentBytes: number;
      totalBytes: number;
    }
  /** A local temporary id was replaced by the server's everywhere (a screen showing it should follow). */
  | { type: 'id-remapped'; entityType: string; from: string; to: string }
  /** An operation waits for the person: fields changed on both sides, or the task was deleted remotely. */
  | {
      type: 'conflict';
      opId: string;
      entityType: string;
      entityId: string;
      conflict: 'edited' | 'deleted-remotely';
      fields: string[];
    }
  /**
   * A re-create ("mine" on a task deleted on the server) was refused for
   * references the person can no longer use (`reason`, the service's words):
   * it is sent again without `fields`.
   */
  | {
      type: 'left-out';
      opId: string;
      entityType: string;
      entityId: string;
      fields: string[];
      reason: string;
    }
  /** The server refused an operation's content (422): it waits, editable, with the server's errors. */
  | { type: 'push-failed'; opId: string; entityType: string; entityId: string; error: SyncErrorInfo }
  /**
   * One list's answer could not be read (it breaks the contract) and was left
   * for the next pull: what else the pull had to do went on.
   */
  | { type: 'resource-skipped'; collection: string; scope: string; error: SyncErrorInfo }
  /**
   * One item of a list's page could not be read (it breaks the contract) or
   * stored: it was left out, keeping its previous copy, and the rest of the
   * page applied. `id` when the item names one; `field` and `reason` clipped.
   */
  | {
      type: 'item-skipped';
      collection: string;
      scope: string;
      id: string | null;
      field: string;
      reason: string;
    }
  /** Writes are refused for this token (`test-token-read-only`, `insufficient-scope`): the account is read-only for `scope`. */
  | { type: 'read-only'; scope: string; reason: string; opId: string }
  /**
   * An operation set aside until the token may write its kind (`scope`): each
   * one, so the screens mark its row; `read-only` says once why.
   */
  | { type: 'blocked'; opId: string; entityType: string; entityId: string; scope: string };

export type SyncEventListener = (event: SyncEvent) => void;
