import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openMirror } from '../open-mirror';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

const ME = 'ada';
const TODAY = '2026-03-10';
const options = { me: ME, today: TODAY };
/** More tasks than a count's first row id range or candidate slice: every broad count takes several steps. */
const TASKS = 9000;
const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember'];
const STATUSES = ['not_started', 'in_progress', 'blocked', 'completed'];

let handle: TestMirror;
let tasks: Record<string, unknown>[];

beforeAll(async () => {
  handle = await openTestMirror();
  tasks = Array.from({ length: TASKS }, (_, i) =>
    taskJson({
      title: `${WORDS[i % 5]} ${i % 3 === 0 ? 'rare' : 'job'} ${i}`,
      description: i % 7 === 0 ? 'needs a quiet room' : null,
      status: STATUSES[i % 4],
      assignee: i % 50 === 0 ? ME : 'bo',
      tags: i % 11 === 0 ? ['urgent'] : [],
    }),
  );
  loadTasks(handle.mirror, tasks);
});

afterAll(() => handle?.cleanup());

const text = (task: Record<string, unknown>) =>
  [task.title, task.description ?? '', task.task_id, ...(task.tags as string[])].join(' ').toLowerCase();

/** Each query with the tasks it matches, worked out here from the generated tasks. */
const CASES: [string, (task: Record<string, unknown>) => boolean][] = [
  ['sort_by=title', () => true],
  ['filter[status]=blocked,completed', (t) => t.status === 'blocked' || t.status === 'completed'],
  ['filter[search]=e', (t) => text(t).includes('e')],
  ['filter[search]=rare', (t) => text(t).includes('rare')],
  ['filter[search]=quiet', (t) => text(t).includes('quiet')],
  ['filter[search]=o&filter[status]=blocked', (t) => text(t).includes('o') && t.status === 'blocked'],
  [
    'filter[search]=rare&filter[status]=in_progress',
    (t) => text(t).includes('rare') && t.status === 'in_progress',
  ],
  ['filter[assignee]=me', (t) => t.assignee === ME],
  [
    'filter[tags]=urgent&filter[status]=completed',
    (t) => (t.tags as string[]).includes('urgent') && t.status === 'completed',
  ],
];

/** Runs a count step by step: its answer and how many steps (synchronous runs before it yields) it took. */
function stepped(query: string): { count: number; steps: number } {
  const steps = handle.mirror.tasks.countSteps(new URLSearchParams(query), options);
  for (let taken = 0; ; taken++) {
    const step = steps.next();
    if (step.done) return { count: step.value, steps: taken };
  }
}

describe('counts in steps', () => {
  test.each(CASES)('%s: the same count step by step as in one go', (query, matches) => {
    const expected = tasks.filter(matches).length;
    expect(expected).toBeGreaterThan(0);
    expect(stepped(query).count).toBe(expected);
    expect(handle.mirror.tasks.count(new URLSearchParams(query), options)).toBe(expected);
  });

  test('a broad count takes several steps (row id ranges, candidate slices), a narrow one few', () => {
    expect(stepped('sort_by=title').steps).toBeGreaterThan(1);
    expect(stepped('filter[search]=e').steps).toBeGreaterThan(1);
    expect(stepped('filter[search]=rare').steps).toBeGreaterThan(1);
    expect(stepped('filter[search]=rare&filter[status]=in_progress').steps).toBeGreaterThan(1);
    expect(stepped('filter[assignee]=me').steps).toBeLessThanOrEqual(2);
  });

  test('a write between steps, here or through another connection, is in the answer', async () => {
    const query = new URLSearchParams('filter[search]=e');
    const before = handle.mirror.tasks.count(query, options);
    // The first tasks without an "e": the count's first range has passed them when they change.
    const [first, second] = tasks.filter((t) => !text(t).includes('e'));
    const steps = handle.mirror.tasks.countSteps(query, options);
    expect(steps.next().done).toBe(false);
    handle.mirror.tasks.edit(first?.task_id as string, { title: 'birch tree' });
    expect(steps.next().done).toBe(false);
    const other = await openMirror(handle.file);
    try {
      other.tasks.edit(second?.task_id as string, { title: 'birch tree' });
    } finally {
      other.close();
    }
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value).toBe(before + 2);
    expect(handle.mirror.tasks.count(query, options)).toBe(before + 2);
  });

  test('a count in steps with the event loop free between them gives the same answer', async () => {
    const query = new URLSearchParams('filter[search]=e');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    try {
      const count = await handle.mirror.tasks.countInSteps(query, options);
      expect(count).toBe(handle.mirror.tasks.count(query, options));
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  test('an aborted count stops between steps and answers null', async () => {
    const stop = new AbortController();
    const counting = handle.mirror.tasks.countInSteps(
      new URLSearchParams('filter[search]=e'),
      options,
      stop.signal,
    );
    stop.abort();
    await expect(counting).resolves.toBeNull();
  });
});
