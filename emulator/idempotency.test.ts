// Idempotency-Key on creates: replayed for 24 hours (injected clock), 422 when
// reused for another request, 409 while the first is unfinished, 400 when
// malformed; a failed first attempt keeps nothing; a create whose answer was
// lost (connection dropped) is replayed, not made twice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi } from './emulator-http';
import type { TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();
let keyCounter = 0;
const freshKey = () => `key-${++keyCounter}-${Date.now()}`;

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 50 });
});
afterAll(async () => {
  await emulator.stop();
});

function createTask(key: string, title = 'idempotent', extra: Record<string, string> = {}) {
  return callApi<TaskRecord & { type?: string }>(emulator, 'POST', '/v1/tasks', {
    body: { org_id: emulator.orgId, title },
    headers: { 'idempotency-key': key, ...extra },
  });
}

describe('Idempotency-Key', () => {
  test('the same request with the same key is answered with the first answer, and creates once', async () => {
    const before = emulator.control.creates().tasks;
    const key = freshKey();
    const first = await createTask(key);
    const second = await createTask(key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(emulator.control.creates().tasks).toBe(before + 1);
  });

  test('the replay lasts 24 hours by the injected clock, then the key is new again', async () => {
    const key = freshKey();
    const first = await createTask(key);
    clock.advance(24 * 3_600_000 - 1);
    expect((await createTask(key)).body.task_id).toBe(first.body.task_id);
    clock.advance(1);
    const later = await createTask(key);
    expect(later.status).toBe(201);
    expect(later.body.task_id).not.toBe(first.body.task_id);
  });

  test('the key is the caller’s own: another member using it creates their own task', async () => {
    const key = freshKey();
    const mine = await createTask(key);
    const theirs = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
      token: emulator.tokens.peer,
      body: { org_id: emulator.orgId, title: 'idempotent' },
      headers: { 'idempotency-key': key },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.task_id).not.toBe(mine.body.task_id);
  });

  test.each([
    ['a different body', '/v1/tasks', () => ({ org_id: emulator.orgId, title: 'another title' })],
    [
      'a different path',
      '/v1/task-comments',
      () => ({ task_id: emulator.control.tasks()[0]?.task_id, content: 'hi' }),
    ],
  ])('the same key on %s is 422 idempotency-key-reused', async (_name, path, body) => {
    const key = freshKey();
    await createTask(key);
    const reused = await callApi(emulator, 'POST', path, {
      body: body(),
      headers: { 'idempotency-key': key },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.type).toBe('urn:svc:problem:idempotency-key-reused');
  });

  test('while the first request is unfinished the same key is 409 idempotency-key-in-flight', async () => {
    const key = freshKey();
    emulator.control.faults.setLatency(300, { pathPrefix: '/v1/tasks', method: 'POST' });
    try {
      const slow = createTask(key);
      // The slow request has registered its key once its own answer is held back; poll until it has.
      let second = await createTask(key);
      for (let i = 0; i < 50 && second.status !== 409; i++) second = await createTask(key);
      expect(second.status).toBe(409);
      expect(second.body.type).toBe('urn:svc:problem:idempotency-key-in-flight');
      expect((await slow).status).toBe(201);
    } finally {
      emulator.control.faults.setLatency(0, { pathPrefix: '/v1/tasks', method: 'POST' });
    }
    expect((await createTask(key)).status).toBe(201);
  });

  test.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'clé'],
    ['a control character', 'a\tb'],
  ])('a key that is %s is 400 idempotency-key-invalid', async (_name, key) => {
    const answer = await createTask(key);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('urn:svc:problem:idempotency-key-invalid');
  });

  test('255 printable ASCII characters is a valid key', async () => {
    expect((await createTask('~'.repeat(255))).status).toBe(201);
  });

  test('a first attempt that failed keeps nothing: the corrected request with the same key creates', async () => {
    const key = freshKey();
    const failed = await callApi(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title: '' },
      headers: { 'idempotency-key': key },
    });
    expect(failed.status).toBe(422);
    expect((await createTask(key, 'corrected')).status).toBe(201);
  });

  test('an injected 500 keeps nothing either', async () => {
    const key = freshKey();
    emulator.control.faults.serverErrors(1, { pathPrefix: '/v1/tasks' });
    expect((await createTask(key)).status).toBe(500);
    expect((await createTask(key)).status).toBe(201);
  });

  test('a create whose answer was lost mid-body is replayed on retry, not made twice', async () => {
    const key = freshKey();
    const before = emulator.control.creates().tasks;
    emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/tasks', method: 'POST' });
    await expect(createTask(key, 'lost answer')).rejects.toThrow();
    const retry = await createTask(key, 'lost answer');
    expect(retry.status).toBe(201);
    expect(emulator.control.creates().tasks).toBe(before + 1);
    expect(emulator.control.tasks().filter((t) => t.title === 'lost answer')).toHaveLength(1);
  });

  test('comments and replies honour the key too', async () => {
    const taskId = emulator.control.tasks()[0]?.task_id;
    const key = freshKey();
    const send = () =>
      callApi(emulator, 'POST', '/v1/task-comments', {
        body: { task_id: taskId, content: 'once' },
        headers: { 'idempotency-key': key },
      });
    const first = await send();
    const second = await send();
    expect(second.body.comment_id).toBe(first.body.comment_id);
    const replyKey = freshKey();
    const reply = () =>
      callApi(emulator, 'POST', '/v1/task-comments/reply', {
        body: { parent_comment_id: first.body.comment_id, content: 'reply once' },
        headers: { 'idempotency-key': replyKey },
      });
    expect((await reply()).body.comment_id).toBe((await reply()).body.comment_id);
  });
});

describe('a replayed answer that is itself dropped', () => {
  test('never runs the create again', async () => {
    const emulator = await startEmulator({ seedTasks: 10 });
    try {
      const before = emulator.control.taskCount();
      emulator.control.faults.dropConnections(2, { pathPrefix: '/v1/tasks', method: 'POST' });
      const send = () =>
        fetch(`${emulator.baseUrl}/v1/tasks`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${emulator.tokens.live}`,
            'content-type': 'application/json',
            'idempotency-key': 'replayed-and-dropped',
          },
          body: JSON.stringify({ org_id: emulator.orgId, title: 'Created once' }),
        })
          .then(async (response) => ({ status: response.status, body: await response.text() }))
          .catch(() => null);
      const answers = [await send(), await send(), await send()];
      expect(answers.slice(0, 2)).toEqual([null, null]);
      expect(answers[2]?.status).toBe(201);
      expect(emulator.control.taskCount() - before).toBe(1);
      expect(emulator.control.creates().tasks).toBe(1);
    } finally {
      await emulator.stop();
    }
  });
});
