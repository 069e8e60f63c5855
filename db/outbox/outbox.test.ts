import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { InvalidEditError, NotInMirrorError, OutboxStateError } from '../mirror-errors';
import type { Mirror } from '../mirror';
import { openMirror } from '../open-mirror';
import { KIND_OPS_SQL } from './outbox-rows';
import { READY_SQL } from './sending';
import { DELETED_REMOTELY, isTemporaryId } from './outbox-types';
import { loadTasks, onlyPage, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

const ME = 'ada';
const TODAY = '2026-03-10';

let handle: TestMirror;
let mirror: Mirror;

beforeEach(async () => {
  handle = await openTestMirror();
  mirror = handle.mirror;
});
afterEach(() => handle.cleanup());

function titles(query = 'sort_by=title'): string[] {
  return mirror.tasks
    .query(new URLSearchParams(query), { me: ME, today: TODAY, limit: 1000 })
    .items.map((t) => t.title);
}

function serverVersion(task: Record<string, unknown>, changes: Record<string, unknown>) {
  return { ...task, ...changes, updated_at: '2026-03-10T13:00:00.000Z' };
}

/** A task with a server copy (ETag "v1") whose first edit is on its way and second queued behind it. */
function oneSentOneQueued(
  fields: Record<string, unknown>,
  firstEdit: Record<string, unknown>,
  secondEdit: Record<string, unknown>,
) {
  const task = taskJson(fields);
  loadTasks(mirror, [task]);
  mirror.tasks.applyServerCopy(task, '"v1"');
  const id = task.task_id as string;
  const first = mirror.tasks.edit(id, firstEdit) as { opId: string };
  mirror.outbox.start(first.opId);
  const second = mirror.tasks.edit(id, secondEdit) as { opId: string };
  return { task, id, first, second };
}

describe('the overlay: local state is server state plus pending edits', () => {
  test('an edit shows at once in lists, search and the task, and is queued with its base', () => {
    const task = taskJson({ title: 'Write the plan', assignee: null });
    loadTasks(mirror, [task]);
    mirror.tasks.applyServerCopy(task, '"v1"');
    const queued = mirror.tasks.edit(task.task_id as string, {
      title: 'Write the better plan',
      assignee: ME,
    });
    expect(queued).not.toBeNull();
    expect(titles()).toEqual(['Write the better plan']);
    expect(titles('filter[search]=better')).toEqual(['Write the better plan']);
    expect(titles('filter[assignee]=me')).toEqual(['Write the better plan']);
    const stored = mirror.tasks.get(task.task_id as string);
    expect(stored?.task.title).toBe('Write the better plan');
    expect(stored?.server?.title).toBe('Write the plan');
    expect(stored?.pending).toBe(true);
    expect(mirror.outbox.list()).toMatchObject([
      {
        kind: 'update',
        entityId: task.task_id,
        patch: { title: 'Write the better plan', assignee: ME },
        baseEtag: '"v1"',
        baseValues: { title: 'Write the plan', assignee: null },
        state: 'queued',
        attempts: 0,
      },
    ]);
  });

  test('a queued edit survives closing and opening the file', async () => {
    const task = taskJson({ title: 'Before' });
    loadTasks(mirror, [task]);
    mirror.tasks.edit(task.task_id as string, { title: 'After', tags: ['kept'] });
    mirror = await handle.reopen();
    expect(titles('filter[tags]=kept')).toEqual(['After']);
    expect(mirror.outbox.list()).toHaveLength(1);
  });

  test('a server page under a pending edit keeps the edit and makes the new version the base', () => {
    const task = taskJson({ title: 'Mine to change', priority: 'low' });
    loadTasks(mirror, [task]);
    mirror.tasks.edit(task.task_id as string, { title: 'Changed by me' });
    const theirs = serverVersion(task, { priority: 'urgent', title: 'Mine to change' });
    const applied = mirror.passes.applyPage(onlyPage('tasks', [theirs], { etag: '"p2"' }));
    expect(applied.changes.updated.map((u) => Object.keys(u.changes).sort())).toEqual([
      ['priority', 'updated_at'],
    ]);
    const stored = mirror.tasks.get(task.task_id as string);
    expect(stored?.task).toMatchObject({ title: 'Changed by me', priority: 'urgent' });
    expect(stored?.server).toMatchObject({ title: 'Mine to change', priority: 'urgent' });
    expect(titles('filter[priority]=urgent')).toEqual(['Changed by me']);
    // The operation still says what I changed against what I saw.
    expect(mirror.outbox.list()[0]?.baseValues).toEqual({ title: 'Mine to change' });
  });

  test('unknown fields of the server copy survive an edit', () => {
    const task = taskJson({ title: 'Has extras', future_field: { nested: [1, 2] } });
    loadTasks(mirror, [task]);
    mirror.tasks.edit(task.task_id as string, { title: 'Edited' });
    expect(mirror.tasks.get(task.task_id as string)?.task.future_field).toEqual({ nested: [1, 2] });
  });

  test('a pending delete hides the task at once; deleting a task never sent leaves nothing to send', () => {
    const task = taskJson({ title: 'To delete' });
    loadTasks(mirror, [task]);
    expect(mirror.tasks.delete(task.task_id as string)).not.toBeNull();
    expect(titles()).toEqual([]);
    expect(mirror.tasks.get(task.task_id as string)?.hidden).toBe(true);
    expect(() => mirror.tasks.edit(task.task_id as string, { title: 'x' })).toThrow(NotInMirrorError);

    const created = mirror.tasks.create({ title: 'Never sent' });
    expect(titles()).toEqual(['Never sent']);
    expect(mirror.tasks.delete(created.taskId)).toBeNull();
    expect(titles()).toEqual([]);
    expect(mirror.outbox.list().map((op) => op.kind)).toEqual(['delete']);
  });

  test('export gives every shown task as its effective JSON, past a chunk of a thousand', () => {
    const tasks = Array.from({ length: 1203 }, (_, i) => taskJson({ title: `Export ${i}` }));
    loadTasks(mirror, tasks);
    mirror.tasks.edit(tasks[5]?.task_id as string, { title: 'Edited export' });
    mirror.tasks.delete(tasks[6]?.task_id as string);
    const exported = [...mirror.tasks.exportJson()].map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(exported).toHaveLength(1202);
    expect(new Set(exported.map((t) => t.task_id)).size).toBe(1202);
    expect(exported.find((t) => t.task_id === tasks[5]?.task_id)?.title).toBe('Edited export');
    expect(exported.some((t) => t.task_id === tasks[6]?.task_id)).toBe(false);
  });

  test('edits are checked before they are queued', () => {
    const task = taskJson();
    loadTasks(mirror, [task]);
    const id = task.task_id as string;
    expect(() => mirror.tasks.edit(id, { title: '' })).toThrow(InvalidEditError);
    expect(() => mirror.tasks.edit(id, { due_date: '2026-02-30x' })).toThrow(InvalidEditError);
    expect(() => mirror.tasks.edit(id, { tags: ['ok', 3] })).toThrow(InvalidEditError);
    expect(() => mirror.tasks.edit(id, { created_by: 'me' })).toThrow(InvalidEditError);
    expect(() => mirror.tasks.create({ status: 'not_started' })).toThrow(InvalidEditError);
    expect(mirror.outbox.list()).toEqual([]);
  });
});

describe('the outbox', () => {
  test('edits not yet sent fold into one operation; a field set back to its base drops out', () => {
    const task = taskJson({ title: 'T', priority: 'low', status: 'not_started' });
    loadTasks(mirror, [task]);
    const id = task.task_id as string;
    const first = mirror.tasks.edit(id, { title: 'T2' });
    const second = mirror.tasks.edit(id, { priority: 'high', title: 'T3' });
    expect(second?.opId).toBe(first?.opId);
    expect(mirror.outbox.list()).toMatchObject([
      { patch: { title: 'T3', priority: 'high' }, baseValues: { title: 'T', priority: 'low' } },
    ]);
    mirror.tasks.edit(id, { title: 'T' });
    expect(mirror.outbox.list()).toMatchObject([
      { patch: { priority: 'high' }, baseValues: { priority: 'low' } },
    ]);
    expect(mirror.tasks.edit(id, { priority: 'low' })).toBeNull();
    expect(mirror.outbox.list()).toEqual([]);
    expect(mirror.tasks.get(id)?.pending).toBe(false);
    expect(mirror.tasks.edit(id, { status: 'not_started' })).toBeNull();
  });

  test("comments written on one task leave in the order they were written; another task's do not wait", () => {
    const [a, b] = [taskJson({ title: 'A' }), taskJson({ title: 'B' })];
    loadTasks(mirror, [a, b]);
    const first = mirror.comments.create({ taskId: a.task_id as string, content: 'first' });
    const second = mirror.comments.create({ taskId: a.task_id as string, content: 'second' });
    const elsewhere = mirror.comments.create({ taskId: b.task_id as string, content: 'on B' });
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([first.opId, elsewhere.opId]);
    // Still waiting while the first is on its way; free once it is settled or has stopped.
    mirror.outbox.start(first.opId);
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([first.opId, elsewhere.opId]);
    mirror.outbox.fail(first.opId, 'failed', { type: 'forbidden' });
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([second.opId, elsewhere.opId]);
  });

  test('an operation already sent keeps its body and key; later edits queue behind it', () => {
    const task = taskJson({ title: 'T' });
    loadTasks(mirror, [task]);
    const id = task.task_id as string;
    const first = mirror.tasks.edit(id, { title: 'T2' }) as { opId: string };
    expect(mirror.outbox.start(first.opId)).toMatchObject({ state: 'in_flight', attempts: 1 });
    const second = mirror.tasks.edit(id, { title: 'T3' }) as { opId: string };
    expect(second.opId).not.toBe(first.opId);
    expect(mirror.outbox.op(first.opId).patch).toEqual({ title: 'T2' });
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([first.opId]);
    expect(titles()).toEqual(['T3']);
  });

  test("a field set back to the server's value while a change of it is on its way stays to send, after that change", () => {
    const { task, id, first, second } = oneSentOneQueued(
      { title: 'T', status: 'not_started' },
      { status: 'blocked' },
      { status: 'completed' },
    );

    // Back to the value the server had before the first change: once that lands, it is no longer so.
    expect(mirror.tasks.edit(id, { status: 'not_started' })?.opId).toBe(second.opId);

    expect(mirror.outbox.op(second.opId)).toMatchObject({
      patch: { status: 'not_started' },
      state: 'queued',
    });
    expect(mirror.tasks.get(id)?.task.status).toBe('not_started');
    mirror.outbox.settle(first.opId, { task: serverVersion(task, { status: 'blocked' }), etag: '"v2"' });
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([second.opId]);
    expect(mirror.outbox.op(second.opId)).toMatchObject({
      baseEtag: '"v2"',
      baseValues: { status: 'blocked' },
      patch: { status: 'not_started' },
    });
  });

  test('settling an update makes the answer the server copy and rebases what was queued behind it', () => {
    const { task, id, first, second } = oneSentOneQueued(
      { title: 'T', priority: 'low' },
      { title: 'T2' },
      { title: 'T3', priority: 'high' },
    );
    mirror.outbox.settle(first.opId, { task: serverVersion(task, { title: 'T2' }), etag: '"v2"' });
    expect(mirror.outbox.op(first.opId).state).toBe('done');
    expect(mirror.outbox.op(second.opId)).toMatchObject({
      baseEtag: '"v2"',
      baseValues: { title: 'T2', priority: 'low' },
      state: 'queued',
    });
    expect(mirror.tasks.get(id)).toMatchObject({
      etag: '"v2"',
      server: { title: 'T2' },
      task: { title: 'T3' },
    });
    mirror.outbox.start(second.opId);
    mirror.outbox.settle(second.opId, {
      task: serverVersion(task, { title: 'T3', priority: 'high' }),
      etag: '"v3"',
    });
    expect(mirror.tasks.get(id)?.pending).toBe(false);
    expect(titles('filter[priority]=high')).toEqual(['T3']);
  });

  test('states: failed and blocked wait, retry and unblock queue again, unstart puts a claim back', () => {
    const a = taskJson({ title: 'A' });
    const b = taskJson({ title: 'B' });
    loadTasks(mirror, [a, b]);
    const opA = (mirror.tasks.edit(a.task_id as string, { title: 'A2' }) as { opId: string }).opId;
    const opB = (mirror.tasks.edit(b.task_id as string, { title: 'B2' }) as { opId: string }).opId;
    mirror.outbox.start(opA);
    mirror.outbox.fail(opA, 'failed', { status: 422, errors: [{ loc: ['body', 'title'] }] });
    expect(mirror.outbox.op(opA)).toMatchObject({ state: 'failed', lastProblem: { status: 422 } });
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([opB]);
    expect(titles()).toEqual(['A2', 'B2']);
    const retried = mirror.outbox.retry(opA, { title: 'A3' });
    expect(retried).not.toBe(opA);
    expect(mirror.outbox.op(retried)).toMatchObject({ state: 'queued', attempts: 0, patch: { title: 'A3' } });

    const before = mirror.outbox.op(opB);
    mirror.outbox.start(opB);
    mirror.outbox.unstart(opB, { state: before.state, attempts: before.attempts });
    expect(mirror.outbox.op(opB)).toMatchObject({ state: 'queued', attempts: 0 });
    mirror.outbox.start(opB);
    mirror.outbox.fail(opB, 'blocked', { type: 'test-token-read-only' });
    expect(mirror.outbox.unblockAll()).toBe(1);
    expect(mirror.outbox.op(opB).state).toBe('queued');
    mirror.outbox.fail(opB, 'queued', { status: 503 });
    expect(mirror.outbox.op(opB)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(() => mirror.outbox.retry(opB)).toThrow(OutboxStateError);
    expect(() => mirror.outbox.start('no-such-op')).toThrow(NotInMirrorError);
  });

  test('the tally counts edits by what they wait for: sending, the person, a fix, a writable account; settled ones not at all', () => {
    const tasks = ['A', 'B', 'C', 'D', 'E', 'F'].map((title) => taskJson({ title }));
    loadTasks(mirror, tasks);
    const [a, b, c, d, e, f] = tasks.map((t) => t.task_id as string) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const edit = (id: string) => (mirror.tasks.edit(id, { title: `${id} edited` }) as { opId: string }).opId;
    edit(a);
    mirror.outbox.start(edit(b));
    const failed = edit(c);
    mirror.outbox.start(failed);
    mirror.outbox.fail(failed, 'failed', { status: 422 });
    const blocked = edit(d);
    mirror.outbox.start(blocked);
    mirror.outbox.fail(blocked, 'blocked', { type: 'test-token-read-only' });
    const conflicted = edit(e);
    mirror.outbox.start(conflicted);
    mirror.outbox.conflict(conflicted, {
      deleted: false,
      theirsEtag: '"v2"',
      fields: [
        { field: 'title', base: 'E', mine: `${e} edited`, theirs: 'E theirs' },
        { field: 'priority', base: null, mine: 'high', theirs: 'low' },
      ],
    });
    const settled = edit(f);
    mirror.outbox.start(settled);
    mirror.outbox.settle(settled, {
      task: serverVersion(tasks[5] ?? {}, { title: `${f} edited` }),
      etag: '"v2"',
    });

    expect(mirror.outbox.counts()).toEqual({ pending: 2, conflicts: 1, failed: 1, blocked: 1, unsettled: 5 });
  });

  test('queueing belongs inside a write of mirror.tasks: called on its own it is refused and queues nothing', () => {
    const task = taskJson({ title: 'Alone' });
    loadTasks(mirror, [task]);
    expect(() => mirror.outbox.queueUpdate(task.task_id as string, { title: 'Outside' })).toThrow(
      /inside a mirror write/,
    );
    expect(mirror.outbox.list()).toEqual([]);
  });

  test('a create shows under a temporary id, and the server id replaces it everywhere', () => {
    const parent = mirror.tasks.create({ title: 'New parent', tags: ['fresh'] });
    expect(isTemporaryId(parent.taskId)).toBe(true);
    expect(titles('filter[search]=new parent')).toEqual(['New parent']);
    const child = mirror.tasks.create({ title: 'New child', parent_task_id: parent.taskId });
    mirror.outbox.start(parent.opId);
    const edit = mirror.tasks.edit(parent.taskId, { title: 'New parent, renamed' }) as { opId: string };
    // The child names a task the server does not know yet, the edit waits behind its create.
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([parent.opId]);

    const serverParent = taskJson({ task_id: 'tsk_server_1', title: 'New parent', tags: ['fresh'] });
    const id = mirror.outbox.settle(parent.opId, { task: serverParent, etag: '"s1"' });
    expect(id).toBe('tsk_server_1');
    expect(mirror.tasks.get(parent.taskId)).toBeNull();
    expect(mirror.tasks.get('tsk_server_1')).toMatchObject({
      task: { title: 'New parent, renamed' },
      server: { title: 'New parent' },
      etag: '"s1"',
    });
    expect(mirror.outbox.op(edit.opId)).toMatchObject({
      entityId: 'tsk_server_1',
      baseEtag: '"s1"',
      baseValues: { title: 'New parent' },
    });
    expect(mirror.outbox.op(child.opId).patch).toMatchObject({ parent_task_id: 'tsk_server_1' });
    expect(mirror.tasks.get(child.taskId)?.task.parent_task_id).toBe('tsk_server_1');
    expect(mirror.outbox.ready().map((op) => op.opId)).toEqual([child.opId, edit.opId]);
    expect(titles('filter[search]=tsk_server')).toEqual(['New parent, renamed']);
    expect(titles(`filter[search]=${parent.taskId.slice(6, 14)}`)).toEqual([]);
  });

  test('a create whose task already came down in a pull keeps one row', () => {
    const created = mirror.tasks.create({ title: 'Raced' });
    mirror.outbox.start(created.opId);
    const server = taskJson({ task_id: 'tsk_raced', title: 'Raced' });
    mirror.tasks.applyServerCopy(server, '"r1"');
    mirror.outbox.settle(created.opId, { task: server, etag: '"r1"' });
    expect(titles()).toEqual(['Raced']);
    expect(mirror.tasks.total()).toBe(1);
  });

  test('some of many operations sent: any started, tried, stopped or settled and gone counts; queued and never tried ones do not', () => {
    const tasks = ['A', 'B', 'C', 'D'].map((title) => taskJson({ title }));
    loadTasks(mirror, tasks);
    const [a, b, c, d] = tasks.map(
      (task) => (mirror.tasks.delete(task.task_id as string) as { opId: string }).opId,
    );
    const all = [a, b, c, d] as string[];
    expect(mirror.outbox.someSent([])).toBe(false);
    expect(mirror.outbox.someSent([...all, ...all])).toBe(false);

    mirror.outbox.start(a as string);
    expect(mirror.outbox.someSent(all)).toBe(true);
    expect(mirror.outbox.someSent([b, c, d] as string[])).toBe(false);
    // Tried once and queued again: the server may have taken it.
    mirror.outbox.start(b as string);
    mirror.outbox.fail(b as string, 'queued', { status: 503 });
    expect(mirror.outbox.someSent([b, c] as string[])).toBe(true);
    // Settled: the operation is gone from the outbox.
    mirror.outbox.settle(a as string, null);
    expect(mirror.outbox.someSent([a, c] as string[])).toBe(true);
    expect(mirror.outbox.someSent([c, d] as string[])).toBe(false);
  });

  test('settling a delete removes the task', () => {
    const task = taskJson({ title: 'Gone soon' });
    loadTasks(mirror, [task]);
    const op = mirror.tasks.delete(task.task_id as string) as { opId: string };
    mirror.outbox.start(op.opId);
    mirror.outbox.settle(op.opId, null);
    expect(mirror.tasks.get(task.task_id as string)).toBeNull();
  });

  test('a delete refused with 412 waits as failed against the newer version', () => {
    const task = taskJson({ title: 'Changed meanwhile' });
    loadTasks(mirror, [task]);
    const op = mirror.tasks.delete(task.task_id as string) as { opId: string };
    mirror.outbox.start(op.opId);
    mirror.outbox.holdDelete(op.opId, '"v9"', { status: 412 });
    expect(mirror.outbox.op(op.opId)).toMatchObject({ state: 'failed', baseEtag: '"v9"' });
    mirror.outbox.drop(op.opId);
    expect(titles()).toEqual(['Changed meanwhile']);
  });
});

describe('conflicts', () => {
  function conflicted() {
    const task = taskJson({ title: 'Base title', priority: 'low', status: 'not_started' });
    loadTasks(mirror, [task]);
    mirror.tasks.applyServerCopy(task, '"v1"');
    const id = task.task_id as string;
    const op = (mirror.tasks.edit(id, { title: 'My title', priority: 'high' }) as { opId: string }).opId;
    mirror.outbox.start(op);
    const theirs = serverVersion(task, { title: 'Their title', status: 'blocked' });
    mirror.tasks.applyServerCopy(theirs, '"v2"');
    const list = mirror.outbox.conflict(op, {
      deleted: false,
      theirsEtag: '"v2"',
      fields: [{ field: 'title', base: 'Base title', mine: 'My title', theirs: 'Their title' }],
      patch: { priority: 'high' },
      baseValues: { priority: 'low' },
    });
    return { id, op, list };
  }

  test('a field changed on both sides waits for the person, showing mine over their other changes', () => {
    const { id, op, list } = conflicted();
    expect(list).toMatchObject([
      { field: 'title', base: 'Base title', mine: 'My title', theirs: 'Their title' },
    ]);
    expect(mirror.outbox.openConflictCount()).toBe(1);
    expect(mirror.outbox.op(op)).toMatchObject({ state: 'conflict', baseEtag: '"v2"' });
    expect(mirror.outbox.ready()).toEqual([]);
    expect(mirror.tasks.get(id)?.task).toMatchObject({
      title: 'My title',
      priority: 'high',
      status: 'blocked',
    });
  });

  test('taking theirs drops the field; the rest is sent again under a new key', () => {
    const { id, op, list } = conflicted();
    mirror.outbox.resolve((list[0] as { conflictId: string }).conflictId, { take: 'theirs' });
    const [requeued] = mirror.outbox.list(['queued']);
    expect(requeued).toMatchObject({ patch: { priority: 'high' }, baseEtag: '"v2"', attempts: 0 });
    expect(requeued?.opId).not.toBe(op);
    expect(mirror.tasks.get(id)?.task.title).toBe('Their title');
    expect(mirror.outbox.openConflictCount()).toBe(0);
  });

  test('keeping mine or choosing a new value re-sends it against their version', () => {
    const { id, list } = conflicted();
    mirror.outbox.resolve((list[0] as { conflictId: string }).conflictId, { value: 'Merged title' });
    expect(mirror.outbox.list(['queued'])[0]).toMatchObject({
      patch: { priority: 'high', title: 'Merged title' },
      baseValues: { priority: 'low', title: 'Their title' },
    });
    expect(mirror.tasks.get(id)?.task.title).toBe('Merged title');
  });

  test('dropping an operation in conflict takes its conflicts with it: none is left counted', () => {
    const { id, op } = conflicted();
    mirror.outbox.drop(op);
    expect(mirror.outbox.openConflictCount()).toBe(0);
    expect(mirror.outbox.conflicts()).toEqual([]);
    expect(mirror.tasks.get(id)).toMatchObject({
      pending: false,
      task: { title: 'Their title', priority: 'low' },
    });
  });

  test('a task deleted on the server: dropping my edit removes it, keeping it re-creates it', () => {
    const task = taskJson({ title: 'Deleted remotely', priority: 'low' });
    const other = taskJson({ title: 'Also deleted remotely' });
    loadTasks(mirror, [task, other]);
    for (const t of [task, other]) {
      const op = (mirror.tasks.edit(t.task_id as string, { priority: 'urgent' }) as { opId: string }).opId;
      mirror.outbox.start(op);
      mirror.outbox.conflict(op, { deleted: true });
    }
    const conflicts = mirror.outbox.conflicts('open');
    expect(conflicts.map((c) => c.field)).toEqual([DELETED_REMOTELY, DELETED_REMOTELY]);
    expect(mirror.tasks.get(task.task_id as string)?.serverGone).toBe(true);

    mirror.outbox.resolve((conflicts[0] as { conflictId: string }).conflictId, { take: 'theirs' });
    expect(mirror.tasks.get(task.task_id as string)).toBeNull();

    mirror.outbox.resolve((conflicts[1] as { conflictId: string }).conflictId, { take: 'mine' });
    const creates = mirror.outbox.list(['queued']);
    expect(creates).toMatchObject([
      { kind: 'create', patch: { title: 'Also deleted remotely', priority: 'urgent' } },
    ]);
    expect(isTemporaryId(creates[0]?.entityId)).toBe(true);
    expect(titles()).toEqual(['Also deleted remotely']);
  });
});

describe('crash safety', () => {
  test('an edit acknowledged just before a kill -9 is in the outbox after a restart', async () => {
    const task = taskJson({ title: 'Durable' });
    loadTasks(mirror, [task]);
    handle.mirror.close();
    const openUrl = new URL('../open-mirror.ts', import.meta.url).href;
    const script = `
      const { openMirror } = await import(${JSON.stringify(openUrl)});
      const mirror = await openMirror(${JSON.stringify(handle.file)});
      mirror.tasks.edit(${JSON.stringify(task.task_id)}, { title: 'Acknowledged edit' });
      process.stdout.write('queued\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('queued')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code) => (code === null ? resolve() : reject(new Error(`child exited ${code}`))));
    });
    await new Promise((resolve) => child.on('close', resolve));
    handle.mirror = await openMirror(handle.file);
    mirror = handle.mirror;
    expect(mirror.outbox.list()).toMatchObject([{ kind: 'update', patch: { title: 'Acknowledged edit' } }]);
    expect(mirror.tasks.get(task.task_id as string)?.task.title).toBe('Acknowledged edit');
  });
});

describe("a kind's waiting operations", () => {
  test('are read alone, through an index by kind: a bulk change of tasks is not parsed to list the sections', () => {
    const tasks = Array.from({ length: 50 }, () => taskJson());
    loadTasks(mirror, tasks);
    for (const task of tasks) mirror.tasks.edit(task.task_id as string, { title: 'Bulk-changed' });
    const section = mirror.sections.create({ name: 'Later', scope_type: 'project', scope_id: 'prj_a' });

    expect(mirror.outbox.opsOfKind('section').map((op) => op.entityId)).toEqual([section.id]);
    expect(mirror.outbox.opsOfKind('task')).toHaveLength(50);
    // The section list still shows what waits to be created.
    expect(mirror.sections.list().map((s) => s.section_id)).toEqual([section.id]);
    // Every other kind's rows left unread: SQLite walks the entries of the kind alone, in an index led by it.
    const db = new Database(handle.file, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${KIND_OPS_SQL}`).all('section') as { detail: string }[])
        .map((step) => step.detail)
        .join('; ');
      expect(plan).toMatch(/SEARCH outbox USING INDEX outbox_by_(entity|parent) \(entity_type=\?\)/);
    } finally {
      db.close();
    }
  });
});

describe('what may be sent now', () => {
  test('is read oldest first across queued and in-flight changes, as far as the batch and no further: the queue is not sorted whole', () => {
    const tasks = Array.from({ length: 300 }, () => taskJson());
    loadTasks(mirror, tasks);
    const ops = tasks.map((task) => mirror.tasks.edit(task.task_id as string, { title: 'Bulk-changed' })!);
    // Two on their way (a restart re-sends them with their key), among the queued ones.
    mirror.outbox.start(ops[1]!.opId);
    mirror.outbox.start(ops[4]!.opId);

    expect(mirror.outbox.ready(5).map((op) => op.opId)).toEqual(ops.slice(0, 5).map((op) => op.opId));
    expect(mirror.outbox.ready(5).map((op) => op.state)).toEqual([
      'queued',
      'in_flight',
      'queued',
      'queued',
      'in_flight',
    ]);
    expect(mirror.outbox.ready(1000)).toHaveLength(300);
    // Each state walked in the order of its index and the two merged, so that a batch of 100 reads
    // about 100 rows after a bulk change of 50 000, where a sort had read and ordered all of them.
    const db = new Database(handle.file, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${READY_SQL}`).all() as { detail: string }[]).map(
        (step) => step.detail,
      );
      expect(plan).toContain('MERGE (UNION ALL)');
      expect(plan.filter((detail) => /USING INDEX outbox_by_state \(state=\?\)/.test(detail))).toHaveLength(
        2,
      );
      expect(plan.some((detail) => /TEMP B-TREE/.test(detail))).toBe(false);
    } finally {
      db.close();
    }
  });
});
