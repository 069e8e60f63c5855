// The inspector's and conflict view's calls through the real gate, over a
// mirror pushed by the real pusher to the emulator: what waits is listed with
// its values and the server's answer, and retry, discard and resolve reach the server.
import { afterEach, describe, expect, test } from 'vitest';
import { type PushFixture, startPushFixture } from '../../sync/push/testing/push-fixture';
import type { EventName, InvokeChannel, InvokeOutput } from './contract';
import { createIpcGate, type InvokeEventLike } from './gate';
import { outboxHandlers } from './outbox-handlers';
import type { ActiveMirror } from './task-handlers';
import { INVOKE_TRANSPORT_CHANNEL, type IpcResult } from './transport';

const trustedEvent: InvokeEventLike = {
  sender: { id: 7 },
  senderFrame: { url: 'app://svc-desktop/', parent: null },
};

interface Wired {
  f: PushFixture;
  events: { name: EventName; payload: unknown }[];
  edits: number;
  call<C extends InvokeChannel>(channel: C, input?: unknown): Promise<IpcResult<InvokeOutput<C>>>;
  value<C extends InvokeChannel>(channel: C, input?: unknown): Promise<InvokeOutput<C>>;
}

let fixture: PushFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

async function wire(): Promise<Wired> {
  const f = await startPushFixture();
  fixture = f;
  let answer: ((event: InvokeEventLike, request: unknown) => Promise<unknown>) | null = null;
  const gate = createIpcGate({
    ipcMain: {
      handle: (channel, listener) => {
        if (channel === INVOKE_TRANSPORT_CHANNEL) answer = listener;
      },
      removeHandler: () => undefined,
    },
    isTrustedPageUrl: (url) => url.startsWith('app://svc-desktop/'),
  });
  gate.trust({ id: 7, isDestroyed: () => false, send: () => undefined, once: () => undefined });
  const wired: Wired = {
    f,
    events: [],
    edits: 0,
    async call(channel, input) {
      if (!answer) throw new Error('the gate registered no invoke handler');
      return (await answer(trustedEvent, { channel, input })) as never;
    },
    async value(channel, input) {
      const result = await wired.call(channel, input);
      if (!result.ok) throw new Error(`${channel} failed: ${result.error.type}: ${result.error.message}`);
      return result.value;
    },
  };
  const active: ActiveMirror = {
    accountId: 'acct-1',
    mirror: f.mirror,
    me: f.emulator.me,
    readOnly: false,
    edited: () => {
      wired.edits += 1;
    },
    refreshActivity: () => undefined,
  };
  gate.register(
    outboxHandlers({ active: () => active, emit: (name, payload) => wired.events.push({ name, payload }) }),
  );
  return wired;
}

describe('the pending-changes inspector', () => {
  test('lists a queued edit with before and after values, then a refused one with the server’s errors per field', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const before = w.f.emulator.control.task(taskId);
    w.f.mirror.tasks.edit(taskId, { assignee: 'nobody-by-that-name' });

    const queued = await w.value('outbox:list');
    expect(queued.changes).toEqual([
      expect.objectContaining({
        task_id: taskId,
        task_title: before?.title,
        kind: 'update',
        state: 'queued',
        attempts: 0,
        changes: [{ field: 'assignee', before: before?.assignee ?? null, after: 'nobody-by-that-name' }],
        last_answer: null,
      }),
    ]);

    await w.f.pusher.pushAll();
    const [failed] = (await w.value('outbox:list')).changes;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed?.last_answer).toMatchObject({
      status: 422,
      type: 'validation',
      errors: [{ field: 'assignee', message: expect.stringContaining('nobody-by-that-name') as unknown }],
    });

    // Edited and retried: sent again with the corrected value, and the server takes it.
    const retried = await w.value('outbox:retry', {
      op_id: failed?.op_id,
      patch: { assignee: w.f.emulator.peer.username },
    });
    expect(retried).toMatchObject({
      state: 'queued',
      changes: [expect.objectContaining({ after: w.f.emulator.peer.username })],
    });
    expect(w.edits).toBe(1);
    expect(w.events).toEqual([expect.objectContaining({ name: 'mirror:changed' })]);
    await w.f.pusher.pushAll();
    expect(w.f.emulator.control.task(taskId)?.assignee).toBe(w.f.emulator.peer.username);
    expect((await w.value('outbox:list')).changes).toEqual([]);
  });

  test('retrying a change that was not refused is refused in words; discarding one shows the server again', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const title = w.f.mirror.tasks.get(taskId)?.task.title;
    const queued = w.f.mirror.tasks.edit(taskId, { title: 'Not wanted after all' });

    const refused = await w.call('outbox:retry', { op_id: queued?.opId });
    expect(refused).toMatchObject({ ok: false, error: { type: 'not-retryable' } });

    await w.value('outbox:discard', { op_id: queued?.opId });
    expect(w.f.mirror.tasks.get(taskId)).toMatchObject({ pending: false, task: { title } });
    expect((await w.value('outbox:list')).changes).toEqual([]);
  });
});

describe('comments in the inspector', () => {
  test('a queued comment and reply are listed on their task, as comments, with their text; once sent, nothing waits', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const title = w.f.emulator.control.task(taskId)?.title;
    const first = w.f.mirror.comments.create({ taskId, content: 'Looks good' });
    w.f.mirror.comments.create({ taskId, content: 'Thanks', parentCommentId: first.commentId });

    const queued = await w.value('outbox:list');
    expect(queued.changes).toEqual([
      expect.objectContaining({
        entity_type: 'comment',
        entity_id: first.commentId,
        task_id: taskId,
        task_title: title,
        kind: 'create',
        changes: [{ field: 'content', before: null, after: 'Looks good' }],
      }),
      expect.objectContaining({
        entity_type: 'comment',
        task_id: taskId,
        kind: 'create',
        changes: [
          { field: 'content', before: null, after: 'Thanks' },
          { field: 'parent_comment_id', before: null, after: first.commentId },
        ],
      }),
    ]);
    await w.f.pusher.pushAll();
    expect((await w.value('outbox:list')).changes).toEqual([]);
  });
});

describe('sections in the inspector', () => {
  test('a waiting rename of a section is listed with its name before and after', async () => {
    const w = await wire();
    w.f.mirror.sections.create({ scope_type: 'user', scope_id: w.f.emulator.me.username, name: 'Later on' });
    await w.f.pusher.pushAll();
    const id = w.f.mirror.sections.list().find((r) => r.name === 'Later on')?.section_id as string;
    w.f.mirror.sections.edit(id, { name: 'Next week' });
    expect((await w.value('outbox:list')).changes).toEqual([
      expect.objectContaining({
        entity_type: 'section',
        entity_id: id,
        entity_name: 'Later on',
        kind: 'update',
        changes: [{ field: 'name', before: 'Later on', after: 'Next week' }],
      }),
    ]);
  });
});

describe('the conflict view', () => {
  test('shows base, mine and theirs per field and what merged; choices per field reach the server', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const base = w.f.emulator.control.task(taskId);
    w.f.mirror.tasks.edit(taskId, {
      title: 'Mine',
      description: 'My description',
      priority: base?.priority === 'urgent' ? 'low' : 'urgent',
      due_date: '2031-01-02',
    });
    w.f.emulator.control.peerEdit(taskId, {
      title: 'Theirs',
      description: 'Their description',
      priority: base?.priority === 'high' ? 'medium' : 'high',
    });
    await w.f.pusher.pushAll();

    const view = await w.value('conflicts:get', { task_id: taskId });
    expect(view).toMatchObject({ task_id: taskId, kind: 'edited', gone: null });
    expect(view?.fields.map((c) => [c.field, c.base, c.mine, c.theirs])).toEqual([
      ['title', base?.title, 'Mine', 'Theirs'],
      ['description', base?.description ?? null, 'My description', 'Their description'],
      [
        'priority',
        base?.priority ?? null,
        base?.priority === 'urgent' ? 'low' : 'urgent',
        base?.priority === 'high' ? 'medium' : 'high',
      ],
    ]);
    expect(view?.merged).toEqual([{ field: 'due_date', how: 'rebased', value: '2031-01-02' }]);
    const [list] = (await w.value('outbox:list')).changes;
    expect(list).toMatchObject({ state: 'conflict', last_answer: { status: 412, type: 'edited-remotely' } });

    const [title, description, priority] = view?.fields ?? [];
    const badValue = await w.call('conflicts:resolve', {
      op_id: view?.op_id,
      choices: [{ conflict_id: title?.conflict_id, value: '' }],
    });
    expect(badValue).toMatchObject({ ok: false, error: { type: 'validation' } });

    const resolved = await w.value('conflicts:resolve', {
      op_id: view?.op_id,
      choices: [
        { conflict_id: title?.conflict_id, take: 'mine' },
        { conflict_id: description?.conflict_id, take: 'theirs' },
        { conflict_id: priority?.conflict_id, value: 'medium' },
      ],
    });
    expect(resolved).toEqual({ task_id: taskId });
    expect(await w.value('conflicts:get', { task_id: taskId })).toBeNull();
    await w.f.pusher.pushAll();
    expect(w.f.emulator.control.task(taskId)).toMatchObject({
      title: 'Mine',
      description: 'Their description',
      priority: 'medium',
      due_date: '2031-01-02',
    });
  });

  test('a task deleted on the server offers the edit as a draft; re-creating it makes a new task with it', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const title = w.f.emulator.control.task(taskId)?.title;
    w.f.mirror.tasks.edit(taskId, { description: 'Worth keeping' });
    w.f.emulator.control.peerDelete(taskId);
    await w.f.pusher.pushAll();

    const view = await w.value('conflicts:get', { task_id: taskId });
    expect(view).toMatchObject({
      kind: 'gone',
      gone: {
        status: 404,
        draft: { description: 'Worth keeping' },
        task: { title, description: 'Worth keeping' },
      },
    });
    const resolved = await w.value('conflicts:resolve', {
      op_id: view?.op_id,
      choices: [{ conflict_id: view?.gone?.conflict_id, take: 'mine' }],
    });
    expect(resolved.task_id).toMatch(/^local-/);
    await w.f.pusher.pushAll();
    const recreated = w.f.emulator.control.tasks().filter((t) => t.description === 'Worth keeping');
    expect(recreated).toEqual([expect.objectContaining({ title })]);
  });
});
