import { describe, expect, test } from 'vitest';
import { ApiClient } from '../api/api-client';
import { staticCredentials } from '../api/credentials';
import { NetworkError, SignedOutError } from '../api/errors';
import type { SyncEvent } from '../events/sync-events';
import { TASK_PRIORITIES, TASK_STATUSES } from '../../protocol/task';
import { join } from 'node:path';
import { openMirror } from '../../db/open-mirror';
import { taskOperations } from '../api/operations';
import { startRelayProxy } from '../pull/testing/relay-proxy';
import { mirrorPushStore } from './mirror-push-store';
import { Pusher } from './pusher';
import { FAST_RETRY, type PushFixture, pushFixturePerTest } from './testing/push-fixture';

const start = pushFixturePerTest();

const writes = (f: PushFixture) => f.emulator.control.requests().filter((r) => r.method !== 'GET');
/** The requests the emulator saw since the last clear, as `METHOD status`. */
const answers = (f: PushFixture) => f.emulator.control.requests().map((r) => `${r.method} ${r.status}`);
const eventsOf = <T extends SyncEvent['type']>(f: PushFixture, type: T) =>
  f.events.filter((e): e is Extract<SyncEvent, { type: T }> => e.type === type);

type Priority = (typeof TASK_PRIORITIES)[number];
type Status = (typeof TASK_STATUSES)[number];

/** A value of an enum field that differs from the task's value on the server now (and from `avoid`). */
function other(f: PushFixture, taskId: string, field: 'priority', avoid?: readonly string[]): Priority;
function other(f: PushFixture, taskId: string, field: 'status', avoid?: readonly string[]): Status;
function other(
  f: PushFixture,
  taskId: string,
  field: 'priority' | 'status',
  avoid: readonly string[] = [],
): string {
  const current = f.emulator.control.task(taskId)?.[field] ?? null;
  const values: readonly string[] = field === 'priority' ? TASK_PRIORITIES : TASK_STATUSES;
  const value = values.find((v) => v !== current && !avoid.includes(v));
  if (value === undefined) throw new Error(`no other ${field}`);
  return value;
}

/** A matcher for part of an object, typed so that it can sit inside an expected object. */
const having = (fields: Record<string, unknown>): unknown => expect.objectContaining(fields) as unknown;

/** A task of the seed, loaded into the mirror with its ETag. */
async function loadedTask(f: PushFixture): Promise<string> {
  const [taskId] = f.taskIds(1) as [string];
  await f.loadTasks([taskId]);
  return taskId;
}

/** A task of one project loaded into the mirror, another project, and a token that may only write into the first. */
async function taskOfOneProject(f: PushFixture) {
  const projects = [...new Set(f.emulator.control.tasks().map((t) => t.project_id))].filter(
    (id): id is string => id !== null,
  );
  const [mine, elsewhere] = projects as [string, string];
  const task = f.emulator.control.tasks().find((t) => t.project_id === mine);
  if (!task || elsewhere === undefined) throw new Error('the seed needs tasks in two projects');
  await f.loadTasks([task.task_id]);
  const restricted = f.emulator.control.mintToken({ scopes: ['tasks:write'], projectIds: [mine] }).token;
  return { task, elsewhere, restricted };
}

describe('updates', () => {
  test('an edit goes out as one PATCH with If-Match of its base, the operation id as key, and only the changed field', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const baseEtag = f.mirror.tasks.get(taskId)?.etag;
    const priority = other(f, taskId, 'priority');
    const edit = f.mirror.tasks.edit(taskId, { priority });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 1, conflicts: 0, failed: 0, requests: 1 });
    const [patch] = writes(f);
    expect(patch).toMatchObject({
      method: 'PATCH',
      status: 200,
      ifMatch: baseEtag,
      idempotencyKey: edit?.opId,
    });
    expect(f.emulator.control.task(taskId)?.priority).toBe(priority);
    const history = f.emulator.control.history(taskId).at(-1);
    expect(history?.metadata).toEqual([expect.objectContaining({ field: 'priority' })]);
    const mirrored = f.mirror.tasks.get(taskId);
    expect(mirrored).toMatchObject({ pending: false, etag: f.emulator.control.taskEtag(taskId) });
    expect(mirrored?.server?.priority).toBe(priority);
    expect(f.mirror.outbox.list(['queued', 'in_flight'])).toEqual([]);
    expect(eventsOf(f, 'pushed')).toEqual([
      expect.objectContaining({ opId: edit?.opId, kind: 'update', entityId: taskId, serverId: taskId }),
    ]);
  });

  test('a task known without an ETag (from a list page) is read first, then patched against what was read', async () => {
    const f = await start();
    await f.loadListed();
    const [taskId] = f.taskIds(1) as [string];
    expect(f.mirror.tasks.get(taskId)?.etag).toBeNull();
    const etagBefore = f.emulator.control.taskEtag(taskId);
    f.mirror.tasks.edit(taskId, { title: 'Read first, then write' });
    f.emulator.control.clearRequests();

    await f.pusher.pushAll();

    const log = answers(f);
    expect(log).toEqual(['GET 200', 'PATCH 200']);
    expect(f.emulator.control.requests()[1]?.ifMatch).toBe(etagBefore);
    expect(f.emulator.control.task(taskId)?.title).toBe('Read first, then write');
  });

  test('a delete of a task known without an ETag deletes the version read when it is the one deleted', async () => {
    const f = await start();
    await f.loadListed();
    const [taskId] = f.taskIds(1) as [string];
    expect(f.mirror.tasks.get(taskId)?.etag).toBeNull();
    f.mirror.tasks.delete(taskId);
    f.emulator.control.clearRequests();

    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, failed: 0 });

    expect(answers(f)).toEqual(['GET 200', 'DELETE 204']);
    expect(f.emulator.control.task(taskId)).toBeUndefined();
  });

  test('a delete of a task known without an ETag that a teammate changed since waits for the person', async () => {
    const f = await start();
    await f.loadListed();
    const [taskId] = f.taskIds(1) as [string];
    const { opId } = f.mirror.tasks.delete(taskId) ?? { opId: '' };
    // After the person deleted it, before the delete left: the version read is not the one deleted.
    f.emulator.control.peerEdit(taskId, { title: 'Still needed, said the teammate' });
    f.emulator.control.clearRequests();

    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 0, failed: 1 });

    expect(f.emulator.control.requests().map((r) => r.method)).toEqual(['GET']);
    expect(f.emulator.control.task(taskId)?.title).toBe('Still needed, said the teammate');
    expect(f.mirror.outbox.op(opId)).toMatchObject({
      state: 'failed',
      lastProblem: expect.objectContaining({ type: 'edited-remotely' }) as unknown,
    });
  });

  test('edits of one task queued offline coalesce into one merge-patch', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const status = other(f, taskId, 'status');
    const priority = other(f, taskId, 'priority');
    f.mirror.tasks.edit(taskId, { status: other(f, taskId, 'status', [status]) });
    f.mirror.tasks.edit(taskId, { priority, tags: ['b', 'a'] });
    f.mirror.tasks.edit(taskId, { status });
    expect(f.mirror.outbox.list()).toHaveLength(1);
    f.emulator.control.clearRequests();

    await f.pusher.pushAll();

    expect(writes(f)).toHaveLength(1);
    const server = f.emulator.control.task(taskId);
    expect(server).toMatchObject({ status, priority, tags: ['b', 'a'] });
    const changed = (f.emulator.control.history(taskId).at(-1)?.metadata as { field: string }[]).map(
      (c) => c.field,
    );
    expect(changed.sort()).toEqual(['priority', 'status', 'tags']);
  });

  test('an operation already sent keeps its body and key; a later edit goes as its own operation after it', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const first = f.mirror.tasks.edit(taskId, { title: 'First body' });
    // As if a previous process sent it and died before the answer.
    f.mirror.outbox.start(first?.opId as string);
    const priority = other(f, taskId, 'priority');
    const second = f.mirror.tasks.edit(taskId, { title: 'Second body', priority });
    expect(second?.opId).not.toBe(first?.opId);
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary.pushed).toBe(2);
    expect(writes(f).map((r) => r.idempotencyKey)).toEqual([first?.opId, second?.opId]);
    expect(f.emulator.control.task(taskId)).toMatchObject({ title: 'Second body', priority });
  });

  test('412: fields only I changed are rebased onto the new version; fields they changed land in the mirror', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const priority = other(f, taskId, 'priority');
    const status = other(f, taskId, 'status');
    f.mirror.tasks.edit(taskId, { priority });
    f.emulator.control.peerEdit(taskId, { title: 'Renamed by the peer', status });
    const theirEtag = f.emulator.control.taskEtag(taskId);
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(answers(f)).toEqual(['PATCH 412', 'GET 200', 'PATCH 200']);
    expect(f.emulator.control.requests()[2]?.ifMatch).toBe(theirEtag);
    expect(f.emulator.control.task(taskId)).toMatchObject({ title: 'Renamed by the peer', status, priority });
    expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({
      title: 'Renamed by the peer',
      status,
      priority,
    });
    expect(f.mirror.tasks.get(taskId)).toMatchObject({
      pending: false,
      etag: f.emulator.control.taskEtag(taskId),
    });
    expect(eventsOf(f, 'merged')).toEqual([
      expect.objectContaining({ entityId: taskId, rebased: ['priority'], taken: [], settled: [] }),
    ]);
  });

  test('412 with the same value on both sides is settled without sending it again', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const status = other(f, taskId, 'status');
    f.mirror.tasks.edit(taskId, { status });
    f.emulator.control.peerEdit(taskId, { status });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(answers(f)).toEqual(['PATCH 412', 'GET 200']);
    expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(f.mirror.tasks.get(taskId)).toMatchObject({ pending: false });
    expect(f.mirror.tasks.get(taskId)?.task.status).toBe(status);
    expect(eventsOf(f, 'merged')).toEqual([
      expect.objectContaining({ entityId: taskId, rebased: [], taken: [], settled: ['status'] }),
    ]);
  });

  test('412 with different values on one field waits as a conflict (base, mine, theirs); nothing is overwritten', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const base = f.mirror.tasks.get(taskId)?.server;
    const edit = f.mirror.tasks.edit(taskId, { title: 'Mine', description: 'only mine' });
    const priority = other(f, taskId, 'priority');
    f.emulator.control.peerEdit(taskId, { title: 'Theirs', priority });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, conflicts: 1 });
    expect(writes(f).map((r) => r.status)).toEqual([412]);
    const server = f.emulator.control.task(taskId);
    expect(server).toMatchObject({ title: 'Theirs', priority });
    expect(server?.description).toBe(base?.description ?? null);
    const conflicts = f.mirror.outbox.conflicts('open');
    expect(conflicts).toEqual([
      expect.objectContaining({
        opId: edit?.opId,
        entityId: taskId,
        field: 'title',
        base: base?.title,
        mine: 'Mine',
        theirs: 'Theirs',
        theirsEtag: f.emulator.control.taskEtag(taskId),
      }),
    ]);
    // The person still sees their own edit; their change to another field is taken.
    expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({
      title: 'Mine',
      description: 'only mine',
      priority,
    });
    expect(f.mirror.outbox.op(edit?.opId as string).state).toBe('conflict');
    expect(eventsOf(f, 'conflict')).toEqual([
      expect.objectContaining({ conflict: 'edited', fields: ['title'], entityId: taskId }),
    ]);

    // A second push sends nothing for it.
    f.emulator.control.clearRequests();
    expect((await f.pusher.pushAll()).requests).toBe(0);
  });

  test.each([
    ['mine', 'Mine', 'Mine'],
    ['theirs', 'Theirs', 'Theirs'],
  ] as const)(
    'a conflict resolved with %s re-enters the outbox and pushes with the current ETag',
    async (take, expectedServer, expectedLocal) => {
      const f = await start();
      const [taskId] = f.taskIds(1) as [string];
      await f.loadTasks([taskId]);
      const priority = other(f, taskId, 'priority');
      f.mirror.tasks.edit(taskId, { title: 'Mine', priority });
      f.emulator.control.peerEdit(taskId, { title: 'Theirs' });
      await f.pusher.pushAll();
      const [conflict] = f.mirror.outbox.conflicts('open');
      const theirEtag = f.emulator.control.taskEtag(taskId);

      f.mirror.outbox.resolve(conflict?.conflictId as string, { take });
      f.emulator.control.clearRequests();
      const summary = await f.pusher.pushAll();

      expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
      expect(writes(f)).toEqual([
        expect.objectContaining({ method: 'PATCH', status: 200, ifMatch: theirEtag }),
      ]);
      expect(f.emulator.control.task(taskId)).toMatchObject({ title: expectedServer, priority });
      expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({ title: expectedLocal, priority });
      expect(f.mirror.outbox.openConflictCount()).toBe(0);
    },
  );

  test('a conflict resolved with a new value pushes that value', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    f.mirror.tasks.edit(taskId, { title: 'Mine' });
    f.emulator.control.peerEdit(taskId, { title: 'Theirs' });
    await f.pusher.pushAll();
    const [conflict] = f.mirror.outbox.conflicts('open');
    f.mirror.outbox.resolve(conflict?.conflictId as string, { value: 'Both, merged by hand' });

    await f.pusher.pushAll();

    expect(f.emulator.control.task(taskId)?.title).toBe('Both, merged by hand');
  });

  test('404 on an update: a conflict of kind deleted remotely; re-creating brings the task back', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    f.mirror.tasks.edit(taskId, { title: 'Edited while it was deleted' });
    f.emulator.control.peerDelete(taskId);
    const before = f.emulator.control.taskCount();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, conflicts: 1 });
    const [conflict] = f.mirror.outbox.conflicts('open');
    expect(conflict).toMatchObject({ entityId: taskId, field: '*' });
    expect(eventsOf(f, 'conflict')).toEqual([
      expect.objectContaining({ conflict: 'deleted-remotely', entityId: taskId }),
    ]);
    expect(f.mirror.tasks.get(taskId)?.task.title).toBe('Edited while it was deleted');

    f.mirror.outbox.resolve(conflict?.conflictId as string, { take: 'mine' });
    await f.pusher.pushAll();

    expect(f.emulator.control.taskCount()).toBe(before + 1);
    const recreated = f.emulator.control.tasks().find((t) => t.title === 'Edited while it was deleted');
    expect(recreated).toBeDefined();
    expect(f.mirror.tasks.get(recreated?.task_id as string)?.pending).toBe(false);
  });

  test('404 on an update resolved with theirs drops the edit and the task', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    f.mirror.tasks.edit(taskId, { title: 'Gone anyway' });
    f.emulator.control.peerDelete(taskId);
    await f.pusher.pushAll();
    const [conflict] = f.mirror.outbox.conflicts('open');

    f.mirror.outbox.resolve(conflict?.conflictId as string, { take: 'theirs' });

    expect(f.mirror.tasks.get(taskId)).toBeNull();
    f.emulator.control.clearRequests();
    expect((await f.pusher.pushAll()).requests).toBe(0);
  });

  test("422: the operation fails with the server's validation errors, and pushes once corrected", async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const edit = f.mirror.tasks.edit(taskId, { assignee: 'nobody-by-that-name' });

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, failed: 1 });
    const op = f.mirror.outbox.op(edit?.opId as string);
    expect(op.state).toBe('failed');
    expect(op.lastProblem).toMatchObject({
      status: 422,
      type: 'validation',
      errors: [expect.objectContaining({ loc: ['body', 'assignee'] })],
    });
    expect(eventsOf(f, 'push-failed')).toEqual([
      expect.objectContaining({ opId: edit?.opId, error: having({ status: 422 }) }),
    ]);
    // Still shown as the person typed it until they change it.
    expect(f.mirror.tasks.get(taskId)?.task.assignee).toBe('nobody-by-that-name');

    const retried = f.mirror.outbox.retry(edit?.opId as string, { assignee: f.emulator.peer.username });
    expect(retried).not.toBe(edit?.opId);
    await f.pusher.pushAll();
    expect(f.emulator.control.task(taskId)?.assignee).toBe(f.emulator.peer.username);
  });
});

describe('creates', () => {
  test('a create is a POST keyed by its operation id; the temporary id is replaced, and an edit queued on it follows', async () => {
    const f = await start();
    const created = f.mirror.tasks.create({ title: 'Made offline', priority: 'high', status: 'not_started' });
    f.mirror.outbox.start(created.opId); // sent once already: later edits cannot fold into it
    f.mirror.outbox.unstart(created.opId, { state: 'queued', attempts: 1 });
    f.mirror.tasks.edit(created.taskId, { status: 'in_progress' });
    const subtask = f.mirror.tasks.create({ title: 'Child of a new task', parent_task_id: created.taskId });
    const before = f.emulator.control.creates().tasks;
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 3, failed: 0 });
    expect(f.emulator.control.creates().tasks).toBe(before + 2);
    const log = writes(f);
    expect(log[0]).toMatchObject({ method: 'POST', idempotencyKey: created.opId, status: 201 });
    const server = f.emulator.control.tasks().find((t) => t.title === 'Made offline');
    expect(server).toMatchObject({ priority: 'high', status: 'in_progress' });
    const child = f.emulator.control.tasks().find((t) => t.title === 'Child of a new task');
    expect(child?.parent_task_id).toBe(server?.task_id);
    expect(f.mirror.tasks.get(created.taskId)).toBeNull();
    expect(f.mirror.tasks.get(server?.task_id as string)).toMatchObject({ pending: false });
    expect(f.mirror.tasks.get(child?.task_id as string)?.task.parent_task_id).toBe(server?.task_id);
    expect(f.mirror.tasks.get(subtask.taskId)).toBeNull();
    expect(eventsOf(f, 'id-remapped')).toEqual(
      expect.arrayContaining([
        { type: 'id-remapped', entityType: 'task', from: created.taskId, to: server?.task_id },
      ]),
    );
  });

  test('an answer lost on the way back is replayed by the key: the task is created once', async () => {
    const f = await start();
    const created = f.mirror.tasks.create({ title: 'Exactly once' });
    // One drop: the emulator runs the create again when a REPLAYED answer is dropped too (its bug, reported).
    f.emulator.control.faults.dropConnections(1, { method: 'POST', pathPrefix: '/v1/tasks' });
    const before = f.emulator.control.creates().tasks;

    const summary = await f.pusher.pushAll();

    expect(summary.pushed).toBe(1);
    expect(f.emulator.control.creates().tasks).toBe(before + 1);
    const posts = writes(f).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.idempotencyKey)).toEqual([created.opId, created.opId]);
    const made = f.emulator.control.tasks().filter((t) => t.title === 'Exactly once');
    expect(made).toHaveLength(1);
    expect(f.mirror.tasks.get(made[0]?.task_id as string)).toMatchObject({ pending: false });
  });

  test('a broken /v1/me while the organization is not known yet: the create waits for the next pass, and the other changes go (issue 27)', async () => {
    const f = await start();
    // A mirror that has not learned its organization yet (no pull has finished), reached through a relay.
    const mirror = await openMirror(join(f.dir, 'no-organization.db'));
    const relay = await startRelayProxy(f.emulator.baseUrl);
    relay.rewrite = (url, body) => (url === '/v1/me' ? '{"user_id":17}' : body);
    const api = new ApiClient({
      baseUrl: relay.baseUrl,
      credentials: staticCredentials(f.emulator.tokens.live),
      retry: FAST_RETRY,
    });
    try {
      const [taskId] = f.taskIds(1) as [string];
      const read = await api.read(taskOperations.get, { taskId });
      if (read.status !== 200) throw new Error('tasks.get answered 304');
      mirror.tasks.applyServerCopy(read.body, read.etag);
      const created = mirror.tasks.create({ title: 'Made before the organization was known' });
      mirror.tasks.edit(taskId, { title: 'edited beside it' });

      const summary = await new Pusher({ store: mirrorPushStore(mirror), api }).pushAll();

      expect(summary.pushed).toBe(1);
      expect(f.emulator.control.task(taskId)?.title).toBe('edited beside it');
      expect(mirror.outbox.op(created.opId)).toMatchObject({
        state: 'queued',
        lastProblem: having({
          type: 'invalid-response',
          detail: expect.stringContaining('me.get') as unknown,
        }),
      });
    } finally {
      await api.close();
      await relay.close();
      mirror.close();
    }
  });

  test('offline: the push stops with a network error, the create stays sendable under its key, and goes once later', async () => {
    const f = await start();
    const created = f.mirror.tasks.create({ title: 'Sent while offline' });
    // Nothing listens there: every attempt is refused, as when the network is down.
    const offline = new ApiClient({
      baseUrl: 'http://127.0.0.1:9',
      credentials: staticCredentials(f.emulator.tokens.live),
      retry: FAST_RETRY,
    });
    const before = f.emulator.control.creates().tasks;

    try {
      await expect(
        new Pusher({ store: mirrorPushStore(f.mirror), api: offline }).pushAll(),
      ).rejects.toBeInstanceOf(NetworkError);
    } finally {
      await offline.close();
    }
    const op = f.mirror.outbox.op(created.opId);
    expect(op).toMatchObject({ state: 'queued', lastProblem: having({ type: 'network' }) });
    expect(op.attempts).toBe(1);
    // Sent once (maybe): a later edit does not fold into it.
    f.mirror.tasks.edit(created.taskId, { description: 'written after the first attempt' });
    expect(f.mirror.outbox.list()).toHaveLength(2);

    await f.pusher.pushAll();

    expect(f.emulator.control.creates().tasks).toBe(before + 1);
    const made = f.emulator.control.tasks().filter((t) => t.title === 'Sent while offline');
    expect(made).toEqual([expect.objectContaining({ description: 'written after the first attempt' })]);
  });
});

describe('deletes', () => {
  test('a delete is sent with If-Match and the task leaves the mirror', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const etag = f.mirror.tasks.get(taskId)?.etag;
    f.mirror.tasks.delete(taskId);
    f.emulator.control.clearRequests();

    await f.pusher.pushAll();

    expect(writes(f)).toEqual([expect.objectContaining({ method: 'DELETE', status: 204, ifMatch: etag })]);
    expect(f.emulator.control.task(taskId)).toBeUndefined();
    expect(f.mirror.tasks.get(taskId)).toBeNull();
  });

  test('a delete of a task changed since waits for the person; retrying deletes the new version', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const removal = f.mirror.tasks.delete(taskId);
    f.emulator.control.peerEdit(taskId, { title: 'Still wanted?' });

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, failed: 1 });
    expect(f.emulator.control.task(taskId)?.title).toBe('Still wanted?');
    const op = f.mirror.outbox.op(removal?.opId as string);
    expect(op).toMatchObject({
      state: 'failed',
      lastProblem: having({ type: 'edited-remotely' }),
    });

    f.mirror.outbox.retry(op.opId);
    await f.pusher.pushAll();
    expect(f.emulator.control.task(taskId)).toBeUndefined();
  });
});

describe('refusals that stop writing', () => {
  test('a read-only test token: the operation is blocked, the account marked read-only, nothing else is sent', async () => {
    const f = await start({ token: 'test' });
    const ids = await f.loadedTaskIds(2);
    const first = f.mirror.tasks.edit(ids[0] as string, { title: 'read-only 1' });
    f.mirror.tasks.edit(ids[1] as string, { title: 'read-only 2' });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, failed: 1 });
    expect(writes(f)).toHaveLength(1);
    expect(f.mirror.outbox.op(first?.opId as string)).toMatchObject({
      state: 'blocked',
      lastProblem: having({ status: 403, type: 'test-token-read-only' }),
    });
    expect(f.pusher.readOnlyScopes.get('tasks:write')).toBe('test-token-read-only');
    expect(eventsOf(f, 'read-only')).toEqual([
      expect.objectContaining({ scope: 'tasks:write', reason: 'test-token-read-only' }),
    ]);
    expect(f.mirror.outbox.list(['queued'])).toHaveLength(1);
    // Edits stay on screen.
    expect(f.mirror.tasks.get(ids[0] as string)?.task.title).toBe('read-only 1');

    // Signed in with a writable token: blocked operations go again.
    const writable = new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(f.emulator.tokens.live) });
    expect(await writable.clearReadOnly()).toBe(1);
    expect((await writable.pushAll()).pushed).toBe(2);
  });

  test('the same pusher tries again each pass, and writes once its token may', async () => {
    const f = await start();
    const ids = await f.loadedTaskIds(3);
    for (const [i, id] of ids.entries()) f.mirror.tasks.edit(id, { title: `token swap ${i}` });
    let token = f.emulator.tokens.test;
    const api = new ApiClient({
      baseUrl: f.emulator.baseUrl,
      credentials: { getAccessToken: () => Promise.resolve(token) },
      retry: FAST_RETRY,
    });
    try {
      const pusher = new Pusher({ store: mirrorPushStore(f.mirror), api });
      expect(await pusher.pushAll()).toMatchObject({ failed: 1, requests: 1 });
      expect(await pusher.pushAll()).toMatchObject({ failed: 1, requests: 1 });
      expect(f.mirror.outbox.list(['blocked'])).toHaveLength(2);

      token = f.emulator.tokens.live;
      expect((await pusher.pushAll()).pushed).toBe(1);
      expect(pusher.readOnlyScopes.size).toBe(0);
      f.mirror.outbox.unblockAll();
      expect((await pusher.pushAll()).pushed).toBe(2);
      for (const [i, id] of ids.entries()) expect(f.emulator.control.task(id)?.title).toBe(`token swap ${i}`);
    } finally {
      await api.close();
    }
  });

  test('a token without tasks:write: blocked with the scope the service names', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const edit = f.mirror.tasks.edit(taskId, { title: 'no scope for this' });
    const { token } = f.emulator.control.mintToken({ scopes: ['tasks:read'] });
    const pusher = new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(token) });

    await pusher.pushAll();

    expect(f.mirror.outbox.op(edit?.opId as string)).toMatchObject({
      state: 'blocked',
      lastProblem: having({ status: 403, type: 'insufficient-scope' }),
    });
    expect(pusher.readOnlyScopes.get('tasks:write')).toBe('insufficient-scope');
  });

  test('each change set aside for a missing scope is told by its task, for its row to say blocked; why, once', async () => {
    const f = await start();
    const ids = await f.loadedTaskIds(3);
    const edits = ids.map((id, i) => f.mirror.tasks.edit(id, { title: `narrow token ${i}` })!);
    const { token } = f.emulator.control.mintToken({ scopes: ['tasks:read'] });
    const events: SyncEvent[] = [];
    const pusher = new Pusher({
      store: mirrorPushStore(f.mirror),
      api: f.apiWith(token),
      onEvent: (event) => events.push(event),
    });
    f.emulator.control.clearRequests();

    expect(await pusher.pushAll()).toMatchObject({ pushed: 0, failed: 3 });

    // One request: the service refused the first, the others wait without asking again.
    expect(writes(f)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'read-only')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'blocked')).toEqual(
      edits.map((edit, i) => ({
        type: 'blocked',
        opId: edit.opId,
        entityType: 'task',
        entityId: ids[i],
        scope: 'tasks:write',
      })),
    );
    expect(f.mirror.outbox.list(['blocked'])).toHaveLength(3);
  });

  test('signed out: pushing stops and the outbox is left exactly as it was', async () => {
    const f = await start();
    const ids = await f.loadedTaskIds(2);
    f.mirror.tasks.edit(ids[0] as string, { title: 'signed out before this' });
    f.mirror.tasks.create({ title: 'Not yet' });
    const minted = f.emulator.control.mintToken({ scopes: ['tasks:write'] });
    f.emulator.control.revokeToken(minted.record.token_id);
    const withoutTime = () => f.mirror.outbox.list().map(({ updatedAt: _, ...op }) => op);
    const before = withoutTime();
    const pusher = new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(minted.token) });

    await expect(pusher.pushAll()).rejects.toBeInstanceOf(SignedOutError);

    expect(withoutTime()).toEqual(before);
    expect(before.map((op) => op.attempts)).toEqual([0, 0]);
  });
});

describe('transient failures', () => {
  test('500s within the client retries still push once; beyond them the operation waits for the next pass', async () => {
    const f = await start();
    const ids = await f.loadedTaskIds(2);
    const a = f.mirror.tasks.edit(ids[0] as string, { title: 'through two 500s' });
    f.emulator.control.faults.serverErrors(2, { method: 'PATCH' });

    expect((await f.pusher.pushAll()).pushed).toBe(1);

    const b = f.mirror.tasks.edit(ids[1] as string, { title: 'after many 500s' });
    f.emulator.control.faults.serverErrors(20, { method: 'PATCH' });
    const summary = await f.pusher.pushAll();
    expect(summary.pushed).toBe(0);
    expect(f.mirror.outbox.op(b?.opId as string)).toMatchObject({
      state: 'queued',
      lastProblem: having({ status: 500 }),
    });

    f.emulator.control.faults.clear();
    expect((await f.pusher.pushAll()).pushed).toBe(1);
    expect(f.emulator.control.task(ids[1] as string)?.title).toBe('after many 500s');
    expect(a).not.toBeNull();
  });

  test('a PATCH whose answer was lost is not applied twice: the retry meets 412 and settles', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    f.mirror.tasks.edit(taskId, { title: 'Lost answer' });
    f.emulator.control.faults.dropConnections(1, { method: 'PATCH' });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(answers(f)).toEqual(['PATCH 200', 'PATCH 412', 'GET 200']);
    expect(f.emulator.control.history(taskId).filter((h) => h.action === 'updated')).toHaveLength(1);
    expect(f.mirror.tasks.get(taskId)).toMatchObject({ pending: false });
  });

  test('many tasks are pushed, each once, in the order of their edits', async () => {
    const f = await start({ seedTasks: 30 });
    const ids = await f.loadedTaskIds(20);
    for (const [i, id] of ids.entries()) f.mirror.tasks.edit(id, { position: 10_000 + i });
    for (const id of ids.slice(0, 5)) {
      f.mirror.outbox.start(
        f.mirror.outbox.list(['queued']).find((op) => op.entityId === id)?.opId as string,
      );
      f.mirror.tasks.edit(id, { title: `second edit of ${id}` });
    }
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary.pushed).toBe(25);
    expect(writes(f)).toHaveLength(25);
    for (const [i, id] of ids.entries()) expect(f.emulator.control.task(id)?.position).toBe(10_000 + i);
    for (const id of ids.slice(0, 5)) {
      const patches = writes(f).filter((r) => r.path === `/v1/tasks/${id}`);
      expect(patches).toHaveLength(2);
      expect(f.emulator.control.task(id)?.title).toBe(`second edit of ${id}`);
    }
  });
});

describe('what a conflict keeps for the person', () => {
  test('a 412 with conflicts records which of my fields merged cleanly, and how', async () => {
    const f = await start();
    const taskId = await loadedTask(f);
    const priority = other(f, taskId, 'priority');
    const status = other(f, taskId, 'status');
    const edit = f.mirror.tasks.edit(taskId, { title: 'Mine', description: 'only mine', priority, status });
    // Theirs: the title differently (conflict), the priority alike (settled), and the status back and forth is no change.
    f.emulator.control.peerEdit(taskId, { title: 'Theirs', priority });

    await f.pusher.pushAll();

    const op = f.mirror.outbox.op(edit?.opId as string);
    expect(op.state).toBe('conflict');
    expect(op.lastProblem).toMatchObject({
      status: 412,
      type: 'edited-remotely',
      merge: { rebased: ['description', 'status'], taken: [], settled: ['priority'] },
    });
    expect(f.mirror.outbox.conflicts('open').map((c) => c.field)).toEqual(['title']);
  });

  test("a task moved out of the token's reach keeps the edit as a draft to re-create, with the server's answer (404: the service hides it)", async () => {
    const f = await start();
    const { task, elsewhere, restricted } = await taskOfOneProject(f);
    const events: SyncEvent[] = [];
    const pusher = new Pusher({
      store: mirrorPushStore(f.mirror),
      api: f.apiWith(restricted),
      onEvent: (event) => events.push(event),
    });
    const edit = f.mirror.tasks.edit(task.task_id, { title: 'Written before it moved away' });
    f.emulator.control.peerEdit(task.task_id, { project_id: elsewhere, goal_id: null });

    const summary = await pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 0, conflicts: 1 });
    const op = f.mirror.outbox.op(edit?.opId as string);
    expect(op).toMatchObject({ state: 'conflict', lastProblem: having({ status: 404 }) });
    const [conflict] = f.mirror.outbox.conflicts('open');
    expect(conflict).toMatchObject({ entityId: task.task_id, field: '*' });
    expect(conflict?.mine).toEqual({ title: 'Written before it moved away' });
    expect(f.mirror.tasks.get(task.task_id)?.task.title).toBe('Written before it moved away');
    expect(events).toEqual([expect.objectContaining({ type: 'conflict', conflict: 'deleted-remotely' })]);
  });

  test('a task listed under an id no path can carry (`..`): its edit is refused without a request, the rest still go', async () => {
    const f = await start();
    const [taskId, otherId] = f.taskIds(2) as [string, string];
    await f.loadTasks([taskId, otherId]);
    // A hostile or broken server listed a task as `..`: a PATCH to /v1/tasks/.. would be one to /v1/tasks.
    const listed = f.mirror.tasks.get(taskId)?.server;
    f.mirror.tasks.applyServerCopy({ ...listed, task_id: '..' }, '"e-dots"');
    const refused = f.mirror.tasks.edit('..', { title: 'never sent' });
    const sent = f.mirror.tasks.edit(otherId, { title: 'sent' });
    f.emulator.control.clearRequests();

    const summary = await f.pusher.pushAll();

    expect(summary).toMatchObject({ pushed: 1, failed: 1 });
    expect(writes(f).map((r) => r.path)).toEqual([`/v1/tasks/${otherId}`]);
    expect(f.mirror.outbox.op(refused?.opId as string)).toMatchObject({
      state: 'failed',
      lastProblem: having({ type: 'unsafe-id' }),
    });
    expect(f.mirror.outbox.op(sent?.opId as string)).toMatchObject({ state: 'done' });
    expect(eventsOf(f, 'push-failed')).toEqual([
      having({ entityId: '..', error: having({ kind: 'unsafe-id', operation: 'tasks.update' }) }),
    ]);
  });

  test('a 403 that refuses the change itself (a project the token may not file into) fails, the task still readable', async () => {
    const f = await start();
    const { task, elsewhere, restricted } = await taskOfOneProject(f);
    const pusher = new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(restricted) });
    const edit = f.mirror.tasks.edit(task.task_id, { project_id: elsewhere });

    await pusher.pushAll();

    expect(f.mirror.outbox.op(edit?.opId as string)).toMatchObject({
      state: 'failed',
      lastProblem: having({ status: 403 }),
    });
    expect(f.mirror.outbox.conflicts('open')).toEqual([]);
  });
});
