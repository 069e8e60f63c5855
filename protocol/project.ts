// The project (`GET /v1/projects/{org_id}`). Its fields are assumed (gaps.md), so
// only the id is required; `status` is `active` or `archived` today but any
// other value is kept as a string.
import { z } from 'zod';
import { idField, optionalString } from './wire-fields';

export const PROJECT_STATUSES = ['active', 'archived'] as const;

export const projectSchema = z.looseObject({
  project_id: idField,
  org_id: optionalString,
  name: optionalString,
  description: optionalString,
  status: optionalString,
  team_id: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type Project = z.infer<typeof projectSchema>;
