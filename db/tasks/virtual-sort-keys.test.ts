// The task sort keys SQLite computes from a row (virtual columns, migration
// 0015) must be what the list's order is defined on: JavaScript's lower case
// (Unicode, where SQLite's lower() folds ASCII only), the protocol's ranks,
// an empty blob for null and '' as the tie-breaker of a null.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { PRIORITY_RANK, STATUS_RANK } from '../../protocol/task-list-query';
import { loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror | undefined;
afterEach(() => {
  handle?.cleanup();
  handle = undefined;
});

const NULL = Buffer.alloc(0);
const lower = (value: unknown) => (value === null ? NULL : (value as string).toLowerCase());
const rank = (ranks: Readonly<Record<string, number>>, value: unknown) =>
  value === null ? NULL : Object.hasOwn(ranks, value as string) ? ranks[value as string] : lower(value);

/** The keys as the mirror defines them (what task-columns.ts computed in JavaScript before 0015). */
function expectedKeys(task: Record<string, unknown>): Record<string, unknown> {
  return {
    k_title: (task.title as string).toLowerCase(),
    k_status: (task.status as string).toLowerCase(),
    k_status_rank: rank(STATUS_RANK, task.status),
    k_priority: lower(task.priority),
    k_priority_rank: rank(PRIORITY_RANK, task.priority),
    t_priority: task.priority ?? '',
    k_assignee: lower(task.assignee),
    t_assignee: task.assignee ?? '',
    k_project: lower(task.project_id),
    t_project: task.project_id ?? '',
    k_due: task.due_date ?? NULL,
    k_start: task.start_date ?? NULL,
    k_created: lower(task.created_at),
    t_created: task.created_at ?? '',
    k_task_type: lower(task.task_type),
    t_task_type: task.task_type ?? '',
  };
}

function storedKeys(file: string, taskId: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true });
  try {
    const columns = Object.keys(expectedKeys(taskJson()));
    return db.prepare(`SELECT ${columns.join(', ')} FROM tasks WHERE task_id = ?`).get(taskId) as Record<
      string,
      unknown
    >;
  } finally {
    db.close();
  }
}

const TASKS = [
  taskJson({ task_id: 'tsk_ascii', title: 'Mixed CASE Title', priority: 'high', assignee: 'Ada' }),
  // SQLite's lower() leaves Ü, İ and the Kelvin sign alone; JavaScript folds them (İ into two characters).
  taskJson({ task_id: 'tsk_umlaut', title: 'Über die Größe', status: 'ÄRGER', priority: 'ÜBER' }),
  taskJson({ task_id: 'tsk_dotted', title: 'İstanbul', assignee: 'İlkay', project_id: 'PRJ_İ' }),
  taskJson({
    task_id: 'tsk_kelvin',
    title: '\u212Aelvin',
    task_type: 'B\u212A',
    created_at: '2026-01-01T10:00:00Z',
  }),
  taskJson({ task_id: 'tsk_unknown', status: 'Waiting', priority: 'Custom', task_type: null }),
  taskJson({ task_id: 'tsk_nulls', priority: null, assignee: null, project_id: null, created_at: null }),
  taskJson({ task_id: 'tsk_dates', due_date: '2026-04-01', start_date: '2026-03-01', status: 'completed' }),
  taskJson({ task_id: 'tsk_emoji', title: 'Ship 🚀 NOW', assignee: 'Zoë' }),
];

describe('sort keys computed by SQLite', () => {
  test('are the Unicode lower case, the protocol ranks and the null keys, for every kind of value', async () => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    for (const task of TASKS)
      expect(storedKeys(handle.file, task.task_id as string)).toEqual(expectedKeys(task));
  });

  test('follow an edit: a title no longer needing its own lower case loses it, and one needing it gains it', async () => {
    handle = await openTestMirror();
    handle.mirror.identity.setAccount({ orgId: 'org_test', username: 'ada' });
    loadTasks(handle.mirror, TASKS);
    handle.mirror.tasks.edit('tsk_dotted', { title: 'Plain Title' });
    handle.mirror.tasks.edit('tsk_ascii', { title: 'ÉCOLE İ', assignee: null });
    const db = new Database(handle.file, { readonly: true });
    const row = (id: string) =>
      db.prepare('SELECT k_title, k_lower, k_assignee FROM tasks WHERE task_id = ?').get(id) as {
        k_title: string;
        k_lower: string | null;
        k_assignee: unknown;
      };
    try {
      expect(row('tsk_dotted').k_title).toBe('plain title');
      expect(JSON.parse(row('tsk_dotted').k_lower ?? '{}')).not.toHaveProperty('title');
      expect(row('tsk_ascii')).toEqual({
        k_title: 'école i̇',
        k_lower: '{"title":"école i̇"}',
        k_assignee: NULL,
      });
    } finally {
      db.close();
    }
  });

  test('order the list as JavaScript lower case does', async () => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    const page = handle.mirror.tasks.query(new URLSearchParams('sort_by=title'), {
      me: 'ada',
      today: '2026-03-10',
    });
    const byLowerTitle = [...TASKS]
      .sort((a, b) => {
        const [x, y] = [(a.title as string).toLowerCase(), (b.title as string).toLowerCase()];
        return x < y ? -1 : x > y ? 1 : 0;
      })
      .map((t) => t.task_id);
    expect(page.items.map((t) => t.task_id)).toEqual(byLowerTitle);
  });
});
