// A collection kind listed per parent (sprints per team, milestones per
// project), derived from its descriptor: one list per parent the mirror
// holds, each its own pass with page ETags, so a resource gone from one
// parent's list is removed from that parent only, and a parent listed no more
// (deleted, or out of the person's reach) takes its resources with it.
import type { WritableKind } from '../../../protocol/writable-kind';
import { kindOperationsOf, type ListOperation } from '../../api/operations';
import type { PulledCollection } from '../../events/sync-events';
import type { PulledResource } from '../pull-context';
import type { StoredCollection } from '../pull-store';
import { listResource, parentsListedNoMore } from './list-resource';

export function perParentResource(kind: WritableKind): PulledResource {
  const parent = kind.route.parent;
  if (kind.listedPer !== 'parent' || parent === null || kind.parentField === null)
    throw new Error(`${kind.collection} is not listed per parent`);
  const collection = kind.collection as Exclude<PulledCollection, 'me' | 'tasks'> & StoredCollection;
  const parents = parent.path as Exclude<StoredCollection, 'tasks'>;
  return listResource({
    collection,
    needs: [parent.path as PulledCollection],
    // Typed by the descriptor's own route parameters where a kind is named; here any kind's, by name.
    operation: kindOperationsOf(kind).listInParent as unknown as ListOperation<
      object,
      Record<string, string>
    >,
    scopes: async (ctx) =>
      (await ctx.store.ids(parents)).map((id) => ({ scope: id, params: { [parent.param]: id } })),
    page: { limit: 1000, ...kind.listOrder },
    goneScopes: parentsListedNoMore(collection, kind.parentField),
  });
}
