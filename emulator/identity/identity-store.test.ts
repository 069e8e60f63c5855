// The token store and the scope rules on their own: how a bearer header
// resolves, fails, and which scopes a token really holds.
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../clock';
import { ProblemReply } from '../problem';
import {
  type AuthContext,
  type Member,
  IdentityStore,
  expandScopes,
  requireScope,
  sha256Hex,
} from './identity-store';

const ORG = 'org_1';
const alice: Member = {
  user_id: 'u_alice',
  org_id: ORG,
  username: 'alice',
  email: 'alice@example.test',
  role: 'owner',
  kind: 'user',
  is_active: true,
};

function setup() {
  const clock = new ManualClock();
  const members = new Map<string, Member>([[alice.user_id, { ...alice }]]);
  const store = new IdentityStore({ clock, orgId: ORG, lookupMember: (id) => members.get(id) });
  return { clock, members, store };
}

function problemOf(run: () => unknown): ProblemReply {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemReply) return error;
    throw error;
  }
  throw new Error('expected a ProblemReply');
}

const mint = (store: IdentityStore, extra: Partial<Parameters<IdentityStore['mintToken']>[0]> = {}) =>
  store.mintToken({
    principalUserId: alice.user_id,
    name: 'cli',
    scopes: ['tasks:read'],
    createdBy: 'u_alice',
    ...extra,
  });

describe('minting', () => {
  test('live and test tokens carry their prefix and a base64url secret; the record shows only the prefix plus 4', () => {
    const { store } = setup();
    const live = mint(store);
    const testToken = mint(store, { kind: 'test' });
    expect(live.token).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    expect(testToken.token).toMatch(/^svc_test_[A-Za-z0-9_-]{43}$/);
    expect(live.record.token_prefix).toBe(live.token.slice(0, 'svc_live_'.length + 4));
    expect(live.record).toMatchObject({
      org_id: ORG,
      principal_user_id: 'u_alice',
      principal_display: 'alice',
      kind: 'live',
      grant_type: 'personal',
      status: 'active',
      use_count: 0,
      last_used_at: null,
      rotated_from: null,
    });
    expect(JSON.stringify(store.listTokens())).not.toContain(live.token.slice('svc_live_'.length));
  });

  test('the store keeps the SHA-256 of the token, never the token', () => {
    const { store } = setup();
    const { token } = mint(store);
    const ctx = store.authenticate(`Bearer ${token}`);
    expect(ctx.tokenHash).toBe(sha256Hex(token));
    expect(ctx.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('authenticate', () => {
  test('a valid token gives its principal and expanded scopes and counts the use', () => {
    const { store, clock } = setup();
    const { token, record } = mint(store, { scopes: ['tasks:write'], projectIds: ['p1'] });
    const ctx = store.authenticate(`Bearer ${token}`);
    expect(ctx.principal.username).toBe('alice');
    expect(ctx.kind).toBe('live');
    expect([...ctx.scopes].sort()).toEqual(['tasks:read', 'tasks:write']);
    expect(ctx.projectIds).toEqual(['p1']);
    clock.advance(5000);
    store.authenticate(`bearer ${token}`);
    const after = store.getToken(record.token_id);
    expect(after?.use_count).toBe(2);
    expect(after?.last_used_at).toBe(new Date(clock.now()).toISOString());
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['not Bearer', 'Basic abc'],
    ['unknown prefix', 'Bearer xyz_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['bad secret characters', 'Bearer svc_live_!!!!!!!!!!!!!!!!!!!!!!!!!!!!'],
    ['unknown token', 'Bearer svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('%s header is 401 token-invalid', (_name, header) => {
    const { store } = setup();
    const problem = problemOf(() => store.authenticate(header));
    expect(problem.status).toBe(401);
    expect(problem.type).toBe('urn:svc:problem:token-invalid');
  });

  test('a token whose principal is deactivated or gone is token-invalid', () => {
    const { store, members } = setup();
    const { token } = mint(store);
    members.set(alice.user_id, { ...alice, is_active: false });
    expect(problemOf(() => store.authenticate(`Bearer ${token}`)).type).toBe('urn:svc:problem:token-invalid');
    members.delete(alice.user_id);
    expect(problemOf(() => store.authenticate(`Bearer ${token}`)).type).toBe('urn:svc:problem:token-invalid');
  });

  test('past expires_at the token is token-expired and listed as expired', () => {
    const { store, clock } = setup();
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    const { token, record } = mint(store, { expiresAt });
    expect(store.authenticate(`Bearer ${token}`).tokenId).toBe(record.token_id);
    clock.advance(60_000);
    const problem = problemOf(() => store.authenticate(`Bearer ${token}`));
    expect(problem.status).toBe(401);
    expect(problem.type).toBe('urn:svc:problem:token-expired');
    expect(store.getToken(record.token_id)?.status).toBe('expired');
  });

  test('a revoked token is token-revoked, and revocation is recorded', () => {
    const { store } = setup();
    const { token, record } = mint(store);
    store.revokeToken(record.token_id, 'u_alice', 'leaked');
    const problem = problemOf(() => store.authenticate(`Bearer ${token}`));
    expect(problem.status).toBe(401);
    expect(problem.type).toBe('urn:svc:problem:token-revoked');
    expect(store.getToken(record.token_id)).toMatchObject({
      status: 'revoked',
      revoked_by: 'u_alice',
      revoke_reason: 'leaked',
    });
  });

  test('tokens minted under the earlier prefix still authenticate, with their kind', () => {
    const { store } = setup();
    const live = mint(store, { legacyPrefix: true });
    const testToken = mint(store, { legacyPrefix: true, kind: 'test' });
    expect(live.token).toMatch(/^tsk_live_/);
    expect(testToken.token).toMatch(/^tsk_test_/);
    expect(store.authenticate(`Bearer ${live.token}`).kind).toBe('live');
    expect(store.authenticate(`Bearer ${testToken.token}`).kind).toBe('test');
  });

  test('a token under the current prefix with an earlier token’s secret is unknown', () => {
    const { store } = setup();
    const legacy = mint(store, { legacyPrefix: true });
    const swapped = `svc_live_${legacy.token.slice('tsk_live_'.length)}`;
    expect(problemOf(() => store.authenticate(`Bearer ${swapped}`)).type).toBe(
      'urn:svc:problem:token-invalid',
    );
  });
});

describe('rotation and principal revocation', () => {
  test('rotation revokes the old token with reason rotation and links the new one', () => {
    const { store } = setup();
    const old = mint(store, { scopes: ['org:write'], projectIds: ['p1'] });
    const fresh = store.rotateToken(old.record.token_id, 'u_alice');
    expect(fresh.token).not.toBe(old.token);
    expect(fresh.record).toMatchObject({
      rotated_from: old.record.token_id,
      scopes: ['org:write'],
      project_ids: ['p1'],
    });
    expect(store.getToken(old.record.token_id)).toMatchObject({
      status: 'revoked',
      revoke_reason: 'rotation',
    });
    expect(problemOf(() => store.authenticate(`Bearer ${old.token}`)).type).toBe(
      'urn:svc:problem:token-revoked',
    );
    expect(store.authenticate(`Bearer ${fresh.token}`).tokenId).toBe(fresh.record.token_id);
    expect(problemOf(() => store.rotateToken(old.record.token_id, 'u_alice')).status).toBe(409);
  });

  test('revoking a principal’s tokens revokes each active one', () => {
    const { store } = setup();
    const a = mint(store);
    const b = mint(store);
    expect(store.revokePrincipalTokens(alice.user_id, null, 'deactivated')).toBe(2);
    expect(problemOf(() => store.authenticate(`Bearer ${a.token}`)).type).toBe(
      'urn:svc:problem:token-revoked',
    );
    expect(problemOf(() => store.authenticate(`Bearer ${b.token}`)).type).toBe(
      'urn:svc:problem:token-revoked',
    );
  });
});

describe('scope rules', () => {
  test.each([
    [['admin'], ['webhooks:write', 'org:write', 'members:read', 'tasks:read', 'admin']],
    [['tasks:write'], ['tasks:write', 'tasks:read']],
    [['org:write'], ['org:write', 'org:read', 'members:read']],
    [['org:read'], ['org:read', 'members:read']],
    [['webhooks:write'], ['webhooks:write', 'webhooks:read']],
  ])('%j implies %j', (granted, implied) => {
    const scopes = expandScopes(granted);
    for (const scope of implied) expect(scopes.has(scope)).toBe(true);
  });

  test.each([
    [['tasks:read'], 'tasks:write'],
    [['members:read'], 'org:read'],
    [['org:write'], 'tasks:read'],
    [['tasks:write', 'projects:write', 'teams:write', 'org:write'], 'admin'],
    [['org:write'], 'webhooks:read'],
  ])('%j does not imply %s', (granted, scope) => {
    expect(expandScopes(granted).has(scope)).toBe(false);
  });

  const ctxWith = (scopes: string[]): AuthContext => ({
    tokenId: 't',
    tokenHash: 'h',
    kind: 'live',
    scopes: expandScopes(scopes),
    projectIds: null,
    principal: alice,
  });

  test('a missing scope is 403 insufficient-scope naming it in errors[0].required', () => {
    const problem = problemOf(() => requireScope(ctxWith(['tasks:read']), 'tasks:write'));
    expect(problem.status).toBe(403);
    expect(problem.type).toBe('urn:svc:problem:insufficient-scope');
    expect(problem.errors?.[0]?.required).toBe('tasks:write');
  });

  test('an internal operation refuses even an admin token, with required null', () => {
    const problem = problemOf(() => requireScope(ctxWith(['admin']), null));
    expect(problem.status).toBe(403);
    expect(problem.errors?.[0]?.required).toBeNull();
  });

  test('a held or implied scope passes', () => {
    expect(() => requireScope(ctxWith(['org:write']), 'members:read')).not.toThrow();
    expect(() => requireScope(ctxWith(['admin']), 'webhooks:write')).not.toThrow();
  });
});
