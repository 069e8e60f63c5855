// A section (`SectionOut`): groups tasks inside a project, team or user scope.
// Documented, so its required fields and its scope types are enforced.
import { z } from 'zod';
import { idField, optionalInt, optionalString } from './wire-fields';

export const SECTION_SCOPE_TYPES = ['project', 'team', 'user'] as const;
export const sectionScopeTypeSchema = z.enum(SECTION_SCOPE_TYPES);
export type SectionScopeType = z.infer<typeof sectionScopeTypeSchema>;

export const sectionSchema = z.looseObject({
  section_id: idField,
  org_id: idField,
  name: z.string(),
  scope_type: sectionScopeTypeSchema,
  scope_id: idField,
  position: z.number(),
  task_count: optionalInt,
  created_by: optionalString,
  updated_by: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type Section = z.infer<typeof sectionSchema>;

/** Body of `POST /v1/sections`. */
export interface SectionCreateBody {
  org_id: string;
  scope_type: SectionScopeType;
  scope_id: string;
  name: string;
  position?: number | null;
}
