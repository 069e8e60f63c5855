// Drains the outbox: creates, merge-patches and deletes sent in order per
// resource (resources in parallel, bounded), each claimed durably before it
// leaves so a kill at any instant neither loses it nor sends a different body
// under its key. A 412 is merged per field against the edit's base; what cannot
// be merged waits for the person as a conflict. Where each kind's requests go
// is the kind's own (kinds/); everything else here is the same for all.
import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../api/api-client';
import type { ApiClock } from '../api/clock';
import {
  ApiError,
  NetworkError,
  ProblemError,
  RequestAbortedError,
  SignedOutError,
  UnsafeIdError,
} from '../api/errors';
import { meOperations } from '../api/operations';
import { refusedBodyFields } from '../../protocol/problem';
import { errorInfo } from '../engine/sync-error-info';
import type { PushSummary, SyncEventListener } from '../engine/sync-events';
import { threeWayMerge } from '../merge/three-way-merge';
import { pushKindOf } from './kinds/registry';
import type { FieldValues, PushOp, PushStore, ServerTask } from './push-store';

export interface PusherOptions {
  store: PushStore;
  api: ApiClient;
  /** Unused for now: every wait happens in the API client, on its clock. */
  clock?: ApiClock;
  onEvent?: SyncEventListener;
  /** Tasks pushed at the same time. Default 4: enough to keep a paced budget busy over a slow link. */
  concurrency?: number;
  /** Rebases of one operation in one pass before it waits for the next (a task that keeps changing). Default 3. */
  maxRebases?: number;
}

/** The scope a task write needs; a 403 on it makes the account read-only for it. */
export const TASK_WRITE_SCOPE = 'tasks:write';

/** Why pushing stopped early: no point sending more now. */
type Stop = SignedOutError | NetworkError | RequestAbortedError;

interface PassState {
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

/** A problem body that can be stored: what the service said, never a stack. */
function problemRecord(error: unknown): unknown {
  if (error instanceof ProblemError) {
    return {
      status: error.status,
      type: error.type,
      detail: error.detail,
      errors: error.errors,
      request_id: error.requestId,
    };
  }
  const info = errorInfo(error);
  return { status: info.status, type: info.type ?? info.kind, detail: info.message, errors: [] };
}

function isStop(error: unknown): error is Stop {
  return (
    error instanceof SignedOutError || error instanceof NetworkError || error instanceof RequestAbortedError
  );
}

/**
 * 403s that mean "this token may not write", as opposed to "not this task":
 * the scope refused (the one the service names, else the kind's own).
 */
function readOnlyScope(error: ProblemError, entityType: string): string | null {
  if (!isScopeRefusal(error)) return null;
  if (error.type === 'test-token-read-only') return TASK_WRITE_SCOPE;
  if (error.type === 'insufficient-scope') {
    const required = (error.errors[0] as { required?: unknown } | undefined)?.required;
    return typeof required === 'string' ? required : pushKindOf(entityType).writeScope;
  }
  return null;
}

function isScopeRefusal(error: ProblemError): boolean {
  return (
    error.status === 403 && (error.type === 'test-token-read-only' || error.type === 'insufficient-scope')
  );
}

export class Pusher {
  private readonly store: PushStore;
  private readonly api: ApiClient;
  private readonly emit: SyncEventListener;
  private readonly concurrency: number;
  private readonly maxRebases: number;
  /** Scopes the service refused to this account (until `clearReadOnly`). */
  private readonly readOnly = new Map<string, string>();
  private orgIdCache: string | null = null;
  /** One pass at a time: a second call joins the one running. */
  private running: Promise<PushSummary> | null = null;

  constructor(options: PusherOptions) {
    this.store = options.store;
    this.api = options.api;
    this.emit = options.onEvent ?? (() => undefined);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxRebases = Math.max(1, options.maxRebases ?? 3);
  }

  /**
   * Scopes the service last refused to this account (403 `test-token-read-only` /
   * `insufficient-scope`); emptied by the next write it accepts.
   */
  get readOnlyScopes(): ReadonlyMap<string, string> {
    return this.readOnly;
  }

  /** After a new sign-in: try writing again, blocked operations included. */
  async clearReadOnly(): Promise<number> {
    this.readOnly.clear();
    return this.store.unblockAll();
  }

  openConflicts(): Promise<number> {
    return this.store.openConflictCount();
  }

  /**
   * Sends every operation that can go now. Stops early (and throws) when
   * signed out, offline or aborted, leaving the outbox as it stands; anything
   * else that goes wrong with one operation is recorded on it and the others go on.
   */
  pushAll(options: { signal?: AbortSignal } = {}): Promise<PushSummary> {
    if (this.running) return this.running;
    const run = this.pass(options.signal).finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async pass(signal: AbortSignal | undefined): Promise<PushSummary> {
    const requestsBefore = this.api.stats.requests;
    let waiters: (() => void)[] = [];
    const state: PassState = {
      summary: { pushed: 0, conflicts: 0, failed: 0, requests: 0 },
      busy: new Set(),
      parked: new Set(),
      stop: null,
      readOnly: false,
      refusedScopes: new Map(),
      fatal: null,
      signal,
      changed: () => {
        const wake = waiters;
        waiters = [];
        for (const resolve of wake) resolve();
      },
      waitForChange: () => new Promise((resolve) => waiters.push(resolve)),
    };
    // Every pass tries (a read-only account costs one refused request per pass), so that
    // a token that became writable is noticed without anyone telling the pusher.
    await Promise.all(Array.from({ length: this.concurrency }, () => this.worker(state)));
    state.summary.requests = this.api.stats.requests - requestsBefore;
    if (state.fatal) throw state.fatal.error;
    if (state.stop) throw state.stop;
    return state.summary;
  }

  private async worker(state: PassState): Promise<void> {
    for (;;) {
      if (state.stop || state.fatal || state.readOnly) return;
      if (state.signal?.aborted) {
        state.stop = new RequestAbortedError('push');
        state.changed();
        return;
      }
      const op = await this.nextOp(state);
      if (!op) {
        if (state.busy.size === 0) {
          state.changed();
          return;
        }
        await state.waitForChange();
        continue;
      }
      let after = op.entityId;
      try {
        after = await this.pushOne(op, state);
      } catch (error) {
        if (isStop(error)) state.stop ??= error;
        else state.fatal ??= { error };
      } finally {
        state.busy.delete(op.entityId);
        state.busy.delete(after);
        state.changed();
      }
    }
  }

  /** The oldest ready operation of a task nobody is pushing and that is not set aside; marks the task busy. */
  private async nextOp(state: PassState): Promise<PushOp | null> {
    const skip = (op: PushOp) => state.busy.has(op.entityId) || state.parked.has(op.entityId);
    const ready = await this.store.ready(state.busy.size + state.parked.size + 1);
    // Taken in the same turn as it is chosen, so two workers never pick the same task.
    const op = ready.find((candidate) => !skip(candidate)) ?? null;
    if (op) state.busy.add(op.entityId);
    const refused = op === null ? undefined : state.refusedScopes.get(pushKindOf(op.entityType).writeScope);
    if (op !== null && refused !== undefined) {
      // Refused already in this pass: it waits as the first did, without a request the service would refuse.
      await this.store.fail(op.opId, 'blocked', refused);
      state.summary.failed += 1;
      state.busy.delete(op.entityId);
      return this.nextOp(state);
    }
    return op;
  }

  /** Pushes one operation to its end for this pass; returns the task's id after it. */
  private async pushOne(op: PushOp, state: PassState): Promise<string> {
    switch (op.kind) {
      case 'create':
        return this.pushCreate(op, state);
      case 'update':
        return this.pushUpdate(op, state);
      case 'delete':
        return this.pushDelete(op, state);
    }
  }

  private async pushCreate(op: PushOp, state: PassState): Promise<string> {
    const kind = pushKindOf(op.entityType);
    const orgId = kind.needsOrgId ? await this.organizationId(state.signal) : null;
    // Each round sends a smaller body (leaveOut drops fields it carries): bounded by its fields.
    for (let sending = op; ;) {
      const claimed = await this.store.start(sending.opId);
      // Discarded by the person while the organization was read: nothing to send.
      if (!claimed) return sending.entityId;
      try {
        const answer = await kind.create(
          this.api,
          claimed,
          orgId,
          this.requestOptions(state, { idempotencyKey: claimed.opId }),
        );
        const taskId = await this.store.settle(claimed.opId, answer);
        this.accepted(state, claimed, taskId);
        if (taskId !== claimed.entityId) {
          this.emit({
            type: 'id-remapped',
            entityType: claimed.entityType,
            from: claimed.entityId,
            to: taskId,
          });
        }
        return taskId;
      } catch (error) {
        const again = await this.leftOut(claimed, error);
        if (again !== null) {
          sending = again;
          continue;
        }
        await this.failed(claimed, sending, error, state);
        return claimed.entityId;
      }
    }
  }

  /**
   * A re-create refused (422) for references the person can no longer use:
   * the operation to send without them (said in the sync log), else null.
   */
  private async leftOut(claimed: PushOp, error: unknown): Promise<PushOp | null> {
    if (!(error instanceof ProblemError) || error.status !== 422) return null;
    const fields = refusedBodyFields(error.errors);
    if (fields.length === 0) return null;
    const again = await this.store.leaveOut(claimed.opId, fields);
    if (again === null) return null;
    this.emit({
      type: 'left-out',
      opId: again.opId,
      entityType: claimed.entityType,
      entityId: claimed.entityId,
      fields,
      reason: error.detail,
    });
    return again;
  }

  private async pushUpdate(op: PushOp, state: PassState): Promise<string> {
    let current: PushOp | null = op;
    if (current.baseEtag === null) {
      // No version known to send If-Match with: read it and merge as after a 412.
      current = await this.mergeWithServer(current, state);
      if (!current) return op.entityId;
    }
    for (let round = 0; round < this.maxRebases; round++) {
      const claimed = await this.store.start(current.opId);
      if (!claimed) return op.entityId;
      try {
        const answer = await pushKindOf(claimed.entityType).update(
          this.api,
          claimed,
          this.requestOptions(state, { ifMatch: claimed.baseEtag, idempotencyKey: claimed.opId }),
        );
        await this.store.settle(claimed.opId, answer);
        this.accepted(state, claimed, claimed.entityId);
        return claimed.entityId;
      } catch (error) {
        if (error instanceof ProblemError && error.status === 412) {
          current = await this.mergeWithServer(claimed, state);
          if (!current) return op.entityId;
          continue;
        }
        if (error instanceof ProblemError && error.status === 404) {
          await this.deletedRemotely(claimed, error, state);
          return op.entityId;
        }
        const unreadable = await this.unreadable(claimed, error, state);
        if (unreadable) await this.deletedRemotely(claimed, unreadable, state);
        else await this.failed(claimed, current, error, state);
        return op.entityId;
      }
    }
    // The task kept changing under us: try again next pass rather than spin.
    state.parked.add(op.entityId);
    return op.entityId;
  }

  /**
   * Reads the server's version and merges the operation into it per field.
   * Returns the operation to send now (rebased), or null when it is settled,
   * in conflict, could not be read (recorded on it), or is set aside for the
   * next pass.
   */
  private async mergeWithServer(op: PushOp, state: PassState): Promise<PushOp | null> {
    let theirs: ServerTask;
    try {
      theirs = await this.readServer(op, state);
    } catch (error) {
      if (isGone(error)) {
        await this.deletedRemotely(op, error, state);
        return null;
      }
      await this.failed(op, op, error, state);
      return null;
    }
    await this.store.landServerCopy(op, theirs);
    // An operation never sent takes in the person's edits while the read is under way (it was
    // not claimed, unlike one whose PATCH met a 412): its merge is written only if it still
    // stands as merged, else it is merged again as it is now, so the later edit goes too.
    let current: PushOp | null = op;
    for (let merges = 0; current !== null; merges++) {
      if (merges === this.maxRebases) {
        // The person keeps editing it: it waits, with every edit, for the next pass.
        state.parked.add(op.entityId);
        return null;
      }
      const merged = await this.mergeInto(current, theirs, state);
      if (merged !== 'changed') return merged;
      current = await this.store.current(op.opId);
    }
    return null;
  }

  /** One merge of `op` into `theirs`, written unless `op` changed meanwhile ('changed'); see mergeWithServer. */
  private async mergeInto(
    op: PushOp,
    theirs: ServerTask,
    state: PassState,
  ): Promise<PushOp | null | 'changed'> {
    const merge = threeWayMerge({ base: op.baseValues, mine: op.patch, theirs: theirs.task });
    const baseOf = (fields: Iterable<string>): FieldValues => {
      const out: FieldValues = {};
      for (const field of fields) out[field] = theirs.task[field] ?? null;
      return out;
    };
    if (merge.conflicts.length > 0) {
      const patch: FieldValues = { ...merge.rebased };
      for (const conflict of merge.conflicts) patch[conflict.field] = conflict.mine;
      const recorded = await this.store.conflict(
        op.opId,
        {
          deleted: false,
          theirsEtag: theirs.etag,
          fields: merge.conflicts,
          patch,
          baseValues: baseOf(Object.keys(merge.rebased)),
          merged: {
            rebased: Object.keys(merge.rebased),
            taken: Object.keys(merge.taken),
            settled: Object.keys(merge.settled),
          },
        },
        op,
      );
      if (!recorded) return 'changed';
      state.summary.conflicts += merge.conflicts.length;
      this.emit({
        type: 'conflict',
        opId: op.opId,
        entityType: op.entityType,
        entityId: op.entityId,
        conflict: 'edited',
        fields: merge.conflicts.map((c) => c.field),
      });
      return null;
    }
    const opId = await this.store.rebase(
      op.opId,
      { baseEtag: theirs.etag, patch: merge.rebased, baseValues: baseOf(Object.keys(merge.rebased)) },
      op,
    );
    if (opId === null) return 'changed';
    this.emit({
      type: 'merged',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      rebased: Object.keys(merge.rebased),
      taken: Object.keys(merge.taken),
      settled: Object.keys(merge.settled),
    });
    if (Object.keys(merge.rebased).length === 0) {
      // Everything I changed is on the server already (settled, or a retry of a write that had landed).
      this.accepted(state, op, op.entityId);
      return null;
    }
    return {
      ...op,
      opId,
      patch: merge.rebased,
      baseEtag: theirs.etag,
      baseValues: baseOf(Object.keys(merge.rebased)),
    };
  }

  private async pushDelete(op: PushOp, state: PassState): Promise<string> {
    let current = op;
    if (current.baseEtag === null) {
      try {
        const theirs = await this.readServer(op, state);
        await this.store.landServerCopy(op, theirs);
        // Known without a version (a list page's item): what is read now may be a teammate's later
        // work, so it is deleted only when it is what the person deleted (a delete queued before that
        // was recorded carries no values: it goes as before).
        if (Object.keys(op.baseValues).length > 0 && !unchangedSinceDeleted(op, theirs)) {
          await this.holdDelete(op, theirs, state);
          return op.entityId;
        }
        current = { ...current, baseEtag: theirs.etag };
      } catch (error) {
        if (error instanceof ProblemError && error.status === 404) {
          await this.store.settle(op.opId, null);
          this.accepted(state, op, op.entityId);
          return op.entityId;
        }
        await this.failed(op, op, error, state);
        return op.entityId;
      }
    }
    const claimed = await this.store.start(current.opId);
    // Discarded by the person while the task was read: it stays.
    if (!claimed) return op.entityId;
    try {
      await pushKindOf(claimed.entityType).remove(
        this.api,
        claimed,
        this.requestOptions(state, { ifMatch: current.baseEtag }),
      );
      await this.store.settle(claimed.opId, null);
      this.accepted(state, claimed, claimed.entityId);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) {
        // Already gone: what the person wanted.
        await this.store.settle(claimed.opId, null);
        this.accepted(state, claimed, claimed.entityId);
      } else if (error instanceof ProblemError && error.status === 412) {
        await this.heldDelete(claimed, state);
      } else {
        await this.failed(claimed, current, error, state);
      }
    }
    return op.entityId;
  }

  /** Someone changed the task after the person deleted it: show them, do not delete their work unseen. */
  private async heldDelete(op: PushOp, state: PassState): Promise<void> {
    let theirs: ServerTask;
    try {
      theirs = await this.readServer(op, state);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) {
        await this.store.settle(op.opId, null);
        this.accepted(state, op, op.entityId);
        return;
      }
      await this.failed(op, op, error, state);
      return;
    }
    await this.store.landServerCopy(op, theirs);
    if (unchangedSinceDeleted(op, theirs)) {
      // Nothing the person could see changed (an ETag moved on an unchanged body, or only counts the
      // service derives, such as tasks filed since): delete that version, once.
      try {
        await pushKindOf(op.entityType).remove(
          this.api,
          op,
          this.requestOptions(state, { ifMatch: theirs.etag }),
        );
        await this.store.settle(op.opId, null);
        this.accepted(state, op, op.entityId);
        return;
      } catch (error) {
        if (!(error instanceof ProblemError && error.status === 412)) {
          await this.failed(op, op, error, state);
          return;
        }
      }
    }
    await this.holdDelete(op, theirs, state);
  }

  /** The delete waits for the person against `theirs`, the version changed since they deleted it. */
  private async holdDelete(op: PushOp, theirs: ServerTask, state: PassState): Promise<void> {
    const problem = {
      status: 412,
      type: 'edited-remotely',
      detail:
        'The task changed on the server after you deleted it. Retry to delete the new version, or drop the delete to keep the task.',
      errors: [],
    };
    await this.store.holdDelete(op.opId, theirs, problem);
    state.summary.failed += 1;
    this.emit({
      type: 'push-failed',
      opId: op.opId,
      entityType: op.entityType,
      entityId: op.entityId,
      error: {
        kind: 'problem',
        type: 'edited-remotely',
        status: 412,
        operation: pushKindOf(op.entityType).deleteName,
        message: problem.detail,
      },
    });
  }

  /**
   * A 403 on a write may refuse the change (a project this token may not file
   * into) or the task itself: reading it tells. Returns the read's refusal
   * when the task can no longer be read, null otherwise.
   */
  private async unreadable(op: PushOp, error: unknown, state: PassState): Promise<ProblemError | null> {
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
  private async deletedRemotely(op: PushOp, error: ProblemError, state: PassState): Promise<void> {
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
  private async failed(claimed: PushOp, before: PushOp, error: unknown, state: PassState): Promise<void> {
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
        // A test token writes nothing; a missing scope refuses only the kinds that need it.
        if (error.type === 'test-token-read-only') state.readOnly = true;
        else state.refusedScopes.set(pushKindOf(claimed.entityType).writeScope, problemRecord(error));
        if (!this.readOnly.has(scope)) {
          this.readOnly.set(scope, error.type);
          this.emit({ type: 'read-only', scope, reason: error.type, opId: claimed.opId });
        }
        return;
      }
      if (isRefusal(error)) return this.refused(state, claimed, error);
    }
    // Nothing was sent, and sending again would not change the id: refused, for the person to see.
    if (error instanceof UnsafeIdError) return this.refused(state, claimed, error);
    if (error instanceof ApiError) {
      // 5xx or 429 past the client's retries, or an answer that broke the contract: try again next pass.
      await this.store.fail(claimed.opId, 'queued', problemRecord(error));
      state.parked.add(claimed.entityId);
      return;
    }
    throw error;
  }

  /** The change is refused for good (the service's 4xx, or an id we will not send): it waits for the person. */
  private async refused(state: PassState, claimed: PushOp, error: ApiError): Promise<void> {
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

  private accepted(state: PassState, op: PushOp, taskId: string): void {
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

  private async readServer(op: PushOp, state: PassState): Promise<ServerTask> {
    return pushKindOf(op.entityType).read(this.api, op, this.requestOptions(state, {}));
  }

  private async organizationId(signal: AbortSignal | undefined): Promise<string> {
    if (this.orgIdCache !== null) return this.orgIdCache;
    const known = await this.store.orgId();
    if (known !== null) {
      this.orgIdCache = known;
      return known;
    }
    const answer = await this.api.read(meOperations.get, {}, { lane: 'user', signal });
    if (answer.status === 304) throw new Error('me.get answered 304 to a request without If-None-Match');
    const orgId = answer.body.org_id;
    if (typeof orgId !== 'string' || orgId === '') {
      throw new Error('me.get did not name the organization: cannot create a task without its org_id');
    }
    this.orgIdCache = orgId;
    return orgId;
  }

  private requestOptions<Extra extends object>(
    state: PassState,
    extra: Extra,
  ): Extra & { lane: 'user'; signal?: AbortSignal } {
    return { ...extra, lane: 'user', ...(state.signal ? { signal: state.signal } : {}) };
  }
}

/**
 * The task this edit is for is out of reach: deleted (404), or no longer
 * readable by this person (a 403 that is not about the token's scope, such as
 * a project they lost access to). Either way the edit waits for them as a draft.
 */
function isGone(error: unknown): error is ProblemError {
  if (!(error instanceof ProblemError)) return false;
  return error.status === 404 || (error.status === 403 && !isScopeRefusal(error));
}

/** Answers that refuse the operation's content or target for good: the person must change something. */
function isRefusal(error: ProblemError): boolean {
  if (error.status === 429 || error.status >= 500) return false;
  if (error.status === 409 && error.type === 'idempotency-key-in-flight') return false;
  return error.status >= 400;
}

/**
 * The server's version is the one the person deleted (the delete's base,
 * every field they could see): equal but for fields the kind's service
 * derives (a goal's task counts), absent taken as null. A delete queued
 * without its base (an outbox older than bases of deletes) is never so.
 */
function unchangedSinceDeleted(op: PushOp, theirs: ServerTask): boolean {
  if (Object.keys(op.baseValues).length === 0) return false;
  const derived = pushKindOf(op.entityType).derivedFields ?? [];
  const fields = new Set([...Object.keys(op.baseValues), ...Object.keys(theirs.task)]);
  for (const field of fields) {
    if (derived.includes(field)) continue;
    if (!isDeepStrictEqual(op.baseValues[field] ?? null, theirs.task[field] ?? null)) return false;
  }
  return true;
}
