// The seed: deterministic for a seed and a clock, covering every value a client
// must handle, scaling to large task counts; and the fast task serializer,
// which must equal JSON.stringify byte for byte.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page } from './emulator-http';
import type { OrganizationMemberRecord, TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';
import { serializeTask } from './store';

let emulator: RunningEmulator;
let tasks: TaskRecord[];
const clock = new ManualClock();
const today = new Date(clock.now()).toISOString().slice(0, 10);

beforeAll(async () => {
  emulator = await startEmulator({ clock, seed: 42, seedTasks: 300 });
  tasks = emulator.control.tasks();
});
afterAll(async () => {
  await emulator.stop();
});

describe('determinism', () => {
  test('the same seed and clock give the same organization and tasks; another seed does not', async () => {
    const twin = await startEmulator({ clock: new ManualClock(), seed: 42, seedTasks: 300 });
    const other = await startEmulator({ clock: new ManualClock(), seed: 43, seedTasks: 300 });
    try {
      const byId = (list: TaskRecord[]) => [...list].sort((a, b) => (a.task_id < b.task_id ? -1 : 1));
      expect(twin.orgId).toBe(emulator.orgId);
      expect(byId(twin.control.tasks())).toEqual(byId(tasks));
      expect(twin.me).toEqual(emulator.me);
      const first = await callApi(emulator, 'GET', '/v1/tasks?limit=1000');
      const second = await callApi(twin, 'GET', '/v1/tasks?limit=1000');
      expect(second.text).toBe(first.text);
      const id = tasks[0]?.task_id ?? '';
      expect(twin.control.taskEtag(id)).toBe(emulator.control.taskEtag(id));
      // Page ETags are salted per emulator: equal there means equal bytes, never a page of another run.
      expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
      expect(other.orgId).not.toBe(emulator.orgId);
      expect(other.me.username).toBe(emulator.me.username);
    } finally {
      await twin.stop();
      await other.stop();
    }
  });
});

describe('coverage', () => {
  const values = (pick: (t: TaskRecord) => unknown) => new Set(tasks.map(pick));

  test('every status, priority, type, review and origin, nulls included', () => {
    expect(values((t) => t.status)).toEqual(new Set(['not_started', 'in_progress', 'blocked', 'completed']));
    expect(values((t) => t.priority)).toEqual(new Set(['low', 'medium', 'high', 'urgent', null]));
    expect(values((t) => t.task_type)).toEqual(new Set(['task', 'bug']));
    expect(values((t) => t.review)).toEqual(new Set(['pending', 'accepted', 'rejected', null]));
    expect(values((t) => t.created_via)).toEqual(new Set(['app', 'api', 'sdk', 'mcp', null]));
  });

  test('every team has tasks waiting for review: each has an intake to triage', async () => {
    const teams = await callApi<Page<{ team_id: string }>>(
      emulator,
      'GET',
      `/v1/teams?org_id=${emulator.orgId}`,
    );
    for (const { team_id } of teams.body.data)
      expect(
        tasks.some((t) => t.team_id === team_id && t.review === 'pending'),
        team_id,
      ).toBe(true);
  });

  test('unfiled tasks, tasks with no team, subtasks, overdue tasks, tags, unassigned tasks', () => {
    expect(tasks.some((t) => t.project_id === null)).toBe(true);
    expect(tasks.some((t) => t.team_id === null)).toBe(true);
    expect(
      tasks.some((t) => t.parent_task_id !== null && tasks.some((p) => p.task_id === t.parent_task_id)),
    ).toBe(true);
    expect(tasks.some((t) => t.due_date !== null && t.due_date < today && t.status !== 'completed')).toBe(
      true,
    );
    expect(tasks.some((t) => t.tags.length > 0)).toBe(true);
    expect(tasks.some((t) => t.assignee === null)).toBe(true);
    expect(tasks.some((t) => t.assignee === emulator.me.username)).toBe(true);
    for (const t of tasks) expect(t.completed_at !== null).toBe(t.status === 'completed');
  });

  test('unicode and the longest texts the contract allows', () => {
    expect(tasks.some((t) => [...t.title].some((c) => (c.codePointAt(0) ?? 0) > 0xff))).toBe(true);
    expect(tasks.some((t) => /\p{Extended_Pictographic}/u.test(t.title))).toBe(true);
    expect(tasks.some((t) => [...t.title].length === 500)).toBe(true);
    expect(tasks.some((t) => (t.description ?? '').length === 100_000)).toBe(true);
  });

  test('members: the main member, the peer, an admin, a service account and a deactivated member', async () => {
    const members = (
      await callApi<Page<OrganizationMemberRecord>>(
        emulator,
        'GET',
        `/v1/organization-members/${emulator.orgId}`,
      )
    ).body.data;
    expect(members.find((m) => m.user_id === emulator.me.user_id)).toMatchObject({
      username: 'ada',
      role: 'owner',
      is_active: true,
    });
    expect(members.find((m) => m.user_id === emulator.peer.user_id)).toMatchObject({
      username: 'grace',
      role: 'member',
    });
    expect(members.some((m) => m.role === 'admin')).toBe(true);
    expect(members.some((m) => m.kind === 'service_account')).toBe(true);
    expect(members.some((m) => !m.is_active)).toBe(true);
  });

  test('a large seed has exactly as many tasks', async () => {
    const large = await startEmulator({ clock: new ManualClock(), seedTasks: 20_000 });
    try {
      expect(large.control.taskCount()).toBe(20_000);
      expect(new Set(large.control.tasks().map((t) => t.task_id)).size).toBe(20_000);
    } finally {
      await large.stop();
    }
  });
});

describe('serializeTask', () => {
  test('equals JSON.stringify for every seeded task', () => {
    for (const task of tasks) expect(serializeTask(task)).toBe(JSON.stringify(task));
  });

  test('equals JSON.stringify for texts that need escaping', () => {
    const base = tasks[0] as TaskRecord;
    for (const text of [
      'say "hi"',
      'back\\slash',
      'tab\there',
      'nul\u0000',
      'lone \ud800 surrogate',
      'line\u2028sep',
      '😀',
      '',
    ]) {
      const task: TaskRecord = {
        ...base,
        title: text,
        description: text,
        tags: [text, 'x'],
        position: 1.5e-7,
      };
      expect(serializeTask(task)).toBe(JSON.stringify(task));
    }
  });
});
