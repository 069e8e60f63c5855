import { afterAll, beforeAll, expect, test } from 'vitest';
import { TASK_SORT_KEYS } from '../../protocol/task-list-query';
import type { EndPage } from './from-end';
import { idsPageByPage, loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

const OPTIONS = { me: 'ada', today: '2026-03-10' };

/**
 * Ties on every sort key (few distinct values, case variants), nulls in every
 * nullable one, and ids whose case differs: the rows only the tie-breakers order.
 */
function tiedTasks(): Record<string, unknown>[] {
  return Array.from({ length: 61 }, (_, i) =>
    taskJson({
      ...(i % 10 === 3 ? { task_id: `TSK_Tie_${i}` } : {}),
      title: ['same', 'Same', 'other', ''][i % 4],
      status: ['not_started', 'in_progress', 'blocked', 'completed', 'archived'][i % 5],
      priority: [null, 'low', 'high', 'High', 'urgent'][i % 5],
      assignee: [null, 'ada', 'Ada', 'grace'][i % 4],
      project_id: [null, 'prj_a', 'PRJ_A'][i % 3],
      due_date: i % 3 ? `2026-03-0${1 + (i % 2)}` : null,
      start_date: i % 4 ? `2026-02-0${1 + (i % 3)}` : null,
      created_at: i % 7 ? `2026-01-0${1 + (i % 2)}T00:00:00.000Z` : null,
      task_type: [null, 'bug', 'task', 'Bug'][i % 4],
      tags: i % 2 ? ['t1'] : [],
    }),
  );
}

let handle: TestMirror;

beforeAll(async () => {
  handle = await openTestMirror();
  loadTasks(handle.mirror, tiedTasks());
  await handle.mirror.sortIndexesReady();
});
afterAll(() => handle.cleanup());

async function endPage(qs: string, limit: number, before: string | null): Promise<EndPage> {
  return handle.mirror.tasks.queryFromEndInSteps(new URLSearchParams(qs), { ...OPTIONS, limit, before });
}

const FILTERS = ['', 'filter[status]=blocked,in_progress', 'filter[tags]=t1', 'filter[search]=same'];

test.each(FILTERS)(
  'pages from the end (filter %s) hold the rows a forward walk puts there, in every sort and order',
  async (filter) => {
    for (const sortBy of TASK_SORT_KEYS) {
      for (const order of ['asc', 'desc'] as const) {
        const qs = `${filter}&sort_by=${sortBy}&sort_order=${order}`;
        const forward = idsPageByPage(handle.mirror, new URLSearchParams(qs), 7, 1000);
        expect(forward.length, qs).toBeGreaterThan(7);
        const backward: string[][] = [];
        let before: string | null = null;
        for (;;) {
          const page: EndPage = await endPage(qs, 7, before);
          const ids = page.items.map((item) => item.task_id);
          backward.unshift(ids);
          const start = forward.length - backward.flat().length;
          expect(ids, qs).toEqual(forward.slice(start, start + ids.length));
          // The page's forward cursor fetches the same rows, so the list can refresh it walking forward.
          const again = handle.mirror.tasks.query(new URLSearchParams(qs), {
            ...OPTIONS,
            limit: 7,
            after: page.after ?? null,
          });
          expect(again.items.map((item) => item.task_id).slice(0, ids.length), qs).toEqual(ids);
          expect(page.after === null, qs).toBe(start === 0);
          if (page.before === null) break;
          expect(page.before, qs).toEqual(expect.any(String));
          before = page.before ?? null;
        }
        expect(backward.flat(), qs).toEqual(forward);
      }
    }
  },
);

test('a from-end cursor is refused by the forward walk (it belongs to the other order)', async () => {
  const page = await endPage('sort_by=title', 5, null);
  expect(() =>
    handle.mirror.tasks.query(new URLSearchParams('sort_by=title'), {
      ...OPTIONS,
      after: page.before ?? null,
    }),
  ).toThrow(/cursor/);
});
