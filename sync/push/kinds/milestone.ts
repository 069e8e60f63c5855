// Milestones as a writable kind (gaps.md "Writes beyond tasks", "Milestones"):
// created, edited and completed under their project (the operation's parent)
// at /v1/projects/{project_id}/milestones; a delete answers an Acknowledgement.
import { milestoneOperations } from '../../api/operations';
import type { MilestoneCreateBody } from '../../../protocol/milestone';
import type { FieldValues, PushOp } from '../push-store';
import { bodyOf, type PushKind } from './push-kind';

function projectOf(op: PushOp): string {
  if (op.parentId === null) throw new Error(`milestone operation ${op.opId} names no project`);
  return op.parentId;
}

export const milestonePushKind: PushKind = {
  entityType: 'milestone',
  writeScope: 'projects:write',
  deleteName: 'milestones.delete',
  needsOrgId: false,
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['tasks_total', 'tasks_completed'],
  async create(api, op, _orgId, options) {
    const body = op.patch as unknown as MilestoneCreateBody;
    const answer = await api.create(milestoneOperations.create, { projectId: projectOf(op) }, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async update(api, op, options) {
    const params = { projectId: projectOf(op), milestoneId: op.entityId };
    const answer = await api.update(milestoneOperations.update, params, op.patch, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async remove(api, op, options) {
    const params = { projectId: projectOf(op), milestoneId: op.entityId };
    await api.remove(milestoneOperations.delete, params, options);
  },
  async read(api, op, options) {
    const params = { projectId: projectOf(op), milestoneId: op.entityId };
    const { body, etag } = bodyOf('milestones.get', await api.read(milestoneOperations.get, params, options));
    return { task: body as FieldValues, etag };
  },
};
