// The task list's whole filter table and every sort, over HTTP, against a
// reference written straight from the semantics in
// protocol/task-list-query.ts (the local mirror is held to the same).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRIORITY_RANK, STATUS_RANK, TASK_SORT_KEYS, type TaskSortKey } from '../protocol/task-list-query';
import { ManualClock } from './clock';
import { callApi, walkList } from './emulator-http';
import type { TaskRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();
const today = new Date(clock.now()).toISOString().slice(0, 10);
let tasks: TaskRecord[];
let projectId: string;
let teamId: string;
let midDue: string;
let midCreated: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 500 });
  // Texts that a naive LIKE or glob would misread, and case-only twins.
  for (const title of [
    '50% off_sale *now*',
    'Plain 50 off sale now',
    'ÜBER sorting',
    'über sorting',
    'x(y) and a,b',
  ]) {
    const created = await callApi(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title, tags: ['odd,tag'] },
    });
    expect(created.status).toBe(201);
  }
  await callApi(emulator, 'POST', '/v1/tasks', {
    body: { org_id: emulator.orgId, title: 'Capitalised tag', tags: ['Backend'] },
  });
  tasks = emulator.control.tasks();
  const filed = tasks.find((t) => t.project_id !== null && t.team_id !== null);
  projectId = filed?.project_id ?? '';
  teamId = filed?.team_id ?? '';
  const dues = tasks
    .map((t) => t.due_date)
    .filter((d) => d !== null)
    .sort();
  midDue = dues[Math.floor(dues.length / 2)] ?? today;
  const created = tasks.map((t) => t.created_at.slice(0, 10)).sort();
  midCreated = created[Math.floor(created.length / 2)] ?? today;
});
afterAll(async () => {
  await emulator.stop();
});

async function idsFor(query: string, token?: string): Promise<string[]> {
  const found = await walkList<TaskRecord>(emulator, `/v1/tasks?${query}`, {
    limit: 1000,
    ...(token !== undefined ? { token } : {}),
  });
  return found.map((t) => t.task_id).sort();
}

function expected(predicate: (t: TaskRecord) => boolean): string[] {
  return tasks
    .filter(predicate)
    .map((t) => t.task_id)
    .sort();
}

const has = (text: string | null, needle: string) =>
  (text ?? '').toLowerCase().includes(needle.toLowerCase());
const q = encodeURIComponent;

describe('filters (OR within a key, AND across keys)', () => {
  const cases: [string, () => string, (t: TaskRecord) => boolean][] = [
    ['one status', () => 'filter[status]=blocked', (t) => t.status === 'blocked'],
    [
      'comma-separated statuses',
      () => 'filter[status]=blocked,completed',
      (t) => ['blocked', 'completed'].includes(t.status),
    ],
    [
      'repeated statuses',
      () => 'filter[status]=blocked&filter[status]=completed',
      (t) => ['blocked', 'completed'].includes(t.status),
    ],
    [
      'priorities',
      () => 'filter[priority]=low,urgent',
      (t) => t.priority === 'low' || t.priority === 'urgent',
    ],
    ['assignee me', () => 'filter[assignee]=me', (t) => t.assignee === emulator.me.username],
    [
      'assignee me or a username',
      () => `filter[assignee]=me,${emulator.peer.username}`,
      (t) => t.assignee === emulator.me.username || t.assignee === emulator.peer.username,
    ],
    ['unfiled', () => 'filter[project]=__unfiled__', (t) => t.project_id === null],
    [
      'unfiled or a project',
      () => `filter[project]=__unfiled__,${projectId}`,
      (t) => t.project_id === null || t.project_id === projectId,
    ],
    ['no team', () => 'filter[team]=__none__', (t) => t.team_id === null],
    [
      'a team or none',
      () => `filter[team]=${teamId}&filter[team]=__none__`,
      (t) => t.team_id === null || t.team_id === teamId,
    ],
    [
      'any of the tags',
      () => `filter[tags]=backend,${q('café')}`,
      (t) => t.tags.includes('backend') || t.tags.includes('café'),
    ],
    ['tags are exact and case-sensitive', () => 'filter[tags]=Backend', (t) => t.tags.includes('Backend')],
    [
      'due after, inclusive',
      () => `filter[due_after]=${midDue}`,
      (t) => t.due_date !== null && t.due_date >= midDue,
    ],
    [
      'due before, inclusive',
      () => `filter[due_before]=${midDue}`,
      (t) => t.due_date !== null && t.due_date <= midDue,
    ],
    [
      'created after, inclusive day',
      () => `filter[created_after]=${midCreated}`,
      (t) => t.created_at.slice(0, 10) >= midCreated,
    ],
    [
      'created before, inclusive day',
      () => `filter[created_before]=${midCreated}`,
      (t) => t.created_at.slice(0, 10) <= midCreated,
    ],
    [
      'overdue',
      () => 'filter[overdue]=true',
      (t) => t.due_date !== null && t.due_date < today && t.status !== 'completed',
    ],
    ['overdue=false restricts nothing', () => 'filter[overdue]=false', () => true],
    ['bugs', () => 'filter[task_type]=bug', (t) => t.task_type === 'bug'],
    [
      'created via none or mcp',
      () => 'filter[created_via]=none,mcp',
      (t) => t.created_via === null || t.created_via === 'mcp',
    ],
    ['no review', () => 'filter[review]=none', (t) => t.review === null],
    [
      'pending or accepted review',
      () => 'filter[review]=pending,accepted',
      (t) => t.review === 'pending' || t.review === 'accepted',
    ],
    [
      'keys are AND-ed',
      () => 'filter[status]=completed,blocked&filter[task_type]=bug&filter[priority]=high,urgent',
      (t) =>
        ['completed', 'blocked'].includes(t.status) &&
        t.task_type === 'bug' &&
        ['high', 'urgent'].includes(t.priority ?? ''),
    ],
    [
      'search: title, description, id or tag, case-insensitive',
      () => `filter[search]=${q('CSV')}`,
      (t) =>
        has(t.title, 'csv') ||
        has(t.description, 'csv') ||
        has(t.task_id, 'csv') ||
        t.tags.some((g) => has(g, 'csv')),
    ],
    [
      'search: % is literal',
      () => `filter[search]=${q('50%')}`,
      (t) => has(t.title, '50%') || has(t.description, '50%'),
    ],
    ['search: _ is literal (every task id has one)', () => `filter[search]=${q('_')}`, () => true],
    [
      'search: _ in titles only',
      () => `filter[search]=${q('_')}&filter[search_fields]=title`,
      (t) => t.title.includes('_'),
    ],
    [
      'search: * is literal',
      () => `filter[search]=${q('*now*')}`,
      (t) => has(t.title, '*now*') || has(t.description, '*now*'),
    ],
    [
      'search: a comma is literal, not a separator',
      () => `filter[search]=${q('a,b')}`,
      (t) => has(t.title, 'a,b') || has(t.description, 'a,b'),
    ],
    ['search: ( is literal', () => `filter[search]=${q('x(y')}`, (t) => has(t.title, 'x(y')],
    ['search: in a tag', () => `filter[search]=${q('odd,t')}`, (t) => t.tags.includes('odd,tag')],
    [
      'search: Unicode lower case',
      () => `filter[search]=${q('über')}`,
      (t) => has(t.title, 'über') || has(t.description, 'über'),
    ],
    ['search: empty restricts nothing', () => 'filter[search]=', () => true],
    [
      'search and status together',
      () => `filter[search]=${q('sorting')}&filter[status]=not_started`,
      (t) => has(t.title, 'sorting') && t.status === 'not_started',
    ],
  ];

  test.each(cases)('%s', async (_name, query, predicate) => {
    const want = expected(predicate);
    expect(want.length).toBeGreaterThan(0);
    expect(await idsFor(query())).toEqual(want);
  });

  test('me is the caller: the peer token sees the peer’s tasks', async () => {
    expect(await idsFor('filter[assignee]=me', emulator.tokens.peer)).toEqual(
      expected((t) => t.assignee === emulator.peer.username),
    );
  });
});

describe('refused filters name the parameter', () => {
  test.each([
    ['filter[colour]=red', 'filter[colour]', false],
    ['filter[status]=done', 'filter[status]', true],
    ['filter[priority]=critical', 'filter[priority]', true],
    ['filter[task_type]=goal', 'filter[task_type]', true],
    ['filter[task_type]=agent', 'filter[task_type]', true],
    ['filter[review]=maybe', 'filter[review]', true],
    ['filter[created_via]=email', 'filter[created_via]', true],
    ['filter[overdue]=yes', 'filter[overdue]', true],
    ['filter[search_fields]=body', 'filter[search_fields]', true],
    ['filter[due_after]=2026-02-30', 'filter[due_after]', false],
    ['filter[created_before]=yesterday', 'filter[created_before]', false],
    ['filter[status]=', 'filter[status]', false],
    ['filter[search]=a&filter[search]=b', 'filter[search]', false],
  ])('%s is 400 invalid-parameter at %s', async (query, loc, listsAllowed) => {
    const answer = await callApi(emulator, 'GET', `/v1/tasks?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('urn:svc:problem:invalid-parameter');
    expect(answer.body.errors?.[0]?.loc).toEqual(['query', loc]);
    expect(Array.isArray(answer.body.errors?.[0]?.allowed)).toBe(listsAllowed || loc === 'filter[colour]');
  });
});

/** The header comment's order, written independently: nulls largest, ranks, lower case then as sent, by code point; ties by id. */
function referenceCompare(sortBy: TaskSortKey, a: TaskRecord, b: TaskRecord): number {
  const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0) ?? 0);
  const compareText = (x: string, y: string) => {
    const [p, r] = [codePoints(x), codePoints(y)];
    for (let i = 0; i < Math.min(p.length, r.length); i++)
      if (p[i] !== r[i]) return (p[i] ?? 0) - (r[i] ?? 0);
    return p.length - r.length;
  };
  const valueOf = (t: TaskRecord): string | null =>
    sortBy === 'priority_rank' ? t.priority : sortBy === 'status_rank' ? t.status : t[sortBy];
  const [x, y] = [valueOf(a), valueOf(b)];
  let result = 0;
  if (x === null || y === null) result = x === y ? 0 : x === null ? 1 : -1;
  else {
    if (sortBy === 'priority_rank' || sortBy === 'status_rank') {
      const ranks = sortBy === 'priority_rank' ? PRIORITY_RANK : STATUS_RANK;
      result = (ranks[x] ?? 4) - (ranks[y] ?? 4);
    }
    result ||= compareText(x.toLowerCase(), y.toLowerCase()) || compareText(x, y);
  }
  return result || compareText(a.task_id, b.task_id);
}

describe('sorting', () => {
  const cases = TASK_SORT_KEYS.flatMap((key) => [
    [key, 'asc'],
    [key, 'desc'],
  ]) as [TaskSortKey, 'asc' | 'desc'][];

  test.each(cases)('sort_by=%s sort_order=%s', async (sortBy, order) => {
    const found = await walkList<TaskRecord>(emulator, `/v1/tasks?sort_by=${sortBy}&sort_order=${order}`, {
      limit: 1000,
    });
    const want = [...tasks].sort((a, b) => referenceCompare(sortBy, a, b));
    if (order === 'desc') want.reverse();
    expect(found.map((t) => t.task_id)).toEqual(want.map((t) => t.task_id));
  });

  test('the default is title ascending', async () => {
    const found = await walkList<TaskRecord>(emulator, '/v1/tasks', { limit: 1000 });
    expect(found.map((t) => t.task_id)).toEqual(
      [...tasks].sort((a, b) => referenceCompare('title', a, b)).map((t) => t.task_id),
    );
  });

  test('titles differing only in case sort lower-case-equal, then by code point (upper first)', async () => {
    const found = await walkList<TaskRecord>(
      emulator,
      `/v1/tasks?filter[search]=${q('sorting')}&filter[search_fields]=title`,
      { limit: 1000 },
    );
    expect(found.map((t) => t.title)).toEqual(['ÜBER sorting', 'über sorting']);
  });
});

describe('overdue moves with the clock', () => {
  test('a task due today becomes overdue after midnight, with no write in between', async () => {
    const created = await callApi<TaskRecord>(emulator, 'POST', '/v1/tasks', {
      body: { org_id: emulator.orgId, title: 'due today', due_date: today },
    });
    const overdue = async () => (await idsFor('filter[overdue]=true')).includes(created.body.task_id);
    expect(await overdue()).toBe(false);
    clock.advance(24 * 3_600_000);
    try {
      expect(await overdue()).toBe(true);
    } finally {
      clock.advance(-24 * 3_600_000);
    }
  });
});
