// Pull in tiers: `full` walks every resource in dependency order (the only
// pull that can see deletions); `hot` revalidates what the person looks at
// (tasks assigned to them, the current sprint's team, the open task, comments
// of the tasks they are likely to open: comment-watch.ts); `new` finds tasks created since the newest one known with
// `filter[created_after]`. Each yields a change list and the notifications it
// raises; the first full sync of a mirror announces nothing. In a full pull
// each list (a collection, or one team's sprints) is a unit that succeeds or
// fails on its own: a failed one is retried with backoff within the run, the
// others go on, and the summary names what failed; the next poll (`failed`
// scope) pulls only those.
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import { isFirstPass } from '../../db/sync-passes';
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import { ApiError, InvalidResponseError, NetworkError, ProblemError, SignedOutError } from '../api/errors';
import { taskCommentOperations, taskHistoryOperations, taskOperations } from '../api/operations';
import type { RequestLane } from '../api/rate-governor';
import type { FullPullScope, PullRunner, PullTier, SyncIdentity } from '../engine/sync-parts';
import { errorInfo } from '../engine/sync-error-info';
import type {
  CollectionFailure,
  PulledCollection,
  PullSummary,
  ResourceChange,
  SyncEventListener,
  SyncNotification,
} from '../engine/sync-events';
import { clipped } from './deferred-validation';
import { listSource } from './list-source';
import { notificationsOf } from './notifications';
import { commentWatchTasks, DEFAULT_COMMENT_WATCH } from './comment-watch';
import { CursorAges } from './cursor-ages';
import { walkList } from './page-walker';
import {
  addResult,
  emptyResult,
  type PullContext,
  type PulledResource,
  type PullUnit,
  type ResourcePullResult,
} from './pull-context';
import {
  backoffMs,
  DEFAULT_PULL_RUN_POLICY,
  DEFAULT_TASK_CHAIN_POLICY,
  type PullRunPolicy,
  type TaskChainPolicy,
  waitWithin,
} from './pull-run-policy';
import type { PullStore } from './pull-store';
import { PULLED_RESOURCES } from './pulled-resources';
import { readMe, rememberedMe } from './resources/me';
import { TASK_PAGE } from './resources/tasks';
import { SoloGate } from './solo-gate';

export interface PullerOptions {
  store: PullStore;
  api: ApiClient;
  me: SyncIdentity;
  emit: SyncEventListener;
  /** The current time (ms), for "today" and the current sprint. */
  now?: () => number;
  /** Pages revalidated at once in a re-sync. Default 8. */
  concurrency?: number;
  /** Comment lists revalidated per hot pull besides the open task's (default in comment-watch.ts). */
  commentWatch?: number;
  /** What the run's restarts and retries wait on (default: real time). */
  clock?: ApiClock;
  /** The run's time budget and backoff (defaults in pull-run-policy.ts). */
  runPolicy?: Partial<PullRunPolicy>;
  /** How the whole task list is split into chains walked at once (defaults in task-chains.ts). */
  taskChains?: Partial<TaskChainPolicy>;
  /** What pulls keep in memory between them (PullContext.memo); given when the caller read `/v1/me` ahead with it. */
  memo?: Map<string, unknown>;
}

/** A unit that failed after its tries: the error and how many tries it had. */
class UnitFailed extends Error {
  constructor(
    readonly error: unknown,
    readonly attempts: number,
  ) {
    super('unit failed', { cause: error });
  }
}

const unitKey = (collection: PulledCollection, scope: string): string => `${collection}\u0000${scope}`;

export class Puller implements PullRunner {
  private readonly memo: Map<string, unknown>;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly commentWatch: number;
  private openTaskId: string | null = null;
  private readonly clock: ApiClock;
  private readonly policy: PullRunPolicy;
  private readonly taskChains: TaskChainPolicy;
  /** What the service showed of its cursors' lifetime, kept for this engine's later pulls. */
  private readonly cursorAges = new CursorAges();
  /** Units the last full pulls could not complete (or skipped): what a `failed` pull retries. */
  private readonly failedUnits = new Map<string, { collection: PulledCollection; scope: string }>();

  constructor(private readonly options: PullerOptions) {
    this.clock = options.clock ?? systemApiClock;
    this.memo = options.memo ?? new Map<string, unknown>();
    this.policy = { ...DEFAULT_PULL_RUN_POLICY, ...options.runPolicy };
    this.taskChains = { ...DEFAULT_TASK_CHAIN_POLICY, ...options.taskChains };
    this.now = options.now ?? (() => this.clock.now());
    this.concurrency = options.concurrency ?? 8;
    this.commentWatch = options.commentWatch ?? DEFAULT_COMMENT_WATCH;
  }

  /** The task on screen: part of the hot set. */
  setOpenTask(taskId: string | null): void {
    this.openTaskId = taskId;
  }

  /** Units the last full pulls left failed (or skipped): what a `failed` pull would retry. */
  failedScopes(): { collection: PulledCollection; scope: string }[] {
    return [...this.failedUnits.values()];
  }

  async pull(options: {
    tier: PullTier;
    signal?: AbortSignal | undefined;
    /** For `full`: `failed` pulls only the units that failed last time (everything when none did). */
    scope?: FullPullScope;
  }): Promise<PullSummary> {
    const requestsBefore = this.options.api.stats.requests;
    const initial = options.tier === 'full' && (await this.firstFullPull());
    // One run's walks share a stop: a sign-out or an abort ends them all.
    const runStop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, runStop.signal]) : runStop.signal;
    const ctx = await this.context('background', signal, options.tier !== 'full');
    ctx.announce = !initial;
    const result = emptyResult();
    const completed: PulledCollection[] = [];
    const failed: CollectionFailure[] = [];
    try {
      if (options.tier === 'full') {
        const only = options.scope === 'failed' && this.failedUnits.size > 0 ? this.onlyFailed() : null;
        const outcome = await this.pullAll(ctx, result, initial, only, runStop);
        completed.push(...outcome.completed);
        failed.push(...outcome.failed);
      } else if (options.tier === 'new') {
        addResult(result, await this.pullNewTasks(ctx));
      } else {
        addResult(result, await this.pullHotSet(ctx));
      }
      return await this.finish(result, initial, completed, requestsBefore, failed);
    } finally {
      this.announceParked(result.parked);
    }
  }

  /** The failed units by collection; `me` always comes along (it names the organization). */
  private onlyFailed(): Map<PulledCollection, Set<string>> {
    const only = new Map<PulledCollection, Set<string>>([['me', new Set([''])]]);
    for (const { collection, scope } of this.failedUnits.values()) {
      const scopes = only.get(collection) ?? new Set<string>();
      scopes.add(scope);
      only.set(collection, scopes);
    }
    return only;
  }

  /**
   * Every resource, each started as soon as what it needs is done, so that the
   * small independent lists cost one round trip together, not one each. Each
   * unit (a list; a team's sprints) is tried on its own: one that fails is
   * retried with backoff while the run has time, then named in `failed`, and
   * what needs it is named as skipped; the rest goes on. Only a sign-out, a
   * rate limit or an abort ends the run (thrown), and being offline (every
   * unit failed on the network: thrown, so that the scheduler probes). A first
   * sync (also when resumed) fetches what the person sees first, their tasks
   * and the current sprint's, before the whole task list.
   */
  private async pullAll(
    ctx: PullContext,
    result: ResourcePullResult,
    initial: boolean,
    only: ReadonlyMap<PulledCollection, ReadonlySet<string>> | null,
    runStop: AbortController,
  ): Promise<{ completed: PulledCollection[]; failed: CollectionFailure[] }> {
    /** Each resource's outcome: every unit done, or some failed (or not tried because a need failed). */
    const outcome = new Map<PulledCollection, Promise<'done' | 'failed'>>();
    /**
     * Resolves once the resource's units had their first try (true: all succeeded), or
     * once a need's first try failed: the preview of a first sync waits for no retry.
     */
    const firstTried = new Map<PulledCollection, Promise<boolean>>();
    const failures: { collection: PulledCollection; scope: string; error: unknown; attempts: number }[] = [];
    const skipped: { collection: PulledCollection; because: PulledCollection }[] = [];
    const finished = new Set<PulledCollection>();
    const tried = new Set<string>();
    let succeeded = 0;
    const fatal: { error: unknown } = { error: null };
    const stopRun = (error: unknown): void => {
      fatal.error ??= error;
      runStop.abort(error);
    };
    /** A unit's last failure: fatal ones end the run, the others are named. */
    const failed = (collection: PulledCollection, scope: string, failure: UnitFailed): void => {
      if (this.isFatal(failure.error, ctx)) stopRun(failure.error);
      else failures.push({ collection, scope, error: failure.error, attempts: failure.attempts });
    };

    for (const resource of PULLED_RESOURCES.values()) {
      const collection = resource.collection;
      const scopes = only === null ? null : (only.get(collection) ?? null);
      let markTried: (ok: boolean) => void = () => undefined;
      firstTried.set(collection, new Promise<boolean>((resolve) => (markTried = resolve)));
      void Promise.all(resource.needs.map((need) => firstTried.get(need) ?? Promise.resolve(true))).then(
        (oks) => {
          if (!oks.every(Boolean)) markTried(false);
        },
      );
      const run = (async (): Promise<'done' | 'failed'> => {
        try {
          const needs = await Promise.all(
            resource.needs.map(async (need) => [need, await (outcome.get(need) ?? 'done')] as const),
          );
          // A retry of failed units only: the others were done by the pull before.
          if (only !== null && scopes === null) return 'done';
          const failedNeed = needs.find(([, state]) => state === 'failed')?.[0];
          if (failedNeed !== undefined) {
            skipped.push({ collection, because: failedNeed });
            return 'failed';
          }
          if (initial && collection === 'tasks') await this.seenFirst(ctx, result, firstTried, stopRun);
          const units = await this.unitsOf(resource, ctx, scopes);
          const firsts: Promise<boolean>[] = [];
          const runs = units.map(async (unit) => {
            tried.add(unitKey(collection, unit.scope));
            let firstDone: (ok: boolean) => void = () => undefined;
            firsts.push(new Promise<boolean>((resolve) => (firstDone = resolve)));
            try {
              addResult(
                result,
                await this.attempt(
                  ctx,
                  () => unit.pull(),
                  () => firstDone(false),
                ),
              );
              firstDone(true);
              if (collection === 'me') ctx.orgId = await this.orgId(ctx);
              succeeded += 1;
              return true;
            } catch (error) {
              failed(collection, unit.scope, error instanceof UnitFailed ? error : new UnitFailed(error, 1));
              return false;
            } finally {
              firstDone(false);
            }
          });
          void Promise.all(firsts).then((oks) => markTried(oks.every(Boolean)));
          const outcomes = await Promise.all(runs);
          if (!outcomes.every(Boolean)) return 'failed';
          finished.add(collection);
          return 'done';
        } catch (error) {
          // Listing the units failed (after its tries).
          failed(collection, '', error instanceof UnitFailed ? error : new UnitFailed(error, 1));
          return 'failed';
        } finally {
          markTried(false);
        }
      })();
      outcome.set(collection, run);
    }
    await Promise.all(outcome.values());
    if (fatal.error !== null) throw fatal.error as Error;
    // Nothing reached the service and the network failed: offline, not a partial sync.
    const offline = failures.find((f) => f.error instanceof NetworkError);
    if (offline && succeeded === 0) throw offline.error;

    this.rememberFailures(only, tried, failures, skipped);
    const failedInfo: CollectionFailure[] = failures.map((f) => ({
      collection: f.collection,
      scope: f.scope,
      error: errorInfo(f.error),
      skippedBecause: null,
      attempts: f.attempts,
    }));
    for (const skip of skipped) {
      const cause = failedInfo.find((f) => f.collection === skip.because) ?? failedInfo[0];
      failedInfo.push({
        collection: skip.collection,
        scope: '',
        error: cause?.error ?? errorInfo(new Error(`${skip.because} could not be synced`)),
        skippedBecause: skip.because,
        attempts: 0,
      });
    }
    const order = [...PULLED_RESOURCES.keys()];
    failedInfo.sort((a, b) => order.indexOf(a.collection) - order.indexOf(b.collection));
    return { completed: order.filter((collection) => finished.has(collection)), failed: failedInfo };
  }

  /**
   * A first sync's preview of the task list: the person's own tasks, before
   * the whole list's chains (which bring their current sprints' teams' tasks
   * as soon: walking those lists too would only write the same tasks twice).
   * It waits for the first try of teams and sprints (not for their retries,
   * nor their success), and its failure is no failure of the whole list.
   */
  private async seenFirst(
    ctx: PullContext,
    result: ResourcePullResult,
    firstTried: ReadonlyMap<PulledCollection, Promise<boolean>>,
    stopRun: (error: unknown) => void,
  ): Promise<void> {
    await Promise.all([firstTried.get('teams'), firstTried.get('sprints')]);
    // The whole list's pass begins first: a first load goes in without its
    // sort indexes (db/deferred-indexes.ts), which only an empty tasks table
    // allows, and the person's tasks would otherwise fill it before.
    await ctx.store.beginPass('tasks', '', { partial: false, restart: false });
    try {
      addResult(result, await this.walkTasks(ctx, 'hot:assigned', { assignee: 'me' }));
    } catch (error) {
      if (this.isFatal(error, ctx)) {
        stopRun(error);
        throw error;
      }
    }
  }

  /** The resource's units (only the failed scopes when retrying); listing them is tried like a unit. */
  private async unitsOf(
    resource: PulledResource,
    ctx: PullContext,
    scopes: ReadonlySet<string> | null,
  ): Promise<PullUnit[]> {
    const listUnits = resource.units?.bind(resource);
    const units = listUnits
      ? await this.attempt(
          ctx,
          () => listUnits(ctx),
          () => undefined,
        )
      : [{ scope: '', pull: () => resource.pull(ctx) }];
    return scopes === null || scopes.has('') ? units : units.filter((unit) => scopes.has(unit.scope));
  }

  /**
   * Runs one unit, trying again with backoff after a failure that may pass
   * (a 5xx, a 408) while tries and the run's time remain. Throws UnitFailed
   * with the last error. A network failure is not tried again here: the
   * client already did, and being offline must show soon.
   */
  private async attempt<T>(ctx: PullContext, run: () => Promise<T>, onFirst: () => void): Promise<T> {
    const time = ctx.walkRules.time;
    for (let attempts = 1; ; attempts++) {
      try {
        return await run();
      } catch (error) {
        if (attempts === 1) onFirst();
        const again =
          time !== undefined &&
          attempts < this.policy.unitAttempts &&
          !this.isFatal(error, ctx) &&
          isPassing(error) &&
          (await waitWithin(
            time,
            backoffMs(attempts, this.policy.unitRetryBaseMs, this.policy.unitRetryMaxMs),
            ctx.signal,
          ).catch(() => false));
        if (!again) throw new UnitFailed(error, attempts);
      }
    }
  }

  /**
   * Ends the whole run: signed out; rate-limited past the client's own waits
   * (the limit is the token's, every list would meet it, and the status says
   * until when); or stopped (aborted) by the caller or by another unit.
   */
  private isFatal(error: unknown, ctx: PullContext): boolean {
    return (
      error instanceof SignedOutError ||
      (error instanceof ProblemError && error.status === 429) ||
      (error instanceof ApiError && error.kind === 'aborted') ||
      ctx.signal?.aborted === true
    );
  }

  /** A retry clears what it tried; failures (and skips) are kept for the next `failed` pull. */
  private rememberFailures(
    only: ReadonlyMap<PulledCollection, ReadonlySet<string>> | null,
    tried: ReadonlySet<string>,
    failures: readonly { collection: PulledCollection; scope: string }[],
    skipped: readonly { collection: PulledCollection }[],
  ): void {
    if (only === null) this.failedUnits.clear();
    else {
      for (const key of tried) this.failedUnits.delete(key);
      // A whole collection retried clears its scoped failures too (its scopes were all tried).
      for (const [key, unit] of this.failedUnits)
        if (tried.has(unitKey(unit.collection, '')) && only.get(unit.collection)?.has(''))
          this.failedUnits.delete(key);
    }
    for (const { collection, scope } of failures)
      this.failedUnits.set(unitKey(collection, scope), { collection, scope });
    for (const { collection } of skipped)
      this.failedUnits.set(unitKey(collection, ''), { collection, scope: '' });
  }

  /** Revalidates one task and its comments in the person's lane (they just opened it). */
  async refreshTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<PullSummary> {
    const requestsBefore = this.options.api.stats.requests;
    const ctx = await this.context('user', options.signal, true);
    const result = emptyResult();
    try {
      addResult(result, await this.revalidateTask(ctx, taskId));
      addResult(result, await this.pullComments(ctx, [taskId]));
      return await this.finish(result, false, [], requestsBefore);
    } finally {
      this.announceParked(result.parked);
    }
  }

  /**
   * The comments and history of a task the editor shows, fetched now in the
   * person's lane (so they show offline next time). Nothing is announced: the
   * person is looking at them.
   */
  async refreshActivity(taskId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    const ctx = await this.context('user', options.signal, false);
    await this.pullComments(ctx, [taskId]);
    await this.pullHistory(ctx, taskId);
  }

  /**
   * Edits the mirror parked because this pull found their tasks gone (a
   * complete pass no longer listing them, a 404 read) are told as a push's
   * conflict on a 404 is told, so the status and the "needs you"
   * notification follow. The store reports each edit once, as it parks it,
   * so they are told when the pull ends even if it fails (a first sync
   * included, though it announces no changes): missed now, never told.
   */
  private announceParked(parked: readonly ParkedEdit[]): void {
    for (const edit of parked) {
      this.options.emit({
        type: 'conflict',
        opId: edit.opId,
        entityType: 'task',
        entityId: edit.taskId,
        conflict: 'deleted-remotely',
        fields: edit.fields,
      });
    }
  }

  private async finish(
    result: ResourcePullResult,
    initial: boolean,
    completed: PulledCollection[],
    requestsBefore: number,
    failed: CollectionFailure[] = [],
  ): Promise<PullSummary> {
    const { store, me } = this.options;
    let notifications: SyncNotification[] = [];
    if (!initial && result.changes.length > 0) {
      const tasks = new Map<string, Record<string, unknown> | null>();
      for (const change of result.changes) {
        if (change.collection === 'task_comments') {
          const taskId = change.resource.task_id;
          if (typeof taskId === 'string' && !tasks.has(taskId))
            tasks.set(taskId, (await store.task(taskId))?.server ?? null);
        }
      }
      notifications = notificationsOf(result.changes, me.username, (id) => tasks.get(id) ?? null);
      await store.addNotifications(me.username, notifications);
      this.options.emit({ type: 'changes', changes: result.changes, notifications });
    }
    return {
      pulled: result.pulled,
      notModified: result.notModified,
      requests: this.options.api.stats.requests - requestsBefore,
      restarts: result.restarts,
      completed,
      changes: result.changes,
      notifications,
      initial,
      failed,
    };
  }

  /** True until the task list has had one complete pass (an interrupted first pass is still the first). */
  private async firstFullPull(): Promise<boolean> {
    return isFirstPass(await this.options.store.pass('tasks', ''));
  }

  private async context(
    lane: RequestLane,
    signal: AbortSignal | undefined,
    needOrg: boolean,
  ): Promise<PullContext> {
    const ctx: PullContext = {
      api: this.options.api,
      store: this.options.store,
      me: this.options.me,
      orgId: '',
      announce: true,
      lane,
      signal,
      concurrency: this.concurrency,
      memo: this.memo,
      taskChains: this.taskChains,
      now: this.now,
      walkRules: {
        time: { clock: this.clock, deadline: this.clock.now() + this.policy.runBudgetMs },
        gate: new SoloGate(),
        cursorAges: this.cursorAges,
        restartBaseMs: this.policy.restartBaseMs,
        restartMaxMs: this.policy.restartMaxMs,
        onItemSkipped: (skip) =>
          this.options.emit({
            type: 'item-skipped',
            ...skip,
            id: skip.id === null ? null : clipped(skip.id),
            field: clipped(skip.field),
            reason: clipped(skip.reason),
          }),
      },
      onProgress: (collection, scope, progress) =>
        this.options.emit({ type: 'progress', collection, scope, ...progress }),
    };
    if (needOrg) ctx.orgId = await this.orgId(ctx);
    return ctx;
  }

  /** The organization: remembered from this engine's last `/v1/me`, read once otherwise. */
  private async orgId(ctx: PullContext): Promise<string> {
    const me = rememberedMe(this.memo) ?? (await readMe(ctx));
    if (me.org_id === null)
      throw new Error('cannot tell which organization the token is for: /v1/me names none');
    return me.org_id;
  }

  private walkTasks(
    ctx: PullContext,
    scope: string,
    filter: Record<string, string>,
    concurrency = ctx.concurrency,
  ): Promise<ResourcePullResult> {
    return walkList({
      collection: 'tasks',
      scope,
      source: listSource(
        ctx.api,
        taskOperations.list,
        { orgId: ctx.orgId },
        { ...TASK_PAGE, filter },
        ctx.lane,
        ctx.store,
      ),
      store: ctx.store,
      partial: true,
      concurrency,
      // A first sync announces nothing: no change list crosses back for its pages either.
      announce: ctx.announce,
      signal: ctx.signal,
      onProgress: (progress) => ctx.onProgress('tasks', scope, progress),
      ...ctx.walkRules,
    }).then((walk) => ({ ...walk, complete: true }));
  }

  /** Tasks created on or after the day of the newest task we hold: usually one request. */
  private async pullNewTasks(ctx: PullContext): Promise<ResourcePullResult> {
    const day = (await ctx.store.newestTaskDay()) ?? utcDay(this.now());
    return this.walkTasks(ctx, `new:${day}`, { created_after: day }, 1);
  }

  /** The tasks assigned to the person and those of their current sprints' teams. */
  private async pullSeenFirst(ctx: PullContext): Promise<ResourcePullResult> {
    const result = emptyResult();
    addResult(result, await this.walkTasks(ctx, 'hot:assigned', { assignee: 'me' }));
    for (const teamId of await this.currentSprintTeams(ctx)) {
      addResult(result, await this.walkTasks(ctx, `hot:team:${teamId}`, { team: teamId }));
    }
    return result;
  }

  private async pullHotSet(ctx: PullContext): Promise<ResourcePullResult> {
    const result = await this.pullSeenFirst(ctx);
    const open = this.openTaskId;
    if (open !== null) addResult(result, await this.revalidateTask(ctx, open));
    // Comments: the open task's, and those of a few likely-opened tasks, stalest first (comment-watch.ts).
    const watched = await commentWatchTasks(ctx, open, this.commentWatch);
    addResult(result, await this.pullComments(ctx, watched));
    return result;
  }

  /** Teams whose current sprint (today within its dates, not completed) the person's team runs. */
  private async currentSprintTeams(ctx: PullContext): Promise<string[]> {
    const today = utcDay(this.now());
    const myTeams = new Set(
      (await ctx.store.resources('teams'))
        .filter((t) => t.team_role === 'owner' || t.team_role === 'member')
        .map((t) => t.team_id as string),
    );
    const teams = new Set<string>();
    for (const sprint of await ctx.store.resources('sprints')) {
      const teamId = sprint.team_id;
      if (typeof teamId !== 'string' || !myTeams.has(teamId)) continue;
      const start = typeof sprint.start_date === 'string' ? sprint.start_date : '';
      const end = typeof sprint.end_date === 'string' ? sprint.end_date : '9999-12-31';
      if (start <= today && today <= end && sprint.status !== 'completed' && sprint.is_active !== false)
        teams.add(teamId);
    }
    return [...teams];
  }

  private async revalidateTask(ctx: PullContext, taskId: string): Promise<ResourcePullResult> {
    const result = emptyResult();
    const stored = await ctx.store.task(taskId);
    try {
      const answer = await ctx.api.read(
        taskOperations.get,
        { taskId },
        { ifNoneMatch: stored?.etag ?? null, signal: ctx.signal, lane: ctx.lane },
      );
      if (answer.status === 304) result.notModified = 1;
      else {
        result.pulled = 1;
        result.changes = await ctx.store.applyTask(answer.body, answer.etag);
      }
    } catch (error) {
      // A task we cannot read or store (a teammate's, or a broken answer) is skipped and said: thrown,
      // it failed every poll while it was open, and the comments after it were never fetched.
      if (isUnreadable(error)) {
        this.options.emit({
          type: 'resource-skipped',
          collection: 'tasks',
          scope: taskId,
          error: errorInfo(error),
        });
        return result;
      }
      if (!(error instanceof ProblemError && error.status === 404)) throw error;
      const removed = await ctx.store.removeTask(taskId);
      result.changes = removed.changes;
      result.parked = removed.parked;
    }
    return result;
  }

  /**
   * Comment lists of a few tasks, each revalidated with its page ETag. A task's
   * first listing only fills the cache: its comments are not news.
   */
  private async pullComments(ctx: PullContext, taskIds: readonly string[]): Promise<ResourcePullResult> {
    const result = emptyResult();
    // Asked for and answered (a 304 included, which writes no pass): the comment watch goes on to others.
    const checked: string[] = [];
    try {
      for (const taskId of new Set(taskIds)) {
        const before = await ctx.store.pass('task_comments', taskId);
        let walk: ResourcePullResult;
        try {
          walk = {
            ...(await walkList({
              collection: 'task_comments',
              scope: taskId,
              source: listSource(
                ctx.api,
                taskCommentOperations.list,
                { taskId },
                { limit: 1000 },
                ctx.lane,
                ctx.store,
              ),
              store: ctx.store,
              partial: false,
              concurrency: 1,
              signal: ctx.signal,
              onProgress: (progress) => ctx.onProgress('task_comments', taskId, progress),
              ...ctx.walkRules,
            })),
            complete: true,
          };
        } catch (error) {
          // The task went away (or out of reach) since we listed it: the next full pass settles it.
          if (error instanceof ProblemError && error.status === 404) {
            checked.push(taskId);
            continue;
          }
          // A thread we cannot read (a teammate's, or a broken answer) is skipped and said; rethrown,
          // it stopped the pull here every time and no other watched task's comments were fetched again.
          if (error instanceof InvalidResponseError) {
            checked.push(taskId);
            this.options.emit({
              type: 'resource-skipped',
              collection: 'task_comments',
              scope: taskId,
              error: errorInfo(error),
            });
            continue;
          }
          throw error;
        }
        checked.push(taskId);
        if (before === null || before.state !== 'complete') walk.changes = announceNothing(walk.changes);
        addResult(result, walk);
      }
    } finally {
      if (checked.length > 0) await ctx.store.commentsChecked(checked, new Date(ctx.now()).toISOString());
    }
    return result;
  }

  /**
   * A task's history, kept for the editor to show (offline too): every page
   * revalidated with its ETag, the pass completed so that what the service
   * dropped leaves the cache. Only the opened task's, and never announced.
   */
  private async pullHistory(ctx: PullContext, taskId: string): Promise<ResourcePullResult> {
    try {
      const walk = await walkList({
        collection: 'task_history',
        scope: taskId,
        source: listSource(
          ctx.api,
          taskHistoryOperations.list,
          { taskId },
          { limit: 1000 },
          ctx.lane,
          ctx.store,
        ),
        store: ctx.store,
        partial: false,
        concurrency: 1,
        announce: false,
        signal: ctx.signal,
        ...ctx.walkRules,
      });
      return { ...walk, changes: [], complete: true };
    } catch (error) {
      // The task went away (or out of reach) since it was opened: the next full pass settles it.
      if (error instanceof ProblemError && error.status === 404) return emptyResult();
      throw error;
    }
  }
}

/** A first listing's resources are cached, not announced. */
function announceNothing(changes: ResourceChange[]): ResourceChange[] {
  return changes.filter((c) => c.collection !== 'task_comments');
}

/**
 * An answer that breaks the contract, or a resource the mirror refuses to
 * store (MalformedRowError, by name: from the pull worker it comes as its name).
 */
function isUnreadable(error: unknown): boolean {
  return (
    error instanceof InvalidResponseError || (error instanceof Error && error.name === 'MalformedRowError')
  );
}

/** A failure that may pass if tried again soon: the service erred or timed out. */
function isPassing(error: unknown): boolean {
  return error instanceof ProblemError && (error.status >= 500 || error.status === 408);
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
