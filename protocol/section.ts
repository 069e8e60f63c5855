// A section (`SectionOut`): groups tasks inside a project, team or user scope.
// Documented, so its required fields and its scope types are enforced.
import { z } from 'zod';
import { writableKind } from './writable-kind';
import { boundedText, idReference, readTextAtMost } from './body-fields';
import { idField, optionalInt, stampFields } from './wire-fields';

export const SECTION_SCOPE_TYPES = ['project', 'team', 'user'] as const;
export const sectionScopeTypeSchema = z.enum(SECTION_SCOPE_TYPES);
export type SectionScopeType = z.infer<typeof sectionScopeTypeSchema>;

/** A section's name: 1..120 characters, unique in its scope (409). */
export const SECTION_NAME_MAX = 120;

export const sectionSchema = z.looseObject({
  section_id: idField,
  org_id: idField,
  name: readTextAtMost(SECTION_NAME_MAX),
  scope_type: sectionScopeTypeSchema,
  scope_id: idField,
  position: z.number(),
  task_count: optionalInt,
  ...stampFields,
});
export type Section = z.infer<typeof sectionSchema>;

/** Body of `POST /v1/sections` (contract). `position` null or absent: appended at the end. */
export const sectionCreateBodySchema = z.object({
  org_id: idReference,
  scope_type: sectionScopeTypeSchema,
  scope_id: idReference,
  name: boundedText(1, SECTION_NAME_MAX),
  position: z.number().finite().nullable().optional(),
});
export type SectionCreateBody = z.infer<typeof sectionCreateBodySchema>;

/** Merge-patch body of `PATCH /v1/sections/{section_id}` (gaps.md): a rename or a move. */
export const sectionUpdateBodySchema = z.object({
  name: boundedText(1, SECTION_NAME_MAX).optional(),
  position: z.number().finite().nullable().optional(),
});
export type SectionUpdateBody = z.infer<typeof sectionUpdateBodySchema>;

/** Sections as a writable kind (protocol/writable-kind.ts): under /v1/sections, in a project, team or personal scope. */
export const sectionKind = writableKind({
  entityType: 'section',
  collection: 'sections',
  idField: 'section_id',
  route: { name: 'sections', path: 'sections', parent: null, idParam: 'sectionId' },
  parentField: null,
  listedPer: 'organization',
  // The organization is the account's, added when the create is sent.
  schemas: {
    read: sectionSchema,
    create: sectionCreateBodySchema.omit({ org_id: true }),
    update: sectionUpdateBodySchema,
    deleted: null,
  },
  orgIdInCreate: true,
  writeScope: 'tasks:write',
  derivedFields: [],
  // Its tasks keep their project with section_id null (gaps.md).
  filesTasksBy: 'section_id',
  columns: [
    ['name', 'string'],
    ['scope_type', 'string'],
    ['scope_id', 'string'],
    ['position', 'number'],
  ],
  recreateFields: ['scope_type', 'scope_id', 'name', 'position'],
});
