// ETags on every single read and list page, If-None-Match → 304 with no body,
// If-Match → 412 writing nothing, JSON merge-patch, field bounds (422), the
// deprecated PUT's headers, DELETE, and a history entry for every change.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page } from './emulator-http';
import type { HistoryRecord, ProjectRecord, TaskRecord, TeamRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';
import { postProjectSection } from './testing/project-section';

let emulator: RunningEmulator;
const clock = new ManualClock();
let team: TeamRecord;
let project: ProjectRecord;

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 200 });
  team = (await callApi<Page<TeamRecord>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`)).body
    .data[0] as TeamRecord;
  const projects = await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`);
  project = projects.body.data.find((p) => p.status === 'active') as ProjectRecord;
});
afterAll(async () => {
  await emulator.stop();
});

const mergePatch = 'application/merge-patch+json';

async function newTask(fields: Record<string, unknown> = {}): Promise<{ task: TaskRecord; etag: string }> {
  const created = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
    body: { org_id: emulator.orgId, title: 'a task to change', ...fields },
  });
  expect(created.status).toBe(201);
  return { task: created.body, etag: created.headers.get('etag') ?? '' };
}

describe('ETag and If-None-Match', () => {
  const reads: [string, () => string][] = [
    ['a task', () => `/v1/tasks/${emulator.control.tasks()[0]?.task_id}`],
    ['a task list page', () => '/v1/tasks?limit=50&sort_by=created_at'],
    ['a later task list page', () => '/v1/tasks?limit=50&offset=50'],
    ['a team', () => `/v1/teams/${team.team_id}`],
    ['the teams', () => `/v1/teams?org_id=${emulator.orgId}`],
    ['the sprints', () => `/v1/teams/${team.team_id}/sprints`],
    ['a project', () => `/v1/projects/${project.project_id}`],
    ['the projects', () => `/v1/projects/${emulator.orgId}`],
    ['the organization', () => `/v1/organizations/${emulator.orgId}`],
    ['the organizations', () => '/v1/organizations'],
    ['the members', () => `/v1/organization-members/${emulator.orgId}`],
    ['the sections', () => `/v1/sections?org_id=${emulator.orgId}`],
    ['the grouped goals', () => `/v1/goals?org_id=${emulator.orgId}`],
    ['a project’s goals', () => `/v1/projects/${project.project_id}/goals`],
    ['a task’s comments', () => `/v1/task-comments?task_id=${emulator.control.tasks()[0]?.task_id}`],
    ['a task’s history', () => `/v1/task-history?task_id=${emulator.control.tasks()[0]?.task_id}`],
  ];

  test.each(reads)('%s has an ETag; If-None-Match with it is 304 with no body', async (_name, path) => {
    const first = await callApi(emulator, 'GET', path());
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await callApi(emulator, 'GET', path());
    expect(again.headers.get('etag')).toBe(etag);
    const notModified = await callApi(emulator, 'GET', path(), { headers: { 'if-none-match': etag ?? '' } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const other = await callApi(emulator, 'GET', path(), {
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(other.status).toBe(200);
  });

  test('a page’s ETag changes when a task on it changes, and only its body decides it', async () => {
    const path = '/v1/tasks?limit=20&sort_by=created_at&sort_order=desc';
    const before = await callApi<Page<TaskRecord>>(emulator, 'GET', path);
    const onPage = before.body.data[3] as TaskRecord;
    const offPage = (
      await callApi<Page<TaskRecord>>(emulator, 'GET', `/v1/tasks?limit=20&sort_by=created_at&sort_order=asc`)
    ).body.data[0] as TaskRecord;
    emulator.control.peerEdit(offPage.task_id, { description: 'changed off the page' });
    const unrelated = await callApi(emulator, 'GET', path);
    expect(unrelated.headers.get('etag')).toBe(before.headers.get('etag'));
    emulator.control.peerEdit(onPage.task_id, { description: 'changed on the page' });
    const changed = await callApi(emulator, 'GET', path, {
      headers: { 'if-none-match': before.headers.get('etag') ?? '' },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});

describe('If-Match on writes', () => {
  test('a stale ETag is 412 precondition-failed and nothing is written', async () => {
    const { task, etag } = await newTask();
    emulator.control.peerEdit(task.task_id, { status: 'in_progress' });
    const historyBefore = emulator.control.history(task.task_id).length;
    const stale = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: 'my edit' },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('urn:svc:problem:precondition-failed');
    expect(emulator.control.task(task.task_id)?.title).toBe('a task to change');
    expect(emulator.control.history(task.task_id)).toHaveLength(historyBefore);
  });

  test('the current ETag passes and the answer carries the new one', async () => {
    const { task, etag } = await newTask();
    const answer = await callApi<TaskRecord>(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: 'renamed' },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.title).toBe('renamed');
    expect(answer.headers.get('etag')).not.toBe(etag);
    const read = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    expect(read.headers.get('etag')).toBe(answer.headers.get('etag'));
    expect(emulator.control.taskEtag(task.task_id)).toBe(answer.headers.get('etag'));
  });

  test('a weak ETag never matches If-Match', async () => {
    const { task, etag } = await newTask();
    const answer = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: 'x' },
      contentType: mergePatch,
      headers: { 'if-match': `W/${etag}` },
    });
    expect(answer.status).toBe(412);
  });

  test('DELETE with a stale ETag is 412; with the current one 204, then 404', async () => {
    const { task, etag } = await newTask();
    emulator.control.peerEdit(task.task_id, { priority: 'high' });
    expect(
      (await callApi(emulator, 'DELETE', `/v1/tasks/${task.task_id}`, { headers: { 'if-match': etag } }))
        .status,
    ).toBe(412);
    expect(emulator.control.task(task.task_id)).toBeDefined();
    const current = emulator.control.taskEtag(task.task_id) ?? '';
    const deleted = await callApi(emulator, 'DELETE', `/v1/tasks/${task.task_id}`, {
      headers: { 'if-match': current },
    });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`)).status).toBe(404);
  });

  test('sections, sprints, goals and teams refuse a stale If-Match too', async () => {
    const section = await postProjectSection(emulator, project.project_id, 'Stale check');
    const sprint = await callApi(emulator, 'POST', `/v1/teams/${team.team_id}/sprints`, {
      body: { name: 'Stale sprint', start_date: '2027-01-04' },
    });
    const goal = await callApi(emulator, 'POST', `/v1/projects/${project.project_id}/goals`, {
      body: { name: 'Stale goal' },
    });
    const paths = [
      `/v1/sections/${section.body.section_id}`,
      `/v1/teams/${team.team_id}/sprints/${sprint.body.sprint_id as string}`,
      `/v1/projects/${project.project_id}/goals/${goal.body.goal_id as string}`,
      `/v1/teams/${team.team_id}`,
    ];
    for (const path of paths) {
      const answer = await callApi(emulator, 'PATCH', path, {
        body: { name: 'whatever' },
        contentType: mergePatch,
        headers: { 'if-match': '"stale"' },
      });
      expect(answer.status, path).toBe(412);
      const read = await callApi(emulator, 'GET', path);
      expect(read.body.name, path).not.toBe('whatever');
    }
  });
});

describe('PATCH is JSON merge-patch', () => {
  test('null clears, omitted fields stay', async () => {
    const { task } = await newTask({
      description: 'keep me?',
      priority: 'high',
      tags: ['a', 'b'],
      due_date: '2027-01-01',
    });
    const answer = await callApi<TaskRecord>(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { description: null, due_date: null, tags: ['c'] },
      contentType: mergePatch,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      description: null,
      due_date: null,
      tags: ['c'],
      priority: 'high',
      title: 'a task to change',
    });
  });

  test('a required field cannot be cleared', async () => {
    const { task } = await newTask();
    const answer = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: null, status: null },
      contentType: mergePatch,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.map((e) => e.loc?.join('.')).sort()).toEqual(['body.status', 'body.title']);
  });

  test('completing a task sets completed_at and reopening clears it', async () => {
    const { task } = await newTask();
    clock.advance(1000);
    const done = await callApi<TaskRecord>(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { status: 'completed' },
      contentType: mergePatch,
    });
    expect(done.body.completed_at).toBe(new Date(clock.now()).toISOString());
    expect(done.body.updated_at).toBe(new Date(clock.now()).toISOString());
    const reopened = await callApi<TaskRecord>(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { status: 'blocked' },
      contentType: mergePatch,
    });
    expect(reopened.body.completed_at).toBeNull();
  });

  test('moving a task to another project clears its milestone', async () => {
    const milestone = await callApi<{ milestone_id: string }>(
      emulator,
      'POST',
      `/v1/projects/${project.project_id}/milestones`,
      { body: { name: 'A milestone to leave' } },
    );
    expect(milestone.status).toBe(201);
    const { task } = await newTask({
      project_id: project.project_id,
      milestone_id: milestone.body.milestone_id,
    });
    const other = (
      await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`)
    ).body.data.find((p) => p.project_id !== project.project_id && p.status === 'active');
    const moved = await callApi<TaskRecord>(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { project_id: other?.project_id },
      contentType: mergePatch,
    });
    expect(moved.body).toMatchObject({ project_id: other?.project_id, milestone_id: null });
  });

  test('a patch that changes nothing writes nothing (same ETag, no history)', async () => {
    const { task, etag } = await newTask();
    const history = emulator.control.history(task.task_id).length;
    const answer = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: task.title },
      contentType: mergePatch,
    });
    expect(answer.headers.get('etag')).toBe(etag);
    expect(emulator.control.history(task.task_id)).toHaveLength(history);
  });
});

describe('field bounds are 422 validation', () => {
  const emoji = '😀';
  test.each([
    ['an empty title', { title: '' }, 'title'],
    ['a title of 501 characters', { title: 'x'.repeat(501) }, 'title'],
    ['a description of 100 001 characters', { description: 'd'.repeat(100_001) }, 'description'],
    ['an unknown status', { status: 'done' }, 'status'],
    ['an unknown priority', { priority: 'critical' }, 'priority'],
    ['task_type goal', { task_type: 'goal' }, 'task_type'],
    ['a date that does not exist', { due_date: '2026-02-30' }, 'due_date'],
    ['a project that does not exist', { project_id: 'prj_nope' }, 'project_id'],
    ['an assignee who is not a member', { assignee: 'nobody' }, 'assignee'],
    ['tags that are not strings', { tags: [1, 2] }, 'tags.0'],
  ])('%s', async (_name, fields, loc) => {
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title: 'ok', ...fields },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.type).toBe('urn:svc:problem:validation');
    expect(answer.body.errors?.map((e) => e.loc?.join('.'))).toContain(`body.${loc}`);
  });

  test('bounds count characters, not UTF-16 units: 500 emoji is a valid title, 100 000 characters a valid description', async () => {
    const answer = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title: emoji.repeat(500), description: 'é'.repeat(100_000) },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.title).toBe(emoji.repeat(500));
  });

  test('a create for another organization is refused', async () => {
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      body: { org_id: 'org_other', title: 'x' },
    });
    expect(answer.status).toBe(403);
  });
});

describe('the deprecated PUT', () => {
  test.each([
    ['task', async () => `/v1/tasks/${(await newTask()).task.task_id}`, { title: 'put title' }],
    ['team', () => Promise.resolve(`/v1/teams/${team.team_id}`), { description: 'put description' }],
    [
      'goal',
      async () => {
        const goal = await callApi(emulator, 'POST', `/v1/projects/${project.project_id}/goals`, {
          body: { name: 'Put goal' },
        });
        return `/v1/projects/${project.project_id}/goals/${goal.body.goal_id as string}`;
      },
      { description: 'put description' },
    ],
  ])(
    'on a %s answers Deprecation, Sunset and a successor Link, and updates like PATCH',
    async (_name, pathOf, body) => {
      const path = await pathOf();
      const answer = await callApi(emulator, 'PUT', path, { body });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('deprecation')).toMatch(/^@\d+$/);
      expect(new Date(answer.headers.get('sunset') ?? '').getTime()).toBeGreaterThan(
        Date.parse('2026-09-25'),
      );
      expect(answer.headers.get('link')).toBe(`<${path}>; rel=successor-version`);
      expect(answer.body).toMatchObject(body);
    },
  );

  test('PATCH carries no deprecation headers', async () => {
    const { task } = await newTask();
    const answer = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { title: 'p' },
      contentType: mergePatch,
    });
    expect(answer.headers.get('deprecation')).toBeNull();
  });
});

describe('task history', () => {
  test('one entry per change: created, updated with {field, new, old}, deleted', async () => {
    const { task } = await newTask({ priority: 'low' });
    await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { priority: 'urgent', title: 'history' },
      contentType: mergePatch,
    });
    emulator.control.peerEdit(task.task_id, { status: 'blocked' });
    await callApi(emulator, 'DELETE', `/v1/tasks/${task.task_id}`);
    const answer = await callApi<Page<HistoryRecord>>(
      emulator,
      'GET',
      `/v1/task-history?task_id=${task.task_id}`,
    );
    expect(answer.status).toBe(200);
    const entries = answer.body.data;
    expect(entries.map((h) => h.action)).toEqual(['created', 'updated', 'updated', 'deleted']);
    expect(entries[0]?.metadata).toEqual(
      expect.arrayContaining([{ field: 'priority', new: 'low', old: null }]),
    );
    expect(entries[1]?.metadata).toEqual([
      { field: 'title', new: 'history', old: 'a task to change' },
      { field: 'priority', new: 'urgent', old: 'low' },
    ]);
    expect(entries[1]?.created_by).toBe(emulator.me.username);
    expect(entries[2]).toMatchObject({
      created_by: emulator.peer.username,
      metadata: [{ field: 'status', new: 'blocked', old: 'not_started' }],
    });
    const desc = await callApi<Page<HistoryRecord>>(
      emulator,
      'GET',
      `/v1/task-history?task_id=${task.task_id}&sort_order=desc`,
    );
    expect(desc.body.data.map((h) => h.history_id)).toEqual(entries.map((h) => h.history_id).reverse());
  });

  test('a seeded task has its created entry, and only created_at is a sort key', async () => {
    const seeded = emulator.control.tasks().find((t) => t.created_at === t.updated_at) as TaskRecord;
    const answer = await callApi<Page<HistoryRecord>>(
      emulator,
      'GET',
      `/v1/task-history?task_id=${seeded.task_id}`,
    );
    expect(answer.body.data[0]).toMatchObject({
      action: 'created',
      created_at: seeded.created_at,
      title: seeded.title,
    });
    const bad = await callApi(emulator, 'GET', `/v1/task-history?task_id=${seeded.task_id}&sort_by=action`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.allowed).toEqual(['created_at']);
  });

  test('task_id is required (422) and an unknown task is 404', async () => {
    expect((await callApi(emulator, 'GET', '/v1/task-history')).status).toBe(422);
    expect((await callApi(emulator, 'GET', '/v1/task-history?task_id=tsk_nope')).status).toBe(404);
  });
});
