// Pull in tiers: `full` walks every resource in dependency order (the only
// pull that can see deletions); `hot` revalidates what the person looks at
// (tasks assigned to them, the current sprint's team, the open task, comments
// on their tasks); `new` finds tasks created since the newest one known with
// `filter[created_after]`. Each yields a change list and the notifications it
// raises; the first full sync of a mirror announces nothing.
import type { ParkedEdit } from '../../db/outbox';
import type { ApiClient } from '../api/api-client';
import { ProblemError } from '../api/errors';
import { taskOperations, taskCommentOperations } from '../api/operations';
import type { RequestLane } from '../api/rate-governor';
import type { PullRunner, PullTier, SyncIdentity } from '../engine/sync-engine';
import type {
  PulledCollection,
  PullSummary,
  ResourceChange,
  SyncEventListener,
  SyncNotification,
} from '../engine/sync-events';
import { listSource } from './list-source';
import { notificationsOf } from './notifications';
import { walkList } from './page-walker';
import { addResult, emptyResult, type PullContext, type ResourcePullResult } from './pull-context';
import type { PullStore } from './pull-store';
import { PULLED_RESOURCES } from './pulled-resources';
import { readMe, rememberedMe } from './resources/me';
import { TASK_PAGE } from './resources/tasks';

export interface PullerOptions {
  store: PullStore;
  api: ApiClient;
  me: SyncIdentity;
  emit: SyncEventListener;
  /** The current time (ms), for "today" and the current sprint. */
  now?: () => number;
  /** Pages revalidated at once in a re-sync. Default 8. */
  concurrency?: number;
  /** Comment lists revalidated per hot pull (besides the open task's). Default 4. */
  commentWatch?: number;
}

const OPEN_TASK_SCOPE_LIMIT = 200;

export class Puller implements PullRunner {
  private readonly memo = new Map<string, unknown>();
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly commentWatch: number;
  private openTaskId: string | null = null;
  /** Round-robin position in the person's open tasks for comment revalidation. */
  private commentTurn = 0;

  constructor(private readonly options: PullerOptions) {
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 8;
    this.commentWatch = options.commentWatch ?? 4;
  }

  /** The task on screen: part of the hot set. */
  setOpenTask(taskId: string | null): void {
    this.openTaskId = taskId;
  }

  async pull(options: { tier: PullTier; signal?: AbortSignal | undefined }): Promise<PullSummary> {
    const requestsBefore = this.options.api.stats.requests;
    const initial = options.tier === 'full' && (await this.firstFullPull());
    const ctx = await this.context('background', options.signal, options.tier !== 'full');
    ctx.announce = !initial;
    const result = emptyResult();
    const completed: PulledCollection[] = [];
    try {
      if (options.tier === 'full') {
        completed.push(...(await this.pullAll(ctx, result, initial)));
      } else if (options.tier === 'new') {
        addResult(result, await this.pullNewTasks(ctx));
      } else {
        addResult(result, await this.pullHotSet(ctx));
      }
      return await this.finish(result, initial, completed, requestsBefore);
    } finally {
      this.announceParked(result.parked);
    }
  }

  /**
   * Every resource, each started as soon as what it needs is done, so that the
   * small independent lists cost one round trip together, not one each.
   * Waits for all before reporting; the first failure is thrown. A first
   * sync (also when resumed) fetches what the person sees first, their tasks
   * and the current sprint's, before the whole task list.
   */
  private async pullAll(
    ctx: PullContext,
    result: ResourcePullResult,
    initial: boolean,
  ): Promise<PulledCollection[]> {
    const done = new Map<PulledCollection, Promise<void>>();
    const failures: unknown[] = [];
    const finished = new Set<PulledCollection>();
    for (const resource of PULLED_RESOURCES.values()) {
      const needs = resource.needs.map((need) => done.get(need) ?? Promise.resolve());
      if (initial && resource.collection === 'tasks') {
        const seenFirst = Promise.all([done.get('me'), done.get('teams'), done.get('sprints')]).then(
          async () => {
            // The whole list's pass begins first: a first load goes in without its
            // sort indexes (db/deferred-indexes.ts), which only an empty tasks table
            // allows, and the person's tasks would otherwise fill it before.
            await ctx.store.beginPass('tasks', '', { partial: false, restart: false });
            addResult(result, await this.pullSeenFirst(ctx));
          },
        );
        needs.push(seenFirst);
      }
      const run = Promise.all(needs).then(async () => {
        addResult(result, await resource.pull(ctx));
        if (resource.collection === 'me') ctx.orgId = await this.orgId(ctx);
        finished.add(resource.collection);
      });
      // A failure is recorded once here; what needed it does not start.
      run.catch((error: unknown) => failures.push(error));
      done.set(resource.collection, run);
    }
    await Promise.allSettled(done.values());
    if (failures.length > 0) throw failures[0];
    return [...PULLED_RESOURCES.keys()].filter((collection) => finished.has(collection));
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
    };
  }

  /** True until the task list has had one complete pass (an interrupted first pass is still the first). */
  private async firstFullPull(): Promise<boolean> {
    const pass = await this.options.store.pass('tasks', '');
    return pass === null || (pass.state === 'running' && pass.passNo <= 1);
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
    // Comments: the open task's, and a few of the person's open tasks in turn.
    const mine = (await ctx.store.myOpenTaskIds(ctx.me.username, OPEN_TASK_SCOPE_LIMIT)).filter(
      (id) => id !== open,
    );
    const watched: string[] = open === null ? [] : [open];
    for (let k = 0; k < Math.min(this.commentWatch, mine.length); k++) {
      const id = mine[(this.commentTurn + k) % mine.length];
      if (id !== undefined) watched.push(id);
    }
    this.commentTurn = mine.length === 0 ? 0 : (this.commentTurn + this.commentWatch) % mine.length;
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
          })),
          complete: true,
        };
      } catch (error) {
        // The task went away (or out of reach) since we listed it: the next full pass settles it.
        if (error instanceof ProblemError && error.status === 404) continue;
        throw error;
      }
      if (before === null || before.state !== 'complete') walk.changes = announceNothing(walk.changes);
      addResult(result, walk);
    }
    return result;
  }
}

/** A first listing's resources are cached, not announced. */
function announceNothing(changes: ResourceChange[]): ResourceChange[] {
  return changes.filter((c) => c.collection !== 'task_comments');
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
