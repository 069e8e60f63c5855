// Tasks as a writable kind: POST /v1/tasks with the organization's id,
// PATCH and DELETE /v1/tasks/{task_id} (contract).
import { taskOperations } from '../../api/operations';
import type { TaskCreateBody } from '../../../protocol/task';
import type { FieldValues } from '../push-store';
import { itemRequests, type PushKind } from './push-kind';

export const taskPushKind: PushKind = {
  entityType: 'task',
  writeScope: 'tasks:write',
  needsOrgId: true,
  async create(api, op, orgId, options) {
    const body = { ...op.patch, org_id: orgId } as unknown as TaskCreateBody;
    const answer = await api.create(taskOperations.create, {}, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  ...itemRequests(taskOperations, (op) => ({ taskId: op.entityId })),
};
