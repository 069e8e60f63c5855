// Teams (`TeamOut`, `TeamDetail`) and their members (`TeamMemberOut`), as the
// contract documents them: required fields and closed role sets are enforced;
// fields it does not mark required may be absent or null; unknown fields kept.
import { z } from 'zod';
import { readTextAtMost } from './body-fields';
import { idField, optionalBoolean, optionalInt, optionalString, stampFields } from './wire-fields';

export const TEAM_ROLES = ['owner', 'member'] as const;
export const teamRoleSchema = z.enum(TEAM_ROLES);

/** The contract's bounds on a team's name (1..120) and description (up to 2000), as written by PATCH. */
export const TEAM_NAME_MAX = 120;
export const TEAM_DESCRIPTION_MAX = 2000;

export const teamSchema = z.looseObject({
  team_id: idField,
  org_id: idField,
  name: readTextAtMost(TEAM_NAME_MAX),
  description: readTextAtMost(TEAM_DESCRIPTION_MAX).nullish(),
  ...stampFields,
  is_active: optionalBoolean,
  member_count: optionalInt,
  project_count: optionalInt,
  /** The caller's own role on the team; null when not on it. */
  team_role: teamRoleSchema.nullish(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamMemberSchema = z.looseObject({
  team_id: idField,
  user_id: idField,
  team_role: teamRoleSchema,
  username: optionalString,
  added_by: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** The answer of a single team read or `PATCH /v1/teams/{team_id}`. */
export const teamDetailSchema = teamSchema.extend({
  members: z.array(teamMemberSchema).nullish(),
});
export type TeamDetail = z.infer<typeof teamDetailSchema>;
