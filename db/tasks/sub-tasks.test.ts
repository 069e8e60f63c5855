// A task's sub-tasks and parent as its editor reads them from a real mirror
// file: shown sub-tasks in board order with how many are done, offline edits
// counted at once, a sub-task of a new task following it when the server
// names it, and the lookup a walk of migration 0020's index.
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { taskFamily } from '../read-models/task-family';
import { loadTasks, openTestMirrorPerTest, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror;
openTestMirrorPerTest((opened) => (handle = opened));

describe("a task's sub-tasks", () => {
  test('are the shown tasks under it in board order, with the completed ones counted', () => {
    const { mirror } = handle;
    loadTasks(mirror, [
      taskJson({ task_id: 'tsk_p', title: 'Launch' }),
      taskJson({ task_id: 'tsk_b', title: 'Banner', parent_task_id: 'tsk_p', position: 2 }),
      taskJson({ task_id: 'tsk_a', title: 'Ads', parent_task_id: 'tsk_p', position: 1, status: 'completed' }),
      taskJson({ task_id: 'tsk_gone', title: 'Deleted here', parent_task_id: 'tsk_p', position: 3 }),
      taskJson({ task_id: 'tsk_other', title: 'Elsewhere', parent_task_id: 'tsk_x' }),
    ]);
    mirror.tasks.delete('tsk_gone');

    expect(taskFamily(mirror, 'tsk_p', null)).toEqual({
      parent: null,
      sub_tasks: [
        { task_id: 'tsk_a', title: 'Ads', status: 'completed', pending: false },
        { task_id: 'tsk_b', title: 'Banner', status: 'not_started', pending: false },
      ],
      sub_tasks_done: 1,
    });
    expect(taskFamily(mirror, 'tsk_b', 'tsk_p').parent).toEqual({
      task_id: 'tsk_p',
      title: 'Launch',
      status: 'not_started',
    });
    // A parent the mirror does not show is named by its id alone.
    expect(taskFamily(mirror, 'tsk_other', 'tsk_x').parent).toEqual({
      task_id: 'tsk_x',
      title: null,
      status: null,
    });
  });

  test('added or completed offline count at once, and a sub-task of a new task follows it to its server id', () => {
    const { mirror } = handle;
    const parent = mirror.tasks.create({ title: 'New parent' });
    const child = mirror.tasks.create({ title: 'New child', parent_task_id: parent.taskId });
    expect(taskFamily(mirror, parent.taskId, null)).toMatchObject({
      sub_tasks: [{ task_id: child.taskId, title: 'New child', pending: true }],
      sub_tasks_done: 0,
    });
    mirror.tasks.edit(child.taskId, { status: 'completed' });
    expect(taskFamily(mirror, parent.taskId, null).sub_tasks_done).toBe(1);

    mirror.outbox.start(parent.opId);
    mirror.outbox.settle(parent.opId, {
      task: taskJson({ task_id: 'tsk_server_1', title: 'New parent' }),
      etag: '"s1"',
    });
    expect(taskFamily(mirror, 'tsk_server_1', null).sub_tasks.map((t) => t.task_id)).toEqual([child.taskId]);
    expect(taskFamily(mirror, parent.taskId, null).sub_tasks).toEqual([]);
  });

  test('are found by walking tasks_by_parent, never every task', () => {
    loadTasks(handle.mirror, [taskJson({ task_id: 'tsk_p' }), taskJson({ parent_task_id: 'tsk_p' })]);
    const db = new Database(handle.file, { readonly: true });
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT task_id, title, status, pending FROM tasks
            WHERE hidden = 0 AND parent_task_id = 'tsk_p' ORDER BY position IS NULL, position, k_title, task_id`,
        )
        .all() as { detail: string }[];
      expect(plan.map((row) => row.detail).join('\n')).toMatch(
        /SEARCH tasks USING INDEX tasks_by_parent \(parent_task_id=\?\)/,
      );
    } finally {
      db.close();
    }
  });

  test("filter the task list: its query and count answered among the parent's shown sub-tasks alone", async () => {
    const { mirror } = handle;
    loadTasks(mirror, [
      taskJson({ task_id: 'tsk_p', title: 'Launch', priority: 'high' }),
      taskJson({ task_id: 'tsk_c', title: 'Copy', parent_task_id: 'tsk_p', priority: 'high' }),
      taskJson({ task_id: 'tsk_a', title: 'Ads', parent_task_id: 'tsk_p', priority: 'low' }),
      taskJson({ task_id: 'tsk_b', title: 'Banner', parent_task_id: 'tsk_p', priority: 'high' }),
      taskJson({ task_id: 'tsk_gone', title: 'Deleted here', parent_task_id: 'tsk_p', priority: 'high' }),
      taskJson({ task_id: 'tsk_other', title: 'Banner stand', parent_task_id: 'tsk_x', priority: 'high' }),
      // Enough others that the sub-tasks' index is the narrowest way to them.
      ...Array.from({ length: 3000 }, (_, i) => taskJson({ task_id: `tsk_f${i}`, title: `Filler ${i}` })),
    ]);
    mirror.tasks.delete('tsk_gone');
    const added = mirror.tasks.create({ title: 'Added here', parent_task_id: 'tsk_p', priority: 'high' });
    const options = { me: 'ana', today: '2026-11-29', parent: 'tsk_p' };
    const byTitle = {
      filter: { search_fields: 'all' as const },
      sort_by: 'title' as const,
      sort_order: 'asc' as const,
    };

    const all = mirror.tasks.query(byTitle, options);
    expect(all.items.map((t) => t.task_id)).toEqual([added.taskId, 'tsk_a', 'tsk_b', 'tsk_c']);
    expect(mirror.tasks.count(byTitle, options)).toBe(4);

    // The list's own filters and search narrow the sub-tasks further, page by page.
    const high = { ...byTitle, filter: { search_fields: 'all' as const, priority: ['high'] } };
    const first = mirror.tasks.query(high, { ...options, limit: 2 });
    expect(first.items.map((t) => t.task_id)).toEqual([added.taskId, 'tsk_b']);
    const second = mirror.tasks.query(high, { ...options, limit: 2, after: first.next });
    expect(second.items.map((t) => t.task_id)).toEqual(['tsk_c']);
    expect(mirror.tasks.count(high, options)).toBe(3);
    const searched = { ...byTitle, filter: { search_fields: 'all' as const, search: 'banner' } };
    expect(mirror.tasks.query(searched, options).items.map((t) => t.task_id)).toEqual(['tsk_b']);
    expect(await mirror.tasks.countInSteps(searched, options)).toBe(1);

    // Without a parent the same query is the whole list's.
    const { parent: _, ...unscoped } = options;
    expect(mirror.tasks.count(searched, unscoped)).toBe(2);
  });
});
