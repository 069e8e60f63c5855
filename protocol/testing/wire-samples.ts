// Answers of the service as the protocol tests read them, where more than one
// test needs the same one: a token as `/v1/tokens` lists it, a sprint as its team's list does.

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

/** A sprint with every field the contract requires. */
export const SPRINT_SAMPLE = {
  sprint_id: 'sp1',
  org_id: 'o1',
  team_id: 't1',
  name: 'S1',
  start_date: '2026-11-02',
  end_date: '2026-11-16',
};
