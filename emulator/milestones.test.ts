// Milestones (gaps.md "Milestones"): the per-project list with cursor pages and
// page ETags, the grouped list in the shape of GET /v1/goals, create / PATCH /
// DELETE with the same rules as tasks, filing by a task PATCH (a milestone of
// another project is 422), unfiling (by PATCH, by the contract's DELETE, by
// moving the task, by deleting the milestone), the seed, and variance. Every
// answer is read with the protocol's schemas, as the client reads it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acknowledgementSchema } from '../protocol/acknowledgement';
import { listPageSchema } from '../protocol/list-page';
import {
  groupedMilestonesSchema,
  type Milestone,
  milestoneSchema,
  milestoneTaskUnfiledSchema,
} from '../protocol/milestone';
import { taskSchema } from '../protocol/task';
import { ManualClock } from './clock';
import { callApi, type Page } from './emulator-http';
import type { ProjectRecord, TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();
let projects: ProjectRecord[];
let project: ProjectRecord;
let other: ProjectRecord;
const mergePatch = 'application/merge-patch+json';

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 400 });
  projects = (await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`)).body
    .data;
  const active = projects.filter((p) => p.status === 'active');
  project = active[0] as ProjectRecord;
  other = active[1] as ProjectRecord;
});
afterAll(async () => {
  await emulator.stop();
});

const milestonesOf = (projectId: string) => `/v1/projects/${projectId}/milestones`;
/** The path of a milestone under its own project. */
const milestonePath = (m: { project_id: string; milestone_id: string }) =>
  `${milestonesOf(m.project_id)}/${m.milestone_id}`;

async function createMilestone(projectId: string, body: Record<string, unknown>) {
  const answer = await callApi(emulator, 'POST', milestonesOf(projectId), { body });
  expect(answer.status, answer.text).toBe(201);
  return { milestone: milestoneSchema.parse(answer.body), etag: answer.headers.get('etag') ?? '' };
}

async function newTask(fields: Record<string, unknown>) {
  const answer = await callApi(emulator, 'POST', '/v1/tasks', {
    body: { org_id: emulator.orgId, title: 'filed work', ...fields },
  });
  expect(answer.status, answer.text).toBe(201);
  return taskSchema.parse(answer.body);
}

async function patchTask(taskId: string, body: Record<string, unknown>) {
  return callApi(emulator, 'PATCH', `/v1/tasks/${taskId}`, { body, contentType: mergePatch });
}

async function readMilestone(projectId: string, milestoneId: string) {
  return callApi(emulator, 'GET', `${milestonesOf(projectId)}/${milestoneId}`);
}

describe('the seed', () => {
  test('some projects have milestones with tasks filed under them; the counts are those tasks', async () => {
    const grouped = groupedMilestonesSchema.parse(
      (await callApi(emulator, 'GET', `/v1/milestones?org_id=${emulator.orgId}`)).body,
    );
    expect(grouped.projects.length).toBeGreaterThanOrEqual(3);
    expect(grouped.projects.length).toBeLessThan(projects.length);
    const tasks: TaskRecord[] = emulator.control.tasks();
    let filed = 0;
    for (const group of grouped.projects) {
      for (const m of group.data) {
        expect(m.project_id).toBe(group.project_id);
        const under = tasks.filter((t) => t.milestone_id === m.milestone_id);
        expect(under.every((t) => t.project_id === m.project_id)).toBe(true);
        expect(m.tasks_total).toBe(under.length);
        expect(m.tasks_completed).toBe(under.filter((t) => t.status === 'completed').length);
        filed += under.length;
      }
    }
    expect(filed).toBeGreaterThan(10);
    expect(new Set(grouped.projects.flatMap((g) => g.data.map((m) => m.status)))).toEqual(
      new Set(['open', 'completed']),
    );
  });

  test('the same seed gives the same milestones; another seed other ids', async () => {
    const again = await startEmulator({ clock, seedTasks: 400 });
    const another = await startEmulator({ clock, seedTasks: 400, seed: 7 });
    try {
      const read = async (e: RunningEmulator) =>
        (await callApi(e, 'GET', `/v1/milestones?org_id=${e.orgId}`)).text;
      expect(await read(again)).toBe(await read(emulator));
      expect(await read(another)).not.toBe(await read(again));
    } finally {
      await again.stop();
      await another.stop();
    }
  });
});

describe('lists', () => {
  test('per project: cursor pages in position order, each page with an ETag (304 when unchanged)', async () => {
    const { milestone: first } = await createMilestone(other.project_id, { name: 'Paged 1', position: 1 });
    await createMilestone(other.project_id, { name: 'Paged 2', position: 2 });
    await createMilestone(other.project_id, { name: 'Paged 3', position: 3 });
    const pageSchema = listPageSchema(milestoneSchema);
    const seen: Milestone[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `${milestonesOf(other.project_id)}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const answer = await callApi(emulator, 'GET', path);
      expect(answer.status).toBe(200);
      const etag = answer.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await callApi(emulator, 'GET', path, { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const page = pageSchema.parse(answer.body);
      seen.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    const positions = seen.map((m) => m.position as number);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(seen[0]?.milestone_id).toBe(first.milestone_id);
    expect(new Set(seen.map((m) => m.milestone_id)).size).toBe(seen.length);
  });

  test('a page ETag changes when a milestone on it changes', async () => {
    const path = `${milestonesOf(other.project_id)}?limit=1`;
    const before = await callApi(emulator, 'GET', path);
    const top = milestoneSchema.parse(before.body.data?.[0]);
    const renamed = await callApi(
      emulator,
      'PATCH',
      `${milestonesOf(other.project_id)}/${top.milestone_id}`,
      { body: { name: `${top.name}, renamed` }, contentType: mergePatch },
    );
    expect(renamed.status).toBe(200);
    const after = await callApi(emulator, 'GET', path, {
      headers: { 'if-none-match': before.headers.get('etag') ?? '' },
    });
    expect(after.status).toBe(200);
    expect(after.body.data?.[0]?.name).toBe(`${top.name}, renamed`);
  });

  test('grouped: the shape of GET /v1/goals, filters by project and status, one ETag (304)', async () => {
    const path = `/v1/milestones?org_id=${emulator.orgId}`;
    const answer = await callApi(emulator, 'GET', path);
    const grouped = groupedMilestonesSchema.parse(answer.body);
    expect(answer.body).toMatchObject({ org_id: emulator.orgId });
    expect(grouped.total).toBe(grouped.projects.reduce((n, g) => n + g.data.length, 0));
    for (const group of grouped.projects) {
      expect(group.next_cursor).toBeNull();
      expect(group.milestones_tasks_total).toBe(group.data.reduce((n, m) => n + (m.tasks_total ?? 0), 0));
    }
    const notModified = await callApi(emulator, 'GET', path, {
      headers: { 'if-none-match': answer.headers.get('etag') ?? '' },
    });
    expect(notModified.status).toBe(304);

    const one = groupedMilestonesSchema.parse(
      (await callApi(emulator, 'GET', `${path}&filter[project]=${other.project_id}`)).body,
    );
    expect(one.projects.map((g) => g.project_id)).toEqual([other.project_id]);
    const completed = groupedMilestonesSchema.parse(
      (await callApi(emulator, 'GET', `${path}&filter[status]=completed`)).body,
    );
    const statuses = completed.projects.flatMap((g) => g.data.map((m) => m.status));
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['completed']));

    const badStatus = await callApi(emulator, 'GET', `${path}&filter[status]=closed`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors?.[0]).toMatchObject({ loc: ['query', 'filter[status]'] });
    const badKey = await callApi(emulator, 'GET', `${path}&filter[team]=x`);
    expect(badKey.status).toBe(400);
    expect((await callApi(emulator, 'GET', '/v1/milestones')).status).toBe(422);
  });

  test('a token restricted to some projects sees only their milestones', async () => {
    const { token } = emulator.control.mintToken({
      scopes: ['projects:read'],
      projectIds: [project.project_id],
    });
    const grouped = groupedMilestonesSchema.parse(
      (await callApi(emulator, 'GET', `/v1/milestones?org_id=${emulator.orgId}`, { token })).body,
    );
    expect(grouped.projects.map((g) => g.project_id)).toEqual([project.project_id]);
    expect((await callApi(emulator, 'GET', milestonesOf(other.project_id), { token })).status).toBe(404);
  });
});

describe('writes', () => {
  test('create answers the milestone and its ETag, the same a GET answers; 304 with it', async () => {
    const { milestone, etag } = await createMilestone(project.project_id, {
      name: 'Launch 🚀',
      description: 'All of it',
      due_date: '2027-01-15',
    });
    expect(milestone).toMatchObject({
      project_id: project.project_id,
      org_id: emulator.orgId,
      name: 'Launch 🚀',
      description: 'All of it',
      due_date: '2027-01-15',
      status: 'open',
      tasks_total: 0,
      tasks_completed: 0,
      created_by: emulator.me.username,
    });
    expect(Object.keys(milestone)).toEqual([
      'milestone_id',
      'org_id',
      'project_id',
      'name',
      'description',
      'due_date',
      'status',
      'position',
      'tasks_total',
      'tasks_completed',
      'created_by',
      'updated_by',
      'created_at',
      'updated_at',
    ]);
    const read = await readMilestone(project.project_id, milestone.milestone_id);
    expect(read.headers.get('etag')).toBe(etag);
    const cached = await callApi(emulator, 'GET', milestonePath(milestone), {
      headers: { 'if-none-match': etag },
    });
    expect(cached.status).toBe(304);
    // Under another project it does not exist.
    expect((await readMilestone(other.project_id, milestone.milestone_id)).status).toBe(404);
  });

  test('names are 1..120 characters, dates must exist, statuses are open or completed (422 naming the field)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ name: 'ok', due_date: '2026-02-30' }, 'due_date'],
    ];
    for (const [body, field] of cases) {
      const answer = await callApi(emulator, 'POST', milestonesOf(project.project_id), { body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.type).toBe('urn:svc:problem:validation');
      expect(answer.body.errors?.map((e) => e.loc)).toEqual([['body', field]]);
    }
    await createMilestone(project.project_id, { name: '😀'.repeat(120) });
    const { milestone } = await createMilestone(project.project_id, { name: 'Status check' });
    const bad = await callApi(emulator, 'PATCH', milestonePath(milestone), {
      body: { status: 'closed' },
      contentType: mergePatch,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0]?.loc).toEqual(['body', 'status']);
  });

  test('PATCH is a merge-patch under If-Match: stale is 412 and writes nothing; completing keeps the tasks', async () => {
    const { milestone, etag } = await createMilestone(project.project_id, { name: 'To complete' });
    const path = milestonePath(milestone);
    const first = await callApi(emulator, 'PATCH', path, {
      body: { status: 'completed', description: 'done' },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(first.status).toBe(200);
    expect(milestoneSchema.parse(first.body)).toMatchObject({
      name: 'To complete',
      status: 'completed',
      description: 'done',
    });
    const newEtag = first.headers.get('etag');
    expect(newEtag).not.toBe(etag);
    expect((await readMilestone(project.project_id, milestone.milestone_id)).headers.get('etag')).toBe(
      newEtag,
    );

    const stale = await callApi(emulator, 'PATCH', path, {
      body: { name: 'Lost' },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('urn:svc:problem:precondition-failed');
    expect((await readMilestone(project.project_id, milestone.milestone_id)).body.name).toBe('To complete');

    const cleared = await callApi(emulator, 'PATCH', path, {
      body: { description: null },
      contentType: mergePatch,
      headers: { 'if-match': newEtag ?? '' },
    });
    expect(cleared.body).toMatchObject({ description: null, status: 'completed', name: 'To complete' });
  });

  test('a milestone created without a position goes 1024 after the last of its project', async () => {
    const { milestone: first } = await createMilestone(project.project_id, { name: 'Last but one' });
    const { milestone: second } = await createMilestone(project.project_id, { name: 'Last' });
    expect(second.position).toBe((first.position ?? 0) + 1024);
  });

  test('the deprecated PUT answers the deprecation headers', async () => {
    const { milestone } = await createMilestone(project.project_id, { name: 'Old client' });
    const put = await callApi(emulator, 'PUT', milestonePath(milestone), {
      body: { name: 'Old client, renamed' },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('deprecation')).toBeTruthy();
    expect(put.headers.get('link')).toContain('rel=successor-version');
  });
});

describe('filing tasks', () => {
  test('a task PATCH files it (counts follow); a milestone of another project is 422 on milestone_id', async () => {
    const { milestone } = await createMilestone(project.project_id, { name: 'Filing' });
    const task = await newTask({ project_id: project.project_id });
    const filed = await patchTask(task.task_id, { milestone_id: milestone.milestone_id });
    expect(filed.status).toBe(200);
    expect(filed.body.milestone_id).toBe(milestone.milestone_id);
    const done = await newTask({
      project_id: project.project_id,
      milestone_id: milestone.milestone_id,
      status: 'completed',
    });
    expect(done.milestone_id).toBe(milestone.milestone_id);
    const read = milestoneSchema.parse(
      (await readMilestone(project.project_id, milestone.milestone_id)).body,
    );
    expect(read).toMatchObject({ tasks_total: 2, tasks_completed: 1 });

    const { milestone: elsewhere } = await createMilestone(other.project_id, { name: 'Elsewhere' });
    const wrong = await patchTask(task.task_id, { milestone_id: elsewhere.milestone_id });
    expect(wrong.status).toBe(422);
    expect(wrong.body.type).toBe('urn:svc:problem:validation');
    expect(wrong.body.errors?.map((e) => e.loc)).toEqual([['body', 'milestone_id']]);
    const unfiledTask = await callApi(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title: 'no project', milestone_id: milestone.milestone_id },
    });
    expect(unfiledTask.status).toBe(422);
    const unknown = await patchTask(task.task_id, { milestone_id: 'mst_nothing' });
    expect(unknown.status).toBe(422);
    const kept = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    expect(kept.body.milestone_id).toBe(milestone.milestone_id);
  });

  test('moving a task to another project clears its milestone; moving it with one of that project files it there', async () => {
    const { milestone } = await createMilestone(project.project_id, { name: 'Moving' });
    const { milestone: there } = await createMilestone(other.project_id, { name: 'Over there' });
    const task = await newTask({ project_id: project.project_id, milestone_id: milestone.milestone_id });
    const moved = await patchTask(task.task_id, { project_id: other.project_id });
    expect(moved.body).toMatchObject({ project_id: other.project_id, milestone_id: null });
    const back = await newTask({ project_id: project.project_id, milestone_id: milestone.milestone_id });
    const both = await patchTask(back.task_id, {
      project_id: other.project_id,
      milestone_id: there.milestone_id,
    });
    expect(both.body).toMatchObject({ project_id: other.project_id, milestone_id: there.milestone_id });
  });

  test('DELETE …/milestones/{id}/tasks/{task_id} unfiles one task (MilestoneTaskUnfiled) and keeps it', async () => {
    const { milestone } = await createMilestone(project.project_id, { name: 'Unfile one' });
    const task = await newTask({ project_id: project.project_id, milestone_id: milestone.milestone_id });
    const path = `${milestonePath(milestone)}/tasks/${task.task_id}`;
    const answer = await callApi(emulator, 'DELETE', path);
    expect(answer.status).toBe(200);
    expect(milestoneTaskUnfiledSchema.parse(answer.body)).toEqual({
      ok: true,
      milestone_id: milestone.milestone_id,
      task_id: task.task_id,
    });
    const after = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    expect(after.body).toMatchObject({ project_id: project.project_id, milestone_id: null });
    const history = await callApi(emulator, 'GET', `/v1/task-history?task_id=${task.task_id}`);
    expect(JSON.stringify(history.body.data?.at(-1))).toContain('milestone_id');
    expect((await callApi(emulator, 'DELETE', path)).status).toBe(404);
  });

  test('deleting a milestone (If-Match) answers an Acknowledgement and unfiles its tasks', async () => {
    const { milestone, etag } = await createMilestone(project.project_id, { name: 'Doomed' });
    const a = await newTask({ project_id: project.project_id, milestone_id: milestone.milestone_id });
    const b = await newTask({ project_id: project.project_id, milestone_id: milestone.milestone_id });
    const path = milestonePath(milestone);
    const renamed = await callApi(emulator, 'PATCH', path, {
      body: { name: 'Doomed!' },
      contentType: mergePatch,
    });
    const stale = await callApi(emulator, 'DELETE', path, { headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    const gone = await callApi(emulator, 'DELETE', path, {
      headers: { 'if-match': renamed.headers.get('etag') ?? '' },
    });
    expect(gone.status).toBe(200);
    expect(acknowledgementSchema.parse(gone.body)).toEqual({ ok: true });
    for (const task of [a, b]) {
      const read = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
      expect(read.body).toMatchObject({ project_id: project.project_id, milestone_id: null });
    }
    expect((await callApi(emulator, 'GET', path)).status).toBe(404);
    const list = listPageSchema(milestoneSchema).parse(
      (await callApi(emulator, 'GET', `${milestonesOf(project.project_id)}?limit=1000`)).body,
    );
    expect(list.data.map((m) => m.milestone_id)).not.toContain(milestone.milestone_id);
  });

  test('team milestone routes answer 404', async () => {
    const teams = await callApi(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`);
    const teamId = String(teams.body.data?.[0]?.team_id);
    expect((await callApi(emulator, 'GET', `/v1/teams/${teamId}/milestones`)).status).toBe(404);
  });
});

describe('variance', () => {
  test('milestone answers vary (fields absent or null, unknown status) and the protocol reads them all', async () => {
    const varied = await startEmulator({ clock, seedTasks: 50, variance: { seed: 3, faults: false } });
    try {
      const shapes = new Set<string>();
      let unknownStatus = false;
      const projectIds = (
        await callApi<Page<ProjectRecord>>(varied, 'GET', `/v1/projects/${varied.orgId}?limit=1000`)
      ).body.data.map((p) => p.project_id);
      for (let round = 0; round < 12; round++) {
        const projectId = projectIds[round % projectIds.length] as string;
        const created = await callApi(varied, 'POST', milestonesOf(projectId), {
          body: { name: `Varied ${round}`, due_date: '2027-02-01' },
        });
        expect(created.status, created.text).toBe(201);
        const m = milestoneSchema.parse(created.body);
        shapes.add(Object.keys(m).sort().join(','));
        if (m.status !== undefined && m.status !== null && m.status !== 'open') unknownStatus = true;
      }
      const grouped = await callApi(varied, 'GET', `/v1/milestones?org_id=${varied.orgId}`);
      expect(grouped.status).toBe(200);
      groupedMilestonesSchema.parse(grouped.body);
      for (const projectId of projectIds) {
        const page = await callApi(varied, 'GET', `${milestonesOf(projectId)}?limit=1000`);
        for (const m of listPageSchema(milestoneSchema).parse(page.body).data)
          shapes.add(Object.keys(m).sort().join(','));
      }
      // Unfiling and deleting answer records whose members are all required: unknown members may join them.
      const unfiledKeys = new Set<string>();
      for (let round = 0; round < 8; round++) {
        const projectId = projectIds[0] as string;
        const m = milestoneSchema.parse(
          (await callApi(varied, 'POST', milestonesOf(projectId), { body: { name: `Unfiling ${round}` } }))
            .body,
        );
        const filed = await callApi(varied, 'POST', '/v1/tasks', {
          body: { org_id: varied.orgId, title: 'filed', project_id: projectId, milestone_id: m.milestone_id },
        });
        expect(filed.status, filed.text).toBe(201);
        const unfiled = await callApi(
          varied,
          'DELETE',
          `${milestonesOf(projectId)}/${m.milestone_id}/tasks/${String(filed.body.task_id)}`,
        );
        expect(unfiled.status, unfiled.text).toBe(200);
        for (const key of Object.keys(milestoneTaskUnfiledSchema.parse(unfiled.body))) unfiledKeys.add(key);
        const deleted = await callApi(varied, 'DELETE', `${milestonesOf(projectId)}/${m.milestone_id}`);
        expect(deleted.status, deleted.text).toBe(200);
        expect(acknowledgementSchema.parse(deleted.body).ok).toBe(true);
      }
      expect([...unfiledKeys].some((key) => key.startsWith('x_'))).toBe(true);
      expect(shapes.size).toBeGreaterThan(3);
      expect(unknownStatus || varied.control.variance!.snapshot().counts['unknown-enum'] > 0).toBe(true);
    } finally {
      await varied.stop();
    }
  });
});
