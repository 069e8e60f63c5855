// Milestones as a writable kind (gaps.md "Writes beyond tasks", "Milestones"):
// created under a project (the operation's parent), edited and completed by
// merge-patch with If-Match, deleted with If-Match; the service unfiles the
// milestone's tasks, which the mirror does too once the delete went through.
import type { Database } from 'better-sqlite3';
import { milestoneCreateBodySchema, milestoneUpdateBodySchema } from '../../protocol/milestone';
import type { TaskUnfiling } from '../task-unfiling';
import { checkBySchemas, collectionWriteKind } from './collection-kind';
import type { MirrorWriteKind } from './mirror-kind';

export const MILESTONE_ENTITY = 'milestone';

const schemas = { create: milestoneCreateBodySchema.strict(), update: milestoneUpdateBodySchema.strict() };

export function milestoneWriteKind(db: Database, now: () => string, unfiling: TaskUnfiling): MirrorWriteKind {
  return collectionWriteKind(db, now, {
    entityType: MILESTONE_ENTITY,
    collection: 'milestones',
    checkEdit: (patch, kind) => checkBySchemas(schemas, patch, kind),
    // Pulled per project (sync/pull/resources/milestones.ts): the project is its scope.
    scopeOf: (milestone, projectId) =>
      typeof milestone.project_id === 'string' ? milestone.project_id : (projectId ?? ''),
    createBodyFields: Object.keys(schemas.create.shape),
    createFields: ['name', 'description', 'due_date', 'position'],
    afterRemove: (id) => unfiling.deleted('milestone_id', id),
    afterOpsChanged: (id) => unfiling.opsChanged('milestone_id', MILESTONE_ENTITY, id),
    afterGiveUp: (id) => unfiling.givenUp('milestone_id', MILESTONE_ENTITY, id),
  });
}
