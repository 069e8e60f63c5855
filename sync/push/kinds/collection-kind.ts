// The pusher's kind of every collection kind (sections, sprints, goals,
// milestones), derived from its descriptor (protocol/writable-kind.ts): its
// operations come from its route, the operation's parent fills the route's
// parent, and the organization is added to a create whose body names it.
import type { WritableKind } from '../../../protocol/writable-kind';
import { endingVerb, isDeletable } from '../../../protocol/writable-kind';
import { kindOperationsOf } from '../../api/operations';
import type { FieldValues, PushOp } from '../push-store';
import { itemRequests, type PushKind } from './push-kind';

export function collectionPushKind(kind: WritableKind): PushKind {
  const operations = kindOperationsOf(kind);
  const { parent, idParam } = kind.route;
  const noun = kind.entityType;
  /** The route's parent from the operation's (a sprint's team, a goal's project). */
  const parentParams = (op: PushOp): Record<string, string> => {
    if (parent === null) return {};
    if (op.parentId === null)
      throw new Error(
        `${noun} operation ${op.opId} names no ${kind.parentField?.replace(/_id$/, '') ?? 'parent'}`,
      );
    return { [parent.param]: op.parentId };
  };
  const itemParams = (op: PushOp): Record<string, string> => ({
    ...parentParams(op),
    [idParam]: op.entityId,
  });
  const item = itemRequests(operations, itemParams);
  return {
    entityType: kind.entityType,
    writeScope: kind.writeScope,
    needsOrgId: kind.orgIdInCreate,
    derivedFields: kind.derivedFields,
    async create(api, op, orgId, options) {
      const body = kind.orgIdInCreate ? { ...op.patch, org_id: orgId } : op.patch;
      const answer = await api.create(operations.create, parentParams(op), body, options);
      return { task: answer.body as FieldValues, etag: answer.etag };
    },
    ...item,
    async remove(api, op, options) {
      // Refused before queuing (db/outbox/kinds/); one here came from elsewhere.
      if (!isDeletable(kind))
        throw new Error(`the service has no ${noun} delete; ${endingVerb(kind)} the ${noun} instead`);
      await item.remove(api, op, options);
    },
  };
}
