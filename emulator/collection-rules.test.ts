// The rules of the collections besides tasks: sections (scopes, 409 on a
// duplicate name), sprints (409 on a duplicate active name, 422 on end_date with
// duration_weeks, derived weeks and label, counts, the current sprint), goals
// (grouped list under one ETag, soft delete unfiling tasks), teams (search,
// total, who may change one), comments (threads, mentions, bounds).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page, walkList } from './emulator-http';
import type { ProjectRecord, SectionRecord, SprintRecord, TaskRecord, TeamRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';
import { postProjectSection } from './testing/project-section';

let emulator: RunningEmulator;
const clock = new ManualClock();
const today = new Date(clock.now()).toISOString().slice(0, 10);
let teams: Team[];
let projects: ProjectRecord[];
let project: ProjectRecord;
let myTeam: Team;

type Sprint = SprintRecord & {
  duration_weeks: number | null;
  duration_label: string;
  task_count: number;
  completed_count: number;
};
type Section = SectionRecord & { task_count: number };
type Team = TeamRecord & {
  team_role: 'owner' | 'member' | null;
  member_count: number;
  project_count: number;
};
type Goal = {
  goal_id: string;
  project_id: string;
  name: string;
  tasks_total: number;
  tasks_completed: number;
};

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 400 });
  teams = (await callApi<Page<Team>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`)).body.data;
  projects = (await callApi<Page<ProjectRecord>>(emulator, 'GET', `/v1/projects/${emulator.orgId}`)).body
    .data;
  project = projects.find((p) => p.status === 'active' && p.team_id !== null) as ProjectRecord;
  myTeam = teams.find((t) => t.name === 'Platform') as Team;
});
afterAll(async () => {
  await emulator.stop();
});

const mergePatch = 'application/merge-patch+json';

describe('sections', () => {
  test('without a scope the list holds every scope the caller can read, and only those', async () => {
    const mine = await walkList<Section>(emulator, `/v1/sections?org_id=${emulator.orgId}`);
    const scopes = new Set(mine.map((s) => s.scope_type));
    expect(scopes).toEqual(new Set(['project', 'team', 'user']));
    expect(
      mine.filter((s) => s.scope_type === 'user').every((s) => s.scope_id === emulator.me.username),
    ).toBe(true);
    const peers = await walkList<Section>(emulator, `/v1/sections?org_id=${emulator.orgId}`, {
      token: emulator.tokens.peer,
    });
    expect(
      peers.filter((s) => s.scope_type === 'user').every((s) => s.scope_id === emulator.peer.username),
    ).toBe(true);
  });

  test('one scope, with task counts that match the tasks', async () => {
    const answer = await callApi<Page<Section>>(
      emulator,
      'GET',
      `/v1/sections?org_id=${emulator.orgId}&scope_type=project&scope_id=${project.project_id}`,
    );
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const section of answer.body.data) {
      expect(section).toMatchObject({ scope_type: 'project', scope_id: project.project_id });
      expect(section.task_count).toBe(
        emulator.control.tasks().filter((t) => t.section_id === section.section_id).length,
      );
    }
    const positions = answer.body.data.map((s) => s.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  test('an unknown scope_type is 400 with the allowed ones', async () => {
    const answer = await callApi(emulator, 'GET', '/v1/sections?scope_type=galaxy');
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.allowed).toEqual(['project', 'team', 'user']);
  });

  test('a name taken in the scope is 409 (case-insensitive); the same name in another scope is fine', async () => {
    const create = (scopeType: string, scopeId: string, name: string) =>
      callApi<Section>(emulator, 'POST', '/v1/sections', {
        body: { org_id: emulator.orgId, scope_type: scopeType, scope_id: scopeId, name },
      });
    const first = await create('project', project.project_id, 'Ready for QA');
    expect(first.status).toBe(201);
    expect(first.body.position).toBeGreaterThan(0);
    expect(first.headers.get('etag')).toBeTruthy();
    expect((await create('project', project.project_id, 'ready for qa')).status).toBe(409);
    expect((await create('team', myTeam.team_id, 'Ready for QA')).status).toBe(201);
    expect((await create('user', emulator.me.username, 'Ready for QA')).status).toBe(201);
  });

  test('a user scope must be the caller’s own username; names are 1..120 characters', async () => {
    const other = await callApi(emulator, 'POST', '/v1/sections', {
      body: {
        org_id: emulator.orgId,
        scope_type: 'user',
        scope_id: emulator.peer.username,
        name: 'Not mine',
      },
    });
    expect(other.status).toBe(422);
    expect(other.body.errors?.[0]?.loc).toEqual(['body', 'scope_id']);
    for (const name of ['', 'n'.repeat(121)]) {
      const answer = await callApi(emulator, 'POST', '/v1/sections', {
        body: { org_id: emulator.orgId, scope_type: 'project', scope_id: project.project_id, name },
      });
      expect(answer.status).toBe(422);
    }
  });

  test('PATCH renames and moves (409 on a taken name); DELETE leaves its tasks unsectioned', async () => {
    const created = await postProjectSection(emulator, project.project_id, 'Temporary');
    const sectionId = created.body.section_id;
    const taken = await callApi(emulator, 'PATCH', `/v1/sections/${sectionId}`, {
      body: { name: 'backlog' },
      contentType: mergePatch,
    });
    expect(taken.status).toBe(409);
    const moved = await callApi<Section>(emulator, 'PATCH', `/v1/sections/${sectionId}`, {
      body: { name: 'Parking lot', position: 5 },
      contentType: mergePatch,
      headers: { 'if-match': created.headers.get('etag') ?? '' },
    });
    expect(moved.body).toMatchObject({ name: 'Parking lot', position: 5 });
    const task = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
      body: {
        org_id: emulator.orgId,
        title: 'in a section',
        project_id: project.project_id,
        section_id: sectionId,
      },
    });
    expect((await callApi<Section>(emulator, 'GET', `/v1/sections/${sectionId}`)).body.task_count).toBe(1);
    expect((await callApi(emulator, 'DELETE', `/v1/sections/${sectionId}`)).status).toBe(204);
    expect(emulator.control.task(task.body.task_id)?.section_id).toBeNull();
    expect((await callApi(emulator, 'GET', `/v1/sections/${sectionId}`)).status).toBe(404);
  });
});

describe('sprints', () => {
  const sprintsOf = async (teamId: string) =>
    (await callApi<Page<Sprint>>(emulator, 'GET', `/v1/teams/${teamId}/sprints`)).body;

  test('every team has completed sprints and exactly one current one (active, today inside it)', async () => {
    for (const team of teams) {
      const { data, total } = await sprintsOf(team.team_id);
      expect(total).toBe(data.length);
      expect(data.some((s) => s.status === 'completed' && s.completed_at !== null)).toBe(true);
      const current = data.filter(
        (s) => s.status === 'active' && s.start_date <= today && today <= s.end_date,
      );
      expect(current).toHaveLength(1);
    }
  });

  test('weeks and label are derived from the dates; counts match the tasks', async () => {
    const all =
      teams.length > 0
        ? (await Promise.all(teams.map((t) => sprintsOf(t.team_id)))).flatMap((p) => p.data)
        : [];
    expect(all.some((s) => s.duration_weeks === 2 && s.duration_label === '2 weeks')).toBe(true);
    expect(all.some((s) => s.duration_weeks === null && s.duration_label === 'Custom')).toBe(true);
    const tasks = emulator.control.tasks();
    for (const sprint of all) {
      const filed = tasks.filter((t) => t.sprint_id === sprint.sprint_id);
      expect(sprint.task_count).toBe(filed.length);
      expect(sprint.completed_count).toBe(filed.filter((t) => t.status === 'completed').length);
    }
  });

  test('POST derives the end from duration_weeks, or the weeks from end_date', async () => {
    const byWeeks = await callApi<Sprint>(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: 'Weeks sprint', start_date: '2027-02-01', duration_weeks: 3 },
    });
    expect(byWeeks.status).toBe(201);
    expect(byWeeks.body).toMatchObject({
      end_date: '2027-02-21',
      duration_weeks: 3,
      duration_label: '3 weeks',
      status: 'active',
    });
    const byEnd = await callApi<Sprint>(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: 'Custom sprint', start_date: '2027-03-01', end_date: '2027-03-10' },
    });
    expect(byEnd.body).toMatchObject({
      duration_weeks: null,
      duration_label: 'Custom',
      task_count: 0,
      completed_count: 0,
    });
  });

  test('end_date together with duration_weeks is 422', async () => {
    const answer = await callApi(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: 'Both', start_date: '2027-04-05', end_date: '2027-04-18', duration_weeks: 2 },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.type).toBe('urn:svc:problem:validation');
  });

  test.each([0, 53, 1.5])('duration_weeks %s is out of bounds (422)', async (weeks) => {
    const answer = await callApi(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: `Weeks ${weeks}`, start_date: '2027-04-05', duration_weeks: weeks },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors?.[0]?.loc).toEqual(['body', 'duration_weeks']);
  });

  test('a name of an active sprint is 409 whatever its case; a completed sprint’s name may be reused', async () => {
    const { data } = await sprintsOf(myTeam.team_id);
    const active = data.find((s) => s.status === 'active') as Sprint;
    const completed = data.find((s) => s.status === 'completed') as Sprint;
    const dup = await callApi(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: active.name.toUpperCase(), start_date: '2027-05-03' },
    });
    expect(dup.status).toBe(409);
    const reuse = await callApi(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: completed.name, start_date: '2027-05-03' },
    });
    expect(reuse.status).toBe(201);
    const otherTeam = teams.find((t) => t.team_id !== myTeam.team_id) as Team;
    const elsewhere = await callApi(emulator, 'POST', `/v1/teams/${otherTeam.team_id}/sprints`, {
      body: { name: active.name, start_date: '2027-05-03' },
    });
    // The main member owns the organization, so may add sprints to any team.
    expect(elsewhere.status).toBe(201);
  });

  test('PATCH completes a sprint and refuses a rename onto an active name', async () => {
    const created = await callApi<Sprint>(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: 'To complete', start_date: '2027-06-07' },
    });
    const path = `/v1/teams/${myTeam.team_id}/sprints/${created.body.sprint_id}`;
    const done = await callApi<Sprint>(emulator, 'PATCH', path, {
      body: { status: 'completed' },
      contentType: mergePatch,
      headers: { 'if-match': created.headers.get('etag') ?? '' },
    });
    expect(done.body).toMatchObject({ status: 'completed', completed_by: emulator.me.username });
    const { data } = await sprintsOf(myTeam.team_id);
    const active = data.find(
      (s) => s.status === 'active' && s.sprint_id !== created.body.sprint_id,
    ) as Sprint;
    const other = await callApi<Sprint>(emulator, 'POST', `/v1/teams/${myTeam.team_id}/sprints`, {
      body: { name: 'Will rename', start_date: '2027-06-21' },
    });
    const rename = await callApi(
      emulator,
      'PATCH',
      `/v1/teams/${myTeam.team_id}/sprints/${other.body.sprint_id}`,
      {
        body: { name: active.name.toLowerCase() },
        contentType: mergePatch,
      },
    );
    expect(rename.status).toBe(409);
    const both = await callApi(emulator, 'PATCH', path, {
      body: { end_date: '2027-07-01', duration_weeks: 1 },
      contentType: mergePatch,
    });
    expect(both.status).toBe(422);
  });

  test('a member who is not on the team and not an owner or admin may not add sprints', async () => {
    const notMine = teams.find((t) => t.team_role === null) as Team;
    const { token } = emulator.control.mintToken({
      scopes: ['teams:write'],
      principalUserId: emulator.peer.user_id,
    });
    const answer = await callApi(emulator, 'POST', `/v1/teams/${notMine.team_id}/sprints`, {
      token,
      body: { name: 'Not allowed', start_date: '2027-05-03' },
    });
    const peerTeams = (
      await callApi<Page<Team>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`, { token })
    ).body.data;
    expect(peerTeams.find((t) => t.team_id === notMine.team_id)?.team_role).toBeNull();
    expect(answer.status).toBe(403);
  });
});

describe('goals', () => {
  test('the grouped list: one group per readable project with goals, totals, one ETag (304)', async () => {
    const answer = await callApi<{
      org_id: string;
      projects: {
        project_id: string;
        data: Goal[];
        next_cursor: null;
        goals_tasks_total: number;
        goals_tasks_completed: number;
      }[];
      total: number;
    }>(emulator, 'GET', `/v1/goals?org_id=${emulator.orgId}`);
    expect(answer.status).toBe(200);
    expect(answer.body.org_id).toBe(emulator.orgId);
    expect(answer.body.total).toBe(answer.body.projects.reduce((n, g) => n + g.data.length, 0));
    const tasks = emulator.control.tasks();
    for (const group of answer.body.projects) {
      expect(group.data.length).toBeGreaterThan(0);
      expect(group.next_cursor).toBeNull();
      for (const goal of group.data) {
        const under = tasks.filter((t) => t.goal_id === goal.goal_id && t.parent_task_id === null);
        expect(goal.tasks_total).toBe(under.length);
        expect(goal.tasks_completed).toBe(under.filter((t) => t.status === 'completed').length);
      }
      expect(group.goals_tasks_total).toBe(group.data.reduce((n, g) => n + g.tasks_total, 0));
    }
    const again = await callApi(emulator, 'GET', `/v1/goals?org_id=${emulator.orgId}`, {
      headers: { 'if-none-match': answer.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    expect((await callApi(emulator, 'GET', '/v1/goals')).status).toBe(422);
  });

  test('create, change, and the soft delete that unfiles the goal’s tasks', async () => {
    const created = await callApi<Goal>(emulator, 'POST', `/v1/projects/${project.project_id}/goals`, {
      body: { name: 'Launch in Japan', target_date: '2027-03-31' },
    });
    expect(created.status).toBe(201);
    const goalId = created.body.goal_id;
    const path = `/v1/projects/${project.project_id}/goals/${goalId}`;
    const changed = await callApi<Goal>(emulator, 'PATCH', path, {
      body: { name: 'Launch in Japan 🇯🇵', description: null },
      contentType: mergePatch,
    });
    expect(changed.body.name).toBe('Launch in Japan 🇯🇵');
    const filed: string[] = [];
    for (const title of ['goal task 1', 'goal task 2']) {
      const task = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
        body: { org_id: emulator.orgId, title, project_id: project.project_id, goal_id: goalId },
      });
      filed.push(task.body.task_id);
    }
    const listed = await callApi<Page<Goal>>(emulator, 'GET', `/v1/projects/${project.project_id}/goals`);
    expect(listed.body.data.find((g) => g.goal_id === goalId)?.tasks_total).toBe(2);

    const deleted = await callApi(emulator, 'DELETE', path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true, goal_id: goalId, unfiled_tasks: 2 });
    for (const id of filed)
      expect(emulator.control.task(id)).toMatchObject({ goal_id: null, project_id: project.project_id });
    expect((await callApi(emulator, 'GET', path)).status).toBe(404);
    const after = await callApi<Page<Goal>>(emulator, 'GET', `/v1/projects/${project.project_id}/goals`);
    expect(after.body.data.map((g) => g.goal_id)).not.toContain(goalId);
  });

  test('a goal of another project cannot be set on a task (422)', async () => {
    const other = projects.find(
      (p) => p.project_id !== project.project_id && p.status === 'active',
    ) as ProjectRecord;
    const goals = await callApi<Page<Goal>>(emulator, 'GET', `/v1/projects/${other.project_id}/goals`);
    const answer = await callApi(emulator, 'POST', '/v1/tasks', {
      body: {
        org_id: emulator.orgId,
        title: 'wrong goal',
        project_id: project.project_id,
        goal_id: goals.body.data[0]?.goal_id,
      },
    });
    expect(answer.status).toBe(422);
  });
});

describe('teams', () => {
  test('ordered by name, with total before paging and a case-insensitive search', async () => {
    const names = teams.map((t) => t.name);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    const page = await callApi<Page<Team>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}&limit=1`);
    expect(page.body.total).toBe(teams.length);
    expect(page.body.data).toHaveLength(1);
    const search = await callApi<Page<Team>>(
      emulator,
      'GET',
      `/v1/teams?org_id=${emulator.orgId}&search=MOBI`,
    );
    expect(search.body.data.map((t) => t.name)).toEqual(['Mobile']);
    expect(search.body.total).toBe(1);
    expect(teams.find((t) => t.name === 'Platform')?.team_role).toBe('owner');
  });

  test('org_id is required and must be the caller’s organization', async () => {
    expect((await callApi(emulator, 'GET', '/v1/teams')).status).toBe(422);
    expect((await callApi(emulator, 'GET', '/v1/teams?org_id=org_other')).status).toBe(403);
  });

  test('PATCH: the team owner changes it, null keeps the name, description is cleared by null; others are 403', async () => {
    const path = `/v1/teams/${myTeam.team_id}`;
    const answer = await callApi<TeamRecord & { members: unknown[] }>(emulator, 'PATCH', path, {
      body: { name: null, description: null },
      contentType: mergePatch,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: myTeam.name, description: null });
    expect(answer.body.members.length).toBeGreaterThan(0);
    const { token } = emulator.control.mintToken({
      scopes: ['teams:write'],
      principalUserId: emulator.peer.user_id,
    });
    const peerTry = await callApi(emulator, 'PATCH', path, {
      token,
      body: { name: 'Hijacked' },
      contentType: mergePatch,
    });
    expect(peerTry.status).toBe(403);
    expect(
      (await callApi(emulator, 'PATCH', path, { body: { name: 'x'.repeat(121) }, contentType: mergePatch }))
        .status,
    ).toBe(422);
  });
});

describe('task comments', () => {
  test('threads with replies, mentions, and bounds on content', async () => {
    const taskId = emulator.control.tasks()[5]?.task_id ?? '';
    const comment = await callApi(emulator, 'POST', '/v1/task-comments', {
      body: { task_id: taskId, content: `@${emulator.peer.username} can you check? 👀` },
    });
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({
      task_id: taskId,
      created_by: emulator.me.username,
      parent_comment_id: null,
      replies: [],
    });
    expect((comment.body.mentions as { username: string }[]).map((m) => m.username)).toEqual([
      emulator.peer.username,
    ]);
    const reply = await callApi(emulator, 'POST', '/v1/task-comments/reply', {
      token: emulator.tokens.peer,
      body: { parent_comment_id: comment.body.comment_id, content: 'On it.' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ parent_comment_id: comment.body.comment_id, task_id: taskId });
    const list = await callApi(emulator, 'GET', `/v1/task-comments?task_id=${taskId}`);
    const thread = list.body.data?.find((c) => c.comment_id === comment.body.comment_id) as {
      replies: { content: string }[];
    };
    expect(thread.replies.map((r) => r.content)).toEqual(['On it.']);
    expect(list.body.data?.some((c) => c.comment_id === reply.body.comment_id)).toBe(false);

    const tooLong = await callApi(emulator, 'POST', '/v1/task-comments', {
      body: { task_id: taskId, content: 'c'.repeat(100_001) },
    });
    expect(tooLong.status).toBe(422);
    const longest = await callApi(emulator, 'POST', '/v1/task-comments', {
      body: { task_id: taskId, content: 'c'.repeat(100_000) },
    });
    expect(longest.status).toBe(201);
    expect(
      (await callApi(emulator, 'POST', '/v1/task-comments', { body: { task_id: 'tsk_nope', content: 'x' } }))
        .status,
    ).toBe(404);
    expect((await callApi(emulator, 'GET', '/v1/task-comments')).status).toBe(422);
  });
});
