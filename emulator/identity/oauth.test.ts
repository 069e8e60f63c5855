// The OAuth authorization-code flow with PKCE over real HTTP against the
// emulator: consent page, redirects, code exchange, refresh rotation and grant
// revocation on reuse.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../clock';
import type { RunningEmulator } from '../start';
import { emulatorPerFile } from '../testing/emulator-per-file';

const REDIRECT = 'http://127.0.0.1:53682/callback';

let emulator: RunningEmulator;
const clock = new ManualClock();
emulatorPerFile({ clock, seedTasks: 20 }, (started) => (emulator = started));

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(overrides: Record<string, string | null> = {}, challenge = pkce().challenge): string {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: emulator.clientId,
    redirect_uri: REDIRECT,
    scope: 'tasks:write org:read',
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const url = new URL('/oauth/authorize', emulator.authUrl);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

async function get(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

/** Loads the consent page and submits it; returns the redirect Location. */
async function consent(decision: 'approve' | 'deny', url: string): Promise<URL> {
  const page = await get(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const field = (name: string): string => {
    const match = new RegExp(`name="${name}" value="([^"]+)"`).exec(html);
    if (!match?.[1]) throw new Error(`no ${name} field on the consent page`);
    return match[1];
  };
  const answer = await fetch(new URL('/oauth/authorize', emulator.authUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ consent_id: field('consent_id'), csrf_token: field('csrf_token'), decision }),
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

async function tokenRequest(
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(new URL('/oauth/token', emulator.authUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

async function approvedCode(redirect = REDIRECT): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const location = await consent('approve', authorizeUrl({ redirect_uri: redirect }, challenge));
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.toString()}`);
  return { code, verifier };
}

const exchange = (code: string, verifier: string, redirect = REDIRECT) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    client_id: emulator.clientId,
    code_verifier: verifier,
  });

async function meStatus(accessToken: string): Promise<{ status: number; type?: string }> {
  const response = await fetch(new URL('/v1/me', emulator.authUrl), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const body = (await response.json()) as { type?: string };
  return response.status === 200
    ? { status: 200 }
    : { status: response.status, ...(body.type ? { type: body.type } : {}) };
}

describe('authorize', () => {
  test('the consent page is a real form with Approve and Deny, naming the member, app and scopes', async () => {
    const response = await get(authorizeUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/<form method="post" action="\/oauth\/authorize">/);
    expect(html).toContain('value="approve"');
    expect(html).toContain('value="deny"');
    expect(html).toContain('name="csrf_token"');
    expect(html).toContain(`>${emulator.me.username}<`);
    expect(html).toContain('svc-desktop');
    expect(html).toContain('tasks:write');
  });

  test('approving redirects to the loopback URI on the port the app chose, with a code and the state', async () => {
    const location = await consent('approve', authorizeUrl());
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test('denying redirects with error=access_denied and the state', async () => {
    const location = await consent('deny', authorizeUrl({ state: 'deny-state' }));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('deny-state');
    expect(location.searchParams.get('code')).toBeNull();
  });

  test.each([
    ['path differs', 'http://127.0.0.1:53682/other'],
    ['host is localhost', 'http://localhost:53682/callback'],
    ['https', 'https://127.0.0.1:53682/callback'],
    ['another host', 'http://evil.example:53682/callback'],
    ['query added', 'http://127.0.0.1:53682/callback?x=1'],
    ['not a URL', 'callback'],
  ])('a redirect_uri whose %s is refused with a 400 page and no redirect', async (_name, redirect) => {
    const response = await get(authorizeUrl({ redirect_uri: redirect }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('invalid_redirect_uri');
  });

  test('an unknown client_id is refused with a 400 page and no redirect', async () => {
    const response = await get(authorizeUrl({ client_id: 'svcc_other' }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  test.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no PKCE', { code_challenge: null, code_challenge_method: null }, 'invalid_request'],
    ['an unknown scope', { scope: 'tasks:read rocket:launch' }, 'invalid_scope'],
    ['no scope', { scope: null }, 'invalid_scope'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
  ])(
    'a request with %s goes back to the app with an error and the state',
    async (_name, overrides, error) => {
      const response = await get(authorizeUrl(overrides));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('error_description')).toBeTruthy();
      expect(location.searchParams.get('state')).toBe('st-123');
    },
  );

  test('each scope is a box on the page; one left unticked is not granted, and the token answer says so', async () => {
    const { verifier, challenge } = pkce();
    const page = await (await get(authorizeUrl({}, challenge))).text();
    expect(page).toContain('name="scope" value="tasks:write" checked');
    expect(page).toContain('name="scope" value="org:read" checked');
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
    const answer = await fetch(new URL('/oauth/authorize', emulator.authUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([
        ['consent_id', field('consent_id')],
        ['csrf_token', field('csrf_token')],
        ['scopes_chosen', '1'],
        ['scope', 'org:read'],
        ['decision', 'approve'],
      ]),
    });
    const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') as string;
    expect((await exchange(code, verifier)).body).toMatchObject({ scope: 'org:read' });
  });

  test('scopes withheld by the control are not granted; withholding every one asked is access_denied', async () => {
    emulator.control.setOAuthWithheldScopes(['tasks:write']);
    try {
      const { code, verifier } = await approvedCode();
      expect((await exchange(code, verifier)).body).toMatchObject({ scope: 'org:read' });
      emulator.control.setOAuthWithheldScopes(['tasks:write', 'org:read']);
      const denied = await consent('approve', authorizeUrl());
      expect(denied.searchParams.get('error')).toBe('access_denied');
    } finally {
      emulator.control.setOAuthWithheldScopes([]);
    }
  });

  test('scopes withdrawn from the grants by the control API are refused to their tokens, now and after a refresh; a new consent grants them again', async () => {
    const { code, verifier } = await approvedCode();
    const granted = (await exchange(code, verifier)).body;
    const write = async (accessToken: unknown) => {
      const response = await fetch(new URL('/v1/tasks', emulator.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken as string}`, 'content-type': 'application/json' },
        body: JSON.stringify({ org_id: emulator.orgId, title: 'Written with the grant' }),
      });
      const body = (await response.json()) as { type?: string; errors?: { required?: unknown }[] };
      return { status: response.status, type: body.type, required: body.errors?.[0]?.required };
    };
    expect((await write(granted['access_token'])).status).toBe(201);

    const withdrawn = await fetch(new URL('/_emulator/oauth-grants/withdraw-scopes', emulator.baseUrl), {
      method: 'POST',
      headers: { 'x-emulator-admin': emulator.adminSecret, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['tasks:write'] }),
    });
    expect(withdrawn.status).toBe(200);
    expect(((await withdrawn.json()) as { grants_narrowed: number }).grants_narrowed).toBeGreaterThan(0);
    const refused = {
      status: 403,
      type: 'urn:svc:problem:insufficient-scope',
      required: 'tasks:write',
    };
    expect(await write(granted['access_token'])).toEqual(refused);
    // Still signed in: what is left of the grant reads.
    expect(await meStatus(granted['access_token'] as string)).toEqual({ status: 200 });
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: granted['refresh_token'] as string,
      client_id: emulator.clientId,
    });
    expect(refreshed.body['scope']).toBe('org:read');
    expect(await write(refreshed.body['access_token'])).toEqual(refused);

    const again = await approvedCode();
    const regranted = (await exchange(again.code, again.verifier)).body;
    expect(regranted['scope']).toBe('tasks:write org:read');
    expect((await write(regranted['access_token'])).status).toBe(201);
  });

  test('a consent form with a wrong CSRF field, or answered twice, is refused without redirecting', async () => {
    const html = await (await get(authorizeUrl())).text();
    const consentId = /name="consent_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const post = (csrfToken: string) =>
      fetch(new URL('/oauth/authorize', emulator.authUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ consent_id: consentId, csrf_token: csrfToken, decision: 'approve' }),
      });
    const forged = await post('forged');
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
    // The forged attempt spent nothing: the real form still works, once.
    expect((await post(csrf)).status).toBe(302);
    const again = await post(csrf);
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
  });
});

describe('token endpoint', () => {
  test('a code and its verifier give a 1-hour live access token and a refresh token, never cached', async () => {
    const { code, verifier } = await approvedCode();
    const { status, body, headers } = await exchange(code, verifier);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'tasks:write org:read',
      org_id: emulator.orgId,
    });
    expect(body['access_token']).toMatch(/^svc_live_/);
    expect(typeof body['refresh_token']).toBe('string');
    expect(await meStatus(body['access_token'] as string)).toEqual({ status: 200 });
    const accessToken = body['access_token'] as string;
    const listed = await fetch(new URL('/v1/tokens?limit=1000', emulator.baseUrl), {
      headers: { authorization: `Bearer ${emulator.tokens.live}` },
    });
    const records = ((await listed.json()) as { data: Record<string, unknown>[] }).data;
    const record = records.find(
      (t) => t['grant_type'] === 'authorization_code' && accessToken.startsWith(t['token_prefix'] as string),
    );
    expect(record).toMatchObject({
      grant_type: 'authorization_code',
      client_id: emulator.clientId,
      kind: 'live',
    });
    expect(Date.parse(String(record?.['expires_at'])) - clock.now()).toBe(3600_000);
  });

  test('the access token expires after one hour: token-expired', async () => {
    const { code, verifier } = await approvedCode();
    const { body } = await exchange(code, verifier);
    clock.advance(3600_000);
    try {
      expect(await meStatus(body['access_token'] as string)).toEqual({
        status: 401,
        type: 'urn:svc:problem:token-expired',
      });
    } finally {
      clock.advance(-3600_000);
    }
  });

  test('a wrong code_verifier is invalid_grant', async () => {
    const { code } = await approvedCode();
    const { status, body } = await exchange(code, pkce().verifier);
    expect(status).toBe(400);
    expect(body['error']).toBe('invalid_grant');
    expect(typeof body['error_description']).toBe('string');
  });

  test('a code used twice is invalid_grant and revokes what the first use issued', async () => {
    const { code, verifier } = await approvedCode();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.status).toBe(400);
    expect(second.body['error']).toBe('invalid_grant');
    expect(await meStatus(first.body['access_token'] as string)).toEqual({
      status: 401,
      type: 'urn:svc:problem:token-revoked',
    });
  });

  test('a code past its 60 seconds is invalid_grant', async () => {
    const { code, verifier } = await approvedCode();
    clock.advance(60_000);
    const { status, body } = await exchange(code, verifier);
    expect(status).toBe(400);
    expect(body['error']).toBe('invalid_grant');
  });

  test('the redirect_uri must repeat the authorization request’s, port included', async () => {
    const { code, verifier } = await approvedCode('http://127.0.0.1:40001/callback');
    const { status, body } = await exchange(code, verifier, 'http://127.0.0.1:40002/callback');
    expect(status).toBe(400);
    expect(body['error']).toBe('invalid_grant');
    expect((await exchange(code, verifier, 'http://127.0.0.1:40001/callback')).status).toBe(200);
  });

  test('refresh tokens rotate on every use; reusing a spent one is invalid_grant and revokes the whole grant', async () => {
    const { code, verifier } = await approvedCode();
    const first = (await exchange(code, verifier)).body;
    const refresh = (token: unknown) =>
      tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: token as string,
        client_id: emulator.clientId,
      });
    const second = await refresh(first['refresh_token']);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body['refresh_token']).not.toBe(first['refresh_token']);
    expect(second.body['access_token']).not.toBe(first['access_token']);
    expect(await meStatus(second.body['access_token'] as string)).toEqual({ status: 200 });

    const reuse = await refresh(first['refresh_token']);
    expect(reuse.status).toBe(400);
    expect(reuse.body['error']).toBe('invalid_grant');
    for (const token of [first['access_token'], second.body['access_token']]) {
      expect(await meStatus(token as string)).toEqual({ status: 401, type: 'urn:svc:problem:token-revoked' });
    }
    expect((await refresh(second.body['refresh_token'])).body['error']).toBe('invalid_grant');
  });

  test('refresh may narrow the scopes but not widen them', async () => {
    const { code, verifier } = await approvedCode();
    const first = (await exchange(code, verifier)).body;
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first['refresh_token'] as string,
      client_id: emulator.clientId,
      scope: 'admin',
    });
    expect(wider.body['error']).toBe('invalid_scope');
    const narrower = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first['refresh_token'] as string,
      client_id: emulator.clientId,
      scope: 'org:read',
    });
    expect(narrower.status).toBe(200);
    expect(narrower.body['scope']).toBe('org:read');
  });

  test('an unknown client is 401 invalid_client; an unknown grant type is unsupported_grant_type', async () => {
    const unknownClient = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: 'svcc_nope',
    });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body['error']).toBe('invalid_client');
    const password = await tokenRequest({ grant_type: 'password', client_id: emulator.clientId });
    expect(password.status).toBe(400);
    expect(password.body['error']).toBe('unsupported_grant_type');
  });

  test('a JSON body is refused: the token endpoint takes form encoding', async () => {
    const response = await fetch(new URL('/oauth/token', emulator.authUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x', client_id: emulator.clientId }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('auto-approve', () => {
  test('GET /oauth/authorize answers the redirect with a code at once', async () => {
    emulator.control.setOAuthAutoApprove(true);
    try {
      const { verifier, challenge } = pkce();
      const response = await get(authorizeUrl({}, challenge));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.searchParams.get('state')).toBe('st-123');
      const code = location.searchParams.get('code') ?? '';
      expect((await exchange(code, verifier)).status).toBe(200);
    } finally {
      emulator.control.setOAuthAutoApprove(false);
    }
    expect((await get(authorizeUrl())).status).toBe(200);
  });
});
