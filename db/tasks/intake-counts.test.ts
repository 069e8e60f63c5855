// Each team's intake counted from a real mirror file as the sidebar reads it:
// the shown tasks of the team waiting for review, as the triage screen's query
// lists them, offline edits counted at once, every team in one walk of
// migration 0025's index.
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { loadTasks, openTestMirrorPerTest, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror;
openTestMirrorPerTest((opened) => (handle = opened));

describe("each team's intake count", () => {
  test("is the team's shown tasks waiting for review, the number the triage screen's query lists", () => {
    const { mirror } = handle;
    loadTasks(mirror, [
      taskJson({ task_id: 'tsk_1', team_id: 'team_a', review: 'pending' }),
      taskJson({ task_id: 'tsk_2', team_id: 'team_a', review: 'pending' }),
      taskJson({ task_id: 'tsk_3', team_id: 'team_a', review: 'accepted' }),
      taskJson({ task_id: 'tsk_4', team_id: 'team_b', review: 'pending' }),
      taskJson({ task_id: 'tsk_5', team_id: 'team_b', review: 'pending' }),
      taskJson({ task_id: 'tsk_6', team_id: null, review: 'pending' }),
      taskJson({ task_id: 'tsk_7', team_id: 'team_c', review: null }),
    ]);
    mirror.tasks.delete('tsk_5');
    // Declined here, not sent yet: it has left the intake.
    mirror.tasks.edit('tsk_2', { review: 'rejected' });
    mirror.tasks.create({ title: 'Raised here', team_id: 'team_c', review: 'pending' });

    const counts = mirror.tasks.intakeCounts();
    expect(counts).toEqual({ team_a: 1, team_b: 1, team_c: 1 });
    const options = { me: 'ana', today: '2026-11-29' };
    for (const team of ['team_a', 'team_b', 'team_c']) {
      const listed = mirror.tasks.count(
        {
          filter: { team: [team], review: ['pending'], search_fields: 'all' },
          sort_by: 'created_at',
          sort_order: 'asc',
        },
        options,
      );
      expect(counts[team]).toBe(listed);
    }
  });

  test('are read by walking tasks_in_intake, never every task', () => {
    loadTasks(handle.mirror, [taskJson({ team_id: 'team_a', review: 'pending' })]);
    const db = new Database(handle.file, { readonly: true });
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT team_id, count(*) AS n FROM tasks
            WHERE hidden = 0 AND review = 'pending' AND team_id IS NOT NULL GROUP BY team_id`,
        )
        .all() as { detail: string }[];
      expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING (COVERING )?INDEX tasks_in_intake/);
    } finally {
      db.close();
    }
  });
});
