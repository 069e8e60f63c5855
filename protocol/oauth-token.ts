// The OAuth token endpoint's answers (`POST {auth_url}/oauth/token`), assumed
// by gaps.md: a bearer token with its lifetime and rotating refresh token, or
// an RFC 6749 error. Lenient: only the access token itself is required.
import { z } from 'zod';
import { optionalString } from './wire-fields';

export const oauthTokenSchema = z.looseObject({
  access_token: z.string().min(1),
  /** `Bearer` (compare case-insensitively, RFC 6749 section 5.1). */
  token_type: z.string(),
  /** Seconds; 3600 in the contract. */
  expires_in: z.number().nullish(),
  refresh_token: optionalString,
  /** Space-separated scopes granted. */
  scope: optionalString,
  org_id: optionalString,
});
export type OAuthToken = z.infer<typeof oauthTokenSchema>;

/** RFC 6749 section 5.2 error answer (400 or 401), such as `invalid_grant`. */
export const oauthErrorSchema = z.looseObject({
  error: z.string(),
  error_description: optionalString,
  error_uri: optionalString,
});
export type OAuthErrorBody = z.infer<typeof oauthErrorSchema>;
