// The mirror's answers must be the service's: with the emulator's seeded data
// loaded into a mirror, generated filter, search and sort combinations give the
// same task ids in the same order locally as `GET /v1/tasks` (all pages), and
// so do generated queries of the search box's language once mapped to filters;
// the local aggregates equal the counts the service lists.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLOSED_VALUES, TASK_SORT_KEYS, type TaskSortKey } from '../../protocol/task-list-query';
import { parseTaskSearch, type TaskSearchContext } from '../../protocol/task-search';
import { ManualClock } from '../../emulator/clock';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import Database from 'better-sqlite3';
import type { Mirror } from '../mirror';
import { TaskQueries, taskQueryParams } from './task-query';
import { openTestMirror, type TestMirror } from '../test-mirror';
import { WordIndex } from '../tasks/word-index';

const NOW = Date.parse('2026-03-10T09:30:00Z');
const TODAY = '2026-03-10';
const SEED_TASKS = 3000;
const COMBINATIONS = 240;
const LANGUAGE_QUERIES = 200;

type Json = Record<string, unknown>;

let emulator: RunningEmulator;
let handle: TestMirror;
let mirror: Mirror;
let tasks: Json[] = [];

async function get(path: string): Promise<{ status: number; body: Json; etag: string | null }> {
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${emulator.tokens.live}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as Json,
    etag: response.headers.get('etag'),
  };
}

/** Walks every page of a list the way the sync engine does, applying each one. */
async function pull(collection: 'tasks' | 'sections', path: string): Promise<Json[]> {
  const all: Json[] = [];
  let cursor: string | null = null;
  let pageIndex = 0;
  mirror.passes.begin(collection);
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await get(`${path}${sep}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    const items = page.body.data as Json[];
    const next = page.body.next_cursor as string | null;
    const applied = mirror.passes.applyPage({
      collection,
      pageIndex,
      cursorSent: cursor,
      etag: page.etag,
      nextCursor: next,
      items,
    });
    expect(applied.rejected).toEqual([]);
    all.push(...items);
    cursor = next;
    pageIndex++;
  } while (cursor !== null);
  mirror.passes.complete(collection, '', pageIndex - 1);
  return all;
}

async function remoteIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(
      `/v1/tasks?org_id=${emulator.orgId}&limit=1000&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status, `${query}: ${JSON.stringify(page.body)}`).toBe(200);
    ids.push(...(page.body.data as Json[]).map((t) => t.task_id as string));
    cursor = page.body.next_cursor as string | null;
  } while (cursor !== null);
  return ids;
}

const pathsSeen = new Set<string>();

function localIds(query: string): string[] {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page = mirror.tasks.query(new URLSearchParams(query), {
      me: emulator.me.username,
      today: TODAY,
      limit: 251,
      after,
    });
    ids.push(...page.items.map((t) => t.task_id));
    pathsSeen.add(page.path);
    after = page.next;
  } while (after !== null);
  return ids;
}

/** The values the generated queries draw from: what the seeded data really holds, and some it does not. */
function vocabulary() {
  const distinct = (field: string) => [
    ...new Set(tasks.map((t) => t[field]).filter((v) => typeof v === 'string')),
  ];
  const words = [
    ...new Set(
      tasks.flatMap((t) => `${t.title as string} ${(t.description as string | null) ?? ''}`.split(/\s+/)),
    ),
  ].filter((w) => w.length > 0);
  const ids = tasks.map((t) => t.task_id as string);
  return {
    words,
    projects: [...distinct('project_id'), 'prj_missing'],
    teams: [...distinct('team_id'), 'team_missing'],
    users: [...distinct('assignee'), 'me', 'nobody'],
    tags: [...new Set(tasks.flatMap((t) => t.tags as string[])), 'no-such-tag'],
    days: ['2025-06-01', '2026-01-15', '2026-02-28', TODAY, '2026-03-11', '2026-04-01', '2026-05-09'],
    searches: fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom(...words).map((w) => w.toUpperCase()),
      fc.constantFrom(...words).chain((w) => fc.nat(Math.max(0, w.length - 1)).map((i) => w.slice(i, i + 4))),
      fc.constantFrom(...ids).map((id) => id.slice(3, 10)),
      fc.constantFrom(...ids),
      fc.constantFrom(
        '%',
        '_',
        '*',
        ',',
        '(',
        '100%',
        'a_b',
        '(quoted',
        'a,b',
        'e',
        'ö',
        'ß',
        '🎉',
        'т',
        'zzzq',
      ),
      fc.constantFrom(
        'login flow',
        'Fix ',
        ' — part',
        'search index',
        'Alpha',
        'ÜBER',
        'ремонт',
        '😀',
        'release-blocker',
      ),
    ),
  };
}

function combinations(count: number): string[] {
  const v = vocabulary();
  const list = (values: readonly string[]) =>
    fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 });
  const param = (key: string, values: fc.Arbitrary<string[]>) =>
    values.map((vs) => `filter[${key}]=${vs.map(encodeURIComponent).join(',')}`);
  const single = (key: string, values: fc.Arbitrary<string>) =>
    values.map((x) => `filter[${key}]=${encodeURIComponent(x)}`);
  const filters = fc.subarray(
    [
      param('status', list(['not_started', 'in_progress', 'blocked', 'completed'])),
      param('priority', list(['low', 'medium', 'high', 'urgent'])),
      param('assignee', list(v.users)),
      param('project', list([...v.projects, '__unfiled__'])),
      param('tags', list(v.tags)),
      single('due_after', fc.constantFrom(...v.days)),
      single('due_before', fc.constantFrom(...v.days)),
      single('created_after', fc.constantFrom(...v.days)),
      single('created_before', fc.constantFrom(...v.days)),
      single('overdue', fc.constantFrom('true', 'false')),
      single('search', v.searches),
      single('search_fields', fc.constantFrom('all', 'title')),
      param('team', list([...v.teams, '__none__'])),
      param('task_type', list(['task', 'bug'])),
      param('created_via', list(['app', 'api', 'sdk', 'mcp', 'none'])),
      param('review', list(['pending', 'accepted', 'rejected', 'none'])),
    ],
    { maxLength: 3 },
  );
  const query = fc
    .tuple(
      filters.chain((arbs): fc.Arbitrary<string[]> =>
        arbs.length === 0 ? fc.constant<string[]>([]) : fc.tuple(...arbs),
      ),
      fc.constantFrom(...TASK_SORT_KEYS),
      fc.constantFrom('asc', 'desc'),
    )
    .map(([parts, sortBy, order]) => [...parts, `sort_by=${sortBy}`, `sort_order=${order}`].join('&'));
  // Every sort key in both orders with no filter, then searches (the hardest part) weighted up.
  const plain = TASK_SORT_KEYS.flatMap((key) => [`sort_by=${key}`, `sort_by=${key}&sort_order=desc`]);
  const searches = fc
    .tuple(v.searches, fc.constantFrom(...TASK_SORT_KEYS), fc.constantFrom('asc', 'desc'))
    .map(([s, key, order]) => `filter[search]=${encodeURIComponent(s)}&sort_by=${key}&sort_order=${order}`);
  // A term no word and no id holds (a space is in no id): answered without reading a task.
  const nowhere = [`filter[search]=${encodeURIComponent('qqxj zzzq')}&sort_by=title`];
  return [
    ...plain,
    ...nowhere,
    ...fc.sample(searches, { seed: 20260925, numRuns: 60 }),
    ...fc.sample(query, { seed: 42, numRuns: count - plain.length - nowhere.length - 60 }),
  ];
}

/** The names the language resolves, as the service lists them (the mirror holds the same). */
async function searchContext(): Promise<TaskSearchContext> {
  const projects = (await get(`/v1/projects/${emulator.orgId}?limit=1000`)).body.data as Json[];
  const teams = (await get(`/v1/teams?org_id=${emulator.orgId}&limit=1000`)).body.data as Json[];
  const members = (await get(`/v1/organization-members/${emulator.orgId}?limit=1000`)).body.data as Json[];
  return {
    projects: projects.map((p) => ({ id: p.project_id as string, name: p.name as string })),
    teams: teams.map((t) => ({ id: t.team_id as string, name: t.name as string })),
    members: members.map((m) => m.username as string),
    tags: [...new Set(tasks.flatMap((t) => t.tags as string[]))],
  };
}

/** Generated texts of the search language that the context resolves whole: keys, not, names, dates and words, in any order. */
function languageQueries(context: TaskSearchContext, count: number): string[] {
  const v = vocabulary();
  const quote = (value: string) => (/[\s,":<>]/.test(value) ? `"${value}"` : value);
  const some = (values: readonly string[]) =>
    fc
      .uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 })
      .map((vs) => vs.map(quote).join(','));
  // At most all but one value: excluding every one is refused (and taking every one restricts nothing).
  const closed = (word: string, key: keyof typeof CLOSED_VALUES) =>
    fc
      .tuple(
        fc.boolean(),
        fc.uniqueArray(fc.constantFrom(...CLOSED_VALUES[key]), {
          minLength: 1,
          maxLength: Math.min(2, CLOSED_VALUES[key].length - 1),
        }),
      )
      .map(([not, values]) => `${not ? '-' : ''}${word}:${values.join(',')}`);
  const dates = (word: string) =>
    fc
      .tuple(fc.constantFrom('<', '>', '<=', '>=', ':'), fc.constantFrom(...v.days))
      .map(([op, d]) => `${word}${op}${d}`);
  const plainWords = v.words.filter(
    (w) => !w.includes('"') && !/^[A-Za-z_]+(<|>|:)/.test(w) && !w.startsWith('-'),
  );
  const titles = tasks.map((t) => t.title as string).filter((t) => !t.includes('"'));
  const text = fc.oneof(
    fc.constantFrom(...plainWords),
    // A quoted phrase: a run of a real title's characters, spaces and all.
    fc
      .tuple(fc.constantFrom(...titles), fc.nat(30), fc.integer({ min: 3, max: 12 }))
      .map(([title, at, length]) =>
        title.slice(at % Math.max(1, title.length - 2), (at % Math.max(1, title.length - 2)) + length),
      )
      .filter((phrase) => phrase.trim() !== '')
      .map((phrase) => `"${phrase}"`),
  );
  const terms = fc.subarray(
    [
      closed('status', 'status'),
      closed('priority', 'priority'),
      closed('type', 'task_type'),
      closed('review', 'review'),
      closed('via', 'created_via'),
      some(['me', ...context.members]).map((x) => `assignee:${x}`),
      some(['none', ...context.projects.map((p) => p.name)]).map((x) => `project:${x}`),
      some(['none', ...context.teams.map((t) => t.name)]).map((x) => `team:${x}`),
      some(context.tags).map((x) => `tag:${x}`),
      fc.oneof(dates('due'), fc.constant('due:overdue')),
      dates('created'),
      text,
    ],
    { maxLength: 3 },
  );
  const query = terms
    .chain((arbs): fc.Arbitrary<string[]> =>
      arbs.length === 0 ? fc.constant<string[]>([]) : fc.tuple(...arbs),
    )
    .chain((parts) => fc.shuffledSubarray(parts, { minLength: parts.length }))
    .map((parts) => parts.join(' '));
  return fc.sample(query, { seed: 2424, numRuns: count });
}

describe('the mirror answers like the service', () => {
  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 42,
      seedTasks: SEED_TASKS,
      clock: new ManualClock(NOW),
      rateLimit: { live: 1_000_000 },
    });
    handle = await openTestMirror();
    mirror = handle.mirror;
    mirror.identity.setAccount({ orgId: emulator.orgId, username: emulator.me.username });
    tasks = await pull('tasks', `/v1/tasks?org_id=${emulator.orgId}&sort_by=created_at&sort_order=asc`);
  });
  afterAll(async () => {
    handle.cleanup();
    await emulator.stop();
  });

  test('every task of the service is in the mirror', () => {
    expect(tasks.length).toBe(SEED_TASKS);
    expect(mirror.tasks.total()).toBe(SEED_TASKS);
  });

  test(`${COMBINATIONS} generated filter, search and sort combinations give the same ids in the same order`, async () => {
    const queries = combinations(COMBINATIONS);
    expect(queries.length).toBeGreaterThanOrEqual(200);
    const mismatches: string[] = [];
    let nonEmpty = 0;
    for (const query of queries) {
      const remote = await remoteIds(query);
      const local = localIds(query);
      if (remote.length > 0) nonEmpty++;
      const count = mirror.tasks.count(new URLSearchParams(query), {
        me: emulator.me.username,
        today: TODAY,
      });
      if (JSON.stringify(remote) !== JSON.stringify(local) || count !== remote.length) {
        const at = remote.findIndex((id, i) => local[i] !== id);
        mismatches.push(
          `${query}: service ${remote.length}, mirror ${local.length} (count ${count}), first difference at ${at}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
    // The generated set is not trivially empty, and it took every way of answering.
    expect(nonEmpty).toBeGreaterThan(COMBINATIONS / 2);
    expect([...pathsSeen].sort()).toEqual([
      'candidate-walk',
      'candidates',
      'empty',
      'filter-index',
      'filter-walk',
      'groups',
      'walk',
    ]);
  }, 180_000);

  test(`${LANGUAGE_QUERIES} generated queries of the search language, mapped to filters, give the same ids in the same order`, async () => {
    const context = await searchContext();
    const texts = languageQueries(context, LANGUAGE_QUERIES);
    const mismatches: string[] = [];
    const keysUsed = new Set<string>();
    let nonEmpty = 0;
    for (const [i, text] of texts.entries()) {
      const parsed = parseTaskSearch(text, context);
      expect(parsed.problems, text).toEqual([]);
      for (const key of Object.keys(parsed.filter)) keysUsed.add(key);
      const sortBy = TASK_SORT_KEYS[i % TASK_SORT_KEYS.length] as TaskSortKey;
      const params = taskQueryParams({
        filter: { ...parsed.filter, search_fields: 'all' },
        sort_by: sortBy,
        sort_order: i % 2 === 0 ? 'asc' : 'desc',
      });
      const query = new URLSearchParams(params).toString();
      const remote = await remoteIds(query);
      const local = localIds(query);
      if (remote.length > 0) nonEmpty++;
      if (JSON.stringify(remote) !== JSON.stringify(local)) {
        mismatches.push(`${text} (${query}): service ${remote.length}, mirror ${local.length}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The generated texts reach every filter the language maps to, and often match something.
    expect([...keysUsed].sort()).toEqual([
      'assignee',
      'created_after',
      'created_before',
      'created_via',
      'due_after',
      'due_before',
      'overdue',
      'priority',
      'project',
      'review',
      'search',
      'status',
      'tags',
      'task_type',
      'team',
    ]);
    expect(nonEmpty).toBeGreaterThan(LANGUAGE_QUERIES / 3);
  }, 180_000);

  test('in the language, < and > are strict and <=, >= and : include the day, and not is every other value', async () => {
    const context = await searchContext();
    const ids = async (text: string) => {
      const parsed = parseTaskSearch(text, context);
      expect(parsed.problems, text).toEqual([]);
      const params = taskQueryParams({
        filter: { ...parsed.filter, search_fields: 'all' },
        sort_by: 'task_id',
        sort_order: 'asc',
      });
      const query = new URLSearchParams(params).toString();
      const remote = await remoteIds(query);
      expect(localIds(query)).toEqual(remote);
      return new Set(remote);
    };
    const minus = (a: Set<string>, b: Set<string>) => [...a].filter((id) => !b.has(id)).sort();
    const where = (keep: (t: Json) => boolean) =>
      tasks
        .filter(keep)
        .map((t) => t.task_id as string)
        .sort();
    // The day most tasks fall due on, and the day most were created on.
    const busiest = (day: (t: Json) => string | null) => {
      const counts = new Map<string, number>();
      for (const t of tasks) {
        const d = day(t);
        if (d !== null) counts.set(d, (counts.get(d) ?? 0) + 1);
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
    };
    const due = busiest((t) => t.due_date as string | null);
    const created = busiest((t) => (t.created_at as string).slice(0, 10));
    const dueOn = where((t) => t.due_date === due);
    const createdOn = where((t) => (t.created_at as string).startsWith(created));
    expect(dueOn.length).toBeGreaterThan(0);
    expect(createdOn.length).toBeGreaterThan(0);

    expect(minus(await ids(`due<=${due}`), await ids(`due<${due}`))).toEqual(dueOn);
    expect(minus(await ids(`due>=${due}`), await ids(`due>${due}`))).toEqual(dueOn);
    expect([...(await ids(`due:${due}`))].sort()).toEqual(dueOn);
    expect(minus(await ids(`created<=${created}`), await ids(`created<${created}`))).toEqual(createdOn);
    expect(minus(await ids(`created>=${created}`), await ids(`created>${created}`))).toEqual(createdOn);
    expect([...(await ids('-status:completed'))].sort()).toEqual(where((t) => t.status !== 'completed'));
    expect([...(await ids('-priority:low,urgent'))].sort()).toEqual(
      where((t) => t.priority === 'medium' || t.priority === 'high'),
    );
  });

  test('1- and 2-character searches, rare and common, give the same ids, order and count', async () => {
    const ids = tasks.map((t) => t.task_id as string);
    // Id fragments (a few tasks each), letters and pairs found in most tasks, and ones in few or none.
    const terms = [
      ...[7, 123, 2222].map((i) => (ids[i] as string).slice(6, 8)),
      (ids[42] as string).slice(9, 10),
      'e',
      'E',
      'es',
      'in',
      ' t',
      'un',
      'q4',
      'Ü',
      'é',
      '紧',
      '😀',
      'x',
      'zq',
      'j',
      '_b',
      '-b',
      '%',
      'a,',
    ];
    const sorts = [
      'sort_by=title',
      'sort_by=due_date&sort_order=desc',
      'sort_by=priority',
      'sort_by=task_id',
    ];
    // The same queries without the word index (as during a first load, or for a
    // term in too many words): walks, and counts over the compact search text.
    const raw = new Database(handle.file, { readonly: true });
    const indexes = new Set(
      raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all() as string[],
    );
    const unindexed = new TaskQueries(
      raw,
      new WordIndex(raw),
      () => 'fixed',
      () => indexes,
      () => false,
    );
    const options = { me: emulator.me.username, today: TODAY };
    const mismatches: string[] = [];
    const sizes: number[] = [];
    try {
      for (const [i, term] of terms.entries()) {
        for (const fields of ['all', 'title']) {
          const query = `filter[search]=${encodeURIComponent(term)}&filter[search_fields]=${fields}&${sorts[i % sorts.length] as string}`;
          const remote = await remoteIds(query);
          const local = localIds(query);
          const count = mirror.tasks.count(new URLSearchParams(query), options);
          const walked: string[] = [];
          let after: string | null = null;
          do {
            const page = unindexed.page(new URLSearchParams(query), { ...options, limit: 251, after });
            walked.push(...page.items.map((t) => t.task_id));
            after = page.next;
          } while (after !== null);
          const walkedCount = unindexed.count(new URLSearchParams(query), options);
          sizes.push(remote.length);
          const expected = JSON.stringify(remote);
          if (expected !== JSON.stringify(local) || count !== remote.length)
            mismatches.push(`${query}: service ${remote.length}, mirror ${local.length} (count ${count})`);
          if (expected !== JSON.stringify(walked) || walkedCount !== remote.length)
            mismatches.push(
              `${query} without words: service ${remote.length}, mirror ${walked.length} (count ${walkedCount})`,
            );
        }
      }
    } finally {
      raw.close();
    }
    expect(mismatches).toEqual([]);
    // The terms cover both ends: some match a handful of tasks, some most of them.
    expect(sizes.some((n) => n > 0 && n <= 20)).toBe(true);
    expect(sizes.some((n) => n > SEED_TASKS / 2)).toBe(true);
  }, 120_000);

  test('section, sprint and goal task counts equal the service lists', async () => {
    const sections = (await get(`/v1/sections?org_id=${emulator.orgId}&limit=1000`)).body.data as Json[];
    const sectionCounts = mirror.tasks.sectionCounts();
    expect(sections.length).toBeGreaterThan(0);
    for (const s of sections) expect(sectionCounts.get(s.section_id as string) ?? 0).toBe(s.task_count);

    const teams = (await get(`/v1/teams?org_id=${emulator.orgId}&limit=1000`)).body.data as Json[];
    const sprintCounts = mirror.tasks.sprintCounts();
    let sprints = 0;
    for (const team of teams) {
      for (const s of (await get(`/v1/teams/${team.team_id as string}/sprints`)).body.data as Json[]) {
        sprints++;
        const local = sprintCounts.get(s.sprint_id as string) ?? { total: 0, completed: 0 };
        expect([local.total, local.completed]).toEqual([s.task_count, s.completed_count]);
      }
    }
    expect(sprints).toBeGreaterThan(0);

    const groups = (await get(`/v1/goals?org_id=${emulator.orgId}`)).body.projects as Json[];
    const goalCounts = mirror.tasks.goalCounts();
    let goals = 0;
    for (const group of groups) {
      for (const g of group.data as Json[]) {
        goals++;
        const local = goalCounts.get(g.goal_id as string) ?? { total: 0, completed: 0 };
        expect([local.total, local.completed]).toEqual([g.tasks_total, g.tasks_completed]);
      }
    }
    expect(goals).toBeGreaterThan(0);
  });
});
