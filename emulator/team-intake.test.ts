// A team's intake over HTTP (gaps.md "Team intake"): the team's tasks whose
// review is pending, in the task list's page shape, filters and sort; a task
// leaves it when triaged; another team's or a non-pending task never shows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page, walkList } from './emulator-http';
import type { TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
/** The team with the most pending tasks, so every case has some to look at. */
let teamId: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: new ManualClock(), seedTasks: 600 });
  const pending = new Map<string, number>();
  for (const task of emulator.control.tasks()) {
    if (task.team_id !== null && task.review === 'pending')
      pending.set(task.team_id, (pending.get(task.team_id) ?? 0) + 1);
  }
  teamId = [...pending].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
});
afterAll(async () => {
  await emulator.stop();
});

const ids = (tasks: readonly TaskRecord[]) => tasks.map((t) => t.task_id);

describe('GET /v1/teams/{team_id}/intake', () => {
  test('is the team’s pending tasks, in the order and pages of the task list', async () => {
    const expected = emulator.control.tasks().filter((t) => t.team_id === teamId && t.review === 'pending');
    expect(expected.length).toBeGreaterThan(3);
    const intake = await walkList<TaskRecord>(emulator, `/v1/teams/${teamId}/intake?sort_by=created_at`, {
      limit: 2,
    });
    const listed = await walkList<TaskRecord>(
      emulator,
      `/v1/tasks?filter[team]=${teamId}&filter[review]=pending&sort_by=created_at`,
      { limit: 1000 },
    );
    expect(ids(intake)).toEqual(ids(listed));
    expect(new Set(ids(intake))).toEqual(new Set(ids(expected)));
  });

  test('takes the task list’s filters and sort, and a filter on review or team only narrows it', async () => {
    const desc = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/intake?sort_by=title&sort_order=desc&limit=1000`,
    );
    const titles = desc.body.data.map((t) => t.title.toLowerCase());
    expect(titles).toEqual([...titles].sort().reverse());
    const high = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/intake?filter[priority]=high,urgent&limit=1000`,
    );
    expect(high.body.data.every((t) => t.priority === 'high' || t.priority === 'urgent')).toBe(true);
    expect(high.body.data.every((t) => t.team_id === teamId && t.review === 'pending')).toBe(true);
    const accepted = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/intake?filter[review]=accepted,none`,
    );
    expect(accepted.body).toEqual({ data: [], next_cursor: null });
    const everyReview = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/intake?filter[review]=pending,accepted&filter[team]=${teamId},__none__&limit=1000`,
    );
    expect(ids(everyReview.body.data)).toEqual(
      ids(
        (await callApi<Page<TaskRecord>>(emulator, 'GET', `/v1/teams/${teamId}/intake?limit=1000`)).body.data,
      ),
    );
  });

  test('a task triaged (accepted) leaves the intake', async () => {
    const first = await callApi<Page<TaskRecord>>(emulator, 'GET', `/v1/teams/${teamId}/intake?limit=1`);
    const task = first.body.data[0];
    if (!task) throw new Error('no pending task');
    const current = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    const patched = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { review: 'accepted' },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': current.headers.get('etag') ?? '' },
    });
    expect(patched.status).toBe(200);
    const after = await walkList<TaskRecord>(emulator, `/v1/teams/${teamId}/intake`, { limit: 1000 });
    expect(ids(after)).not.toContain(task.task_id);
  });

  test('refuses an unknown team (404), a bad filter (400) and a token without tasks:read (403)', async () => {
    const missing = await callApi(emulator, 'GET', '/v1/teams/team_nope/intake');
    expect(missing.status).toBe(404);
    const bad = await callApi(emulator, 'GET', `/v1/teams/${teamId}/intake?filter[review]=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.loc).toEqual(['query', 'filter[review]']);
    const teamsOnly = emulator.control.mintToken({ scopes: ['teams:read'] }).token;
    const refused = await callApi(emulator, 'GET', `/v1/teams/${teamId}/intake`, { token: teamsOnly });
    expect(refused.status).toBe(403);
  });

  test('is described in the OpenAPI document as teams.list_tasks', async () => {
    const answer = await callApi<{ paths: Record<string, Record<string, { operationId?: string }>> }>(
      emulator,
      'GET',
      '/openapi.public.json',
      { token: null },
    );
    expect(answer.body.paths['/v1/teams/{team_id}/intake']?.get?.operationId).toBe('teams.list_tasks');
  });
});

describe('in variance mode', () => {
  test('the intake varies as the task list does (short and empty pages, fields left out) and still walks to every pending task', async () => {
    const varied = await startEmulator({ seedTasks: 600, variance: { seed: 11, faults: false } });
    try {
      const team = varied.control.tasks().find((t) => t.team_id !== null && t.review === 'pending')?.team_id;
      if (!team) throw new Error('no team task waits for review in the seed');
      const before = varied.control.variance!.snapshot().counts;
      const pages = { short: before['short-page'] + before['empty-page'], absent: before['field-absent'] };
      const walked = new Set<string>();
      for (const limit of [3, 7, 25]) {
        const tasks = await walkList<TaskRecord>(varied, `/v1/teams/${team}/intake?sort_by=created_at`, {
          limit,
        });
        for (const task of tasks) walked.add(task.task_id);
        expect(new Set(ids(tasks))).toEqual(walked);
      }
      const expected = varied.control.tasks().filter((t) => t.team_id === team && t.review === 'pending');
      expect(walked).toEqual(new Set(ids(expected)));
      const after = varied.control.variance!.snapshot().counts;
      expect(after['short-page'] + after['empty-page']).toBeGreaterThan(pages.short);
      expect(after['field-absent']).toBeGreaterThan(pages.absent);
    } finally {
      await varied.stop();
    }
  });
});
