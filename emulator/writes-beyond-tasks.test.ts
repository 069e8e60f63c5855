// Every create and update of gaps.md "Writes beyond tasks" (comments and
// replies, sections, sprints, goals, milestones) keeps the rules of task writes:
// scopes, read-only test tokens, Idempotency-Key replay and reuse, an ETag on
// every create, update and single read (304 with If-None-Match), If-Match 412
// writing nothing. Then the rules of each kind: who may edit or delete a
// comment, mentions, bounds, and what a delete leaves behind.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { goalSchema } from '../protocol/goal';
import { milestoneSchema } from '../protocol/milestone';
import { sectionSchema } from '../protocol/section';
import { sprintSchema } from '../protocol/sprint';
import { viewSchema } from '../protocol/view';
import { viewPinSchema } from '../protocol/view-pin';
import { taskCommentSchema } from '../protocol/task-comment';
import type { z } from 'zod';
import { ManualClock } from './clock';
import { type ApiAnswer, callApi, type Page } from './emulator-http';
import type { ProjectRecord, TaskRecord, TeamRecord } from './records';
import type { CreateCounts } from './store';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();
let project: ProjectRecord;
let team: TeamRecord;
let task: TaskRecord;
let parentCommentId: string;
/** Views made for pins to pin, one a pin: a view is pinned once. */
const viewsToPin: string[] = [];
const mergePatch = 'application/merge-patch+json';
let serial = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 100 });
  const projects = await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`);
  project = projects.body.data.find((p) => p.status === 'active') as ProjectRecord;
  const teams = await callApi<Page<TeamRecord>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`);
  team = teams.body.data.find((t) => t.name === 'Platform') as TeamRecord;
  const created = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
    body: { org_id: emulator.orgId, title: 'a task to talk about', project_id: project.project_id },
  });
  task = created.body;
  const comment = await callApi(emulator, 'POST', '/v1/task-comments', {
    body: { task_id: task.task_id, content: 'the thread to reply to' },
  });
  parentCommentId = String(comment.body.comment_id);
  for (let i = 0; i < 20; i++) {
    const view = await callApi(emulator, 'POST', '/v1/views', {
      body: { org_id: emulator.orgId, name: `To pin ${i}` },
    });
    viewsToPin.push(String(view.body.view_id));
  }
});
afterAll(async () => {
  await emulator.stop();
});

interface WriteKind {
  kind: string;
  createScope: string;
  /** The scope that reads the kind but does not write it. */
  readScope: string;
  counter: keyof CreateCounts;
  schema: z.ZodType<Record<string, unknown>>;
  create(): { path: string; body: Record<string, unknown> };
  /** Where one resource is read, changed and deleted. */
  pathOf(created: Record<string, unknown>): string;
  patch: Record<string, unknown>;
  deletable: boolean;
}

const unique = () => `${++serial}`;

const kinds: WriteKind[] = [
  {
    kind: 'comment',
    createScope: 'tasks:write',
    readScope: 'tasks:read',
    counter: 'comments',
    schema: taskCommentSchema,
    create: () => ({
      path: '/v1/task-comments',
      body: { task_id: task.task_id, content: `note ${unique()}` },
    }),
    pathOf: (c) => `/v1/task-comments/${String(c.comment_id)}`,
    patch: { content: 'edited by its author' },
    deletable: true,
  },
  {
    kind: 'comment reply',
    createScope: 'tasks:write',
    readScope: 'tasks:read',
    counter: 'comments',
    schema: taskCommentSchema,
    create: () => ({
      path: '/v1/task-comments/reply',
      body: { parent_comment_id: parentCommentId, content: `reply ${unique()}` },
    }),
    pathOf: (c) => `/v1/task-comments/${String(c.comment_id)}`,
    patch: { content: 'reply, edited' },
    deletable: true,
  },
  {
    kind: 'section',
    createScope: 'tasks:write',
    readScope: 'tasks:read',
    counter: 'sections',
    schema: sectionSchema,
    create: () => ({
      path: '/v1/sections',
      body: {
        org_id: emulator.orgId,
        scope_type: 'project',
        scope_id: project.project_id,
        name: `Section ${unique()}`,
      },
    }),
    pathOf: (s) => `/v1/sections/${String(s.section_id)}`,
    patch: { name: `Renamed section ${unique()}`, position: 99 },
    deletable: true,
  },
  {
    kind: 'sprint',
    createScope: 'teams:write',
    readScope: 'teams:read',
    counter: 'sprints',
    schema: sprintSchema,
    create: () => ({
      path: `/v1/teams/${team.team_id}/sprints`,
      body: { name: `Sprint x${unique()}`, start_date: '2027-01-04', duration_weeks: 2 },
    }),
    pathOf: (s) => `/v1/teams/${team.team_id}/sprints/${String(s.sprint_id)}`,
    patch: { goal: 'ship it', end_date: '2027-01-24' },
    deletable: false,
  },
  {
    kind: 'goal',
    createScope: 'projects:write',
    readScope: 'projects:read',
    counter: 'goals',
    schema: goalSchema,
    create: () => ({
      path: `/v1/projects/${project.project_id}/goals`,
      body: { name: `Goal ${unique()}`, target_date: '2027-03-01' },
    }),
    pathOf: (g) => `/v1/projects/${project.project_id}/goals/${String(g.goal_id)}`,
    patch: { status: 'closed' },
    deletable: true,
  },
  {
    kind: 'milestone',
    createScope: 'projects:write',
    readScope: 'projects:read',
    counter: 'milestones',
    schema: milestoneSchema,
    create: () => ({
      path: `/v1/projects/${project.project_id}/milestones`,
      body: { name: `Milestone ${unique()}`, due_date: '2027-03-01' },
    }),
    pathOf: (m) => `/v1/projects/${project.project_id}/milestones/${String(m.milestone_id)}`,
    patch: { status: 'completed', position: 5 },
    deletable: true,
  },
  {
    kind: 'view',
    createScope: 'tasks:write',
    readScope: 'tasks:read',
    counter: 'views',
    schema: viewSchema,
    create: () => ({
      path: '/v1/views',
      body: { org_id: emulator.orgId, name: `View ${unique()}`, filters: { status: ['blocked'] } },
    }),
    pathOf: (v) => `/v1/views/${String(v.view_id)}`,
    patch: { visibility: 'shared', filters: { priority: ['high', 'urgent'] } },
    deletable: true,
  },
  {
    kind: 'view pin',
    createScope: 'tasks:write',
    readScope: 'tasks:read',
    counter: 'view_pins',
    schema: viewPinSchema,
    create: () => ({
      path: '/v1/view-pins',
      body: { org_id: emulator.orgId, view_id: viewsToPin.shift(), position: 10 },
    }),
    pathOf: (p) => `/v1/view-pins/${String(p.pin_id)}`,
    patch: { position: 20 },
    deletable: true,
  },
];

async function create(kind: WriteKind): Promise<{ body: Record<string, unknown>; etag: string }> {
  const { path, body } = kind.create();
  const answer = await callApi(emulator, 'POST', path, { body });
  expect(answer.status, answer.text).toBe(201);
  const etag = answer.headers.get('etag');
  expect(etag).toMatch(/^"/);
  return { body: kind.schema.parse(answer.body), etag: etag ?? '' };
}

function problemType(answer: ApiAnswer): string | undefined {
  return answer.body.type;
}

describe.each(kinds)('$kind', (kind) => {
  test('a token without the write scope is 403 insufficient-scope naming it; a test token is read-only', async () => {
    const { path, body } = kind.create();
    const before = emulator.control.creates()[kind.counter];
    const { token } = emulator.control.mintToken({ scopes: [kind.readScope] });
    const noScope = await callApi(emulator, 'POST', path, { body, token });
    expect(noScope.status).toBe(403);
    expect(problemType(noScope)).toBe('urn:svc:problem:insufficient-scope');
    expect(noScope.body.errors?.[0]?.required).toBe(kind.createScope);
    const testToken = await callApi(emulator, 'POST', path, { body, token: emulator.tokens.test });
    expect(testToken.status).toBe(403);
    expect(problemType(testToken)).toBe('urn:svc:problem:test-token-read-only');
    const { body: created } = await create(kind);
    const patched = await callApi(emulator, 'PATCH', kind.pathOf(created), {
      body: kind.patch,
      contentType: mergePatch,
      token: emulator.tokens.test,
    });
    expect(patched.status).toBe(403);
    expect(emulator.control.creates()[kind.counter]).toBe(before + 1);
  });

  test('Idempotency-Key: a retry is answered the first answer and creates once; another body is 422', async () => {
    const { path, body } = kind.create();
    const key = `key-${kind.kind}-${unique()}`;
    const before = emulator.control.creates()[kind.counter];
    const first = await callApi(emulator, 'POST', path, { body, headers: { 'idempotency-key': key } });
    const retry = await callApi(emulator, 'POST', path, { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(emulator.control.creates()[kind.counter]).toBe(before + 1);
    const reused = await callApi(emulator, 'POST', path, {
      body: kind.create().body,
      headers: { 'idempotency-key': key },
    });
    expect(reused.status).toBe(422);
    expect(problemType(reused)).toBe('urn:svc:problem:idempotency-key-reused');
    expect(emulator.control.creates()[kind.counter]).toBe(before + 1);
  });

  test('create, GET and PATCH answer an ETag; GET with it is 304; a stale If-Match is 412 and writes nothing', async () => {
    const { body: created, etag } = await create(kind);
    const path = kind.pathOf(created);
    const read = await callApi(emulator, 'GET', path);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(etag);
    const cached = await callApi(emulator, 'GET', path, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');

    const changed = await callApi(emulator, 'PATCH', path, {
      body: kind.patch,
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(kind.schema.parse(changed.body)).toMatchObject(kind.patch);
    const newEtag = changed.headers.get('etag') ?? '';
    expect(newEtag).not.toBe(etag);
    expect((await callApi(emulator, 'GET', path)).headers.get('etag')).toBe(newEtag);

    const stale = await callApi(emulator, 'PATCH', path, {
      body: kind.create().body,
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(problemType(stale)).toBe('urn:svc:problem:precondition-failed');
    expect((await callApi(emulator, 'GET', path)).text).toBe(changed.text);

    if (!kind.deletable) return;
    const staleDelete = await callApi(emulator, 'DELETE', path, { headers: { 'if-match': etag } });
    expect(staleDelete.status).toBe(412);
    expect((await callApi(emulator, 'GET', path)).status).toBe(200);
    const deleted = await callApi(emulator, 'DELETE', path, { headers: { 'if-match': newEtag } });
    expect([200, 204]).toContain(deleted.status);
    expect((await callApi(emulator, 'GET', path)).status).toBe(404);
  });
});

describe('comments', () => {
  async function comment(content: string, token = emulator.tokens.live) {
    const answer = await callApi(emulator, 'POST', '/v1/task-comments', {
      body: { task_id: task.task_id, content },
      token,
    });
    expect(answer.status, answer.text).toBe(201);
    return taskCommentSchema.parse(answer.body);
  }

  test('only the author edits a comment: another member, even an org owner, is 403 and changes nothing', async () => {
    const mine = await comment('written by ada');
    const theirs = await comment('written by grace', emulator.tokens.peer);
    const byPeer = await callApi(emulator, 'PATCH', `/v1/task-comments/${mine.comment_id}`, {
      body: { content: 'grace was here' },
      contentType: mergePatch,
      token: emulator.tokens.peer,
    });
    expect(byPeer.status).toBe(403);
    const byOwner = await callApi(emulator, 'PATCH', `/v1/task-comments/${theirs.comment_id}`, {
      body: { content: 'ada was here' },
      contentType: mergePatch,
    });
    expect(byOwner.status).toBe(403);
    expect((await callApi(emulator, 'GET', `/v1/task-comments/${mine.comment_id}`)).body.content).toBe(
      'written by ada',
    );
    expect((await callApi(emulator, 'GET', `/v1/task-comments/${theirs.comment_id}`)).body.content).toBe(
      'written by grace',
    );
    const own = await callApi(emulator, 'PATCH', `/v1/task-comments/${theirs.comment_id}`, {
      body: { content: 'written by grace, edited' },
      contentType: mergePatch,
      token: emulator.tokens.peer,
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      content: 'written by grace, edited',
      created_by: emulator.peer.username,
    });
  });

  test('the author or an org owner or admin deletes a comment (204); another member is 403', async () => {
    const mine = await comment('ada’s, not grace’s to delete');
    const theirs = await comment('grace’s, the owner may delete it', emulator.tokens.peer);
    const own = await comment('grace deletes her own', emulator.tokens.peer);
    const byPeer = await callApi(emulator, 'DELETE', `/v1/task-comments/${mine.comment_id}`, {
      token: emulator.tokens.peer,
    });
    expect(byPeer.status).toBe(403);
    expect((await callApi(emulator, 'GET', `/v1/task-comments/${mine.comment_id}`)).status).toBe(200);
    expect((await callApi(emulator, 'DELETE', `/v1/task-comments/${theirs.comment_id}`)).status).toBe(204);
    const ownDelete = await callApi(emulator, 'DELETE', `/v1/task-comments/${own.comment_id}`, {
      token: emulator.tokens.peer,
    });
    expect(ownDelete.status).toBe(204);
    const left = await callApi<Page<{ comment_id: string }>>(
      emulator,
      'GET',
      `/v1/task-comments?task_id=${task.task_id}&limit=1000`,
    );
    const ids = left.body.data.map((c) => c.comment_id);
    expect(ids).toContain(mine.comment_id);
    expect(ids).not.toContain(theirs.comment_id);
    expect(ids).not.toContain(own.comment_id);
  });

  test("an org admin deletes another's comment (204); a member who is not its author is 403 and it stays", async () => {
    const members = await callApi<Page<{ user_id: string; username: string; role: string | null }>>(
      emulator,
      'GET',
      `/v1/organization-members/${emulator.orgId}?limit=100`,
    );
    const tokenOf = (role: string) => {
      const member = members.body.data.find(
        (m) =>
          m.role === role && m.username !== emulator.peer.username && m.username !== emulator.me.username,
      );
      if (!member) throw new Error(`the seed has no other ${role}`);
      return emulator.control.mintToken({ scopes: ['tasks:write'], principalUserId: member.user_id }).token;
    };
    const admin = tokenOf('admin');
    const member = tokenOf('member');
    const owners = await comment('the owner’s, an admin may delete it');
    const graces = await comment('grace’s, not margaret’s to delete', emulator.tokens.peer);
    const byMember = await callApi(emulator, 'DELETE', `/v1/task-comments/${graces.comment_id}`, {
      token: member,
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toMatchObject({ status: 403 });
    expect((await callApi(emulator, 'GET', `/v1/task-comments/${graces.comment_id}`)).status).toBe(200);
    const byAdmin = await callApi(emulator, 'DELETE', `/v1/task-comments/${owners.comment_id}`, {
      token: admin,
    });
    expect(byAdmin.status).toBe(204);
    expect(
      (await callApi(emulator, 'DELETE', `/v1/task-comments/${graces.comment_id}`, { token: admin })).status,
    ).toBe(204);
    expect((await callApi(emulator, 'GET', `/v1/task-comments/${owners.comment_id}`)).status).toBe(404);
  });

  test('a deleted comment takes its replies with it', async () => {
    const root = await comment('a thread');
    const reply = await callApi(emulator, 'POST', '/v1/task-comments/reply', {
      body: { parent_comment_id: root.comment_id, content: 'an answer' },
    });
    expect(reply.status).toBe(201);
    expect((await callApi(emulator, 'DELETE', `/v1/task-comments/${root.comment_id}`)).status).toBe(204);
    expect(
      (await callApi(emulator, 'GET', `/v1/task-comments/${String(reply.body.comment_id)}`)).status,
    ).toBe(404);
  });

  test('mentions are the members named by @username, a sentence’s closing dot aside, not e-mail addresses', async () => {
    const c = await comment('Thanks @grace. Could @linus, or @nobody, look? Mail ada@northwind.example');
    expect(c.mentions?.map((m) => m.username)).toEqual(['grace', 'linus']);
    const edited = await callApi(emulator, 'PATCH', `/v1/task-comments/${c.comment_id}`, {
      body: { content: 'Only @margaret now' },
      contentType: mergePatch,
    });
    expect(taskCommentSchema.parse(edited.body).mentions?.map((m) => m.username)).toEqual(['margaret']);
  });

  test('an edit holds 1..100 000 characters (422 naming content); an unknown comment is 404', async () => {
    const c = await comment('to be edited');
    const path = `/v1/task-comments/${c.comment_id}`;
    for (const content of ['', 'x'.repeat(100_001)]) {
      const answer = await callApi(emulator, 'PATCH', path, { body: { content }, contentType: mergePatch });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.map((e) => e.loc)).toEqual([['body', 'content']]);
    }
    const longest = await callApi(emulator, 'PATCH', path, {
      body: { content: 'x'.repeat(100_000) },
      contentType: mergePatch,
    });
    expect(longest.status).toBe(200);
    expect(
      (await callApi(emulator, 'PATCH', '/v1/task-comments/cmt_none', { body: { content: 'x' } })).status,
    ).toBe(404);
  });
});

describe('bounds of the other kinds', () => {
  const cases: { kind: string; path: () => string; body: Record<string, unknown>; field: string }[] = [
    {
      kind: 'goal name over 200',
      path: () => `/v1/projects/${project.project_id}/goals`,
      body: { name: 'g'.repeat(201) },
      field: 'name',
    },
    {
      kind: 'sprint name over 120',
      path: () => `/v1/teams/${team.team_id}/sprints`,
      body: { name: 's'.repeat(121), start_date: '2027-01-04' },
      field: 'name',
    },
    {
      kind: 'sprint of 53 weeks',
      path: () => `/v1/teams/${team.team_id}/sprints`,
      body: { name: 'Long', start_date: '2027-01-04', duration_weeks: 53 },
      field: 'duration_weeks',
    },
    {
      kind: 'section name over 120',
      path: () => '/v1/sections',
      body: { scope_type: 'user', scope_id: 'ada', name: 'n'.repeat(121) },
      field: 'name',
    },
  ];
  test.each(cases)('$kind is 422 validation naming $field', async ({ path, body, field }) => {
    const answer = await callApi(emulator, 'POST', path(), { body: { org_id: emulator.orgId, ...body } });
    expect(answer.status).toBe(422);
    expect(answer.body.type).toBe('urn:svc:problem:validation');
    expect(answer.body.errors?.map((e) => e.loc)).toEqual([['body', field]]);
  });

  test('a goal name of 200 characters is valid (gaps.md: 1..200)', async () => {
    const answer = await callApi(emulator, 'POST', `/v1/projects/${project.project_id}/goals`, {
      body: { name: '🎯'.repeat(200) },
    });
    expect(answer.status, answer.text).toBe(201);
  });
});
