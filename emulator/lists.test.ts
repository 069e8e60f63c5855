// The contract's list rules over HTTP: `{data, next_cursor}` (and `total` where
// it says), default and capped limits, limit < 1 refused, opaque cursors tied to
// their query, `offset` ignored beside a cursor, sort validation with
// `allowed`, and a walk that neither skips nor repeats while others write.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi, type Page, walkList } from './emulator-http';
import type { TaskRecord, TeamRecord } from './records';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
let teamId: string;

beforeAll(async () => {
  emulator = await startEmulator({ clock: new ManualClock(), seedTasks: 1100 });
  const teams = await callApi<Page<TeamRecord>>(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`);
  teamId = teams.body.data[0]?.team_id ?? '';
});
afterAll(async () => {
  await emulator.stop();
});

describe('limits', () => {
  test('tasks default to 100 a page', async () => {
    const answer = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks');
    expect(answer.body.data).toHaveLength(100);
    expect(typeof answer.body.next_cursor).toBe('string');
  });

  test('a limit over 1000 is capped at 1000 silently', async () => {
    const answer = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=5000');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1000);
  });

  test.each(['0', '-3', 'ten', '1.5'])('limit=%s is 400 invalid-parameter on limit', async (limit) => {
    const answer = await callApi(emulator, 'GET', `/v1/tasks?limit=${limit}`);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('urn:svc:problem:invalid-parameter');
    expect(answer.body.errors?.[0]?.loc).toEqual(['query', 'limit']);
  });

  test('sprints and task history default to 1000 and teams to 50 (all fit in one page here)', async () => {
    const sprints = await callApi(emulator, 'GET', `/v1/teams/${teamId}/sprints`);
    expect(sprints.body.next_cursor).toBeNull();
    expect(sprints.body.total).toBe(sprints.body.data?.length);
    const teams = await callApi(emulator, 'GET', `/v1/teams?org_id=${emulator.orgId}`);
    expect(teams.body.next_cursor).toBeNull();
  });
});

describe('lists answer {data, next_cursor}', () => {
  test.each([
    ['tasks', () => '/v1/tasks'],
    ['sections', () => `/v1/sections?org_id=${emulator.orgId}`],
    ['projects', () => `/v1/projects/${emulator.orgId}`],
    ['organizations', () => '/v1/organizations'],
    ['organization members', () => `/v1/organization-members/${emulator.orgId}`],
    ['teams (with total)', () => `/v1/teams?org_id=${emulator.orgId}`],
    ['sprints (with total)', () => `/v1/teams/${teamId}/sprints`],
  ])('%s', async (name, path) => {
    const answer = await callApi(emulator, 'GET', path());
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body.data)).toBe(true);
    expect('next_cursor' in answer.body).toBe(true);
    expect('total' in answer.body).toBe(name.includes('total'));
  });
});

describe('walking pages', () => {
  test('a walk at any page size returns every task exactly once', async () => {
    const all = emulator.control
      .tasks()
      .map((t) => t.task_id)
      .sort();
    for (const limit of [1000, 333, 97]) {
      const walked = (await walkList<TaskRecord>(emulator, '/v1/tasks?sort_by=created_at', { limit })).map(
        (t) => t.task_id,
      );
      expect(new Set(walked).size).toBe(walked.length);
      expect([...walked].sort()).toEqual(all);
    }
  });

  test('a walk of a small list pages too (members, limit 3)', async () => {
    const members = await walkList(emulator, `/v1/organization-members/${emulator.orgId}`, { limit: 3 });
    const once = await callApi(emulator, 'GET', `/v1/organization-members/${emulator.orgId}?limit=1000`);
    expect(members).toEqual(once.body.data);
  });

  test('tasks that exist all along are seen once while the peer creates and deletes between pages', async () => {
    const before = new Set(emulator.control.tasks().map((t) => t.task_id));
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    const deleted = new Set<string>();
    do {
      const page: Page<TaskRecord> = (
        await callApi<Page<TaskRecord>>(
          emulator,
          'GET',
          '/v1/tasks?limit=150&sort_by=title' + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''),
        )
      ).body;
      seen.push(...page.data.map((t) => t.task_id));
      cursor = page.next_cursor;
      // Between pages: a new task with a title that sorts first, one that sorts last, and a deletion ahead.
      emulator.control.peerCreate({ title: `AAA inserted ${round}` });
      emulator.control.peerCreate({ title: `zzz inserted ${round}` });
      const ahead = emulator.control
        .tasks()
        .find((t) => before.has(t.task_id) && !seen.includes(t.task_id) && !deleted.has(t.task_id));
      if (ahead && round % 2 === 0) {
        emulator.control.peerDelete(ahead.task_id);
        deleted.add(ahead.task_id);
      }
      round += 1;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) if (!deleted.has(id)) expect(seen).toContain(id);
    for (const id of deleted) expect(seen).not.toContain(id);
  });
});

describe('cursors', () => {
  test('are opaque strings that belong to their query', async () => {
    const first = await callApi(emulator, 'GET', '/v1/tasks?limit=5&sort_by=created_at');
    const cursor = first.body.next_cursor ?? '';
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const same = await callApi(emulator, 'GET', `/v1/tasks?limit=5&sort_by=created_at&cursor=${cursor}`);
    expect(same.status).toBe(200);
    const otherSort = await callApi(emulator, 'GET', `/v1/tasks?limit=5&sort_by=title&cursor=${cursor}`);
    expect(otherSort.status).toBe(400);
    expect(otherSort.body.errors?.[0]?.loc).toEqual(['query', 'cursor']);
  });

  test.each(['garbage', 'eyJ4IjoxfQ', ''])(
    'a cursor it never gave out (%j) is 400 on cursor',
    async (cursor) => {
      const answer = await callApi(emulator, 'GET', `/v1/tasks?cursor=${cursor}`);
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('urn:svc:problem:invalid-parameter');
      expect(answer.body.errors?.[0]?.loc).toEqual(['query', 'cursor']);
    },
  );

  test('offset is ignored when a cursor is given, honoured otherwise', async () => {
    const first = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=4');
    const cursor = encodeURIComponent(first.body.next_cursor ?? '');
    const withCursor = await callApi<Page<TaskRecord>>(emulator, 'GET', `/v1/tasks?limit=4&cursor=${cursor}`);
    const withBoth = await callApi<Page<TaskRecord>>(
      emulator,
      'GET',
      `/v1/tasks?limit=4&cursor=${cursor}&offset=50`,
    );
    expect(withBoth.body.data).toEqual(withCursor.body.data);
    const byOffset = await callApi<Page<TaskRecord>>(emulator, 'GET', '/v1/tasks?limit=4&offset=4');
    expect(byOffset.body.data).toEqual(withCursor.body.data);
  });
});

describe('sort validation', () => {
  test.each([
    ['tasks', () => '/v1/tasks?sort_by=colour', 'title'],
    ['teams', () => `/v1/teams?org_id=${emulator.orgId}&sort_by=size`, 'name'],
    ['sprints', () => `/v1/teams/${teamId}/sprints?sort_by=velocity`, 'start_date'],
    ['sections', () => `/v1/sections?sort_by=colour`, 'position'],
    ['projects', () => `/v1/projects/${emulator.orgId}?sort_by=budget`, 'name'],
    ['members', () => `/v1/organization-members/${emulator.orgId}?sort_by=age`, 'username'],
  ])(
    '%s: an unknown sort_by is 400 invalid-parameter listing what is allowed',
    async (_name, path, allowed) => {
      const answer = await callApi(emulator, 'GET', path());
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('urn:svc:problem:invalid-parameter');
      expect(answer.body.errors?.[0]).toMatchObject({ loc: ['query', 'sort_by'] });
      expect(answer.body.errors?.[0]?.allowed).toContain(allowed);
    },
  );

  test('sort_order other than asc or desc is 400 with allowed [asc, desc]', async () => {
    const answer = await callApi(emulator, 'GET', '/v1/tasks?sort_order=up');
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]).toMatchObject({ loc: ['query', 'sort_order'], allowed: ['asc', 'desc'] });
  });

  test('desc is exactly the reverse of asc (ties included)', async () => {
    const asc = await walkList<TaskRecord>(emulator, '/v1/tasks?sort_by=status&sort_order=asc', {
      limit: 1000,
    });
    const desc = await walkList<TaskRecord>(emulator, '/v1/tasks?sort_by=status&sort_order=desc', {
      limit: 1000,
    });
    expect(desc.map((t) => t.task_id)).toEqual(asc.map((t) => t.task_id).reverse());
  });

  test('sprints come latest first unless an order is asked for', async () => {
    const answer = await callApi<Page<{ start_date: string }>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/sprints`,
    );
    const starts = answer.body.data.map((s) => s.start_date);
    expect(starts).toEqual([...starts].sort().reverse());
    const asc = await callApi<Page<{ start_date: string }>>(
      emulator,
      'GET',
      `/v1/teams/${teamId}/sprints?sort_by=start_date`,
    );
    expect(asc.body.data.map((s) => s.start_date)).toEqual([...starts].sort());
  });
});
