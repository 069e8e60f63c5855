// Migration 0028: the id index breaks ties between ids differing in case alone
// by t_id_case (x'' for an id that is its own lower case, the id below it, its
// bytes above it) instead of the id. What a caller sees must not change: the
// task_id order, page by page through its cursor, and each task found by its id.
import { afterEach, expect, test } from 'vitest';
import { idsPageByPage, loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror | undefined;
afterEach(() => {
  handle?.cleanup();
  handle = undefined;
});

// Ids sharing a lower case: the usual (its own lower case), capitals (below it), and the Kelvin sign, whose
// lower case is k, a smaller code point (above it: a blob key, carried by the cursor as bytes).
const IDS = [
  'tsk_k',
  'TSK_K',
  'tsk_K',
  'tsk_\u212a',
  'Tsk_\u212a',
  'tsk_é',
  'tsk_É',
  'TSK_é',
  'tsk_a',
  'TSK_Z',
];
const TASKS = IDS.map((taskId) => taskJson({ task_id: taskId, title: `Task ${taskId}` }));

/** By lower case (JavaScript's, as search_id keeps), then the id's own code points. */
function expectedOrder(): string[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...IDS].sort((a, b) => compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b));
}

test.each(['asc', 'desc'])(
  'the task_id order is kept page by page (%s), a page ending on every id',
  async (order) => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    const seen = idsPageByPage(
      handle.mirror,
      new URLSearchParams(`sort_by=task_id&sort_order=${order}`),
      1,
      IDS.length,
    );
    const expected = expectedOrder();
    expect(seen).toEqual(order === 'asc' ? expected : [...expected].reverse());
  },
);

test('each id finds its own task, and a task written again stays one row', async () => {
  handle = await openTestMirror();
  loadTasks(handle.mirror, TASKS);
  for (const taskId of IDS) expect(handle.mirror.tasks.get(taskId)?.task.title).toBe(`Task ${taskId}`);
  expect(handle.mirror.tasks.get('tsk_\u212A'.toLowerCase())?.task.title).toBe('Task tsk_k');
  handle.mirror.tasks.edit('tsk_\u212a', { title: 'Renamed' });
  expect(handle.mirror.tasks.get('tsk_\u212a')?.task.title).toBe('Renamed');
  expect(handle.mirror.tasks.get('tsk_k')?.task.title).toBe('Task tsk_k');
  expect(handle.mirror.tasks.total()).toBe(IDS.length);
});
