// Answers of the service as the protocol tests read them, where more than one
// test needs the same one: a token as `/v1/tokens` lists it.

/** An access token with every field the contract requires and no secret. */
export const TOKEN_SAMPLE = {
  token_id: 'tok1',
  org_id: 'o1',
  principal_user_id: 'u1',
  created_by: 'u1',
  name: 'laptop',
  token_prefix: 'svc_live_abcd',
  kind: 'live',
  grant_type: 'personal',
  scopes: ['tasks:read'],
  status: 'active',
};
