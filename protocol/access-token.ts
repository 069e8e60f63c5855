// An access token record and `TokenCreated` (the mint and rotate answers, the
// only ones carrying the secret `token`). Documented, so its closed sets are
// enforced. The secret is never part of an error: validation errors name paths only.
import { z } from 'zod';
import { idField, optionalInt, optionalString } from './wire-fields';

export const TOKEN_KINDS = ['live', 'test'] as const;
export const TOKEN_GRANT_TYPES = ['personal', 'service_account', 'authorization_code'] as const;
export const TOKEN_STATUSES = ['active', 'revoked', 'expired'] as const;

export const accessTokenSchema = z.looseObject({
  token_id: idField,
  org_id: idField,
  principal_user_id: idField,
  principal_display: optionalString,
  created_by: z.string(),
  name: z.string(),
  token_prefix: z.string(),
  kind: z.enum(TOKEN_KINDS),
  grant_type: z.enum(TOKEN_GRANT_TYPES),
  client_id: optionalString,
  scopes: z.array(z.string()),
  project_ids: z.array(z.string()).nullish(),
  expires_at: optionalString,
  last_used_at: optionalString,
  use_count: optionalInt,
  status: z.enum(TOKEN_STATUSES),
  revoked_at: optionalString,
  revoked_by: optionalString,
  revoke_reason: optionalString,
  rotated_from: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

export const tokenCreatedSchema = accessTokenSchema.extend({
  token: z.string().min(1),
});
export type TokenCreated = z.infer<typeof tokenCreatedSchema>;

/** Body of `POST /v1/tokens`. */
export interface TokenCreateBody {
  org_id: string;
  name: string;
  scopes: string[];
  kind?: 'live' | 'test';
  project_ids?: string[] | null;
  expires_at?: string | null;
  principal_user_id?: string | null;
}
