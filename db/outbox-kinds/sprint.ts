// Sprints as a writable kind (gaps.md "Writes beyond tasks"): created under a
// team (the operation's parent), edited and completed by merge-patch with
// If-Match; the service has no delete, so none is queued.
import type { Database } from 'better-sqlite3';
import { sprintCreateBodySchema, sprintUpdateBodySchema } from '../../protocol/sprint';
import { InvalidEditError } from '../mirror-errors';
import type { TaskUnfiling } from '../task-unfiling';
import { checkBySchemas, collectionWriteKind } from './collection-kind';
import type { MirrorWriteKind } from './mirror-kind';

export const SPRINT_ENTITY = 'sprint';

const schemas = { create: sprintCreateBodySchema.strict(), update: sprintUpdateBodySchema.strict() };

export function sprintWriteKind(db: Database, now: () => string, unfiling: TaskUnfiling): MirrorWriteKind {
  return collectionWriteKind(db, now, {
    entityType: SPRINT_ENTITY,
    collection: 'sprints',
    checkEdit(patch, kind) {
      if (kind === 'delete')
        throw new InvalidEditError('sprint', 'cannot be deleted (the service has none); complete it instead');
      checkBySchemas(schemas, patch, kind);
    },
    // Pulled per team (sync/pull/resources/sprints.ts): the team is its scope.
    scopeOf: (sprint, teamId) => (typeof sprint.team_id === 'string' ? sprint.team_id : (teamId ?? '')),
    createBodyFields: Object.keys(schemas.create.shape),
    // The create takes an end date or a length in weeks, never both: the one chosen last stands.
    foldRule(create, patch) {
      if (patch.end_date != null && patch.duration_weeks === undefined) delete create.duration_weeks;
      if (patch.duration_weeks != null && patch.end_date === undefined) delete create.end_date;
    },
    createFields: ['name', 'description', 'goal', 'start_date', 'end_date'],
    // No delete; a create given up before it was sent takes its temporary id out of the tasks filed into it.
    afterGiveUp: (id) => unfiling.givenUp('sprint_id', SPRINT_ENTITY, id),
  });
}
