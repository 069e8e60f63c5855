// Drains the outbox: creates, merge-patches and deletes sent in order per
// resource (resources in parallel, bounded), each claimed durably before it
// leaves so a kill at any instant neither loses it nor sends a different body
// under its key. A 412 is merged per field against the edit's base; what cannot
// be merged waits for the person as a conflict (server-merge.ts), a delete of a
// changed task is held (delete-push.ts), and every end of an operation is
// recorded one way (push-outcomes.ts). Where each kind's requests go is the
// kind's own (kinds/); everything else here is the same for all.
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import { InvalidResponseError, ProblemError, RequestAbortedError } from '../api/errors';
import { meOperations } from '../api/operations';
import { refusedBodyFields } from '../../protocol/problem';
import type { PushSummary, SyncEventListener } from '../events/sync-events';
import { DeletePush } from './delete-push';
import { pushKindOf } from './kinds/registry';
import { isStop } from './push-failure';
import { type PassState, PushOutcomes } from './push-outcomes';
import type { PushOp, PushStore } from './push-store';
import { throttledProgress } from './upload-progress';
import { ServerMerge } from './server-merge';

export interface PusherOptions {
  store: PushStore;
  api: ApiClient;
  /** Paces the uploads' progress events; every wait happens in the API client, on its own clock. */
  clock?: ApiClock;
  onEvent?: SyncEventListener;
  /** Tasks pushed at the same time. Default 4: enough to keep a paced budget busy over a slow link. */
  concurrency?: number;
  /** Rebases of one operation in one pass before it waits for the next (a task that keeps changing). Default 3. */
  maxRebases?: number;
}

export class Pusher {
  private readonly store: PushStore;
  private readonly api: ApiClient;
  private readonly emit: SyncEventListener;
  private readonly clock: ApiClock;
  private readonly concurrency: number;
  private readonly maxRebases: number;
  private readonly outcomes: PushOutcomes;
  private readonly merge: ServerMerge;
  private readonly deletes: DeletePush;
  private orgIdCache: string | null = null;
  /** Where an upload's bytes are found; null when the store keeps no files. */
  private readonly content: ((sha256: string) => Promise<Uint8Array | null>) | null;
  /** One pass at a time: a second call joins the one running. */
  private running: Promise<PushSummary> | null = null;

  constructor(options: PusherOptions) {
    this.store = options.store;
    this.api = options.api;
    this.emit = options.onEvent ?? (() => undefined);
    this.clock = options.clock ?? systemApiClock;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxRebases = Math.max(1, options.maxRebases ?? 3);
    this.content = this.store.contentOf?.bind(this.store) ?? null;
    this.outcomes = new PushOutcomes(this.store, this.api, this.emit);
    this.merge = new ServerMerge(this.store, this.emit, this.outcomes, this.maxRebases);
    this.deletes = new DeletePush(this.store, this.api, this.emit, this.outcomes);
  }

  /**
   * Scopes the service last refused to this account (403 `test-token-read-only` /
   * `insufficient-scope`); emptied by the next write it accepts.
   */
  get readOnlyScopes(): ReadonlyMap<string, string> {
    return this.outcomes.readOnly;
  }

  /** After a new sign-in: try writing again, blocked operations included. */
  async clearReadOnly(): Promise<number> {
    this.outcomes.readOnly.clear();
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
    const scope = op === null ? null : pushKindOf(op.entityType).writeScope;
    const refused = scope === null ? undefined : state.refusedScopes.get(scope);
    if (op !== null && scope !== null && refused !== undefined) {
      // Refused already in this pass: it waits as the first did, without a request the service would refuse.
      await this.store.fail(op.opId, 'blocked', refused);
      state.summary.failed += 1;
      this.emit({ type: 'blocked', opId: op.opId, entityType: op.entityType, entityId: op.entityId, scope });
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
        return this.deletes.pushDelete(op, state);
    }
  }

  private async pushCreate(op: PushOp, state: PassState): Promise<string> {
    const kind = pushKindOf(op.entityType);
    let orgId: string | null = null;
    try {
      if (kind.needsOrgId) orgId = await this.organizationId(state.signal);
    } catch (error) {
      // /v1/me broke the contract (the organization not learned yet): thrown, it ended the whole
      // pass; this create waits for the next one, as after any answer it cannot read, and the rest go.
      if (!(error instanceof InvalidResponseError)) throw error;
      await this.outcomes.failed(op, op, error, state);
      return op.entityId;
    }
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
          this.outcomes.requestOptions(state, {
            idempotencyKey: claimed.opId,
            ...(this.content ? { content: this.content } : {}),
            onUploadProgress: throttledProgress(
              (sentBytes, totalBytes) =>
                this.emit({
                  type: 'upload-progress',
                  opId: claimed.opId,
                  entityType: claimed.entityType,
                  entityId: claimed.entityId,
                  sentBytes,
                  totalBytes,
                }),
              this.clock,
            ),
          }),
        );
        const taskId = await this.store.settle(claimed.opId, answer);
        this.outcomes.accepted(state, claimed, taskId);
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
        await this.outcomes.failed(claimed, sending, error, state);
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
      current = await this.merge.mergeWithServer(current, state);
      if (!current) return op.entityId;
    }
    for (let round = 0; round < this.maxRebases; round++) {
      const claimed = await this.store.start(current.opId);
      if (!claimed) return op.entityId;
      try {
        const answer = await pushKindOf(claimed.entityType).update(
          this.api,
          claimed,
          this.outcomes.requestOptions(state, { ifMatch: claimed.baseEtag, idempotencyKey: claimed.opId }),
        );
        await this.store.settle(claimed.opId, answer);
        this.outcomes.accepted(state, claimed, claimed.entityId);
        return claimed.entityId;
      } catch (error) {
        if (error instanceof ProblemError && error.status === 412) {
          current = await this.merge.mergeWithServer(claimed, state);
          if (!current) return op.entityId;
          continue;
        }
        if (error instanceof ProblemError && error.status === 404) {
          await this.outcomes.deletedRemotely(claimed, error, state);
          return op.entityId;
        }
        const unreadable = await this.outcomes.unreadable(claimed, error, state);
        if (unreadable) await this.outcomes.deletedRemotely(claimed, unreadable, state);
        else await this.outcomes.failed(claimed, current, error, state);
        return op.entityId;
      }
    }
    // The task kept changing under us: try again next pass rather than spin.
    state.parked.add(op.entityId);
    return op.entityId;
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
}
