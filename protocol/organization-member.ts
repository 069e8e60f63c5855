// An organization member (`OrganizationMemberInDB`), as documented: ids
// required, `email` and `username` present but nullable, `kind` one of
// `user` / `service_account` (absent means `user`).
import { z } from 'zod';
import { readTextAtMost } from './body-fields';
import { idField, optionalBoolean, optionalString } from './wire-fields';

/** The contract's bounds on a member's designation and role (up to 200 each, PATCH organization-members). */
export const MEMBER_LABEL_MAX = 200;

export const MEMBER_KINDS = ['user', 'service_account'] as const;

export const organizationMemberSchema = z.looseObject({
  // Documented as a uuid; kept as any non-empty id so a member is never lost
  // over the spelling of its key (the mirror keys on it, it never parses it).
  user_id: idField,
  org_id: idField,
  email: z.string().nullable(),
  username: z.string().nullable(),
  designation: readTextAtMost(MEMBER_LABEL_MAX).nullish(),
  designation_id: optionalString,
  role: readTextAtMost(MEMBER_LABEL_MAX).nullish(),
  invited_by: optionalString,
  updated_by: optionalString,
  delete_reason: optionalString,
  deleted_by: optionalString,
  is_active: optionalBoolean,
  invited_at: optionalString,
  accepted_at: optionalString,
  updated_at: optionalString,
  deleted_at: optionalString,
  last_active_at: optionalString,
  kind: z.enum(MEMBER_KINDS).nullish(),
  mfa_enrolled: optionalBoolean,
});
export type OrganizationMember = z.infer<typeof organizationMemberSchema>;
