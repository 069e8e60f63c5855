// A full pull's run: every resource in dependency order, each list of it (a
// collection, or one team's sprints) a unit that succeeds or fails on its own,
// a failed one retried with backoff within the run's time, and the units that
// failed kept for the next `failed` pull. Apart from the puller, which gives
// it the context of the run and reports what it did.
import { ApiError, NetworkError, ProblemError, RequestAbortedError, SignedOutError } from '../api/errors';
import type { FullPullScope } from '../events/sync-parts';
import { errorInfo } from '../events/sync-error-info';
import type { CollectionFailure, PulledCollection } from '../events/sync-events';
import {
  addResult,
  type PullContext,
  type PulledResource,
  type PullUnit,
  type ResourcePullResult,
} from './pull-context';
import { backoffMs, type PullRunPolicy, waitWithin } from './pull-run-policy';
import { PULLED_RESOURCES } from './pulled-resources';

/** What a full pull needs of the puller. */
export interface FullPullParts {
  /** The run's time budget and backoff. */
  policy: PullRunPolicy;
  /** The organization, once `me` is pulled. */
  orgId(ctx: PullContext): Promise<string>;
  /** The tasks assigned to the person: a first sync's preview. */
  walkAssigned(ctx: PullContext): Promise<ResourcePullResult>;
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

export class FullPull {
  /** Units the last full pulls could not complete (or skipped): what a `failed` pull retries. */
  private readonly failedUnits = new Map<string, { collection: PulledCollection; scope: string }>();

  constructor(private readonly parts: FullPullParts) {}

  /** Units the last full pulls left failed (or skipped): what a `failed` pull would retry. */
  failedScopes(): { collection: PulledCollection; scope: string }[] {
    return [...this.failedUnits.values()];
  }

  /** `failed` pulls only the units that failed last time (everything when none did). */
  run(
    ctx: PullContext,
    result: ResourcePullResult,
    initial: boolean,
    scope: FullPullScope | undefined,
    runStop: AbortController,
  ): Promise<{ completed: PulledCollection[]; failed: CollectionFailure[] }> {
    const only = scope === 'failed' && this.failedUnits.size > 0 ? this.onlyFailed() : null;
    return this.pullAll(ctx, result, initial, only, runStop);
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
        /** A first sync's walk of the person's own tasks, past its first page: it goes on beside the units. */
        let seenFirstRest: Promise<void> = Promise.resolve();
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
          if (initial && collection === 'tasks')
            seenFirstRest = (await this.seenFirst(ctx, result, firstTried, stopRun)).rest;
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
              if (collection === 'me') ctx.orgId = await this.parts.orgId(ctx);
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
          // Nothing of the resource writes after it reports.
          await seenFirstRest;
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
   * Resolves once the person's first page is in, to the rest of their walk:
   * one page after another, it waits on each answer's round trip, in which
   * the mirror's writer would idle; the whole list's chains are planned and
   * walked meanwhile (the person's pages were asked for first).
   */
  private async seenFirst(
    ctx: PullContext,
    result: ResourcePullResult,
    firstTried: ReadonlyMap<PulledCollection, Promise<boolean>>,
    stopRun: (error: unknown) => void,
  ): Promise<{ rest: Promise<void> }> {
    await Promise.all([firstTried.get('teams'), firstTried.get('sprints')]);
    // The whole list's pass begins first: a first load goes in without its
    // sort indexes (db/tasks/deferred-indexes.ts), which only an empty tasks table
    // allows, and the person's tasks would otherwise fill it before.
    await ctx.store.beginPass('tasks', '', { partial: false, restart: false });
    let firstPageIn: () => void = () => undefined;
    const firstPage = new Promise<void>((resolve) => (firstPageIn = resolve));
    const onProgress: PullContext['onProgress'] = (collection, scope, progress) => {
      firstPageIn();
      ctx.onProgress(collection, scope, progress);
    };
    const rest = this.parts.walkAssigned({ ...ctx, onProgress }).then(
      (walked) => {
        addResult(result, walked);
      },
      (error: unknown) => {
        if (this.isFatal(error, ctx)) stopRun(error);
      },
    );
    await Promise.race([firstPage, rest]);
    if (ctx.signal?.aborted === true) {
      // Stopped (a fatal failure of the first page, or the caller) before the chains begin.
      // Nothing of the resource writes after it reports, and a caller's stop ends the
      // run as a request it stopped would: not with the bare reason it gave the signal.
      await rest;
      throw new RequestAbortedError('pull tasks');
    }
    return { rest };
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
          attempts < this.parts.policy.unitAttempts &&
          !this.isFatal(error, ctx) &&
          isPassing(error) &&
          (await waitWithin(
            time,
            backoffMs(attempts, this.parts.policy.unitRetryBaseMs, this.parts.policy.unitRetryMaxMs),
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
}

/** A failure that may pass if tried again soon: the service erred or timed out. */
function isPassing(error: unknown): boolean {
  return error instanceof ProblemError && (error.status >= 500 || error.status === 408);
}
