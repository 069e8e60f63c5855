// The organization (`GET /v1/organizations`). Its fields are assumed (gaps.md:
// org_id, name, slug, created_at), so only the id is required and the rest of
// the object is kept as it came.
import { z } from 'zod';
import { idField, optionalString } from './wire-fields';

export const organizationSchema = z.looseObject({
  org_id: idField,
  name: optionalString,
  slug: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type Organization = z.infer<typeof organizationSchema>;
