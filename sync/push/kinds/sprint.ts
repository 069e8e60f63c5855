// Sprints as a writable kind (gaps.md "Writes beyond tasks"): created under
// their team (the operation's parent), edited and completed by merge-patch with
// If-Match at /v1/teams/{team_id}/sprints/{sprint_id}; the service has no delete.
import { sprintOperations } from '../../api/operations';
import type { SprintCreateBody } from '../../../protocol/sprint';
import type { FieldValues, PushOp } from '../push-store';
import { bodyOf, type PushKind } from './push-kind';

function teamOf(op: PushOp): string {
  if (op.parentId === null) throw new Error(`sprint operation ${op.opId} names no team`);
  return op.parentId;
}

export const sprintPushKind: PushKind = {
  entityType: 'sprint',
  writeScope: 'teams:write',
  deleteName: 'sprints.delete',
  needsOrgId: false,
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['task_count', 'completed_count'],
  async create(api, op, _orgId, options) {
    const body = op.patch as unknown as SprintCreateBody;
    const answer = await api.create(sprintOperations.create, { teamId: teamOf(op) }, body, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  async update(api, op, options) {
    const params = { teamId: teamOf(op), sprintId: op.entityId };
    const answer = await api.update(sprintOperations.update, params, op.patch, options);
    return { task: answer.body as FieldValues, etag: answer.etag };
  },
  remove() {
    // Refused before queuing (db/outbox-kinds/sprint.ts); one here came from elsewhere.
    return Promise.reject(new Error('the service has no sprint delete; complete the sprint instead'));
  },
  async read(api, op, options) {
    const { body, etag } = bodyOf(
      'sprints.get',
      await api.read(sprintOperations.get, { teamId: teamOf(op), sprintId: op.entityId }, options),
    );
    return { task: body as FieldValues, etag };
  },
};
