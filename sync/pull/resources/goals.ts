// Goals come grouped by project under one ETag (`GET /v1/goals`): that answer
// is walked as a one-page list. A group that says it has more (`next_cursor`)
// is continued through the project's own goal list, as its own scope.
import { goalOperations } from '../../api/operations';
import { listSource } from '../list-source';
import { walkList } from '../page-walker';
import type { ListSource, PageAnswer } from '../walk-types';
import {
  addResult,
  emptyResult,
  type PullContext,
  type PulledResource,
  type ResourcePullResult,
} from '../pull-context';

function groupedSource(ctx: PullContext, continuations: Map<string, string>): ListSource {
  // A store that checks items gets the goals unread, checked as a page of one project's list.
  const unread = ctx.store.validatesItems;
  return {
    async fetch(_cursor, ifNoneMatch, signal): Promise<PageAnswer> {
      const answer = await ctx.api.read(
        unread ? goalOperations.groupedUnread : goalOperations.grouped,
        { orgId: ctx.orgId },
        { ifNoneMatch, signal, lane: ctx.lane },
      );
      if (answer.status === 304) return { status: 304 };
      const items: Record<string, unknown>[] = [];
      for (const group of answer.body.projects) {
        items.push(...(group.data as Record<string, unknown>[]));
        if (group.next_cursor !== null) continuations.set(group.project_id, group.next_cursor);
      }
      return {
        status: 200,
        etag: answer.etag,
        items,
        nextCursor: null,
        total: answer.body.total ?? null,
        ...(unread ? { uncheckedFrom: goalOperations.listInProject.name } : {}),
      };
    },
  };
}

/** One project's goals after the first group page: "page 0" starts at the group's cursor. */
function continuationSource(ctx: PullContext, projectId: string, firstCursor: string): ListSource {
  const pages = listSource(
    ctx.api,
    goalOperations.listInProject,
    { projectId },
    { limit: 1000 },
    ctx.lane,
    ctx.store,
  );
  return {
    fetch: (cursor, ifNoneMatch, signal, onNextCursor) =>
      pages.fetch(cursor ?? firstCursor, ifNoneMatch, signal, onNextCursor),
  };
}

export const goalsResource: PulledResource = {
  collection: 'goals',
  needs: ['me'],
  async pull(ctx: PullContext): Promise<ResourcePullResult> {
    const result = emptyResult();
    const continuations = new Map<string, string>();
    const grouped = await walkList({
      collection: 'goals',
      scope: '',
      source: groupedSource(ctx, continuations),
      store: ctx.store,
      partial: false,
      concurrency: 1,
      announce: ctx.announce,
      signal: ctx.signal,
      onProgress: (progress) => ctx.onProgress('goals', '', progress),
      ...ctx.walkRules,
    });
    addResult(result, { ...grouped, complete: true });
    for (const [projectId, cursor] of continuations) {
      const scope = `project:${projectId}`;
      const walk = await walkList({
        collection: 'goals',
        scope,
        source: continuationSource(ctx, projectId, cursor),
        store: ctx.store,
        partial: false,
        concurrency: ctx.concurrency,
        announce: ctx.announce,
        signal: ctx.signal,
        onProgress: (progress) => ctx.onProgress('goals', scope, progress),
        ...ctx.walkRules,
      });
      addResult(result, { ...walk, complete: true });
    }
    return result;
  },
};
