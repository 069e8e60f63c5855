// A collection kind's pull, derived from its descriptor. Listed for the whole
// organization (sections): one list, one pass. Listed per parent (sprints per
// team, milestones per project): one list per parent the mirror holds, each
// its own pass with page ETags, so a resource gone from one parent's list is
// removed from that parent only, and a parent listed no more (deleted, or out
// of the person's reach) takes its resources with it. A kind listed its own
// way (goals, grouped by project) has a module of its own instead.
import type { WritableKind } from '../../../protocol/writable-kind';
import { kindOperationsOf, type ListOperation } from '../../api/operations';
import type { PulledCollection } from '../../events/sync-events';
import type { PulledResource } from '../pull-context';
import type { StoredCollection } from '../pull-store';
import { listResource, parentsListedNoMore } from './list-resource';

export function kindResource(kind: WritableKind): PulledResource {
  const collection = kind.collection as Exclude<PulledCollection, 'me' | 'tasks'> & StoredCollection;
  // Typed by the descriptor's own body and route parameters where a kind is named; here any kind's, by name.
  const operations = kindOperationsOf(kind);
  const parent = kind.route.parent;
  if (kind.listedPer === 'organization') {
    if (parent !== null)
      throw new Error(`${kind.collection} is listed for the organization but has a parent route`);
    return listResource({
      collection,
      needs: ['me'],
      operation: operations.listInOrganization as ListOperation<object, { orgId: string }>,
      scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
      page: { limit: 1000, ...kind.listOrder },
    });
  }
  if (parent === null || kind.parentField === null)
    throw new Error(`${kind.collection} is not listed per parent`);
  const parents = parent.path as Exclude<StoredCollection, 'tasks'>;
  return listResource({
    collection,
    needs: [parent.path as PulledCollection],
    operation: operations.listInParent as unknown as ListOperation<object, Record<string, string>>,
    scopes: async (ctx) =>
      (await ctx.store.ids(parents)).map((id) => ({ scope: id, params: { [parent.param]: id } })),
    page: { limit: 1000, ...kind.listOrder },
    goneScopes: parentsListedNoMore(collection, kind.parentField),
  });
}
