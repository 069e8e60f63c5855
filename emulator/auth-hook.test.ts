// The one hook every /v1 request passes (authenticate → rate limit → scope →
// test-token write check), the scope each route needs, the token's project
// restriction, and the problem+json shape of every error — ours and Fastify's.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page } from './emulator-http';
import type { ProjectRecord, TaskRecord, TeamRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();
let taskId: string;
let teamId: string;
let projects: ProjectRecord[];

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 120 });
  taskId = emulator.control.tasks()[0]?.task_id ?? '';
  const teams = await callApi<Page<TeamRecord>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`);
  teamId = teams.body.data[0]?.team_id ?? '';
  projects = (await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`)).body
    .data;
});
afterAll(async () => {
  await emulator.stop();
});

describe('authentication', () => {
  test.each([
    ['no Authorization header', null],
    ['a malformed token', 'not-a-token'],
    ['an unknown token', 'svc_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('%s is 401 token-invalid', async (_name, token) => {
    const answer = await callApi(emulator, 'GET', '/v1/tasks', { token });
    expect(answer.status).toBe(401);
    expect(answer.body.type).toBe('urn:svc:problem:token-invalid');
  });

  test('a revoked token is 401 token-revoked', async () => {
    const { token, record } = emulator.control.mintToken({ scopes: ['tasks:read'] });
    expect((await callApi(emulator, 'GET', '/v1/tasks', { token })).status).toBe(200);
    emulator.control.revokeToken(record.token_id);
    const answer = await callApi(emulator, 'GET', '/v1/tasks', { token });
    expect(answer.status).toBe(401);
    expect(answer.body.type).toBe('urn:svc:problem:token-revoked');
  });

  test('a token past expires_at is 401 token-expired (injected clock)', async () => {
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    const { token } = emulator.control.mintToken({ scopes: ['tasks:read'], expiresAt });
    expect((await callApi(emulator, 'GET', '/v1/tasks', { token })).status).toBe(200);
    clock.advance(60_001);
    const answer = await callApi(emulator, 'GET', '/v1/tasks', { token });
    expect(answer.status).toBe(401);
    expect(answer.body.type).toBe('urn:svc:problem:token-expired');
  });

  test('GET /v1/health needs no token', async () => {
    const answer = await callApi(emulator, 'GET', '/v1/health', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  test('GET /v1/me names the main member for the live token and the peer for the peer token', async () => {
    expect((await callApi(emulator, 'GET', '/v1/me')).body).toMatchObject({ username: emulator.me.username });
    const peer = await callApi(emulator, 'GET', '/v1/me', { token: emulator.tokens.peer });
    expect(peer.body).toMatchObject({ username: emulator.peer.username, user_id: emulator.peer.user_id });
  });
});

describe('scopes', () => {
  const routes: [string, () => string, string][] = [
    ['GET', () => '/v1/tasks', 'tasks:read'],
    ['GET', () => `/v1/tasks/${taskId}`, 'tasks:read'],
    ['POST', () => '/v1/tasks', 'tasks:write'],
    ['PATCH', () => `/v1/tasks/${taskId}`, 'tasks:write'],
    ['PUT', () => `/v1/tasks/${taskId}`, 'tasks:write'],
    ['DELETE', () => `/v1/tasks/${taskId}`, 'tasks:write'],
    ['GET', () => '/v1/sections', 'tasks:read'],
    ['POST', () => '/v1/sections', 'tasks:write'],
    ['GET', () => `/v1/task-comments?task_id=${taskId}`, 'tasks:read'],
    ['POST', () => '/v1/task-comments', 'tasks:write'],
    ['GET', () => `/v1/task-history?task_id=${taskId}`, 'tasks:read'],
    ['GET', () => `/v1/projects/${emulator.orgId}`, 'projects:read'],
    ['GET', () => `/v1/goals?org_id=${emulator.orgId}`, 'projects:read'],
    ['POST', () => `/v1/projects/${projects[0]?.project_id}/goals`, 'projects:write'],
    ['GET', () => `/v1/teams?org_id=${emulator.orgId}`, 'teams:read'],
    ['PATCH', () => `/v1/teams/${teamId}`, 'teams:write'],
    ['GET', () => `/v1/teams/${teamId}/sprints`, 'teams:read'],
    ['POST', () => `/v1/teams/${teamId}/sprints`, 'teams:write'],
    ['GET', () => `/v1/organization-members/${emulator.orgId}`, 'members:read'],
    ['GET', () => '/v1/organizations', 'members:read'],
  ];

  test.each(routes)('%s %s needs %s (403 insufficient-scope naming it)', async (method, path, scope) => {
    const { token } = emulator.control.mintToken({ scopes: ['webhooks:read'] });
    const answer = await callApi(emulator, method, path(), { token });
    expect(answer.status).toBe(403);
    expect(answer.body.type).toBe('urn:svc:problem:insufficient-scope');
    expect(answer.body.errors?.[0]?.required).toBe(scope);
  });

  test('implied scopes pass: tasks:write reads tasks, org:read reads the members', async () => {
    const { token: writer } = emulator.control.mintToken({ scopes: ['tasks:write'] });
    expect((await callApi(emulator, 'GET', '/v1/tasks', { token: writer })).status).toBe(200);
    const { token: orgReader } = emulator.control.mintToken({ scopes: ['org:read'] });
    expect(
      (await callApi(emulator, 'GET', `/v1/organization-members/${emulator.orgId}`, { token: orgReader }))
        .status,
    ).toBe(200);
  });

  test('a test token reads but every write is 403 test-token-read-only', async () => {
    expect((await callApi(emulator, 'GET', '/v1/tasks', { token: emulator.tokens.test })).status).toBe(200);
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      token: emulator.tokens.test,
      body: { org_id: emulator.orgId, title: 'from a test token' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.type).toBe('urn:svc:problem:test-token-read-only');
  });

  test('the scope is checked before the test-token rule', async () => {
    const { token } = emulator.control.mintToken({ scopes: ['tasks:read'], kind: 'test' });
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      token,
      body: { org_id: emulator.orgId, title: 'x' },
    });
    expect(answer.body.type).toBe('urn:svc:problem:insufficient-scope');
  });
});

describe('a token restricted to some projects', () => {
  test('lists, reads and writes only tasks of those projects', async () => {
    const allowed = projects.find((p) => p.status === 'active')?.project_id ?? '';
    const other = projects.find((p) => p.project_id !== allowed && p.status === 'active')?.project_id ?? '';
    const { token } = emulator.control.mintToken({ scopes: ['tasks:write'], projectIds: [allowed] });

    const seen = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=1000', { token });
    const expected = emulator.control.tasks().filter((t) => t.project_id === allowed);
    expect(seen.body.data.map((t) => t.task_id).sort()).toEqual(expected.map((t) => t.task_id).sort());

    const outside = emulator.control.tasks().find((t) => t.project_id !== allowed);
    expect((await callApi(emulator, 'GET', `/v1/tasks/${outside?.task_id}`, { token })).status).toBe(404);
    const inside = expected[0];
    expect((await callApi(emulator, 'GET', `/v1/tasks/${inside?.task_id}`, { token })).status).toBe(200);

    const createOutside = await callApi(emulator, 'POST', '/v1/tasks', {
      token,
      body: { org_id: emulator.orgId, title: 'elsewhere', project_id: other },
    });
    expect(createOutside.status).toBe(403);
    const unfiled = await callApi(emulator, 'POST', '/v1/tasks', {
      token,
      body: { org_id: emulator.orgId, title: 'nowhere' },
    });
    expect(unfiled.status).toBe(403);
    const move = await callApi(emulator, 'PATCH', `/v1/tasks/${inside?.task_id}`, {
      token,
      body: { project_id: other },
      contentType: 'application/merge-patch+json',
    });
    expect(move.status).toBe(403);
    expect(emulator.control.task(inside?.task_id ?? '')?.project_id).toBe(allowed);

    const projectsSeen = await callApi<Page<ProjectRecord>>(
      emulator,
      'GET',
      `/v1/projects/${emulator.orgId}`,
      { token: emulator.control.mintToken({ scopes: ['projects:read'], projectIds: [allowed] }).token },
    );
    expect(projectsSeen.body.data.map((p) => p.project_id)).toEqual([allowed]);
  });
});

describe('errors are application/problem+json', () => {
  test('with type, title, status, detail, instance and request_id equal to X-Request-ID', async () => {
    const answer = await callApi(emulator, 'GET', '/v1/tasks?filter[colour]=red');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({
      type: 'urn:svc:problem:invalid-parameter',
      status: 400,
      instance: '/v1/tasks',
      request_id: answer.headers.get('x-request-id'),
    });
    expect(typeof answer.body.title).toBe('string');
    expect(typeof answer.body.detail).toBe('string');
  });

  test('every answer carries X-Request-ID, a new one each time', async () => {
    const a = await callApi(emulator, 'GET', '/v1/health', { token: null });
    const b = await callApi(emulator, 'GET', '/v1/health', { token: null });
    expect(a.headers.get('x-request-id')).toBeTruthy();
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  test('an unknown path is a 404 problem (about:blank)', async () => {
    const answer = await callApi(emulator, 'GET', '/v1/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: 'about:blank', status: 404, instance: '/v1/no-such-thing' });
  });

  test('a body that is not JSON is 422 validation with {loc, msg, type}', async () => {
    const answer = await callApi(emulator, 'POST', '/v1/tasks', { rawBody: '{"title": ' });
    expect(answer.status).toBe(422);
    expect(answer.body.type).toBe('urn:svc:problem:validation');
    expect(answer.body.errors?.[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    expect(typeof answer.body.errors?.[0]?.msg).toBe('string');
    expect(answer.body.detail).toEqual(answer.body.errors);
  });

  test('a body of another media type is a 415 problem', async () => {
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      rawBody: 'title=x',
      contentType: 'text/csv',
    });
    expect(answer.status).toBe(415);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  test('a 422 lists every field at fault', async () => {
    const answer = await callApi(emulator, 'POST', '/v1/tasks', { body: { title: '', status: 'done' } });
    expect(answer.status).toBe(422);
    const locs = answer.body.errors?.map((e) => e.loc?.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.org_id', 'body.title', 'body.status']));
    for (const error of answer.body.errors ?? []) {
      expect(typeof error.msg).toBe('string');
      expect(typeof error.type).toBe('string');
    }
  });
});
