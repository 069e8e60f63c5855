// Goals as a writable kind (gaps.md "Writes beyond tasks"): created under a
// project (the operation's parent), edited, closed and reopened by merge-patch
// with If-Match; the delete is soft and the service unfiles the goal's tasks,
// which the mirror does too once the delete went through.
import type { Database } from 'better-sqlite3';
import { goalCreateBodySchema, goalUpdateBodySchema } from '../../protocol/goal';
import type { TaskUnfiling } from '../task-unfiling';
import { checkBySchemas, collectionWriteKind } from './collection-kind';
import type { MirrorWriteKind } from './mirror-kind';

export const GOAL_ENTITY = 'goal';

const schemas = { create: goalCreateBodySchema.strict(), update: goalUpdateBodySchema.strict() };

export function goalWriteKind(db: Database, now: () => string, unfiling: TaskUnfiling): MirrorWriteKind {
  return collectionWriteKind(db, now, {
    entityType: GOAL_ENTITY,
    collection: 'goals',
    checkEdit: (patch, kind) => checkBySchemas(schemas, patch, kind),
    // Pulled grouped for the whole organization (sync/pull/resources/goals.ts), scope ''.
    scopeOf: () => '',
    createBodyFields: Object.keys(schemas.create.shape),
    createFields: ['name', 'description', 'target_date', 'position'],
    afterRemove: (id) => unfiling.deleted('goal_id', id),
    afterOpsChanged: (id) => unfiling.opsChanged('goal_id', GOAL_ENTITY, id),
    afterGiveUp: (id) => unfiling.givenUp('goal_id', GOAL_ENTITY, id),
  });
}
