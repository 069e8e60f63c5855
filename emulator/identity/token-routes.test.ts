// /v1/me and the token routes over real HTTP against the emulator: minting
// shows the secret once, listing never does, rotation and revocation end the
// old token, and the contract's 401 and 403 problems come back as documented.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../clock';
import type { RunningEmulator } from '../start';
import { emulatorPerFile } from '../testing/emulator-per-file';
import { type IdentityTestServer, startIdentityTestServer } from './identity-test-server';

let emulator: RunningEmulator;
const clock = new ManualClock();
emulatorPerFile({ clock, seedTasks: 20 }, (started) => (emulator = started));

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(path, emulator.baseUrl), {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
  };
}

const mintBody = (extra: Record<string, unknown> = {}) => ({
  org_id: emulator.orgId,
  name: 'ci',
  scopes: ['tasks:read'],
  ...extra,
});

async function mint(extra: Record<string, unknown> = {}): Promise<{ token: string; token_id: string }> {
  const answer = await call('POST', '/v1/tokens', emulator.tokens.live, mintBody(extra));
  expect(answer.status).toBe(200);
  return { token: answer.body['token'] as string, token_id: answer.body['token_id'] as string };
}

const problemType = (answer: Answer): unknown => answer.body['type'];

test('GET /v1/me names the token’s principal', async () => {
  const me = await call('GET', '/v1/me', emulator.tokens.live);
  expect(me.status).toBe(200);
  expect(me.body).toEqual({
    user_id: emulator.me.user_id,
    username: emulator.me.username,
    email: expect.stringContaining('@') as unknown,
    org_id: emulator.orgId,
  });
  const peer = await call('GET', '/v1/me', emulator.tokens.peer);
  expect(peer.body['user_id']).toBe(emulator.peer.user_id);
  expect(peer.body['username']).toBe(emulator.peer.username);
});

test('GET /v1/me answers an ETag, and 304 when unchanged', async () => {
  const headers = { authorization: `Bearer ${emulator.tokens.live}` };
  const first = await fetch(new URL('/v1/me', emulator.baseUrl), { headers });
  const etag = first.headers.get('etag');
  expect(etag).toBeTruthy();
  const again = await fetch(new URL('/v1/me', emulator.baseUrl), {
    headers: { ...headers, 'if-none-match': etag ?? '' },
  });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
});

test('a GET /v1/tokens page answers an ETag that follows use counts', async () => {
  // Every authenticated call counts a use of its token, which the list shows,
  // so the page (and its ETag) changes with each call made.
  const headers = { authorization: `Bearer ${emulator.tokens.live}` };
  const first = await fetch(new URL('/v1/tokens', emulator.baseUrl), { headers });
  const etag = first.headers.get('etag') ?? '';
  expect(etag).toMatch(/^"/);
  const again = await fetch(new URL('/v1/tokens', emulator.baseUrl), {
    headers: { ...headers, 'if-none-match': etag },
  });
  expect(again.status).toBe(200);
  expect(again.headers.get('etag')).not.toBe(etag);
});

describe('401 problems', () => {
  test('no token, a malformed one, or an unknown one is token-invalid', async () => {
    for (const token of [null, 'nonsense', 'svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const answer = await call('GET', '/v1/me', token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(problemType(answer)).toBe('urn:svc:problem:token-invalid');
    }
  });

  test('a token past its expires_at is token-expired', async () => {
    const expiresAt = new Date(clock.now() + 10 * 60_000).toISOString();
    const { token } = await mint({ expires_at: expiresAt });
    expect((await call('GET', '/v1/me', token)).status).toBe(200);
    clock.advance(10 * 60_000);
    try {
      const answer = await call('GET', '/v1/me', token);
      expect(answer.status).toBe(401);
      expect(problemType(answer)).toBe('urn:svc:problem:token-expired');
    } finally {
      clock.advance(-10 * 60_000);
    }
  });
});

describe('POST /v1/tokens', () => {
  test('answers the record with the one-time token, which then authenticates', async () => {
    const answer = await call(
      'POST',
      '/v1/tokens',
      emulator.tokens.live,
      mintBody({ scopes: ['tasks:write'], project_ids: ['p1'] }),
    );
    expect(answer.status).toBe(200);
    const token = answer.body['token'] as string;
    expect(token).toMatch(/^svc_live_/);
    expect(answer.body).toMatchObject({
      org_id: emulator.orgId,
      principal_user_id: emulator.me.user_id,
      created_by: emulator.me.user_id,
      name: 'ci',
      token_prefix: token.slice(0, 13),
      kind: 'live',
      grant_type: 'personal',
      scopes: ['tasks:write'],
      project_ids: ['p1'],
      status: 'active',
      use_count: 0,
    });
    expect((await call('GET', '/v1/me', token)).status).toBe(200);
  });

  test('a test token is minted with kind test and cannot write', async () => {
    const { token } = await mint({ kind: 'test', scopes: ['org:write'] });
    expect(token).toMatch(/^svc_test_/);
    expect((await call('GET', '/v1/tokens', token)).status).toBe(200);
    const write = await call('POST', '/v1/tokens', token, mintBody());
    expect(write.status).toBe(403);
    expect(problemType(write)).toBe('urn:svc:problem:test-token-read-only');
  });

  test.each([
    ['no name', { name: undefined }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['no scopes', { scopes: [] }, 'scopes'],
    ['an unknown scope', { scopes: ['rocket:launch'] }, 'scopes'],
    ['an empty project list', { project_ids: [] }, 'project_ids'],
    ['a kind that is not live or test', { kind: 'staging' }, 'kind'],
    ['a malformed expires_at', { expires_at: 'tomorrow' }, 'expires_at'],
    ['an expires_at in the past', { expires_at: '2000-01-01T00:00:00Z' }, 'expires_at'],
  ])('%s is a 422 naming the field', async (_name, extra, field) => {
    const answer = await call('POST', '/v1/tokens', emulator.tokens.live, mintBody(extra));
    expect(answer.status).toBe(422);
    expect(problemType(answer)).toBe('urn:svc:problem:validation');
    const errors = answer.body['errors'] as { loc: string[]; msg: string; type: string }[];
    expect(errors.some((e) => e.loc[0] === 'body' && e.loc[1] === field && e.msg && e.type)).toBe(true);
  });

  test('an owner may mint for a service account of the organization, not for another person', async () => {
    const members = await call(
      'GET',
      `/v1/organization-members/${emulator.orgId}?limit=1000`,
      emulator.tokens.live,
    );
    const account = (members.body['data'] as { user_id: string; kind?: string; username: string }[]).find(
      (m) => m.kind === 'service_account',
    );
    if (!account) throw new Error('the seed has no service account');
    const minted = await call(
      'POST',
      '/v1/tokens',
      emulator.tokens.live,
      mintBody({ principal_user_id: account.user_id }),
    );
    expect(minted.status).toBe(200);
    expect(minted.body).toMatchObject({
      principal_user_id: account.user_id,
      principal_display: account.username,
      grant_type: 'service_account',
      created_by: emulator.me.user_id,
    });
    const asAccount = await call('GET', '/v1/me', minted.body['token'] as string);
    expect(asAccount.body['user_id']).toBe(account.user_id);

    const forPeer = await call(
      'POST',
      '/v1/tokens',
      emulator.tokens.live,
      mintBody({ principal_user_id: emulator.peer.user_id }),
    );
    expect(forPeer.status).toBe(403);
    const forNobody = await call(
      'POST',
      '/v1/tokens',
      emulator.tokens.live,
      mintBody({ principal_user_id: 'u_nobody' }),
    );
    expect(forNobody.status).toBe(422);
  });

  test('a token without org:write is refused with insufficient-scope naming org:write', async () => {
    const answer = await call('POST', '/v1/tokens', emulator.tokens.peer, mintBody());
    expect(answer.status).toBe(403);
    expect(problemType(answer)).toBe('urn:svc:problem:insufficient-scope');
    expect((answer.body['errors'] as { required: string }[])[0]?.required).toBe('org:write');
  });

  test('a token cannot mint a scope it does not hold', async () => {
    const answer = await call(
      'POST',
      '/v1/tokens',
      emulator.tokens.live,
      mintBody({ scopes: ['webhooks:read'] }),
    );
    expect(answer.status).toBe(403);
    expect((answer.body['errors'] as { required: string }[])[0]?.required).toBe('webhooks:read');
  });
});

describe('GET /v1/tokens', () => {
  test('needs org:read: a members:read token is told which scope it lacks', async () => {
    const answer = await call('GET', '/v1/tokens', emulator.tokens.peer);
    expect(answer.status).toBe(403);
    expect((answer.body['errors'] as { required: string }[])[0]?.required).toBe('org:read');
  });

  test('lists records but never a secret or its hash', async () => {
    const { token, token_id } = await mint({ name: 'secret-check' });
    const answer = await call('GET', '/v1/tokens?limit=1000', emulator.tokens.live);
    expect(answer.status).toBe(200);
    const text = JSON.stringify(answer.body);
    const hash = createHash('sha256').update(token).digest('hex');
    for (const secret of [token, token.slice('svc_live_'.length), hash, emulator.tokens.live]) {
      expect(text).not.toContain(secret);
    }
    const listed = (answer.body['data'] as Record<string, unknown>[]).find((t) => t['token_id'] === token_id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('token');
    expect(listed?.['token_prefix']).toBe(token.slice(0, 13));
  });

  test('pages by limit and an opaque cursor until next_cursor is null, each token once', async () => {
    for (let i = 0; i < 3; i++) await mint({ name: `page-${i}` });
    const total = (
      (await call('GET', '/v1/tokens?limit=1000', emulator.tokens.live)).body['data'] as unknown[]
    ).length;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `limit=2&cursor=${encodeURIComponent(cursor)}` : 'limit=2';
      const page = await call('GET', `/v1/tokens?${query}`, emulator.tokens.live);
      expect(page.status).toBe(200);
      const data = page.body['data'] as { token_id: string }[];
      expect(data.length).toBeLessThanOrEqual(2);
      seen.push(...data.map((t) => t.token_id));
      cursor = page.body['next_cursor'] as string | null;
    } while (cursor !== null);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
  });

  test('an unknown sort_by is invalid-parameter listing what is allowed; a forged cursor is refused', async () => {
    const sort = await call('GET', '/v1/tokens?sort_by=name', emulator.tokens.live);
    expect(sort.status).toBe(400);
    expect(problemType(sort)).toBe('urn:svc:problem:invalid-parameter');
    expect((sort.body['errors'] as { allowed: string[] }[])[0]?.allowed).toEqual(['created_at']);
    const cursor = await call('GET', '/v1/tokens?cursor=not-a-cursor', emulator.tokens.live);
    expect(cursor.status).toBe(400);
    expect(problemType(cursor)).toBe('urn:svc:problem:invalid-parameter');
  });
});

describe('rotation and revocation', () => {
  test('rotate revokes the old token (reason rotation) and answers a new one with rotated_from', async () => {
    const old = await mint({ scopes: ['tasks:write'] });
    const answer = await call('POST', `/v1/tokens/${old.token_id}/rotate`, emulator.tokens.live);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      rotated_from: old.token_id,
      scopes: ['tasks:write'],
      status: 'active',
    });
    const fresh = answer.body['token'] as string;
    expect(fresh).not.toBe(old.token);
    expect((await call('GET', '/v1/me', fresh)).status).toBe(200);
    const refused = await call('GET', '/v1/me', old.token);
    expect(refused.status).toBe(401);
    expect(problemType(refused)).toBe('urn:svc:problem:token-revoked');
    const listed = (await call('GET', '/v1/tokens?limit=1000', emulator.tokens.live)).body['data'] as {
      token_id: string;
    }[];
    expect(listed.find((t) => t.token_id === old.token_id)).toMatchObject({
      status: 'revoked',
      revoke_reason: 'rotation',
      revoked_by: emulator.me.user_id,
    });
  });

  test('DELETE revokes: 200 {ok: true}, then the token is token-revoked', async () => {
    const { token, token_id } = await mint();
    const answer = await call('DELETE', `/v1/tokens/${token_id}`, emulator.tokens.live);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true });
    const refused = await call('GET', '/v1/me', token);
    expect(refused.status).toBe(401);
    expect(problemType(refused)).toBe('urn:svc:problem:token-revoked');
  });

  test('an unknown token id is 404', async () => {
    expect((await call('DELETE', '/v1/tokens/tok_missing', emulator.tokens.live)).status).toBe(404);
    expect((await call('POST', '/v1/tokens/tok_missing/rotate', emulator.tokens.live)).status).toBe(404);
  });
});

describe('tokens minted before the rename', () => {
  // The emulator's control handle mints under the current prefix only, so the
  // identity routes are served here on their own to present an earlier-prefix token over HTTP.
  let bare: IdentityTestServer;
  beforeAll(async () => {
    bare = await startIdentityTestServer();
  });
  afterAll(async () => {
    await bare.stop();
  });

  test('a token under the earlier prefix still authenticates and holds its scopes', async () => {
    const { token } = bare.store.mintToken({
      principalUserId: bare.me.user_id,
      name: 'old',
      scopes: ['org:read'],
      createdBy: bare.me.user_id,
      legacyPrefix: true,
    });
    expect(token.startsWith('svc_')).toBe(false);
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(new URL('/v1/me', bare.baseUrl), { headers })).status).toBe(200);
    expect((await fetch(new URL('/v1/tokens', bare.baseUrl), { headers })).status).toBe(200);
    const write = await fetch(new URL('/v1/tokens', bare.baseUrl), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: bare.store.orgId, name: 'x', scopes: ['org:read'] }),
    });
    expect(write.status).toBe(403);
  });
});
