// Pull in tiers: `full` walks every resource in dependency order (the only
// pull that can see deletions); `hot` revalidates what the person looks at
// (tasks assigned to them, the current sprint's team, the open task, comments
// of the tasks they are likely to open: comment-watch.ts); `new` finds tasks created since the newest one known with
// `filter[created_after]`. Each yields a change list and the notifications it
// raises; the first full sync of a mirror announces nothing. In a full pull
// each list (a collection, or one team's sprints) is a unit that succeeds or
// fails on its own: a failed one is retried with backoff within the run, the
// others go on, and the summary names what failed; the next poll (`failed`
// scope) pulls only those (full-pull.ts). A task's own reads are apart: its
// revalidation (task-revalidation.ts), its comments and history
// (task-activity-pull.ts).
import type { ParkedEdit } from '../../db/outbox/outbox-types';
import { isFirstPass } from '../../db/passes/sync-passes';
import type { ApiClient } from '../api/api-client';
import { type ApiClock, systemApiClock } from '../api/clock';
import { taskOperations } from '../api/operations';
import type { RequestLane } from '../api/rate-governor';
import { errorInfo } from '../events/sync-error-info';
import type { FullPullScope, PullRunner, PullTier, SyncIdentity } from '../events/sync-parts';
import type {
  CollectionFailure,
  PulledCollection,
  PullSummary,
  SyncEventListener,
  SyncNotification,
} from '../events/sync-events';
import { clipped } from './deferred-validation';
import { listSource } from './list-source';
import { notificationsOf } from './notifications';
import { commentWatchTasks, DEFAULT_COMMENT_WATCH } from './comment-watch';
import { CursorAges } from './cursor-ages';
import { FullPull } from './full-pull';
import { walkList } from './page-walker';
import { addResult, emptyResult, type PullContext, type ResourcePullResult } from './pull-context';
import {
  DEFAULT_PULL_RUN_POLICY,
  DEFAULT_TASK_CHAIN_POLICY,
  type PullRunPolicy,
  type TaskChainPolicy,
} from './pull-run-policy';
import type { PullStore } from './pull-store';
import { readMe, rememberedMe } from './resources/me';
import { TASK_PAGE } from './resources/tasks';
import { SoloGate } from './solo-gate';
import { pullComments, pullHistory } from './task-activity-pull';
import { revalidateTask } from './task-revalidation';

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
  private readonly fullPull: FullPull;

  constructor(private readonly options: PullerOptions) {
    this.clock = options.clock ?? systemApiClock;
    this.memo = options.memo ?? new Map<string, unknown>();
    this.policy = { ...DEFAULT_PULL_RUN_POLICY, ...options.runPolicy };
    this.taskChains = { ...DEFAULT_TASK_CHAIN_POLICY, ...options.taskChains };
    this.now = options.now ?? (() => this.clock.now());
    this.concurrency = options.concurrency ?? 8;
    this.commentWatch = options.commentWatch ?? DEFAULT_COMMENT_WATCH;
    this.fullPull = new FullPull({
      policy: this.policy,
      orgId: (ctx) => this.orgId(ctx),
      walkAssigned: (ctx) => this.walkTasks(ctx, 'hot:assigned', { assignee: 'me' }),
    });
  }

  /** The task on screen: part of the hot set. */
  setOpenTask(taskId: string | null): void {
    this.openTaskId = taskId;
  }

  /** Units the last full pulls left failed (or skipped): what a `failed` pull would retry. */
  failedScopes(): { collection: PulledCollection; scope: string }[] {
    return this.fullPull.failedScopes();
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
        const outcome = await this.fullPull.run(ctx, result, initial, options.scope, runStop);
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

  /** Revalidates one task and its comments in the person's lane (they just opened it). */
  async refreshTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<PullSummary> {
    const requestsBefore = this.options.api.stats.requests;
    const ctx = await this.context('user', options.signal, true);
    const result = emptyResult();
    try {
      addResult(result, await revalidateTask(ctx, taskId, this.options.emit));
      addResult(result, await pullComments(ctx, [taskId], this.options.emit));
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
    await pullComments(ctx, [taskId], this.options.emit);
    await pullHistory(ctx, taskId);
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
      onResourceSkipped: ({ collection, scope, error }) =>
        this.options.emit({ type: 'resource-skipped', collection, scope, error: errorInfo(error) }),
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
    if (open !== null) addResult(result, await revalidateTask(ctx, open, this.options.emit));
    // Comments: the open task's, and those of a few likely-opened tasks, stalest first (comment-watch.ts).
    const watched = await commentWatchTasks(ctx, open, this.commentWatch);
    addResult(result, await pullComments(ctx, watched, this.options.emit));
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
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
