// The inspector's and conflict view's calls through the real gate, over a
// mirror pushed by the real pusher to the emulator: what waits is listed with
// its values and the server's answer, and retry, discard and resolve reach the server.
import { describe, expect, test } from 'vitest';
import { loadPass } from '../../db/test-mirror';
import type { ApiClient } from '../../sync/api/api-client';
import { sectionOperations, taskCommentOperations, teamOperations } from '../../sync/api/operations';
import { mirrorPushStore } from '../../sync/push/mirror-push-store';
import { Pusher } from '../../sync/push/pusher';
import type { PushFixture } from '../../sync/push/testing/push-fixture';
import { outboxHandlers } from './outbox-handlers';
import { type Wired, wiredHandlersPerTest } from './testing/wired-handlers';
import { commentRewrittenElsewhere, editElsewhere } from '../../sync/push/testing/resource-push';

const wire = wiredHandlersPerTest(outboxHandlers);

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

describe('sprints, goals and milestones in the inspector', () => {
  test("a waiting completion of a sprint names the sprint, not 'a sprint'", async () => {
    const w = await wire();
    const teams = await w.f.api.listPage(teamOperations.list, { orgId: w.f.emulator.orgId }, { limit: 100 });
    if (teams.status !== 200) throw new Error('teams.list answered 304');
    const teamId = (teams.body.data[0] as { team_id: string }).team_id;
    w.f.mirror.sprints.create({ name: 'Sprint 12', start_date: '2027-01-04', duration_weeks: 2 }, teamId);
    await w.f.pusher.pushAll();
    const id = w.f.mirror.sprints.list(teamId).find((r) => r.name === 'Sprint 12')?.sprint_id as string;
    w.f.mirror.sprints.edit(id, { status: 'completed' });
    expect((await w.value('outbox:list')).changes).toEqual([
      expect.objectContaining({
        entity_type: 'sprint',
        entity_id: id,
        entity_name: 'Sprint 12',
        kind: 'update',
      }),
    ]);
  });
});

describe('a change held behind one that stopped (issue 21, defect 2)', () => {
  test('a task filed into a sprint whose create is read-only names the sprint create and its state; one with nothing stopped ahead waits on nothing', async () => {
    const w = await wire();
    const teams = await w.f.api.listPage(teamOperations.list, { orgId: w.f.emulator.orgId }, { limit: 100 });
    if (teams.status !== 200) throw new Error('teams.list answered 304');
    const teamId = (teams.body.data[0] as { team_id: string }).team_id;
    const [filed, other] = w.f.taskIds(2);
    if (filed === undefined || other === undefined) throw new Error('the seed has too few tasks');
    await w.f.loadTasks([filed, other]);
    const sprint = w.f.mirror.sprints.create(
      { name: 'Q3', start_date: '2027-01-04', duration_weeks: 2 },
      teamId,
    );
    // Sent with a sign-in that may not change sprints: the create is blocked.
    const { token } = w.f.emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:read', 'members:read'],
    });
    await new Pusher({ store: mirrorPushStore(w.f.mirror), api: w.f.apiWith(token) }).pushAll();
    const filing = w.f.mirror.tasks.edit(filed, { sprint_id: sprint.id });
    w.f.mirror.tasks.edit(other, { title: 'Nothing ahead of me' });

    const changes = (await w.value('outbox:list')).changes;
    expect(changes.find((c) => c.op_id === filing?.opId)).toMatchObject({
      state: 'queued',
      waits_on: {
        op_id: sprint.opId,
        kind: 'create',
        entity_type: 'sprint',
        entity_id: sprint.id,
        name: 'Q3',
        state: 'blocked',
      },
    });
    expect(changes.find((c) => c.op_id === sprint.opId)).toMatchObject({ state: 'blocked', waits_on: null });
    expect(changes.find((c) => c.task_id === other)).toMatchObject({ state: 'queued', waits_on: null });

    // Discarded, the sprint takes the filing with it: nothing is left waiting on it, and the task rows are told.
    w.events.length = 0;
    await w.value('outbox:discard', { op_id: sprint.opId });
    const after = (await w.value('outbox:list')).changes;
    expect(after.map((c) => [c.task_id, c.waits_on])).toEqual([[other, null]]);
    expect(w.events).toEqual([
      mirrorChanged({
        collections: expect.arrayContaining(['sprints', 'tasks']) as unknown,
      }),
    ]);
  });
});

describe('a task filed under a milestone in the inspector', () => {
  test('names the milestone, one sent and one still waiting, though no screen has read the project’s milestones', async () => {
    const w = await wire();
    const [sentTo, waitingFor] = w.f.taskIds(2);
    if (sentTo === undefined || waitingFor === undefined) throw new Error('the seed has too few tasks');
    await w.f.loadTasks([sentTo, waitingFor]);
    const projectOf = (taskId: string) => String(w.f.mirror.tasks.get(taskId)?.task.project_id);
    const launch = w.f.mirror.milestones.create({ name: 'Launch' }, projectOf(sentTo));
    await w.f.pusher.pushAll();
    const launchId = w.f.mirror.milestones.list().find((m) => m.name === 'Launch')?.milestone_id as string;
    expect(launchId).not.toBe(launch.id);
    const later = w.f.mirror.milestones.create({ name: 'Later' }, projectOf(waitingFor));
    w.f.mirror.tasks.edit(sentTo, { milestone_id: launchId });
    w.f.mirror.tasks.edit(waitingFor, { milestone_id: later.id });

    const changes = (await w.value('outbox:list')).changes.filter((c) => c.entity_type === undefined);
    expect(changes.map((c) => [c.task_id, c.names])).toEqual([
      [sentTo, { [launchId]: 'Launch' }],
      [waitingFor, { [later.id]: 'Later' }],
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
    const badValue = await w.call(
      'conflicts:resolve',
      settleOne(view?.op_id, title?.conflict_id, { value: '' }),
    );
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
    const resolved = await w.value(
      'conflicts:resolve',
      settleOne(view?.op_id, view?.gone?.conflict_id, { take: 'mine' }),
    );
    expect(resolved.task_id).toMatch(/^local-/);
    await w.f.pusher.pushAll();
    const recreated = w.f.emulator.control.tasks().filter((t) => t.description === 'Worth keeping');
    expect(recreated).toEqual([expect.objectContaining({ title })]);
  });
});

describe('a task deleted on the server that pointed at what the person cannot see (issue 22)', () => {
  test('the conflict view says what re-creating it leaves out; the re-create goes without it', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    const peer = w.f.apiWith(
      w.f.emulator.control.mintToken({
        principalUserId: w.f.emulator.peer.user_id,
        scopes: ['tasks:read', 'tasks:write'],
      }).token,
    );
    const theirs = await peer.create(
      sectionOperations.create,
      {},
      {
        org_id: w.f.emulator.orgId,
        scope_type: 'user',
        scope_id: w.f.emulator.peer.username,
        name: 'Deep work',
      },
      { idempotencyKey: 'peer-deep-work' },
    );
    const sectionId = theirs.body.section_id;
    w.f.emulator.control.peerEdit(taskId, { section_id: sectionId });
    await w.f.loadTasks([taskId]);
    // The sections were listed in full (none of them the teammate's).
    loadPass(w.f.mirror, 'sections', []);
    w.f.mirror.tasks.edit(taskId, { description: 'Worth keeping' });
    w.f.emulator.control.peerDelete(taskId);
    await w.f.pusher.pushAll();

    const view = await w.value('conflicts:get', { task_id: taskId });
    expect(view?.gone?.left_out).toEqual([
      `Section ${sectionId} is not visible to you; the task is re-created without a section`,
    ]);
    await w.value('conflicts:resolve', settleOne(view?.op_id, view?.gone?.conflict_id, { take: 'mine' }));
    expect(await w.f.pusher.pushAll()).toMatchObject({ pushed: 1, failed: 0 });
    expect(w.f.emulator.control.tasks().filter((t) => t.description === 'Worth keeping')).toEqual([
      expect.objectContaining({ section_id: null }),
    ]);
  });
});

/** What a screen is told when the mirror changed: `payload` holds at least these fields. */
function mirrorChanged(payload: Record<string, unknown>) {
  return { name: 'mirror:changed', payload: expect.objectContaining(payload) as unknown };
}

/** The input of conflicts:resolve settling one conflict (a field, or what was deleted) with `choice`. */
function settleOne(
  opId: string | undefined,
  conflictId: string | undefined,
  choice: { take: 'mine' | 'theirs' } | { value: string },
) {
  return { op_id: opId, choices: [{ conflict_id: conflictId, ...choice }] };
}

/** The input of conflicts:resolve settling the first field in conflict of `view` with `choice`. */
function settleFirstField(
  view: { op_id: string; fields: readonly { conflict_id: string }[] } | null | undefined,
  choice: { take: 'mine' | 'theirs' },
) {
  return settleOne(view?.op_id, view?.fields[0]?.conflict_id, choice);
}

/** My other device: the same person under another token, writing straight to the server. */
function otherDevice(f: PushFixture): ApiClient {
  return f.apiWith(f.emulator.control.mintToken({ scopes: ['tasks:read', 'tasks:write'] }).token);
}

/** My other device renames the section on the server, over the version it reads. */
async function renamedElsewhere(f: PushFixture, sectionId: string, name: string): Promise<void> {
  const other = otherDevice(f);
  await editElsewhere(other, sectionOperations.get, sectionOperations.update, { sectionId }, { name });
}

/** My other device rewrites the comment on the server, over the version it reads. */
async function rewrittenElsewhere(f: PushFixture, commentId: string, content: string): Promise<void> {
  const other = otherDevice(f);
  await commentRewrittenElsewhere(other, commentId, content);
}

async function serverSectionName(f: PushFixture, sectionId: string): Promise<string> {
  const answer = await f.api.read(sectionOperations.get, { sectionId });
  if (answer.status !== 200) throw new Error('sections.get answered 304');
  return answer.body.name;
}

/** A section of my scope ('Parked ideas'), sent to the server: its id. */
async function sentSection(f: PushFixture): Promise<string> {
  f.mirror.sections.create({ scope_type: 'user', scope_id: f.emulator.me.username, name: 'Parked ideas' });
  await f.pusher.pushAll();
  return f.mirror.sections.list().find((r) => r.name === 'Parked ideas')?.section_id as string;
}

/** A section of my scope, on the server, renamed here ('Next week') while my other device renamed it ('Soon'): one conflict. */
async function sectionConflict(w: Wired): Promise<string> {
  const { f } = w;
  const id = await sentSection(f);
  await renamedElsewhere(f, id, 'Soon');
  f.mirror.sections.edit(id, { name: 'Next week' });
  expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
  return id;
}

describe('the conflict view of a section', () => {
  test('is found by kind and id, named by the section, and never by a task; keeping mine renames it on the server', async () => {
    const w = await wire();
    const id = await sectionConflict(w);
    // A section is not a task: asked for as one, it has no conflict.
    expect(await w.value('conflicts:get', { task_id: id })).toBeNull();
    const view = await w.value('conflicts:get', { entity_type: 'section', entity_id: id });
    expect(view).toMatchObject({
      entity_type: 'section',
      entity_id: id,
      // Named as the server has it now, the name my rename would replace.
      entity_name: 'Soon',
      task_id: '',
      kind: 'edited',
      gone: null,
    });
    expect(view?.fields.map((c) => [c.field, c.base, c.mine, c.theirs])).toEqual([
      ['name', 'Parked ideas', 'Next week', 'Soon'],
    ]);
    const [list] = (await w.value('outbox:list')).changes;
    expect(list).toMatchObject({ entity_type: 'section', entity_id: id, state: 'conflict' });

    w.events.length = 0;
    const resolved = await w.value('conflicts:resolve', settleFirstField(view, { take: 'mine' }));
    expect(resolved).toEqual({ task_id: null });
    expect(w.events).toEqual([mirrorChanged({ collections: ['sections'], task_ids: null })]);
    expect(await w.value('conflicts:get', { entity_type: 'section', entity_id: id })).toBeNull();
    await w.f.pusher.pushAll();
    expect(await serverSectionName(w.f, id)).toBe('Next week');
    expect((await w.value('outbox:list')).changes).toEqual([]);
  });

  test('taking theirs sends nothing more; a typed name is checked as a section name, then sent', async () => {
    const w = await wire();
    const id = await sectionConflict(w);
    const view = await w.value('conflicts:get', { entity_type: 'section', entity_id: id });
    const conflictId = view?.fields[0]?.conflict_id;
    const bad = await w.call('conflicts:resolve', settleOne(view?.op_id, conflictId, { value: '' }));
    expect(bad).toMatchObject({ ok: false, error: { type: 'validation' } });
    expect(await w.value('conflicts:get', { entity_type: 'section', entity_id: id })).not.toBeNull();

    await w.value('conflicts:resolve', settleOne(view?.op_id, conflictId, { value: 'This week' }));
    await w.f.pusher.pushAll();
    expect(await serverSectionName(w.f, id)).toBe('This week');

    // Raced again and settled with theirs: the server keeps my other device's name.
    await renamedElsewhere(w.f, id, 'Soon');
    w.f.mirror.sections.edit(id, { name: 'Someday' });
    await w.f.pusher.pushAll();
    const again = await w.value('conflicts:get', { entity_type: 'section', entity_id: id });
    expect(again?.fields.map((c) => [c.base, c.mine, c.theirs])).toEqual([['This week', 'Someday', 'Soon']]);
    await w.value('conflicts:resolve', settleFirstField(again, { take: 'theirs' }));
    w.f.emulator.control.clearRequests();
    await w.f.pusher.pushAll();
    expect(w.f.emulator.control.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(await serverSectionName(w.f, id)).toBe('Soon');
  });

  test('a section refused as a duplicate name (409) is retried with another name through the same call', async () => {
    const w = await wire();
    const scope = { scope_type: 'user', scope_id: w.f.emulator.me.username };
    w.f.mirror.sections.create({ ...scope, name: 'Parked ideas' });
    await w.f.pusher.pushAll();
    w.f.mirror.sections.create({ ...scope, name: 'Parked ideas' });
    await w.f.pusher.pushAll();
    const [failed] = (await w.value('outbox:list')).changes;
    expect(failed).toMatchObject({ entity_type: 'section', state: 'failed', last_answer: { status: 409 } });

    const notAField = await w.call('outbox:retry', { op_id: failed?.op_id, patch: { title: 'x' } });
    expect(notAField).toMatchObject({ ok: false, error: { type: 'validation' } });
    const retried = await w.value('outbox:retry', {
      op_id: failed?.op_id,
      patch: { name: 'Parked ideas, again' },
    });
    expect(retried).toMatchObject({ entity_type: 'section', state: 'queued' });
    await w.f.pusher.pushAll();
    expect((await w.value('outbox:list')).changes).toEqual([]);
    expect(
      w.f.mirror.sections
        .list()
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Parked ideas', 'Parked ideas, again']);
  });
});

describe('a section deleted on the server while renamed here', () => {
  test('is offered as a draft in its own words; dropping the edit leaves nothing waiting and opens no task', async () => {
    const w = await wire();
    const { f } = w;
    const id = await sentSection(f);
    const other = otherDevice(f);
    const current = await other.read(sectionOperations.get, { sectionId: id });
    await other.remove(sectionOperations.delete, { sectionId: id }, { ifMatch: current.etag });
    f.mirror.sections.edit(id, { name: 'Next week' });
    await f.pusher.pushAll();

    const view = await w.value('conflicts:get', { entity_type: 'section', entity_id: id });
    expect(view).toMatchObject({
      entity_type: 'section',
      entity_id: id,
      task_id: '',
      kind: 'gone',
      gone: { status: 404, draft: { name: 'Next week' } },
    });
    const resolved = await w.value(
      'conflicts:resolve',
      settleOne(view?.op_id, view?.gone?.conflict_id, { take: 'theirs' }),
    );
    expect(resolved).toEqual({ task_id: null });
    expect((await w.value('outbox:list')).changes).toEqual([]);
    expect(f.mirror.sections.list().some((r) => r.section_id === id)).toBe(false);
  });
});

describe('the conflict view of a comment', () => {
  /** My comment, sent, then edited here ('Mine') while my other device changed it ('Theirs'). */
  async function commentConflict(w: Wired): Promise<{ taskId: string; commentId: string }> {
    const { f } = w;
    const [taskId] = f.taskIds(1) as [string];
    await f.loadTasks([taskId]);
    f.mirror.comments.create({ taskId, content: 'Original' });
    await f.pusher.pushAll();
    const commentId = f.mirror.comments.threads(taskId).find((c) => c.content === 'Original')
      ?.comment_id as string;
    await rewrittenElsewhere(f, commentId, 'Theirs');
    f.mirror.comments.edit(commentId, 'Mine');
    expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
    return { taskId, commentId };
  }

  async function serverContent(f: PushFixture, commentId: string): Promise<unknown> {
    const answer = await f.api.read(taskCommentOperations.get, { commentId });
    if (answer.status !== 200) throw new Error('task-comments.get answered 304');
    return answer.body.content;
  }

  test('is told on its task with the text of each side; keeping mine sends my text', async () => {
    const w = await wire();
    const { taskId, commentId } = await commentConflict(w);
    const title = w.f.emulator.control.task(taskId)?.title;
    const view = await w.value('conflicts:get', { entity_type: 'comment', entity_id: commentId });
    expect(view).toMatchObject({
      entity_type: 'comment',
      entity_id: commentId,
      task_id: taskId,
      task_title: title,
      kind: 'edited',
    });
    expect(view?.fields.map((c) => [c.field, c.base, c.mine, c.theirs])).toEqual([
      ['content', 'Original', 'Mine', 'Theirs'],
    ]);
    // The task itself has no conflict of its own.
    expect(await w.value('conflicts:get', { task_id: taskId })).toBeNull();

    w.events.length = 0;
    const resolved = await w.value('conflicts:resolve', settleFirstField(view, { take: 'mine' }));
    expect(resolved).toEqual({ task_id: taskId });
    expect(w.events).toEqual([mirrorChanged({ collections: ['task_comments'], task_ids: [taskId] })]);
    await w.f.pusher.pushAll();
    expect(await serverContent(w.f, commentId)).toBe('Mine');
  });

  test('taking theirs keeps their text; a typed text is sent instead, an empty one refused', async () => {
    const w = await wire();
    const { commentId } = await commentConflict(w);
    const view = await w.value('conflicts:get', { entity_type: 'comment', entity_id: commentId });
    const conflictId = view?.fields[0]?.conflict_id;
    expect(
      await w.call('conflicts:resolve', settleOne(view?.op_id, conflictId, { value: '' })),
    ).toMatchObject({ ok: false, error: { type: 'validation' } });
    await w.value('conflicts:resolve', settleOne(view?.op_id, conflictId, { value: 'Mine and theirs' }));
    await w.f.pusher.pushAll();
    expect(await serverContent(w.f, commentId)).toBe('Mine and theirs');

    await rewrittenElsewhere(w.f, commentId, 'Theirs again');
    w.f.mirror.comments.edit(commentId, 'Mine again');
    await w.f.pusher.pushAll();
    const again = await w.value('conflicts:get', { entity_type: 'comment', entity_id: commentId });
    await w.value('conflicts:resolve', settleFirstField(again, { take: 'theirs' }));
    await w.f.pusher.pushAll();
    expect(await serverContent(w.f, commentId)).toBe('Theirs again');
    expect((await w.value('outbox:list')).changes).toEqual([]);
  });
});

describe('names of what ids point at (issue 13)', () => {
  test('the three-way view of a task’s sprint conflict names the sprints, a queued one and one whose delete waits too', async () => {
    const w = await wire();
    const [taskId, other] = w.f.taskIds(2);
    if (taskId === undefined || other === undefined) throw new Error('the seed has too few tasks');
    await w.f.loadTasks([taskId, other]);
    const teams = await w.f.api.listPage(teamOperations.list, { orgId: w.f.emulator.orgId }, { limit: 100 });
    if (teams.status !== 200) throw new Error('teams.list answered 304');
    const teamId =
      (w.f.mirror.tasks.get(taskId)?.task.team_id as string | null | undefined) ??
      (teams.body.data[0] as { team_id: string }).team_id;
    for (const name of ['Sprint 12', 'Sprint 13'])
      w.f.mirror.sprints.create({ name, start_date: '2027-01-04', duration_weeks: 2 }, teamId);
    await w.f.pusher.pushAll();
    const idOf = (name: string) =>
      w.f.mirror.sprints.list(teamId).find((s) => s.name === name)?.sprint_id as string;
    const [mine, theirs] = [idOf('Sprint 12'), idOf('Sprint 13')];
    w.f.mirror.tasks.edit(taskId, { sprint_id: mine });
    w.f.emulator.control.peerEdit(taskId, { sprint_id: theirs });
    await w.f.pusher.pushAll();

    const view = await w.value('conflicts:get', { task_id: taskId });
    expect(view?.fields.map((c) => [c.field, c.mine, c.theirs])).toEqual([['sprint_id', mine, theirs]]);
    expect(view?.names).toEqual({ [mine]: 'Sprint 12', [theirs]: 'Sprint 13' });

    // A sprint still queued is named by its waiting create; a goal whose delete waits keeps its name, marked.
    const projectId = String(w.f.mirror.tasks.get(other)?.task.project_id);
    w.f.mirror.goals.create({ name: 'Faster login' }, projectId);
    await w.f.pusher.pushAll();
    const queued = w.f.mirror.sprints.create(
      { name: 'Sprint 14', start_date: '2027-02-01', duration_weeks: 1 },
      teamId,
    );
    const goalId = w.f.mirror.goals.list().find((g) => g.name === 'Faster login')?.goal_id as string;
    w.f.mirror.tasks.edit(other, { sprint_id: queued.id, goal_id: goalId });
    w.f.mirror.goals.delete(goalId);
    const listed = (await w.value('outbox:list')).changes.find((c) => c.task_id === other);
    expect(listed?.names).toEqual({ [queued.id]: 'Sprint 14', [goalId]: 'Faster login (deleted)' });
  });

  test('a reply’s parent comment is named by its author and first words, a queued parent too', async () => {
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    await w.f.loadTasks([taskId]);
    const parent = w.f.mirror.comments.create({ taskId, content: 'Which build broke the login page?' });
    w.f.mirror.comments.create({ taskId, content: 'The one from Monday', parentCommentId: parent.commentId });
    const reply = (await w.value('outbox:list')).changes.find((c) =>
      c.changes.some((f) => f.field === 'parent_comment_id'),
    );
    expect(reply?.names?.[parent.commentId]).toMatch(/‘Which build broke the login page\?’$/);
  });
});
