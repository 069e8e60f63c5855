// Goals as a writable kind (gaps.md "Writes beyond tasks"): created, edited,
// closed and reopened under their project (the operation's parent) at
// /v1/projects/{project_id}/goals; the delete is soft and unfiles the goal's tasks.
import { goalOperations } from '../../api/operations';
import type { GoalCreateBody } from '../../../protocol/goal';
import type { FieldValues, PushOp } from '../push-store';
import { bodyOf, type PushKind } from './push-kind';

function projectOf(op: PushOp): string {
  if (op.parentId === null) throw new Error(`goal operation ${op.opId} names no project`);
  return op.parentId;
}

export const goalPushKind: PushKind = {
  entityType: 'goal',
  writeScope: 'projects:write',
  deleteName: 'goals.delete',
  needsOrgId: false,
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['tasks_total', 'tasks_completed'],
  async create(api, op, _orgId, options) {
    const body = op.patch as unknown as GoalCreateBody;
    const answer = await api.create(goalOperations.create, { projectId: projectOf(op) }, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async update(api, op, options) {
    const params = { projectId: projectOf(op), goalId: op.entityId };
    const answer = await api.update(goalOperations.update, params, op.patch, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async remove(api, op, options) {
    await api.remove(goalOperations.delete, { projectId: projectOf(op), goalId: op.entityId }, options);
  },
  async read(api, op, options) {
    const { body, etag } = bodyOf(
      'goals.get',
      await api.read(goalOperations.get, { projectId: projectOf(op), goalId: op.entityId }, options),
    );
    return { task: body as FieldValues, etag };
  },
};
