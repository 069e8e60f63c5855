// Sections as a writable kind (gaps.md "Writes beyond tasks"): created in a
// project, team or personal scope, renamed and moved by merge-patch with
// If-Match, deleted with If-Match (its tasks stay, without a section); stored
// as rows of the sections collection.
import type { Database } from 'better-sqlite3';
import { sectionCreateBodySchema, sectionUpdateBodySchema } from '../../protocol/section';
import { InvalidEditError } from '../mirror-errors';
import type { TaskObject } from '../task-columns';
import type { TaskUnfiling } from '../task-unfiling';
import { collectionWriteKind } from './collection-kind';
import type { MirrorWriteKind, OutboxOpKind } from './mirror-kind';

export const SECTION_ENTITY = 'section';

// The organization is the account's, added when the create is sent.
const createSchema = sectionCreateBodySchema.omit({ org_id: true }).strict();
const updateSchema = sectionUpdateBodySchema.strict();

function checkSectionEdit(patch: TaskObject, kind: OutboxOpKind): void {
  if (kind === 'delete') return;
  const parsed = (kind === 'create' ? createSchema : updateSchema).safeParse(patch);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const field =
    issue?.code === 'unrecognized_keys' ? String(issue.keys[0]) : String(issue?.path[0] ?? 'name');
  throw new InvalidEditError(field, issue?.message ?? 'is not valid');
}

export function sectionWriteKind(db: Database, now: () => string, unfiling: TaskUnfiling): MirrorWriteKind {
  return collectionWriteKind(db, now, {
    entityType: SECTION_ENTITY,
    collection: 'sections',
    checkEdit: checkSectionEdit,
    scopeOf: () => '',
    createBodyFields: Object.keys(createSchema.shape),
    createFields: ['scope_type', 'scope_id', 'name', 'position'],
    // Its tasks keep their project with section_id null (gaps.md): on screen at once, for good once it is taken.
    afterRemove: (id) => unfiling.deleted('section_id', id),
    afterOpsChanged: (id) => unfiling.opsChanged('section_id', SECTION_ENTITY, id),
    afterGiveUp: (id) => unfiling.givenUp('section_id', SECTION_ENTITY, id),
  });
}
