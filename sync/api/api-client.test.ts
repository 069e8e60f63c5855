// The API client over real HTTP against the emulator: conditional reads,
// writes with their preconditions, every problem type the emulator produces,
// retries after dropped connections and 5xx, and the rate limit.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { ApiClient, type ApiClientOptions } from './api-client';
import { staticCredentials } from './credentials';
import {
  InvalidResponseError,
  NetworkError,
  ProblemError,
  RequestAbortedError,
  UnsafeIdError,
} from './errors';
import {
  healthOperation,
  meOperations,
  sprintOperations,
  taskOperations,
  teamOperations,
} from './operations';
import { failure } from './testing/failure';
import { RateGovernor } from './rate-governor';
import { type StaticClients, staticClients } from './testing/static-clients';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40, random: () => 0.5 };

describe('ApiClient against the emulator', () => {
  let emulator: RunningEmulator;
  const clients: ApiClient[] = [];

  function client(options: Partial<ApiClientOptions> = {}): ApiClient {
    const made = new ApiClient({
      baseUrl: emulator.baseUrl,
      credentials: staticCredentials(emulator.tokens.live),
      retry: FAST_RETRY,
      ...options,
    });
    clients.push(made);
    return made;
  }

  async function someTaskId(): Promise<string> {
    const page = await client().listPage(taskOperations.list, { orgId: emulator.orgId }, { limit: 1 });
    if (page.status !== 200 || !page.body.data[0]) throw new Error('the emulator has no task');
    return page.body.data[0].task_id;
  }

  function requestsTo(path: string, method: string) {
    return emulator.control.requests().filter((r) => r.path === path && r.method === method);
  }

  beforeAll(async () => {
    emulator = await startEmulator({ seedTasks: 40 });
  });
  afterEach(() => {
    emulator.control.faults.clear();
    emulator.control.clearRequests();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator.stop();
  });

  describe('reads', () => {
    test('a list page comes with its ETag and cursor, and revalidates to 304 with it', async () => {
      const api = client();
      const first = await api.listPage(
        taskOperations.list,
        { orgId: emulator.orgId },
        { limit: 10, sortBy: 'created_at' },
      );
      expect(first.status).toBe(200);
      if (first.status !== 200) return;
      expect(first.body.data).toHaveLength(10);
      expect(first.body.next_cursor).not.toBeNull();
      expect(first.etag).toBeTruthy();

      const again = await api.listPage(
        taskOperations.list,
        { orgId: emulator.orgId },
        { limit: 10, sortBy: 'created_at' },
        { ifNoneMatch: first.etag },
      );
      expect(again).toMatchObject({ status: 304, etag: first.etag });
      expect(api.stats).toMatchObject({ requests: 2, notModified: 1 });

      const next = await api.listPage(
        taskOperations.list,
        { orgId: emulator.orgId },
        { limit: 10, sortBy: 'created_at', cursor: first.body.next_cursor },
      );
      expect(next.status === 200 && next.body.data[0]?.task_id).not.toBe(first.body.data[0]?.task_id);
    });

    test('filters go out as filter[...] parameters', async () => {
      const page = await client().listPage(
        taskOperations.list,
        { orgId: emulator.orgId },
        { filter: { status: ['blocked', 'completed'] }, limit: 100 },
      );
      if (page.status !== 200) throw new Error('expected a page');
      expect(page.body.data.length).toBeGreaterThan(0);
      expect(new Set(page.body.data.map((task) => task.status))).toEqual(new Set(['blocked', 'completed']));
    });

    test('a single read answers 304 while unchanged and 200 after someone else changed it', async () => {
      const api = client();
      const taskId = await someTaskId();
      const first = await api.read(taskOperations.get, { taskId });
      if (first.status !== 200) throw new Error('expected the task');
      expect(first.body.task_id).toBe(taskId);
      expect((await api.read(taskOperations.get, { taskId }, { ifNoneMatch: first.etag })).status).toBe(304);

      emulator.control.peerEdit(taskId, { title: 'Changed by the peer' });
      const changed = await api.read(taskOperations.get, { taskId }, { ifNoneMatch: first.etag });
      expect(changed.status).toBe(200);
      expect(changed.status === 200 && changed.body.title).toBe('Changed by the peer');
      expect(changed.etag).not.toBe(first.etag);
    });

    test('the health probe needs no token', async () => {
      const api = client({
        credentials: { getAccessToken: () => Promise.reject(new Error('no token now')) },
      });
      const health = await api.read(healthOperation, {});
      expect(health.status === 200 && health.body.status).toBe('ok');
    });

    test('the health probe is not held by a spent background share: the token’s budget is not its own', async () => {
      // No background request at all once the window's budget is known (a person's share only).
      const governor = new RateGovernor({ background: { share: 0, reserve: 1, atWorkMs: 0 } });
      const api = client({ governor });
      const taskId = await someTaskId();
      // The first answer teaches the governor the window; the next background read waits for it to turn.
      await api.read(taskOperations.get, { taskId }, { lane: 'background' });
      const stop = new AbortController();
      const held = api.read(taskOperations.get, { taskId }, { lane: 'background', signal: stop.signal });
      held.catch(() => undefined);
      await new Promise((done) => setTimeout(done, 20));
      expect(governor.state().queued.background).toBe(1);
      // Coming back online is not put off until the window turns (up to a minute).
      const health = await api.read(healthOperation, {}, { lane: 'background' });
      expect(health.status === 200 && health.body.status).toBe('ok');
      expect(governor.state().queued.background).toBe(1);
      stop.abort();
      await expect(held).rejects.toBeInstanceOf(RequestAbortedError);
    });

    test('an aborted request is a typed error', async () => {
      emulator.control.faults.setLatency(300, { pathPrefix: '/v1/me' });
      const controller = new AbortController();
      const pending = client().read(meOperations.get, {}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect(await failure(pending)).toBeInstanceOf(RequestAbortedError);
    });
  });

  describe('writes', () => {
    test('a create with an Idempotency-Key is done once however often it is sent', async () => {
      const api = client();
      const before = emulator.control.taskCount();
      const input = { org_id: emulator.orgId, title: 'Written by the client' };
      const created = await api.create(taskOperations.create, {}, input, { idempotencyKey: 'op-create-1' });
      expect(created.status).toBe(201);
      expect(created.body.title).toBe('Written by the client');
      expect(created.etag).toBeTruthy();
      const replayed = await api.create(taskOperations.create, {}, input, { idempotencyKey: 'op-create-1' });
      expect(replayed.body.task_id).toBe(created.body.task_id);
      expect(emulator.control.taskCount()).toBe(before + 1);
    });

    test('an update sends a merge-patch under If-Match and gets the new ETag', async () => {
      const api = client();
      const taskId = await someTaskId();
      const current = await api.read(taskOperations.get, { taskId });
      if (current.status !== 200) throw new Error('expected the task');
      // A patch that changes nothing keeps the ETag, so pick a priority the task does not have.
      const priority = current.body.priority === 'urgent' ? 'low' : 'urgent';
      const updated = await api.update(
        taskOperations.update,
        { taskId },
        { priority },
        { ifMatch: current.etag, idempotencyKey: 'op-update-1' },
      );
      expect(updated.body).toMatchObject({ task_id: taskId, priority, title: current.body.title });
      expect(updated.etag).not.toBe(current.etag);
      expect(updated.etag).toBe(emulator.control.taskEtag(taskId));
    });

    test('a delete under If-Match answers without a body', async () => {
      const api = client();
      const created = await api.create(
        taskOperations.create,
        {},
        { org_id: emulator.orgId, title: 'Short-lived' },
        { idempotencyKey: 'op-create-del' },
      );
      const removed = await api.remove(
        taskOperations.delete,
        { taskId: created.body.task_id },
        { ifMatch: created.etag },
      );
      expect(removed).toMatchObject({ status: 204, body: null });
      expect(emulator.control.task(created.body.task_id)).toBeUndefined();
    });
  });

  describe('ids in paths', () => {
    // `.` and `..` pass encodeURIComponent untouched and move the request up the path.
    test.each([
      ['empty', ''],
      ['a dot', '.'],
      ['two dots', '..'],
      ['a NUL', 'task\u0000x'],
      ['a newline', 'task\nx'],
      ['a C1 control', 'task\u0085x'],
    ])('an id that is %s is refused before anything is sent, naming the operation', async (_what, id) => {
      const teams = await client().listPage(teamOperations.list, { orgId: emulator.orgId }, { limit: 1 });
      const teamId = teams.status === 200 ? (teams.body.data[0]?.team_id ?? 'none') : 'none';
      emulator.control.clearRequests();
      const error = await failure(
        client().update(sprintOperations.update, { teamId, sprintId: id }, { name: 'x' }, { ifMatch: '"e"' }),
      );
      expect(error).toBeInstanceOf(UnsafeIdError);
      expect(error).toMatchObject({ kind: 'unsafe-id', operation: 'sprints.update', id });
      expect((error as Error).message).toContain('nothing was sent');
      expect(emulator.control.requests()).toEqual([]);
    });

    test('an id with a slash, a percent or dots inside it is encoded and sent', async () => {
      const api = client();
      for (const taskId of ['a/b', '100%', 'a..b', '.hidden']) {
        const answer = await failure(api.read(taskOperations.get, { taskId }));
        expect(answer).toMatchObject({ status: 404 });
      }
      expect(emulator.control.requests().map((r) => r.path)).toEqual([
        '/v1/tasks/a%2Fb',
        '/v1/tasks/100%25',
        '/v1/tasks/a..b',
        '/v1/tasks/.hidden',
      ]);
    });
  });

  describe('problems', () => {
    test('invalid-parameter names the parameter and the allowed values', async () => {
      const error = await failure(
        client().listPage(taskOperations.list, { orgId: emulator.orgId }, { filter: { status: 'done' } }),
      );
      expect(error).toBeInstanceOf(ProblemError);
      const problem = error as ProblemError;
      expect(problem).toMatchObject({ status: 400, type: 'invalid-parameter', attempts: 1 });
      expect(problem.errors[0]?.loc).toEqual(['query', 'filter[status]']);
      expect(problem.errors[0]?.allowed).toContain('completed');
      expect(problem.requestId).toMatch(/\S/);
    });

    test('a stale If-Match is precondition-failed and nothing is written', async () => {
      const taskId = await someTaskId();
      const before = emulator.control.task(taskId);
      const error = await failure(
        client().update(
          taskOperations.update,
          { taskId },
          { title: 'Lost update' },
          { ifMatch: '"stale-etag"', idempotencyKey: 'op-stale' },
        ),
      );
      expect(error).toMatchObject({ status: 412, type: 'precondition-failed' });
      expect(emulator.control.task(taskId)).toEqual(before);
    });

    test('a body that does not validate is validation, each error with its loc', async () => {
      const error = await failure(
        client().create(
          taskOperations.create,
          {},
          { org_id: emulator.orgId, title: '' },
          { idempotencyKey: 'op-bad' },
        ),
      );
      expect(error).toMatchObject({ status: 422, type: 'validation' });
      const locs = (error as ProblemError).errors.map((item) => item.loc?.join('.'));
      expect(locs).toContain('body.title');
    });

    test('a test token that writes is test-token-read-only', async () => {
      const api = client({ credentials: staticCredentials(emulator.tokens.test) });
      const error = await failure(
        api.create(
          taskOperations.create,
          {},
          { org_id: emulator.orgId, title: 'x' },
          { idempotencyKey: 'op-ro' },
        ),
      );
      expect(error).toMatchObject({ status: 403, type: 'test-token-read-only' });
    });

    test('a missing scope is insufficient-scope naming the scope required', async () => {
      const teams = await client().listPage(teamOperations.list, { orgId: emulator.orgId });
      const teamId = teams.status === 200 ? teams.body.data[0]?.team_id : undefined;
      if (!teamId) throw new Error('the emulator has no team');
      const api = client({ credentials: staticCredentials(emulator.tokens.peer) });
      const error = await failure(
        api.update(teamOperations.update, { teamId }, { description: 'peer was here' }),
      );
      expect(error).toMatchObject({ status: 403, type: 'insufficient-scope' });
      expect((error as ProblemError).errors[0]?.required).toBe('teams:write');
    });

    test('an unknown resource is a plain 404', async () => {
      const error = await failure(client().read(taskOperations.get, { taskId: 'tsk_does_not_exist' }));
      expect(error).toMatchObject({ status: 404, type: 'about:blank' });
    });
  });

  describe('retries', () => {
    test('a connection dropped mid-body is retried and the page arrives whole', async () => {
      const api = client();
      emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks', method: 'GET' });
      const page = await api.listPage(taskOperations.list, { orgId: emulator.orgId }, { limit: 20 });
      expect(page.status === 200 && page.body.data).toHaveLength(20);
      expect(api.stats.retries).toBe(1);
      expect(requestsTo('/v1/tasks', 'GET')).toHaveLength(2);
    });

    test('a create without an Idempotency-Key is never sent twice, even when its answer is lost', async () => {
      const api = client();
      const before = emulator.control.taskCount();
      emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks', method: 'POST' });
      const error = await failure(
        api.create(taskOperations.create, {}, { org_id: emulator.orgId, title: 'Once only' }),
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).attempts).toBe(1);
      expect(requestsTo('/v1/tasks', 'POST')).toHaveLength(1);
      expect(emulator.control.taskCount()).toBe(before + 1);
    });

    test('a create with its Idempotency-Key is retried after a lost answer and still creates once', async () => {
      const api = client();
      const before = emulator.control.taskCount();
      emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks', method: 'POST' });
      const created = await api.create(
        taskOperations.create,
        {},
        { org_id: emulator.orgId, title: 'Exactly once' },
        { idempotencyKey: 'op-retry-create' },
      );
      expect(created.body.title).toBe('Exactly once');
      expect(requestsTo('/v1/tasks', 'POST').map((r) => r.idempotencyKey)).toEqual([
        'op-retry-create',
        'op-retry-create',
      ]);
      expect(emulator.control.taskCount()).toBe(before + 1);
    });

    test('an update under If-Match is retried after a lost answer, and never applied twice', async () => {
      const api = client();
      const taskId = await someTaskId();
      const etag = emulator.control.taskEtag(taskId) ?? null;
      emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks/', method: 'PATCH' });
      const outcome = await api
        .update(
          taskOperations.update,
          { taskId },
          { tags: ['retried'] },
          { ifMatch: etag, idempotencyKey: 'op-retry-update' },
        )
        .then(
          (answer) => ({ status: answer.status, attempts: 1 }),
          (error: unknown) => error as ProblemError,
        );
      expect(requestsTo(`/v1/tasks/${taskId}`, 'PATCH')).toHaveLength(2);
      expect(emulator.control.task(taskId)?.tags).toEqual(['retried']);
      // The first attempt was applied; the repeat either replays its answer (a service that
      // honours the key on updates) or meets the new ETag: 412 after more than one attempt,
      // which push settles by merging (its own value is already there).
      if (outcome.status !== 200)
        expect(outcome).toMatchObject({ status: 412, type: 'precondition-failed', attempts: 2 });
    });

    test('500s are retried with backoff until an answer comes', async () => {
      const api = client();
      emulator.control.faults.serverErrors(2, { pathPrefix: '/v1/me' });
      const me = await api.read(meOperations.get, {});
      expect(me.status === 200 && me.body.username).toBe(emulator.me.username);
      expect(api.stats.retries).toBe(2);
    });

    test('persistent 500s give up after the allowed attempts with a typed error', async () => {
      const api = client({ retry: { ...FAST_RETRY, maxAttempts: 3 } });
      emulator.control.faults.serverErrors(10, { pathPrefix: '/v1/me' });
      const error = await failure(api.read(meOperations.get, {}));
      expect(error).toBeInstanceOf(ProblemError);
      expect(error).toMatchObject({ status: 500, type: 'internal', attempts: 3 });
      expect(requestsTo('/v1/me', 'GET')).toHaveLength(3);
    });

    test('a 500 on a create without an Idempotency-Key is not retried', async () => {
      emulator.control.faults.serverErrors(1, { pathPrefix: '/v1/tasks', method: 'POST' });
      const error = await failure(
        client().create(taskOperations.create, {}, { org_id: emulator.orgId, title: 'x' }),
      );
      expect(error).toMatchObject({ status: 500, attempts: 1 });
    });

    test('an answer slower than the headers timeout is a network error after the allowed attempts', async () => {
      // undici checks these timeouts on a coarse (about one second) clock.
      const api = client({ connection: { headersTimeoutMs: 200 }, retry: { ...FAST_RETRY, maxAttempts: 2 } });
      emulator.control.faults.setLatency(3_000, { pathPrefix: '/v1/me' });
      const error = await failure(api.read(meOperations.get, {}));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT', attempts: 2 });
      expect(inspect(error)).not.toContain(emulator.tokens.live);
    });
  });

  describe('rate limit', () => {
    test('a 429 holds the token until Retry-After has passed, then the request goes through', async () => {
      // A task's own path, which no other test delays: the service may still answer an earlier
      // test's /v1/me (its client gave up on a slow answer), and that answer would read as the retry.
      const taskId = await someTaskId();
      const path = `/v1/tasks/${taskId}`;
      const api = client();
      emulator.control.faults.rateLimitBurst(1, { pathPrefix: path, retryAfterSeconds: 1 });
      const task = await api.read(taskOperations.get, { taskId });
      expect(task.status).toBe(200);
      expect(api.stats.rateLimited).toBe(1);
      const [limited, next] = requestsTo(path, 'GET');
      expect(limited?.status).toBe(429);
      expect(next?.status).toBe(200);
      // Both times are the emulator's: the second request came no sooner than Retry-After allowed.
      expect((next?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(990);
    });
  });
});

describe('ApiClient under a small rate limit', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ seedTasks: 5, rateLimit: { live: 4, windowMs: 1000 } });
  });
  afterAll(async () => {
    await emulator.stop();
  });

  test('paces its requests inside the budget: no 429 however many are asked at once', async () => {
    const api = new ApiClient({
      baseUrl: emulator.baseUrl,
      credentials: staticCredentials(emulator.tokens.live),
    });
    try {
      const answers = await Promise.all(Array.from({ length: 9 }, () => api.read(meOperations.get, {})));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(api.stats).toMatchObject({ requests: 9, rateLimited: 0 });
      expect(emulator.control.requests().filter((r) => r.status === 429)).toHaveLength(0);
    } finally {
      await api.close();
    }
  });

  test('when another client spent the budget, the 429 is waited out and the request succeeds', async () => {
    const { token } = emulator.control.mintToken({ scopes: ['tasks:write'] });
    const spender = new ApiClient({ baseUrl: emulator.baseUrl, credentials: staticCredentials(token) });
    const late = new ApiClient({ baseUrl: emulator.baseUrl, credentials: staticCredentials(token) });
    try {
      await Promise.all(Array.from({ length: 4 }, () => spender.read(meOperations.get, {})));
      const me = await late.read(meOperations.get, {});
      expect(me.status).toBe(200);
      expect(late.stats.rateLimited).toBe(1);
    } finally {
      await Promise.all([spender.close(), late.close()]);
    }
  });
});

test('tries refused before they reached the service leave the window’s budget to the requests after them', async () => {
  // Sixty requests a minute: what the refused tries spent, were they counted, would hold the rest a minute.
  const emulator = await startEmulator({ seedTasks: 1, rateLimit: { live: 6, windowMs: 60_000 } });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const governor = new RateGovernor();
  const credentials = staticCredentials(emulator.tokens.live);
  const online = new ApiClient({ baseUrl: emulator.baseUrl, credentials, governor });
  // The same token through an address nothing listens on: every try is refused (the network is down).
  const offline = new ApiClient({
    baseUrl: `http://127.0.0.1:${closedPort}`,
    credentials,
    governor,
    retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 2 },
  });
  try {
    expect((await online.read(meOperations.get, {})).status).toBe(200);
    const left = governor.state().remaining;
    await expect(offline.read(meOperations.get, {})).rejects.toMatchObject({ kind: 'network' });
    await expect(offline.read(meOperations.get, {})).rejects.toMatchObject({ kind: 'network' });
    expect(governor.state().remaining).toBe(left);
    const answers = await Promise.all(Array.from({ length: left }, () => online.read(meOperations.get, {})));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  } finally {
    await Promise.all([online.close(), offline.close()]);
    await emulator.stop();
  }
});

test('every request names the app and its version, over kept-alive connections', async () => {
  const seen: { userAgent: string | undefined; port: number | undefined }[] = [];
  const server = createServer((request, response) => {
    seen.push({ userAgent: request.headers['user-agent'], port: request.socket.remotePort });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api = new ApiClient({
    baseUrl: `http://127.0.0.1:${port}`,
    credentials: staticCredentials('unused'),
  });
  try {
    for (let i = 0; i < 6; i++) await api.read(healthOperation, {});
    expect(seen[0]?.userAgent).toMatch(/^svc-desktop\/\d+\.\d+\.\d+\S* \(node\)$/);
    expect(new Set(seen.map((s) => s.userAgent)).size).toBe(1);
    // Connections are reused (the pool may open a second one while the first is settling).
    expect(new Set(seen.map((s) => s.port)).size).toBeLessThanOrEqual(2);
  } finally {
    await api.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('answers no contract allows, from a server that is not the service', () => {
  let baseUrl: string;
  let reply: (path: string) => { status: number; type: string; body: string };
  const server = createServer((request, response) => {
    const { status, type, body } = reply(request.url ?? '/');
    response.writeHead(status, { 'content-type': type }).end(body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  let clients: StaticClients;
  beforeEach(() => {
    clients = staticClients(baseUrl, { ...FAST_RETRY, maxAttempts: 2 });
  });
  afterEach(() => clients.closeAll());

  const api = (): ApiClient => clients.withToken('svc_live_not_checked_here');

  test('a 200 whose body misses a required field is an error naming the operation and the field', async () => {
    reply = () => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({
        data: [
          { task_id: 'k1', title: 'ok', status: 's' },
          { title: 'no id', status: 's' },
        ],
        next_cursor: null,
      }),
    });
    const client = api();
    const error = await failure(client.listPage(taskOperations.list, { orgId: 'o1' }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ operation: 'tasks.list', path: 'data[1].task_id' });
  });

  test('a 200 whose body is cut short is an error about the body', async () => {
    reply = () => ({ status: 200, type: 'application/json', body: '{"user_id":"u1","usern' });
    const client = api();
    expect(await failure(client.read(meOperations.get, {}))).toMatchObject({
      kind: 'invalid-response',
      path: '(body)',
    });
  });

  test('an HTML error page from a proxy is still a typed error, retried like any 5xx', async () => {
    reply = () => ({ status: 502, type: 'text/html', body: '<html><h1>502 Bad Gateway</h1></html>' });
    const client = api();
    const error = await failure(client.read(meOperations.get, {}));
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 502, type: 'about:blank', attempts: 2 });
  });
});
