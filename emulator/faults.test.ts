// Fault injection and the control API: latency, connections dropped mid-body,
// 500s, bursts of 429, short and empty pages that still carry a cursor,
// cursors that stop being accepted, the peer's changes — programmatically and
// over /_emulator/ with the admin secret.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page, walkList } from './emulator-http';
import type { HistoryRecord, TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 150 });
});
afterEach(() => {
  emulator.control.faults.clear();
});
afterAll(async () => {
  await emulator.stop();
});

function control(method: string, path: string, body?: unknown, secret: string | null = emulator.adminSecret) {
  return callApi(emulator, method, `/_emulator${path}`, {
    token: null,
    ...(body !== undefined ? { body } : {}),
    ...(secret !== null ? { headers: { 'x-emulator-admin': secret } } : {}),
  });
}

describe('the control API', () => {
  test('needs the admin secret: none is 401, a wrong one 403', async () => {
    expect((await control('GET', '/faults', undefined, null)).status).toBe(401);
    expect((await control('GET', '/faults', undefined, 'adm_wrong')).status).toBe(403);
    expect((await control('GET', '/faults', undefined, emulator.tokens.live)).status).toBe(403);
    expect((await control('GET', '/faults')).status).toBe(200);
  });

  test('is not reachable with an API token alone', async () => {
    expect((await callApi(emulator, 'GET', '/_emulator/counts')).status).toBe(401);
  });

  test('reads tasks with the ETag the API sends, and counts', async () => {
    const task = emulator.control.tasks()[0] as TaskRecord;
    const viaApi = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    const viaControl = await control('GET', `/tasks/${task.task_id}`);
    expect(viaControl.body).toEqual({ task: viaApi.body, etag: viaApi.headers.get('etag') });
    expect((await control('GET', '/counts')).body).toMatchObject({ tasks: emulator.control.taskCount() });
  });

  test('logs the requests it answered, with their conditional headers', async () => {
    emulator.control.clearRequests();
    await callApi(emulator, 'GET', '/v1/tasks?limit=1', { headers: { 'if-none-match': '"x"' } });
    const log = (await control('GET', '/requests')).body.data as {
      path: string;
      ifNoneMatch: string;
      status: number;
    }[];
    expect(log).toEqual([expect.objectContaining({ path: '/v1/tasks', ifNoneMatch: '"x"', status: 200 })]);
  });

  test('mints and revokes tokens', async () => {
    const minted = await control('POST', '/tokens', { scopes: ['tasks:read'] });
    expect(minted.status).toBe(201);
    const token = minted.body.token as string;
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).status).toBe(200);
    expect((await control('DELETE', `/tokens/${minted.body.token_id as string}`)).status).toBe(204);
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).body.type).toBe(
      'urn:svc:problem:token-revoked',
    );
  });

  test('moves a ManualClock', async () => {
    const before = clock.now();
    const answer = await control('POST', '/clock/advance', { ms: 5000 });
    expect(answer.body.now).toBe(new Date(before + 5000).toISOString());
  });
});

describe('faults', () => {
  test('a held request waits before its handler until released; other requests go on meanwhile', async () => {
    const task = emulator.control.tasks()[0] as TaskRecord;
    const held = emulator.control.faults.hold({ method: 'GET', pathPrefix: `/v1/tasks/${task.task_id}` });
    let answered = false;
    const read = callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`).then((answer) => {
      answered = true;
      return answer;
    });
    await held.arrived;
    // Changed while held: the held read answers what the handler finds once let go.
    emulator.control.peerEdit(task.task_id, { title: 'Changed while held' });
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1')).status).toBe(200);
    expect(answered).toBe(false);
    held.release();
    expect((await read).body).toMatchObject({ title: 'Changed while held' });
    // One request only: the next goes straight through.
    expect((await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`)).status).toBe(200);
  });

  test('added latency holds every matching answer back at least that long', async () => {
    emulator.control.faults.setLatency(120, { pathPrefix: '/v1/tasks' });
    const started = performance.now();
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(emulator.control.faults.snapshot().latency).toEqual([{ ms: 120, pathPrefix: '/v1/tasks' }]);
    expect(
      (await control('POST', '/faults', { kind: 'latency', ms: 0, path_prefix: '/v1/tasks' })).body.latency,
    ).toEqual([]);
  });

  test('a connection dropped mid-body: headers and part of the body, then the socket closes', async () => {
    emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks' });
    const response = await fetch(`${emulator.baseUrl}/v1/tasks?limit=50`, {
      headers: { authorization: `Bearer ${emulator.tokens.live}` },
    });
    expect(response.status).toBe(200);
    const declared = Number(response.headers.get('content-length'));
    expect(declared).toBeGreaterThan(0);
    await expect(response.text()).rejects.toThrow();
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=50')).status).toBe(200);
  });

  test('500s answer internal and do nothing; limited to one method they leave the others alone', async () => {
    await control('POST', '/faults', {
      kind: 'server-error',
      count: 2,
      path_prefix: '/v1/tasks',
      method: 'POST',
    });
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1')).status).toBe(200);
    const before = emulator.control.taskCount();
    for (let i = 0; i < 2; i++) {
      const answer = await callApi(emulator, 'POST', '/v1/tasks', {
        body: { org_id: emulator.orgId, title: 'during an outage' },
      });
      expect(answer.status).toBe(500);
      expect(answer.body.type).toBe('urn:svc:problem:internal');
    }
    expect(emulator.control.taskCount()).toBe(before);
    expect(
      (await callApi(emulator, 'POST', '/v1/tasks', { body: { org_id: emulator.orgId, title: 'after' } }))
        .status,
    ).toBe(201);
  });

  test('a burst of 429s with Retry-After, then normal answers', async () => {
    await control('POST', '/faults', { kind: 'rate-limit-burst', count: 2, retry_after_seconds: 7 });
    for (let i = 0; i < 2; i++) {
      const answer = await callApi(emulator, 'GET', '/v1/tasks?limit=1');
      expect(answer.status).toBe(429);
      expect(answer.body.type).toBe('urn:svc:problem:rate-limit');
      expect(answer.headers.get('retry-after')).toBe('7');
    }
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1')).status).toBe(200);
  });

  test('short pages still carry a cursor, and a walk still returns everything once', async () => {
    emulator.control.faults.shortPages(3, { pathPrefix: '/v1/tasks', pageSize: 2 });
    const first = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=100');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).not.toBeNull();
    const walked = await walkList<TaskRecord>(emulator, '/v1/tasks', { limit: 100 });
    const ids = walked.map((t) => t.task_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      emulator.control
        .tasks()
        .map((t) => t.task_id)
        .sort(),
    );
    expect(emulator.control.faults.snapshot().counted).toEqual([]);
  });

  test('empty pages with a non-null cursor, on tasks and on a small list', async () => {
    await control('POST', '/faults', { kind: 'empty-page', count: 2 });
    const tasks = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=10');
    expect(tasks.body.data).toEqual([]);
    expect(tasks.body.next_cursor).not.toBeNull();
    const resumed = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/tasks?limit=10&cursor=${encodeURIComponent(tasks.body.next_cursor ?? '')}`,
    );
    const plain = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=10');
    expect(resumed.body.data).toEqual([]);
    expect(plain.body.data).toHaveLength(10);
    const members = await walkList(emulator, `/v1/organization-members/${emulator.orgId}`, { limit: 4 });
    emulator.control.faults.emptyPages(1, { pathPrefix: '/v1/organization-members' });
    expect(await walkList(emulator, `/v1/organization-members/${emulator.orgId}`, { limit: 4 })).toEqual(
      members,
    );
  });

  test('a cursor refused by fault is 400 on cursor; requests without a cursor are not counted', async () => {
    const first = await callApi(emulator, 'GET', '/v1/tasks?limit=5');
    emulator.control.faults.rejectCursors(1, { pathPrefix: '/v1/tasks' });
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=5')).status).toBe(200);
    const refused = await callApi(
      emulator,
      'GET',
      `/v1/tasks?limit=5&cursor=${encodeURIComponent(first.body.next_cursor ?? '')}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.type).toBe('urn:svc:problem:invalid-parameter');
    expect(refused.body.errors?.[0]?.loc).toEqual(['query', 'cursor']);
    expect(
      (
        await callApi(
          emulator,
          'GET',
          `/v1/tasks?limit=5&cursor=${encodeURIComponent(first.body.next_cursor ?? '')}`,
        )
      ).status,
    ).toBe(200);
  });

  test('expired cursors stay refused; a new pass works', async () => {
    const first = await callApi(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}&limit=1`);
    const taskPage = await callApi(emulator, 'GET', '/v1/tasks?limit=5');
    await control('POST', '/faults', { kind: 'expire-cursors' });
    for (const path of [
      `/v1/teams?org_id=${emulator.orgId}&limit=1&cursor=${first.body.next_cursor ?? ''}`,
      `/v1/tasks?limit=5&cursor=${taskPage.body.next_cursor ?? ''}`,
    ]) {
      expect((await callApi(emulator, 'GET', path)).status).toBe(400);
      expect((await callApi(emulator, 'GET', path)).status).toBe(400);
    }
    expect((await walkList(emulator, `/v1/teams?org_id=${emulator.orgId}`, { limit: 1 })).length).toBe(4);
  });

  test('a bad fault is 422', async () => {
    expect((await control('POST', '/faults', { kind: 'meteor' })).status).toBe(422);
    expect((await control('POST', '/faults', { kind: 'server-error', count: 0 })).status).toBe(422);
  });
});

describe('the peer member’s changes', () => {
  test('an edit changes the ETag, updated_by and updated_at, and is in the history under the peer', async () => {
    const task = emulator.control.tasks()[3] as TaskRecord;
    const before = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    clock.advance(60_000);
    const edited = await control('PATCH', `/peer/tasks/${task.task_id}`, { title: 'Changed by the peer' });
    expect(edited.status).toBe(200);
    const after = await callApi<TaskRecord>(emulator, 'GET', `/v1/tasks/${task.task_id}`, {
      headers: { 'if-none-match': before.headers.get('etag') ?? '' },
    });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      title: 'Changed by the peer',
      updated_by: emulator.peer.username,
      updated_at: new Date(clock.now()).toISOString(),
    });
    const history = await callApi<Page<HistoryRecord>>(
      emulator,
      'GET',
      `/v1/task-history?task_id=${task.task_id}`,
    );
    expect(history.body.data.at(-1)).toMatchObject({ action: 'updated', created_by: emulator.peer.username });
  });

  test('a local edit raced against the peer’s: the stale If-Match loses with 412', async () => {
    const task = emulator.control.tasks()[4] as TaskRecord;
    const read = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    emulator.control.peerEdit(task.task_id, { status: 'blocked' });
    const mine = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { status: 'completed' },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': read.headers.get('etag') ?? '' },
    });
    expect(mine.status).toBe(412);
    expect(emulator.control.task(task.task_id)?.status).toBe('blocked');
  });

  test('creates and deletes, over HTTP and programmatically', async () => {
    const created = await control('POST', '/peer/tasks', { title: 'Peer’s new task', priority: 'urgent' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ created_by: emulator.peer.username, priority: 'urgent' });
    const id = created.body.task_id as string;
    expect((await callApi(emulator, 'GET', `/v1/tasks/${id}`)).status).toBe(200);
    expect((await control('DELETE', `/peer/tasks/${id}`)).status).toBe(204);
    expect((await callApi(emulator, 'GET', `/v1/tasks/${id}`)).status).toBe(404);
    const made = emulator.control.peerCreate({ title: 'Another' });
    emulator.control.peerDelete(made.task_id);
    expect(emulator.control.task(made.task_id)).toBeUndefined();
    expect((await control('POST', '/peer/tasks', { title: '' })).status).toBe(422);
  });
});
