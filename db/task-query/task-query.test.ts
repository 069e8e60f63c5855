import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  InvalidParameterError,
  parseTaskListQuery,
  PRIORITY_RANK,
  STATUS_RANK,
  TASK_SORT_KEYS,
  type TaskListQuery,
  type TaskSortKey,
} from '../../protocol/task-list-query';
import type { Mirror } from '../mirror';
import { nextTurn } from '../next-turn';
import { openMirror } from '../open-mirror';
import type { TaskListPage, TaskQueryPath } from './task-query';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

type Task = Record<string, unknown>;
const ME = 'ada';
const TODAY = '2026-03-10';

// ---- a reference of task-list-query.ts's semantics, written from its header comment ----

function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

type Key = { rank: number; lower: string; raw: string } | null;

function keyOf(task: Task, sortBy: TaskSortKey): Key {
  const field = sortBy === 'priority_rank' ? 'priority' : sortBy === 'status_rank' ? 'status' : sortBy;
  const value = task[field] as string | null | undefined;
  if (value === null || value === undefined) return null;
  if (sortBy === 'priority_rank' || sortBy === 'status_rank') {
    const ranks = sortBy === 'priority_rank' ? PRIORITY_RANK : STATUS_RANK;
    const rank = Object.hasOwn(ranks, value) ? ranks[value] : undefined;
    return rank === undefined
      ? { rank: 4, lower: value.toLowerCase(), raw: value }
      : { rank, lower: '', raw: '' };
  }
  return { rank: 0, lower: value.toLowerCase(), raw: value };
}

function compareKey(a: Key, b: Key): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a.rank - b.rank || codePointCompare(a.lower, b.lower) || codePointCompare(a.raw, b.raw);
}

function referenceMatches(task: Task, q: TaskListQuery): boolean {
  const f = q.filter;
  const str = (k: string) => (task[k] as string | null | undefined) ?? null;
  const inList = (values: string[] | undefined, value: string | null, nullToken?: string) =>
    !values ||
    (value === null ? nullToken !== undefined && values.includes(nullToken) : values.includes(value));
  if (!inList(f.status, str('status'))) return false;
  if (!inList(f.priority, str('priority'))) return false;
  if (
    f.assignee &&
    !inList(
      f.assignee.map((a) => (a === 'me' ? ME : a)),
      str('assignee'),
    )
  )
    return false;
  if (!inList(f.project, str('project_id'), '__unfiled__')) return false;
  if (!inList(f.team, str('team_id'), '__none__')) return false;
  if (!inList(f.task_type, str('task_type'))) return false;
  if (!inList(f.created_via, str('created_via'), 'none')) return false;
  if (!inList(f.review, str('review'), 'none')) return false;
  const tags = (task.tags as string[] | null) ?? [];
  if (f.tags && !tags.some((t) => f.tags?.includes(t))) return false;
  const due = str('due_date');
  if (f.due_after && (due === null || due < f.due_after)) return false;
  if (f.due_before && (due === null || due > f.due_before)) return false;
  const created = str('created_at');
  const createdDay = created === null ? null : new Date(created).toISOString().slice(0, 10);
  if (f.created_after && (createdDay === null || createdDay < f.created_after)) return false;
  if (f.created_before && (createdDay === null || createdDay > f.created_before)) return false;
  if (f.overdue && (due === null || due >= TODAY || str('status') === 'completed')) return false;
  if (f.search !== undefined) {
    const needle = f.search.toLowerCase();
    const has = (v: string | null) => (v ?? '').toLowerCase().includes(needle);
    const title = has(str('title'));
    if (f.search_fields === 'title') return title;
    if (!(title || has(str('description')) || has(str('task_id')) || tags.some((t) => has(t)))) return false;
  }
  return true;
}

function referenceIds(tasks: readonly Task[], q: TaskListQuery): string[] {
  const sign = q.sort_order === 'asc' ? 1 : -1;
  return tasks
    .filter((t) => referenceMatches(t, q))
    .sort(
      (a, b) =>
        sign *
        (compareKey(keyOf(a, q.sort_by), keyOf(b, q.sort_by)) ||
          codePointCompare(a.task_id as string, b.task_id as string)),
    )
    .map((t) => t.task_id as string);
}

/**
 * A title-sorted search's page run a step at a time as main runs it, with the
 * steps it yielded; null when dropped after `upTo` steps (a newer keystroke).
 */
function titleSearchSteps(
  mirror: Mirror,
  term: string,
  options: { me: string; today: string; limit: number },
  upTo = Infinity,
): { taken: number; page: TaskListPage } | null {
  const steps = mirror.tasks.pageSteps(new URLSearchParams(`filter[search]=${term}&sort_by=title`), options);
  for (let taken = 0; ; taken++) {
    const step = steps.next();
    if (step.done) return { taken, page: step.value };
    if (taken + 1 >= upTo) return null;
  }
}

/**
 * Runs `run` with every statement's `all` watched: `observe` is told each one's SQL, parameters
 * and rows. Returns what `run` gave (a promise's watch ends when it settles).
 */
function watchingStatements<T>(
  observe: (source: string, args: unknown[], rows: unknown[]) => void,
  run: () => T,
): T {
  const scratch = new Database(':memory:');
  const proto = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as {
    all: (this: { source: string }, ...args: unknown[]) => unknown[];
  };
  scratch.close();
  const all = proto.all;
  const spy = vi.spyOn(proto, 'all').mockImplementation(function (this: { source: string }, ...args) {
    const rows = all.apply(this, args);
    observe(this.source, args, rows);
    return rows;
  });
  let value: T;
  try {
    value = run();
  } catch (error) {
    spy.mockRestore();
    throw error;
  }
  if (value instanceof Promise) return value.finally(() => spy.mockRestore()) as T;
  spy.mockRestore();
  return value;
}

/**
 * The entries of the sort order whose rows a broad search's look ahead read
 * (task-query/broad-search.ts's walkedAhead), a number per statement, while
 * `run` ran a page from the list's start (its first parameter is how many).
 */
function entriesLookedAt(run: () => void): number[] {
  const windows: number[] = [];
  watchingStatements((source, args) => {
    if (source.includes(') w CROSS JOIN tasks t')) windows.push(args[0] as number);
  }, run);
  return windows;
}

/**
 * The rows a search tested against its filter (item-rows.ts's `passing`: the candidates read off
 * their places, task-query/sort-ranks.ts), summed over the statements run while `run` ran, and
 * what `run` gave.
 */
function rowsTested<T>(run: () => T): { tested: number; value: T } {
  let tested = 0;
  const value = watchingStatements((source, args) => {
    if (source.startsWith('SELECT t.rid FROM json_each(?) c') && !source.includes('ORDER BY'))
      tested += (JSON.parse(args[0] as string) as unknown[]).length;
  }, run);
  return { tested, value };
}

/**
 * The entries of the sort order read as places (task-query/sort-ranks.ts), a number per
 * statement (the rows it gave), while `run` ran.
 */
async function placesRead<T>(run: () => T | Promise<T>): Promise<{ reads: number[]; value: T }> {
  const reads: number[] = [];
  const value = await watchingStatements(
    (source, _args, rows) => {
      if (source.startsWith('SELECT t.rid FROM tasks t INDEXED BY')) reads.push(rows.length);
    },
    async () => run(),
  );
  return { reads, value };
}

/**
 * The page of a title-sorted `query` over `tasks` from the list's start, checked exact against
 * the reference, and how many entries of the order its look ahead read in all (entriesLookedAt).
 */
function pageLookedAt(
  mirror: Mirror,
  tasks: Task[],
  query: URLSearchParams,
  limit: number,
): { page: TaskListPage | undefined; looked: number[] } {
  let page: TaskListPage | undefined;
  const looked = entriesLookedAt(() => {
    page = mirror.tasks.query(query, { me: ME, today: TODAY, limit });
  });
  expect(page?.items.map((t) => t.task_id)).toEqual(
    referenceIds(tasks, parseTaskListQuery(query)).slice(0, limit),
  );
  return { page, looked };
}

/** `before` tasks titled `${title} i`, then `after` titled `Migrate chore i`: the matches of `mig` all sort after the rest. */
function lateMatches(before: number, title: string, after: number): Task[] {
  return [
    ...Array.from({ length: before }, (_, i) => taskJson({ title: `${title} ${i}` })),
    ...Array.from({ length: after }, (_, i) => taskJson({ title: `Migrate chore ${i}` })),
  ];
}

/**
 * 50 000 tasks, loaded with their indexes: the title order takes two chunks to read (32 768
 * entries each), and the 14 000 matches of `migrat` sort in the second. Returns them, and the
 * titles of the first 40 matches.
 */
async function loadLateMigrates(mirror: Mirror): Promise<{ tasks: Task[]; expected: string[] }> {
  const tasks = lateMatches(36_000, 'Add errand', 14_000);
  loadTasks(mirror, tasks);
  await mirror.sortIndexesReady();
  const expected = Array.from({ length: 14_000 }, (_, i) => `Migrate chore ${i}`)
    .sort(codePointCompare)
    .slice(0, 40);
  return { tasks, expected };
}

/**
 * The first match of loadLateMigrates' tasks renamed through `editor` (this connection or
 * another) to sort last: `migrate`'s page read again (`read`) leaves it out and starts at the
 * second. Returns what `read` gave.
 */
function expectFirstMatchRenamedOut<T extends { page: TaskListPage } | null>(
  editor: Mirror,
  { tasks, expected }: { tasks: Task[]; expected: string[] },
  read: () => T,
): T {
  const renamed = tasks[36_000]?.task_id as string;
  editor.tasks.edit(renamed, { title: 'Zebra migrates' });
  const answer = read();
  expect(answer?.page.items.map((t) => t.task_id)).not.toContain(renamed);
  expect(answer?.page.items[0]?.title).toBe(expected[1]);
  return answer;
}

/**
 * 5 000 tasks holding "plum" and "pear", 5 of them as the phrase "plum pear", in a created order
 * unlike their insertion's; loaded, indexes built. Returns them and the phrase's query, newest first.
 */
async function loadPlumPears(mirror: Mirror): Promise<{ tasks: Task[]; qs: string }> {
  const tasks = Array.from({ length: 5000 }, (_, i) =>
    taskJson({
      title: i % 1000 === 9 ? `Pick plum pear ${i}` : `Pear and plum ${i}`,
      created_at: new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 5000) * 60_000).toISOString(),
    }),
  );
  loadTasks(mirror, tasks);
  await mirror.sortIndexesReady();
  return { tasks, qs: 'filter[search]=plum pear&sort_by=created_at&sort_order=desc' };
}

// ---- data covering every edge the semantics name ---------------------------------------

const SPECIAL_TAG = 'odd\u001ftag';

function dataset(): Task[] {
  const tasks: Task[] = [];
  const add = (o: Task) => tasks.push(taskJson(o));
  add({
    title: 'alpha release notes',
    status: 'in_progress',
    priority: 'high',
    assignee: 'ada',
    tags: ['Q4', 'docs'],
  });
  add({
    title: 'Alpha release notes',
    status: 'in_progress',
    priority: 'high',
    assignee: 'Ada',
    tags: ['q4'],
  });
  add({ title: 'ALPHA release notes', status: 'blocked', priority: 'urgent', assignee: 'grace' });
  add({ title: 'Über die Größe', description: 'Straße und Maß', tags: ['café'], project_id: 'prj_b' });
  add({ title: 'über die größe', description: null, project_id: null, team_id: 't1' });
  add({ title: 'Ärger mit 检索 🔍', description: 'emoji 😀 and 検索', priority: 'low' });
  add({ title: 'Fix 100% CPU in on_start (urgent*)', description: 'a_b and *wildcards*, commas, (parens)' });
  // The separator inside a description, and a title ending in 'e' before the id's 't' in the search text.
  add({ title: 'Separator inside', description: 'before\u001fafter' });
  add({ title: 'Parse a,b (quoted) values', tags: ['a,b'], review: 'pending' });
  add({ title: 'Ремонт кэша', status: 'completed', priority: 'medium', review: 'accepted' });
  add({ title: 'Tag separator', tags: [SPECIAL_TAG, 'plain'] });
  add({ title: 'unknown status', status: 'archived', priority: 'critical', task_type: 'Epic' });
  add({ title: 'unknown status too', status: 'Archived', priority: 'Critical', task_type: 'epic' });
  add({ title: 'odd', status: 'constructor', priority: 'toString', task_type: null, created_via: null });
  add({ title: 'due soon', due_date: '2026-03-11', start_date: '2026-03-01', assignee: 'ada' });
  add({
    title: 'overdue',
    due_date: '2026-03-09',
    start_date: '2026-02-01',
    assignee: 'ada',
    status: 'blocked',
  });
  add({ title: 'overdue but done', due_date: '2026-01-01', status: 'completed' });
  add({ title: 'due today', due_date: TODAY, review: 'rejected' });
  add({ title: 'offset created', created_at: '2026-01-01T23:30:00-05:00', task_type: 'bug' });
  add({ title: 'utc created', created_at: '2026-01-02T00:10:00.000Z', task_type: 'bug', created_via: 'mcp' });
  add({ title: 'no created', created_at: null, created_via: 'sdk' });
  add({ title: 'lowercase t', created_at: '2026-01-02t00:10:00.000z' });
  add({ title: 'Search words here', description: 'the quick brown fox jumps over the lazy dog' });
  add({ title: 'quick fix', description: 'Quick! Brown-ish fox_tail jumps', team_id: 't2' });
  add({ title: 'x', description: 'xy', tags: ['x'] });
  add({ title: '', description: 'empty title', assignee: 'zed' });
  add({ title: 'same', project_id: 'PRJ_A', team_id: 't1' });
  add({ title: 'same', project_id: 'prj_a', team_id: 't1' });
  add({ title: 'Same', project_id: 'prj_c', status: 'blocked' });
  for (let i = 0; i < 24; i++) {
    add({
      title: `bulk ${['red', 'green', 'blue'][i % 3]} item ${i}`,
      description: i % 2 ? `rare${i} words with tsk fragments` : null,
      status: ['not_started', 'in_progress', 'blocked', 'completed'][i % 4],
      priority: [null, 'low', 'medium', 'high', 'urgent'][i % 5],
      assignee: [null, 'ada', 'grace', 'linus'][i % 4],
      project_id: [null, 'prj_a', 'prj_b'][i % 3],
      team_id: [null, 't1', 't2'][i % 3],
      tags: i % 3 ? ['bulk', `t${i % 4}`] : [],
      due_date: i % 5 ? `2026-03-${String(1 + ((i * 7) % 28)).padStart(2, '0')}` : null,
      start_date: i % 6 ? `2026-02-${String(1 + ((i * 5) % 28)).padStart(2, '0')}` : null,
      created_at: `2026-0${1 + (i % 3)}-${String(1 + ((i * 3) % 28)).padStart(2, '0')}T0${i % 10}:00:00.000Z`,
      task_type: i % 4 === 0 ? 'bug' : 'task',
      created_via: ['app', 'api', 'sdk', 'mcp', null][i % 5],
      review: [null, 'pending', 'accepted', 'rejected'][i % 4],
    });
  }
  // Ids whose case and length differ, for id search and the id tie-break.
  add({ task_id: 'TSK_UPPER_Case', title: 'same' });
  add({ task_id: 'tsk_ab', title: 'same' });
  return tasks;
}

const FILTERS = [
  '',
  'filter[status]=in_progress,blocked',
  'filter[status]=completed',
  'filter[priority]=high&filter[priority]=urgent',
  'filter[assignee]=me',
  'filter[assignee]=me,grace',
  'filter[assignee]=Ada',
  'filter[project]=__unfiled__',
  'filter[project]=prj_a,__unfiled__',
  'filter[project]=PRJ_A',
  'filter[tags]=Q4',
  'filter[tags]=q4,café',
  `filter[tags]=${encodeURIComponent(SPECIAL_TAG)}`,
  'filter[tags]=bulk,t1',
  'filter[due_after]=2026-03-09',
  'filter[due_before]=2026-03-10',
  'filter[due_after]=2026-03-05&filter[due_before]=2026-03-20',
  'filter[created_after]=2026-01-02',
  'filter[created_before]=2026-01-01',
  'filter[created_after]=2026-01-02&filter[created_before]=2026-01-02',
  'filter[overdue]=true',
  'filter[overdue]=false',
  'filter[team]=__none__',
  'filter[team]=t1,__none__',
  'filter[task_type]=bug',
  'filter[task_type]=task,bug',
  'filter[created_via]=none',
  'filter[created_via]=mcp,none',
  'filter[review]=none,pending',
  'filter[search]=release',
  'filter[search]=RELEASE&filter[search_fields]=title',
  'filter[search]=größe',
  'filter[search]=GRÖSSE',
  'filter[search]=%25',
  'filter[search]=100%25 cpu',
  'filter[search]=a_b',
  'filter[search]=*wild',
  'filter[search]=a,b',
  'filter[search]=(quoted',
  'filter[search]=(',
  'filter[search]=x',
  'filter[search]=xy',
  'filter[search]=e',
  'filter[search]=quick brown',
  'filter[search]=ick brown',
  'filter[search]=uick bro',
  'filter[search]=%20brown%20',
  'filter[search]=%20qu',
  'filter[search]=quick%20',
  'filter[search]=brown-',
  'filter[search]=-ish fox_',
  'filter[search]=the lazy dog',
  'filter[search]=he la',
  'filter[search]=over the',
  'filter[search]=Quick!',
  'filter[search]=! Brown',
  'filter[search]=item 1',
  'filter[search]=red item',
  'filter[search]=fox_tail',
  'filter[search]=-ish',
  'filter[search]=😀',
  'filter[search]=検索',
  'filter[search]=tsk_00',
  'filter[search]=upper_c',
  'filter[search]=tsk',
  'filter[search]=rare1',
  'filter[search]=rare13 words',
  'filter[search]=nothing-has-this',
  'filter[search]=caf',
  `filter[search]=${encodeURIComponent('odd\u001ft')}`,
  'filter[search]=d\u001f',
  `filter[search]=${encodeURIComponent('e\u001fa')}`,
  `filter[search]=${encodeURIComponent('e\u001ft')}`,
  'filter[search]=sam&filter[search_fields]=title',
  'filter[search]=bulk&filter[tags]=t1&filter[status]=blocked,completed',
  'filter[assignee]=me&filter[overdue]=true&filter[priority]=high,urgent,low',
  'filter[search]=item&filter[team]=t2&filter[review]=none,accepted',
];

describe('queryTasks answers the service vocabulary', () => {
  let handle: TestMirror;
  let mirror: Mirror;
  let tasks: Task[];

  beforeAll(async () => {
    handle = await openTestMirror();
    mirror = handle.mirror;
    tasks = dataset();
    loadTasks(mirror, tasks);
  });
  afterAll(() => handle.cleanup());

  function walk(qs: string, limit: number): { ids: string[]; paths: Set<TaskQueryPath> } {
    const ids: string[] = [];
    const paths = new Set<TaskQueryPath>();
    let after: string | null = null;
    do {
      const page = mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY, limit, after });
      expect(page.items.length).toBeLessThanOrEqual(limit);
      ids.push(...page.items.map((t) => t.task_id));
      paths.add(page.path);
      after = page.next;
    } while (after !== null);
    return { ids, paths };
  }

  test.each(FILTERS)('filter %s gives the reference ids in every sort, page by page', (filter) => {
    for (const sortBy of TASK_SORT_KEYS) {
      for (const order of ['asc', 'desc'] as const) {
        const qs = `${filter}&sort_by=${sortBy}&sort_order=${order}`;
        const query = parseTaskListQuery(new URLSearchParams(qs));
        const expected = referenceIds(tasks, query);
        expect(walk(qs, 7).ids, qs).toEqual(expected);
        expect(mirror.tasks.count(query, { me: ME, today: TODAY }), qs).toBe(expected.length);
      }
    }
  });

  test('a parsed query and its query string give the same page', () => {
    const qs = 'filter[status]=blocked&filter[search]=alpha&sort_by=priority_rank&sort_order=desc';
    const fromParams = mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY });
    const fromQuery = mirror.tasks.query(parseTaskListQuery(new URLSearchParams(qs)), {
      me: ME,
      today: TODAY,
    });
    expect(fromQuery.items).toEqual(fromParams.items);
    expect(fromParams.items.map((t) => t.title)).toEqual(['ALPHA release notes']);
  });

  test('case-only differences sort by the text as sent, then by id', () => {
    const ids = walk('filter[search]=alpha release', 50).ids;
    const titles = ids.map((id) => tasks.find((t) => t.task_id === id)?.title);
    expect(titles).toEqual(['ALPHA release notes', 'Alpha release notes', 'alpha release notes']);
  });

  test('unknown statuses come after the known ones by name, nulls last ascending and first descending', () => {
    const asc = mirror.tasks.query(new URLSearchParams('sort_by=priority_rank'), {
      me: ME,
      today: TODAY,
      limit: 1000,
    });
    const priorities = asc.items.map((t) => t.priority);
    const firstUnknown = priorities.findIndex((p) => p === 'Critical');
    expect(priorities.slice(firstUnknown, firstUnknown + 3)).toEqual(['Critical', 'critical', 'toString']);
    expect(priorities.at(-1)).toBeNull();
    const desc = mirror.tasks.query(new URLSearchParams('sort_by=priority_rank&sort_order=desc'), {
      me: ME,
      today: TODAY,
    });
    expect(desc.items[0]?.priority).toBeNull();
  });

  test.each([
    ['filter[search]=rare13 words', 'candidates'],
    ['filter[search]=upper_c', 'candidates'],
    ['filter[tags]=Q4', 'candidates'],
    // One letter: the vocabulary words holding it are the candidates, too many to sort.
    ['filter[search]=e', 'candidate-walk'],
    // Punctuation alone, no word to look up: the compact search text is scanned.
    ['filter[search]=%25', 'candidates'],
    ['filter[search]=nothing-has-this&filter[search_fields]=title', 'empty'],
    ['sort_by=status', 'groups'],
    ['sort_by=priority&sort_order=desc', 'groups'],
    ['sort_by=due_date', 'walk'],
  ] as const)('%s is answered by the %s path', (qs, path) => {
    expect(mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY }).path).toBe(path);
  });

  test.each([
    ['filter[colour]=red', 'filter[colour]'],
    ['filter[status]=done', 'filter[status]'],
    ['filter[task_type]=goal', 'filter[task_type]'],
    ['filter[overdue]=yes', 'filter[overdue]'],
    ['filter[due_before]=2026-02-30', 'filter[due_before]'],
    ['sort_by=colour', 'sort_by'],
    ['sort_order=sideways', 'sort_order'],
  ])('refuses %s as the service does, naming %s', (qs, loc) => {
    for (const run of [
      () => mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY }),
      () => mirror.tasks.count(new URLSearchParams(qs), { me: ME, today: TODAY }),
    ]) {
      try {
        run();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidParameterError);
        expect((error as InvalidParameterError).loc).toEqual(['query', loc]);
      }
    }
  });

  test('a parsed query with a value outside the vocabulary is refused too', () => {
    const query = {
      filter: { search_fields: 'all', status: ['done'] },
      sort_by: 'title',
      sort_order: 'asc',
    } as const;
    expect(() => mirror.tasks.query(query as unknown as TaskListQuery, { me: ME, today: TODAY })).toThrow(
      InvalidParameterError,
    );
  });

  test('a cursor from another sort order is refused, naming the cursor', () => {
    const first = mirror.tasks.query(new URLSearchParams('sort_by=title'), {
      me: ME,
      today: TODAY,
      limit: 2,
    });
    expect(first.next).not.toBeNull();
    try {
      mirror.tasks.query(new URLSearchParams('sort_by=due_date'), {
        me: ME,
        today: TODAY,
        after: first.next,
      });
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidParameterError).loc).toEqual(['query', 'cursor']);
    }
    expect(() =>
      mirror.tasks.query(new URLSearchParams('sort_by=title'), {
        me: ME,
        today: TODAY,
        after: 'not-a-cursor',
      }),
    ).toThrow(InvalidParameterError);
  });

  test('list items carry the effective values', () => {
    const page = mirror.tasks.query(
      new URLSearchParams('filter[search]=Tag separator&filter[search_fields]=title'),
      {
        me: ME,
        today: TODAY,
      },
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      title: 'Tag separator',
      tags: [SPECIAL_TAG, 'plain'],
      pending: false,
    });
  });
});

describe('search candidates', () => {
  test('a search asked again sees every change since, made here or through another connection', async () => {
    const handle = await openTestMirror();
    try {
      const first = taskJson({ title: 'Alpha one' });
      const second = taskJson({ title: 'Beta two' });
      loadTasks(handle.mirror, [first, second]);
      const search = () =>
        handle.mirror.tasks.query(new URLSearchParams('filter[search]=alpha&sort_by=title'), {
          me: ME,
          today: TODAY,
        });
      expect(search().items.map((t) => t.task_id)).toEqual([first.task_id]);
      expect(search().path).toBe('candidates');
      handle.mirror.tasks.edit(second.task_id as string, { title: 'Alpha three' });
      expect(search().items.map((t) => t.task_id)).toEqual([first.task_id, second.task_id]);
      const other = await openMirror(handle.file);
      try {
        other.tasks.edit(first.task_id as string, { title: 'Gamma' });
      } finally {
        other.close();
      }
      expect(search().items.map((t) => t.task_id)).toEqual([second.task_id]);
    } finally {
      handle.cleanup();
    }
  });

  test('a search asked again sees a description alone changed through another connection, and its pass over unchanged tasks changes nothing', async () => {
    const handle = await openTestMirror();
    const worker = await openMirror(handle.file);
    try {
      const first = taskJson({ title: 'Alpha one', description: 'plain words' });
      const second = taskJson({ title: 'Beta two', description: 'plain words' });
      loadTasks(handle.mirror, [first, second]);
      const search = (term: string) =>
        handle.mirror.tasks
          .query(new URLSearchParams(`filter[search]=${term}&sort_by=title`), { me: ME, today: TODAY })
          .items.map((t) => t.task_id);
      expect(search('plain')).toEqual([first.task_id, second.task_id]);
      loadTasks(worker, [first, second]);
      expect(search('quince')).toEqual([]);
      // The server sends a new description alone, which lives beside the row: only the search text changed.
      loadTasks(worker, [first, { ...second, description: 'a quince' }]);
      expect(search('quince')).toEqual([second.task_id]);
      expect(search('plain')).toEqual([first.task_id]);
    } finally {
      worker.close();
      handle.cleanup();
    }
  });

  test('a search too broad to sort, with a filter that leaves few of its matches, answers from its candidates', async () => {
    const handle = await openTestMirror();
    try {
      // 12 000 tasks say "common" (past the 10 000 candidates sorted at once), 30 of them mine; 9 000
      // other tasks are mine too, so that no index of mine narrows enough to be read on its own.
      const tasks = [
        ...Array.from({ length: 12_000 }, (_, i) =>
          taskJson({ title: `Common chore ${i}`, assignee: i % 400 === 7 ? ME : `someone${i % 9}` }),
        ),
        ...Array.from({ length: 9_000 }, (_, i) => taskJson({ title: `Rare errand ${i}`, assignee: ME })),
      ];
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const mine = tasks
        .filter((t) => t.assignee === ME && (t.title as string).startsWith('Common'))
        .map((t) => t.title as string)
        .sort(codePointCompare);
      const page = handle.mirror.tasks.query(
        new URLSearchParams('filter[search]=common&filter[assignee]=me&sort_by=title'),
        { me: ME, today: TODAY, limit: 200 },
      );
      expect(page.items.map((t) => t.title)).toEqual(mine);
      expect(page.items).toHaveLength(30);
      // Not a walk of the tasks in title order, reading every one for 30 of them.
      expect(page.path).toBe('candidates');
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a search too broad to sort whose matches all sort late is read off its candidates' places in the order, exact page after page and in every order", async () => {
    const handle = await openTestMirror();
    try {
      // 14 000 tasks say "migrate" (past the 10 000 candidates sorted at once), every one after the
      // 20 000 others in title order: the shape of a million tasks where `mig` walked 600 000 rows.
      // Their due dates and creation times interleave them in other orders; 1 in 7 is done.
      const tasks = lateMatches(20_000, 'Add errand', 14_000).map((task, i) => ({
        ...task,
        due_date: i % 5 === 0 ? null : `2026-0${1 + (i % 9)}-1${i % 10}`,
        created_at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
        status: i % 7 === 0 ? 'completed' : 'not_started',
      }));
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const paths: TaskQueryPath[] = [];
      for (const qs of [
        'filter[search]=migrat&sort_by=title',
        'filter[search]=migrat&sort_by=title&sort_order=desc',
        'filter[search]=migrat&sort_by=due_date',
        'filter[search]=migrat&filter[status]=completed&sort_by=created_at&sort_order=desc',
      ]) {
        const query = new URLSearchParams(qs);
        const expected = referenceIds(tasks, parseTaskListQuery(query)).slice(0, 600);
        const ids: string[] = [];
        let next: string | null = null;
        for (let page = 0; page < 3; page++) {
          const answer = handle.mirror.tasks.query(query, { me: ME, today: TODAY, limit: 200, after: next });
          ids.push(...answer.items.map((t) => t.task_id));
          next = answer.next;
          paths.push(answer.path);
        }
        expect(ids, qs).toEqual(expected);
      }
      // The done ones sparse in creation order: each page, the second and third from the cursor's place, was read off the places.
      expect(paths.slice(-3)).toEqual(['ranked', 'ranked', 'ranked']);
      const first = handle.mirror.tasks.query(new URLSearchParams('filter[search]=migrat&sort_by=title'), {
        me: ME,
        today: TODAY,
        limit: 200,
      });
      expect(first.path).toBe('ranked');
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a search too broad to sort whose matches spread from some way down the order is walked there against its word-index candidates, never fetched: the same pages, and a search alone only', async () => {
    const handle = await openTestMirror();
    try {
      // 3 000 titles without a match sort first, then 80 000 matches of `migrat`: too many to fetch
      // cheaply, the shape of `mi` at a million tasks, whose first match is the 29 909th title and
      // whose 97 397 candidates took 28-42 ms to fetch. Stored in no order of their titles.
      const MATCHES = 80_000;
      const tasks = [
        ...Array.from({ length: MATCHES }, (_, i) =>
          taskJson({ title: `Plan ${i} migrate`, assignee: i % 3 === 0 ? ME : null }),
        ),
        ...Array.from({ length: 3_000 }, (_, i) => taskJson({ title: `Add errand ${i}` })),
      ];
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const options = { me: ME, today: TODAY, limit: 40 };
      const list = new URLSearchParams('sort_by=title');
      await handle.mirror.tasks.queryInSteps(list, options);
      await handle.mirror.tasks.readPlacesAhead(list);

      const query = new URLSearchParams('filter[search]=migrat&sort_by=title');
      const expected = referenceIds(tasks, parseTaskListQuery(query)).slice(0, 120);
      // Rows handed over by the word index's own statements (not those testing it inside another).
      const handedOver: number[] = [];
      const first = watchingStatements(
        (source, _args, rows) => {
          if (/FROM task_words WHERE task_words MATCH/.test(source) && !source.includes('tasks t'))
            handedOver.push(rows.length);
        },
        () => handle.mirror.tasks.query(query, options),
      );
      expect(first.path).toBe('superset-walk');
      // Of its candidates, the few thousand that told how many they are and where they lie.
      expect(handedOver.reduce((sum, n) => sum + n, 0)).toBeLessThan(MATCHES / 4);
      const ids = first.items.map((t) => t.task_id);
      let next = first.next;
      for (let page = 1; page < 3; page++) {
        const answer = handle.mirror.tasks.query(query, { ...options, after: next });
        ids.push(...answer.items.map((t) => t.task_id));
        next = answer.next;
      }
      // Page after page as the service orders them, the next ones read from the cursor the other ways.
      expect(ids).toEqual(expected);

      // With another filter beside the search, its matches may lie far apart: not walked so.
      const mine = new URLSearchParams('filter[search]=migrat&filter[assignee]=me&sort_by=title');
      const minePage = handle.mirror.tasks.query(mine, options);
      expect(minePage.items.map((t) => t.task_id)).toEqual(
        referenceIds(tasks, parseTaskListQuery(mine)).slice(0, 40),
      );
      expect(minePage.path).not.toBe('superset-walk');
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a broad search's places in the order are read once, a chunk a step, kept when a newer query drops the steps, and read again after a write", async () => {
    const handle = await openTestMirror();
    try {
      const loaded = await loadLateMigrates(handle.mirror);
      const { expected } = loaded;
      const options = { me: ME, today: TODAY, limit: 40 };
      const stepsOf = (term: string, upTo = Infinity) => titleSearchSteps(handle.mirror, term, options, upTo);
      const titles = (answer: ReturnType<typeof stepsOf>) => answer?.page.items.map((t) => t.title);

      // Dropped by a newer keystroke while its candidates and places were read (its 7th step, past the
      // look ahead in the order, 256 entries a step): the next one goes on.
      expect(stepsOf('migra', 7)).toBeNull();
      const resumed = stepsOf('migrat');
      expect(titles(resumed)).toEqual(expected);
      expect(resumed?.page.path).toBe('ranked');
      // Read: none of the places again, and of the candidates only those at the start of the order.
      const again = stepsOf('migrate');
      expect(titles(again)).toEqual(expected);
      expect(again?.taken).toBeLessThan(resumed?.taken ?? 0);
      // Sorting the 14 000 candidates instead took a step each 1 024 of them.
      expect(again?.taken).toBeLessThan(Math.ceil(14_000 / 1024));

      // A write moves the data: the places are read again, and the first match renamed to sort last leaves the page.
      const afterWrite = expectFirstMatchRenamedOut(handle.mirror, loaded, () => stepsOf('migrate'));
      // All of them, where the one after the dropped query read only what was left.
      expect(afterWrite?.taken).toBeGreaterThan(resumed?.taken ?? 0);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a list's order has its places read ahead in main's turns, a small chunk each, once the data is still: a broad search's keystroke then reads none of them", async () => {
    const handle = await openTestMirror();
    try {
      const loaded = await loadLateMigrates(handle.mirror);
      const { expected } = loaded;
      const options = { me: ME, today: TODAY, limit: 40 };
      const stepsOf = (term: string) => titleSearchSteps(handle.mirror, term, options);
      // The list shown as main answers it; then main waits until its order's places are read.
      const listShown = async () => {
        const query = new URLSearchParams('sort_by=title');
        await handle.mirror.tasks.queryInSteps(query, options);
        await handle.mirror.tasks.readPlacesAhead(query);
      };
      const sum = (reads: number[]) => reads.reduce((total, read) => total + read, 0);

      const { reads: ahead } = await placesRead(listShown);
      expect(sum(ahead)).toBe(50_000);
      // A chunk a turn small enough that a call arriving meanwhile waits little for it.
      expect(Math.max(...ahead)).toBeLessThanOrEqual(8192);
      // The first broad search: none of the order read in its own steps (it read 2 chunks of 32 768).
      const typed = await placesRead(() => stepsOf('migrat'));
      expect(typed.reads).toEqual([]);
      expect(typed.value?.page.items.map((t) => t.title)).toEqual(expected);

      // A write moves the data: read ahead again once it is still, and again none in the keystroke's steps.
      handle.mirror.tasks.edit(loaded.tasks[36_000]?.task_id as string, { title: 'Zebra migrates' });
      expect(sum((await placesRead(listShown)).reads)).toBe(50_000);
      const afterWrite = await placesRead(() => stepsOf('migrate'));
      expect(afterWrite.reads).toEqual([]);
      expect(afterWrite.value?.page.items[0]?.title).toBe(expected[1]);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a list shown at rest has its order's places read at once, in turns shared with its count: a broad search typed right after reads none of them, and looks at the rows of one step's entries", async () => {
    const handle = await openTestMirror();
    try {
      const { expected } = await loadLateMigrates(handle.mirror);
      const options = { me: ME, today: TODAY, limit: 40 };
      const query = new URLSearchParams('sort_by=title');
      // As main answers the list: its page, its places armed after it, then its count's steps
      // (countInSteps), as many as the places' chunks and a few more.
      const { reads: ahead } = await placesRead(async () => {
        await handle.mirror.tasks.queryInSteps(query, options);
        void handle.mirror.tasks.readPlacesAhead(query);
        for (let step = 0; step < 16; step++) await nextTurn();
      });
      // All read while the count stepped: none waited for the data to be still a second, nor for the count's end.
      expect(ahead.reduce((total, read) => total + read, 0)).toBe(50_000);
      const typed = await placesRead(() => titleSearchSteps(handle.mirror, 'migrat', options));
      expect(typed.reads).toEqual([]);
      expect(typed.value?.page.items.map((t) => t.title)).toEqual(expected);
      // The first look at the order read the rows of its first step only (64 entries, not 1 024).
      expect(entriesLookedAt(() => titleSearchSteps(handle.mirror, 'migra', options))).toEqual([64]);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a broad search's places outlive another connection's pass over unchanged tasks, and are read again after its edit", async () => {
    const handle = await openTestMirror();
    const worker = await openMirror(handle.file);
    try {
      const loaded = await loadLateMigrates(handle.mirror);
      const { tasks, expected } = loaded;
      const options = { me: ME, today: TODAY, limit: 40 };
      const stepsOf = (term: string) => titleSearchSteps(handle.mirror, term, options);
      const titles = (answer: ReturnType<typeof stepsOf>) => answer?.page.items.map((t) => t.title);
      const cold = stepsOf('migrat');
      expect(cold?.page.path).toBe('ranked');
      const warm = stepsOf('migrate');
      expect(titles(warm)).toEqual(expected);

      // The pull worker's connection checks every task again and commits: the server sent them unchanged.
      loadTasks(worker, tasks);
      const afterPass = stepsOf('migrat');
      expect(titles(afterPass)).toEqual(expected);
      // Neither the candidates nor the places read again: as few steps as before the pass.
      expect(afterPass?.taken).toBe(warm?.taken);
      expect(afterPass?.taken).toBeLessThan(cold?.taken ?? 0);

      // An edit through that connection: read again, and the first match renamed to sort last leaves the page.
      const afterEdit = expectFirstMatchRenamedOut(worker, loaded, () => stepsOf('migrate'));
      expect(afterEdit?.taken).toBeGreaterThan(warm?.taken ?? 0);
    } finally {
      worker.close();
      handle.cleanup();
    }
  }, 60_000);

  test("a broad search's page in steps goes on through another connection's commits that change no task, and is read again after one that does", async () => {
    const handle = await openTestMirror();
    const worker = await openMirror(handle.file);
    try {
      const { tasks, expected } = await loadLateMigrates(handle.mirror);
      const options = { me: ME, today: TODAY, limit: 40 };
      const query = new URLSearchParams('filter[search]=migrat&sort_by=title');
      /** The page read in steps, `commit` run by the worker's connection between them; how many steps it took. */
      const inSteps = async (commit: (turn: number) => void) => {
        let turns = 0;
        const page = await handle.mirror.tasks.queryInSteps(query, options, async () => {
          commit(turns++);
          await Promise.resolve();
        });
        expect(page.items.map((t) => t.title)).toEqual(expected);
        return turns;
      };
      // Before each page, a write here: each reads its candidates and places again from the start.
      const afterEdit = (n: number) =>
        handle.mirror.tasks.edit(tasks[n]?.task_id as string, { title: `Add errand ${n}.` });
      afterEdit(0);
      const quiet = await inSteps(() => undefined);
      afterEdit(1);
      // The person opens tasks meanwhile (another table): each step sees the file changed, no task.
      const opened = await inSteps((turn) => worker.openings.record(tasks[turn]?.task_id as string));
      expect(opened).toBe(quiet);
      afterEdit(2);
      // A task edited between the first steps: read again from the start.
      const edited = await inSteps((turn) => {
        if (turn === 1) worker.tasks.edit(tasks[3]?.task_id as string, { title: 'Add errand anew' });
      });
      expect(edited).toBeGreaterThan(quiet);
    } finally {
      worker.close();
      handle.cleanup();
    }
  }, 60_000);

  test("a search most tasks match reads the rows of the sort order's first entries only as far as its page", async () => {
    const handle = await openTestMirror();
    try {
      // 12 000 tasks say "common" (past the 10 000 candidates sorted at once): every one matches.
      const tasks = Array.from({ length: 12_000 }, (_, i) => taskJson({ title: `Common chore ${i}` }));
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const query = new URLSearchParams('filter[search]=common&sort_by=title');
      const { page, looked } = pageLookedAt(handle.mirror, tasks, query, 40);
      expect(page?.path).toBe('walk');
      // At a million tasks the first search's look at 1 024 entries, their rows off the OS, took
      // 170-195 ms of main's CPU in one step, where 64 held its page.
      expect(looked.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(64);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a broad search whose first look at the sort order finds its matches dense looks on a little for its page instead of fetching its candidates', async () => {
    const handle = await openTestMirror();
    try {
      // 20 000 of 40 000 tasks say "mission", every other title in title order: the first look,
      // 64 entries once the order's places are read, holds 32 matches where a page of 40 needs 41.
      const tasks = Array.from({ length: 40_000 }, (_, i) =>
        taskJson({ title: `Task ${String(i >> 1).padStart(5, '0')} ${i % 2 === 0 ? 'errand' : 'mission'}` }),
      );
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      await handle.mirror.tasks.readPlacesAhead(new URLSearchParams('sort_by=title'));
      const query = new URLSearchParams('filter[search]=mission&sort_by=title');
      const { page, looked } = pageLookedAt(handle.mirror, tasks, query, 40);
      // On to 1.5 times where their share puts the page's end (82 entries): 123 entries in all,
      // where the 20 000 candidates were fetched and their places read off (135-195 ms for `m` at 100 000 tasks).
      expect(page?.path).toBe('walk');
      expect(looked.reduce((sum, n) => sum + n, 0)).toBe(123);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a broad search whose matches sort late looks ahead in the sort order a step at a time, reading each entry's row once", async () => {
    const handle = await openTestMirror();
    try {
      // 12 000 of 40 000 tasks say "migrate", after all the others in title order: spread evenly,
      // a page of 200 of them would sit in the first 1 340 entries, looked at before their places are read.
      const tasks = lateMatches(28_000, 'Add errand', 12_000);
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const query = new URLSearchParams('filter[search]=mig&sort_by=title');
      const { page, looked } = pageLookedAt(handle.mirror, tasks, query, 200);
      expect(page?.path).toBe('ranked');
      // The look before the candidates and the one after them: 1 340 entries, none read twice...
      expect(looked.reduce((sum, n) => sum + n, 0)).toBe(1340);
      // ...and at most 256 a step: an entry read for the first time costs ~100 µs (its row and search
      // text off the file), and steps of up to 1 024 held main 57-130 ms in one for a new term.
      expect(Math.max(...looked)).toBeLessThanOrEqual(256);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a broad search typed on from the last one tests its candidates before fetching its own, and its page is exact either way', async () => {
    const handle = await openTestMirror();
    try {
      // "mi" in all 34 000 tasks, the first 20 000 in title order holding no "mig": typed on from
      // `mi`, `mig` finds none of its matches among the first of `mi`'s candidates and fetches its own.
      const tasks = lateMatches(20_000, 'Add mission', 14_000);
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const options = { me: ME, today: TODAY, limit: 40 };
      const typed = (term: string) => {
        const answer = titleSearchSteps(handle.mirror, term, options);
        const query = parseTaskListQuery(new URLSearchParams(`filter[search]=${term}&sort_by=title`));
        expect(
          answer?.page.items.map((t) => t.task_id),
          term,
        ).toEqual(referenceIds(tasks, query).slice(0, 40));
        return answer?.taken ?? 0;
      };
      typed('mi');
      typed('mig');
      const typedOn = typed('migr');
      typed('chore');
      // Asked after a search it does not extend: its own candidates fetched, a step more.
      expect(typedOn).toBeLessThan(typed('migr'));
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a broad search typed on from the last one gives up on its candidates as soon as the share of them matching says its page is beyond the budget', async () => {
    const handle = await openTestMirror();
    try {
      // `migra`'s 20 000 candidates sort after 20 000 others, its first 6 000 "Migrant", holding no
      // "migrat": typed on from `migra`, `migrat` tests 82 of them, then 164, none matching.
      const tasks = [
        ...lateMatches(20_000, 'Add errand', 14_000),
        ...Array.from({ length: 6000 }, (_, i) => taskJson({ title: `Migrant wave ${i}` })),
      ];
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const options = { me: ME, today: TODAY, limit: 40 };
      expect(titleSearchSteps(handle.mirror, 'migra', options)?.page.path).toBe('ranked');
      // At none in 246, its page would take over 10 000 tests, more than the 4 096 of the budget:
      // it gives up there and tests its own candidates, 82 (tested up to the budget, 2 542 rows,
      // 36 ms of main's CPU for `mig` typed on from `mi` at a million tasks, before its own).
      const { tested, value: answer } = rowsTested(() => titleSearchSteps(handle.mirror, 'migrat', options));
      expect(tested).toBe(82 + 164 + 82);
      const query = parseTaskListQuery(new URLSearchParams('filter[search]=migrat&sort_by=title'));
      expect(answer?.page.items.map((t) => t.task_id)).toEqual(referenceIds(tasks, query).slice(0, 40));
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("two broad searches' pages stepped in turn, both read off their candidates' places, each exact", async () => {
    const handle = await openTestMirror();
    try {
      // `chore` and `mig` have the same 14 000 candidates, all sorting after the 20 000 others: each
      // page marks them in the one set of marks the places are read against, a step at a time, the
      // other's marks coming between (main runs two windows' lists, or a list and a bulk change, so).
      const tasks = lateMatches(20_000, 'Add mission', 14_000);
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const options = { me: ME, today: TODAY, limit: 40 };
      const queries = ['chore', 'mig'].map(
        (term) => new URLSearchParams(`filter[search]=${term}&sort_by=title`),
      );
      const running = queries.map((query) => handle.mirror.tasks.pageSteps(query, options));
      const pages: (TaskListPage | undefined)[] = queries.map(() => undefined);
      let steps = 0;
      while (pages.some((page) => page === undefined)) {
        running.forEach((steps, i) => {
          if (pages[i] !== undefined) return;
          const step = steps.next();
          if (step.done) pages[i] = step.value;
        });
        steps += 1;
      }
      // Stepped in turn: each page took steps (the places read a chunk a step), the others' between.
      expect(steps).toBeGreaterThan(2);
      pages.forEach((page, i) => {
        const query = parseTaskListQuery(queries[i] as URLSearchParams);
        expect(
          page?.items.map((t) => t.task_id),
          query.filter.search,
        ).toEqual(referenceIds(tasks, query).slice(0, 40));
        expect(page?.path, query.filter.search).toBe('ranked');
      });
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a set walk's pages, interleaved with another set walk's and with a write between them, give the reference order", async () => {
    const handle = await openTestMirror();
    try {
      // 2 000 tasks, 100 mine and 100 unfiled: each filter narrows its index to 5%, and a title
      // sort is answered by walking the title order testing the filter's set (filter-walk).
      const tasks = Array.from({ length: 2000 }, (_, i) =>
        taskJson({
          title: `Chore ${String((i * 7919) % 2000).padStart(4, '0')}`,
          assignee: i % 20 === 3 ? ME : `someone${i % 7}`,
          project_id: i % 20 === 11 ? null : `prj_${i % 5}`,
        }),
      );
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const titles = (keep: (t: Task) => boolean) =>
        tasks
          .filter(keep)
          .map((t) => t.title as string)
          .sort(codePointCompare);
      const lists = {
        mine: { qs: 'filter[assignee]=me&sort_by=title', keep: (t: Task) => t.assignee === ME },
        unfiled: {
          qs: 'filter[project]=__unfiled__&sort_by=title',
          keep: (t: Task) => t.project_id === null,
        },
      };
      const seen = { mine: [] as string[], unfiled: [] as string[] };
      let movedTitle = '';
      const after: Record<keyof typeof lists, string | null> = { mine: null, unfiled: null };
      for (let page = 0; page < 6; page++) {
        // Pages in turn, the order flipped each round: after the write, mine's set is the one in use.
        for (const name of page % 2 === 0 ? (['mine', 'unfiled'] as const) : (['unfiled', 'mine'] as const)) {
          const answer = handle.mirror.tasks.query(new URLSearchParams(lists[name].qs), {
            me: ME,
            today: TODAY,
            limit: 20,
            after: after[name],
          });
          expect(answer.path).toBe('filter-walk');
          seen[name].push(...answer.items.map((t) => t.title));
          after[name] = answer.next;
        }
        if (page === 1) {
          // A task becomes mine and unfiled, its title sorting inside mine's next page (items 40-59).
          const [low, high] = titles(lists.mine.keep).slice(45, 47) as [string, string];
          const moved = tasks.find(
            (t) =>
              t.assignee !== ME &&
              t.project_id !== null &&
              (t.title as string) > low &&
              (t.title as string) < high,
          );
          if (!moved) throw new Error('the dataset has no task between the 46th and 47th of mine');
          handle.mirror.tasks.edit(moved.task_id as string, { assignee: ME, project_id: null });
          movedTitle = moved.title as string;
          Object.assign(moved, { assignee: ME, project_id: null });
        }
      }
      expect(seen.mine).toEqual(titles(lists.mine.keep).slice(0, 120));
      expect(seen.unfiled).toEqual(titles(lists.unfiled.keep).slice(0, 120));
      expect(seen.mine.slice(40, 60)).toContain(movedTitle);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a search of some hundreds of tasks in a table larger than the page cache walks the sort order, reading the rows of its page alone', async () => {
    // A 1 MiB page cache over 20 000 tasks (~6 MB of rows) stands for a million tasks over 64 MiB:
    // each candidate's row read to sort it would come from the OS. 420 tasks say "quince".
    const handle = await openTestMirror({ cacheSizeMb: 1 });
    try {
      const tasks = Array.from({ length: 20_000 }, (_, i) =>
        taskJson({
          title: `${i % 48 === 5 ? 'Quince' : 'Chore'} ${String((i * 7919) % 20_000).padStart(5, '0')}`,
        }),
      );
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const qs = 'filter[search]=quince&sort_by=title';
      const page = handle.mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY, limit: 200 });
      expect(page.items.map((t) => t.task_id)).toEqual(
        referenceIds(tasks, parseTaskListQuery(new URLSearchParams(qs))).slice(0, 200),
      );
      // Not 'candidates': all 420 rows read (off the OS) to sort them for a page of 200.
      expect(page.path).toBe('candidate-walk');
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test.each([
    ['filter[search]=plum pear', 'search alone'],
    ['filter[search]=plum pear&filter[status]=not_started,blocked', 'search and a status filter'],
  ])(
    'a phrase of words many tasks hold, few in that order (%s), is answered from its checked candidates in sort order',
    async (filter) => {
      const handle = await openTestMirror();
      try {
        // 1 200 tasks hold both words, 6 of them as the phrase: too many candidates to sort, few matches.
        const tasks = Array.from({ length: 3000 }, (_, i) =>
          taskJson({
            title: i % 200 === 9 ? `Pick plum pear ${i}` : i < 1200 ? `Pear and plum ${i}` : `Other ${i}`,
            status: ['not_started', 'in_progress', 'blocked'][i % 3],
            created_at: new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 3000) * 60_000).toISOString(),
          }),
        );
        loadTasks(handle.mirror, tasks);
        await handle.mirror.sortIndexesReady();
        const qs = `${filter}&sort_by=created_at&sort_order=desc`;
        const query = parseTaskListQuery(new URLSearchParams(qs));
        const page = handle.mirror.tasks.query(new URLSearchParams(qs), { me: ME, today: TODAY, limit: 200 });
        expect(page.items.map((t) => t.task_id)).toEqual(referenceIds(tasks, query));
        expect(page.items.length).toBeGreaterThan(0);
        // Not a walk of the whole creation order testing 1 200 candidates for a few matches.
        expect(page.path).toBe('candidates');
      } finally {
        handle.cleanup();
      }
    },
    60_000,
  );

  test('a search whose candidates are too many to sort, and whose matches with its other filters are few enough, sorts those matches page after page and sees a write', async () => {
    const handle = await openTestMirror();
    try {
      // 2 200 of 20 000 tasks say "quince", every other one of them not started: 1 100 matches,
      // more than the 1 000 checked once before, fewer than a page of 1 000 sorts among 20 000
      // tasks. Walking the title order for them tested ~18 000 index entries a page.
      const tasks = Array.from({ length: 20_000 }, (_, i) =>
        taskJson({
          title: `${i % 9 === 4 && i < 19_800 ? 'Quince' : 'Chore'} ${String((i * 7919) % 20_000).padStart(5, '0')}`,
          status: i % 18 === 4 ? 'not_started' : 'completed',
        }),
      );
      loadTasks(handle.mirror, tasks);
      await handle.mirror.sortIndexesReady();
      const qs = 'filter[search]=quince&filter[status]=not_started&sort_by=title';
      const query = parseTaskListQuery(new URLSearchParams(qs));
      const expected = referenceIds(tasks, query);
      expect(expected).toHaveLength(1100);
      const pages = (): TaskListPage[] => {
        const read: TaskListPage[] = [];
        let after: string | null = null;
        do {
          const page = handle.mirror.tasks.query(new URLSearchParams(qs), {
            me: ME,
            today: TODAY,
            limit: 1000,
            after,
          });
          read.push(page);
          after = page.next;
        } while (after !== null);
        return read;
      };
      const first = pages();
      expect(first.flatMap((p) => p.items.map((t) => t.task_id))).toEqual(expected);
      // Each page sorted the checked matches: none walked the title order.
      expect(first.map((p) => p.path)).toEqual(['candidates', 'candidates']);
      // A match edited out of the filter leaves the pages: the checked matches are kept only until a write.
      const gone = expected[3] as string;
      handle.mirror.tasks.edit(gone, { status: 'completed' });
      expect(pages().flatMap((p) => p.items.map((t) => t.task_id))).toEqual(
        expected.filter((id) => id !== gone),
      );
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test("a write between the slices of a phrase's check leaves no task it edited out in the page", async () => {
    const handle = await openTestMirror();
    try {
      // As below: 5 000 candidates, 5 matches, checked a slice a step after a sample of 256.
      const { tasks, qs } = await loadPlumPears(handle.mirror);
      const steps = handle.mirror.tasks.pageSteps(new URLSearchParams(qs), {
        me: ME,
        today: TODAY,
        limit: 200,
      });
      // The first step checked the sample, the first match among it; then that match is renamed.
      let step = steps.next();
      expect(step.done).toBe(false);
      const renamed = tasks[9]?.task_id as string;
      handle.mirror.tasks.edit(renamed, { title: 'Pick a pear' });
      while (step.done !== true) step = steps.next();
      const ids = step.value.items.map((t) => t.task_id);
      expect(ids).toHaveLength(4);
      expect(ids).not.toContain(renamed);
    } finally {
      handle.cleanup();
    }
  }, 60_000);

  test('a phrase of words many tasks hold checks its candidates a slice a step, and its page is exact', async () => {
    const handle = await openTestMirror();
    try {
      // 5 000 tasks hold both words, 5 of them as the phrase: far more candidates than one step checks.
      const { tasks, qs } = await loadPlumPears(handle.mirror);
      let turns = 0;
      const page = await handle.mirror.tasks.queryInSteps(
        new URLSearchParams(qs),
        { me: ME, today: TODAY, limit: 200 },
        async () => {
          turns++;
          await Promise.resolve();
        },
      );
      expect(page.items.map((t) => t.task_id)).toEqual(
        referenceIds(tasks, parseTaskListQuery(new URLSearchParams(qs))),
      );
      expect(page.items).toHaveLength(5);
      // The event loop runs between the slices (1 024 candidates each, after the sample of 256).
      expect(turns).toBeGreaterThanOrEqual(Math.ceil((5000 - 256) / 1024));
    } finally {
      handle.cleanup();
    }
  }, 60_000);
});
