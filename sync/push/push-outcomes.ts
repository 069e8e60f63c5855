// How one operation's push ends, written to the outbox and told to listeners:
// accepted, refused for good, queued again, blocked on a scope the service
// refused, or waiting as a draft because its task is gone. Apart from the pass
// loop because creates, updates, merges and deletes all end in these same ways.
import type { ApiClient } from '../api/api-client';
import {
  ApiError,
  NetworkError,
  ProblemError,
  RequestAbortedError,
  SignedOutError,
  MissingUploadError,
  UnsafeIdError,
} from '../api/errors';
import { errorInfo } from '../events/sync-error-info';
import type { PushSummary, SyncEventListener } from '../events/sync-events';
import { pushKindOf } from './kinds/registry';
import {
  type Stop,
  TASK_WRITE_SCOPE,
  isGone,
  isRefusal,
  isScopeRefusal,
  isStop,
  problemRecord,
  readOnlyScope,
} from './push-failure';
import type { PushOp, PushStore, ServerTask } from './push-store';

/** What the workers of one pass share. */
export interface PassState {
  summary: PushSummary;
  /** Tasks being pushed now (their current ids). */
  busy: Set<string>;
  /** Tasks set aside for this pass (a transient failure, or too many rebases). */
  parked: Set<string>;
  stop: Stop | null;
  /** The service refused every write (a test token): nothing more is sent in this pass. */
  readOnly: boolean;
  /**
   * Scopes the service refused in this pass (403 `insufficient-scope`): what
   * needs one waits, blocked, while the other kinds' writes go on.
   */
  refusedScopes: Map<string, unknown>;
  /** Something outside the network went wrong (the mirror): stop and report it. */
  fatal: { error: unknown } | null;
  signal: AbortSignal | undefined;
  /** Wakes workers waiting for a task to free up. */
  changed: () => void;
  waitForChange: () => Promise<void>;
}

export class PushOutcomes {
  /** Scopes the service refused to this account (until the pusher's `clearReadOnly`). */
  readonly readOnly = new Map<string, string>();

  constructor(
    private readonly store: PushStore,
    private readonly api: ApiClient,
    private readonly emit: SyncEventListener,
  ) {}

  /**
   * A 403 on a write may refuse the change (a project this token may not file
   * into) or the task itself: reading it tells. Returns the read's refusal
   * when the task can no longer be read, null otherwise.
   */
  async unreadable(op: PushOp, error: unknown, state: PassState): Promise<ProblemError | null> {
    if (!(error instanceof ProblemError) || error.status !== 403 || isScopeRefusal(error)) return null;
    try {
      await this.readServer(op, state);
      return null;
    } catch (readError) {
      if (isStop(readError)) throw readError;
      return isGone(readError) ? readError : null;
    }
  }

  /** The task is gone (404) or no longer readable (403): the edit waits as a draft, never dropped unseen. */
  async deletedRemotely(op: PushOp, error: ProblemError, state: PassState): Promise<void> {
    await this.store.conflict(op.opId, { deleted: true, problem: problemRecord(error) });
    state.summary.conflicts += 1;
    this.emit({
      type: 'conflict',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      conflict: 'deleted-remotely',
      fields: Object.keys(op.patch),
    });
  }

  /**
   * Records why an operation did not go through. `claimed` is the operation
   * as sent, `before` as it was before `start` (to put back when nothing left).
   */
  async failed(claimed: PushOp, before: PushOp, error: unknown, state: PassState): Promise<void> {
    if (error instanceof SignedOutError) {
      // Nothing reached the service: the outbox stays exactly as it was.
      if (claimed.state === 'in_flight' && claimed.attempts > before.attempts)
        await this.store.unstart(before);
      throw error;
    }
    if (error instanceof NetworkError || error instanceof RequestAbortedError) {
      // It may have arrived: it stays sendable with the same body and key.
      await this.store.fail(claimed.opId, 'queued', problemRecord(error));
      throw error;
    }
    if (error instanceof ProblemError) {
      const scope = readOnlyScope(error, claimed.entityType);
      if (scope !== null) {
        await this.store.fail(claimed.opId, 'blocked', problemRecord(error));
        state.summary.failed += 1;
        const writeScope = pushKindOf(claimed.entityType).writeScope;
        this.emit({
          type: 'blocked',
          opId: claimed.opId,
          entityType: claimed.entityType,
          entityId: claimed.entityId,
          scope: writeScope,
        });
        // A test token writes nothing; a missing scope refuses only the kinds that need it.
        if (error.type === 'test-token-read-only') state.readOnly = true;
        else state.refusedScopes.set(writeScope, problemRecord(error));
        if (!this.readOnly.has(scope)) {
          this.readOnly.set(scope, error.type);
          this.emit({ type: 'read-only', scope, reason: error.type, opId: claimed.opId });
        }
        return;
      }
      if (isRefusal(error)) return this.refused(state, claimed, error);
    }
    // Nothing was sent, and sending again would not change the id: refused, for the person to see.
    if (error instanceof UnsafeIdError || error instanceof MissingUploadError)
      return this.refused(state, claimed, error);
    if (error instanceof ApiError) {
      // 5xx or 429 past the client's retries, or an answer that broke the contract: try again next pass.
      await this.store.fail(claimed.opId, 'queued', problemRecord(error));
      state.parked.add(claimed.entityId);
      return;
    }
    throw error;
  }

  /** The change is refused for good (the service's 4xx, or an id we will not send): it waits for the person. */
  async refused(state: PassState, claimed: PushOp, error: ApiError): Promise<void> {
    await this.store.fail(claimed.opId, 'failed', problemRecord(error));
    state.summary.failed += 1;
    this.emit({
      type: 'push-failed',
      opId: claimed.opId,
      entityType: claimed.entityType,
      entityId: claimed.entityId,
      error: errorInfo(error),
    });
  }

  accepted(state: PassState, op: PushOp, taskId: string): void {
    state.summary.pushed += 1;
    // A write went through: this token may write what it needs (a test token's refusal was of every write).
    const scope = pushKindOf(op.entityType).writeScope;
    this.readOnly.delete(scope);
    if (this.readOnly.get(TASK_WRITE_SCOPE) === 'test-token-read-only')
      this.readOnly.delete(TASK_WRITE_SCOPE);
    this.emit({
      type: 'pushed',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      kind: op.kind,
      serverId: taskId,
    });
  }

  async readServer(op: PushOp, state: PassState): Promise<ServerTask> {
    return pushKindOf(op.entityType).read(this.api, op, this.requestOptions(state, {}));
  }

  requestOptions<Extra extends object>(
    state: PassState,
    extra: Extra,
  ): Extra & { lane: 'user'; signal?: AbortSignal } {
    return { ...extra, lane: 'user', ...(state.signal ? { signal: state.signal } : {}) };
  }
}
