// Tasks as a writable kind: POST /v1/tasks with the organization's id,
// PATCH and DELETE /v1/tasks/{task_id} (contract).
import { taskOperations } from '../../api/operations';
import type { TaskCreateBody } from '../../../protocol/task';
import type { FieldValues } from '../push-store';
import { bodyOf, type PushKind } from './push-kind';

export const taskPushKind: PushKind = {
  entityType: 'task',
  writeScope: 'tasks:write',
  deleteName: 'tasks.delete',
  needsOrgId: true,
  async create(api, op, orgId, options) {
    const body = { ...op.patch, org_id: orgId } as unknown as TaskCreateBody;
    const answer = await api.create(taskOperations.create, {}, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async update(api, op, options) {
    const answer = await api.update(taskOperations.update, { taskId: op.entityId }, op.patch, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async remove(api, op, options) {
    await api.remove(taskOperations.delete, { taskId: op.entityId }, options);
  },
  async read(api, op, options) {
    const { body, etag } = bodyOf(
      'tasks.get',
      await api.read(taskOperations.get, { taskId: op.entityId }, options),
    );
    return { task: body as FieldValues, etag };
  },
};
