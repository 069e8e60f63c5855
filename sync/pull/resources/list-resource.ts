// The common shape of a resource pulled as cursor-paged lists: one list per
// scope (most have the single scope ''), each walked by the page walker. Only
// the operation, its parameters and its page size differ per resource.
import type { PageRequest } from '../../api/api-request';
import type { ListOperation } from '../../api/operations';
import type { PulledCollection } from '../../events/sync-events';
import { walkList } from '../page-walker';
import type { ListSource } from '../walk-types';
import {
  addResult,
  emptyResult,
  type PullContext,
  type PulledResource,
  type PullUnit,
  type ResourcePullResult,
} from '../pull-context';
import { listSource } from '../list-source';
import type { StoredCollection } from '../pull-store';

export interface ListResourceSpec<Item extends object, Params> {
  collection: Exclude<PulledCollection, 'me'> & StoredCollection;
  needs: readonly PulledCollection[];
  operation: ListOperation<Item, Params>;
  /** The scopes to list and each one's parameters (default: the single scope ''). */
  scopes(ctx: PullContext): Promise<{ scope: string; params: Params }[]>;
  page: Omit<PageRequest, 'cursor'>;
  /**
   * Scopes the mirror still holds resources of that `scopes` no longer lists
   * (a project deleted or out of reach): each is read as an empty list, so its
   * pass completes and removes them. Only asked once the listed scopes are known.
   */
  goneScopes?(ctx: PullContext, listed: ReadonlySet<string>): Promise<string[]>;
}

/**
 * `goneScopes` for a collection listed per parent (sprints per team, milestones
 * per project): the parents its mirrored resources name that the parent list
 * no longer names.
 */
export function parentsListedNoMore(
  collection: Exclude<StoredCollection, 'tasks'>,
  parentField: string,
): (ctx: PullContext, listed: ReadonlySet<string>) => Promise<string[]> {
  return async (ctx, listed) => [
    ...new Set(
      (await ctx.store.resources(collection))
        .map((resource) => resource[parentField])
        .filter((parent): parent is string => typeof parent === 'string' && !listed.has(parent)),
    ),
  ];
}

/** What a scope that is listed no more holds on the service: nothing. */
const EMPTY_LIST: ListSource = {
  fetch: () => Promise.resolve({ status: 200, etag: null, items: [], nextCursor: null, total: 0 }),
};

export function listResource<Item extends object, Params>(
  spec: ListResourceSpec<Item, Params>,
): PulledResource {
  const units = async (ctx: PullContext): Promise<PullUnit[]> => {
    const scopes = await spec.scopes(ctx);
    const listed: { scope: string; source: ListSource }[] = scopes.map(({ scope, params }) => ({
      scope,
      source: listSource(ctx.api, spec.operation, params, spec.page, ctx.lane, ctx.store),
    }));
    const gone = spec.goneScopes ? await spec.goneScopes(ctx, new Set(scopes.map((s) => s.scope))) : [];
    return [...listed, ...gone.map((scope) => ({ scope, source: EMPTY_LIST }))].map(({ scope, source }) => ({
      scope,
      pull: async () => ({
        ...(await walkList({
          collection: spec.collection,
          scope,
          source,
          store: ctx.store,
          partial: false,
          concurrency: ctx.concurrency,
          announce: ctx.announce,
          signal: ctx.signal,
          onProgress: (progress) => ctx.onProgress(spec.collection, scope, progress),
          ...ctx.walkRules,
        })),
        complete: true,
      }),
    }));
  };
  return {
    collection: spec.collection,
    needs: spec.needs,
    units,
    async pull(ctx: PullContext): Promise<ResourcePullResult> {
      const result = emptyResult();
      // Small per-scope lists (sprints per team) go side by side; each walks its own pages.
      // Wait for every walk before reporting, so none writes after the pull ended.
      const settled = await Promise.allSettled((await units(ctx)).map((unit) => unit.pull()));
      for (const outcome of settled) {
        if (outcome.status === 'rejected') throw outcome.reason;
        addResult(result, outcome.value);
      }
      return result;
    },
  };
}
