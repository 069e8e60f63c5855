import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import {
  FILING_COUNTS,
  type FilingCountRow,
  filingCountInSteps,
  filingKeys,
  filingStepSql,
} from './filing-counts';
import { tagsInUse } from './task-filing';
import { loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror | null = null;
afterEach(() => {
  handle?.mirror.close();
  handle?.cleanup();
  handle = null;
});

/** A test mirror signed in as ada, holding `tasks` as a first sync loads them (closed after the test). */
async function mirrorOf(tasks: readonly Record<string, unknown>[]): Promise<TestMirror> {
  handle = await openTestMirror();
  handle.mirror.identity.setAccount({ orgId: 'org_1', username: 'ada' });
  loadTasks(handle.mirror, tasks);
  return handle;
}

/** How SQLite runs a statement, read through a second connection to the same file. */
function plan(file: string, statement: string, params: readonly unknown[] = []): string {
  const db = new Database(file, { readonly: true });
  try {
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(...params) as { detail: string }[];
    return steps.map((step) => step.detail).join(' | ');
  } finally {
    db.close();
  }
}

/**
 * Whether the statement's program reads anything of the task rows themselves.
 * A key computed from the row (a virtual column, migration 0015) is read from
 * the index holding it, but SQLite's plan no longer says "COVERING" then: the
 * program tells, as no column is read through a cursor on the table.
 */
function readsTaskRows(file: string, statement: string, params: readonly unknown[] = []): boolean {
  const db = new Database(file, { readonly: true });
  try {
    const root = (
      db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'tasks'").get() as {
        rootpage: number;
      }
    ).rootpage;
    const program = db.prepare(`EXPLAIN ${statement}`).all(...params) as {
      opcode: string;
      p1: number;
      p2: number;
    }[];
    const onTable = new Set(
      program.filter((op) => op.opcode === 'OpenRead' && op.p2 === root).map((op) => op.p1),
    );
    return program.some(
      (op) => ['Column', 'Rowid', 'SeekRowid', 'NotExists'].includes(op.opcode) && onTable.has(op.p1),
    );
  } finally {
    db.close();
  }
}

describe('the sidebar counts per section, sprint and goal', () => {
  test('count shown tasks, completed ones and goals without subtasks, as the service does', async () => {
    const { mirror } = await mirrorOf([
      taskJson({ task_id: 'tsk_1', section_id: 'sec_1', sprint_id: 'spr_1', goal_id: 'gol_1' }),
      taskJson({
        task_id: 'tsk_2',
        section_id: 'sec_1',
        sprint_id: 'spr_1',
        goal_id: 'gol_1',
        status: 'completed',
      }),
      taskJson({ task_id: 'tsk_3', section_id: 'sec_2', goal_id: 'gol_1', parent_task_id: 'tsk_1' }),
      taskJson({ task_id: 'tsk_4' }),
    ]);
    mirror.tasks.delete('tsk_4');
    mirror.tasks.delete('tsk_1');
    expect(mirror.tasks.sectionCounts()).toEqual(
      new Map([
        ['sec_1', 1],
        ['sec_2', 1],
      ]),
    );
    expect(mirror.tasks.sprintCounts()).toEqual(new Map([['spr_1', { total: 1, completed: 1 }]]));
    expect(mirror.tasks.goalCounts()).toEqual(new Map([['gol_1', { total: 1, completed: 1 }]]));
  });

  test('each walks its own index, never every task (migration 0014)', async () => {
    const { file } = await mirrorOf([
      taskJson({ task_id: 'tsk_1', section_id: 'sec_1', sprint_id: 'spr_1', goal_id: 'gol_1' }),
    ]);
    // The statements as mirror-tasks.ts runs them.
    const counts = {
      tasks_by_section:
        'SELECT section_id AS id, count(*) AS n FROM tasks WHERE hidden = 0 AND section_id IS NOT NULL GROUP BY section_id',
      tasks_by_sprint: `SELECT sprint_id AS id, count(*) AS total, sum(k_status_rank = 3) AS completed FROM tasks
          WHERE hidden = 0 AND sprint_id IS NOT NULL  GROUP BY sprint_id`,
      tasks_by_goal: `SELECT goal_id AS id, count(*) AS total, sum(k_status_rank = 3) AS completed FROM tasks
          WHERE hidden = 0 AND goal_id IS NOT NULL AND parent_task_id IS NULL GROUP BY goal_id`,
    };
    for (const [index, statement] of Object.entries(counts)) {
      expect(plan(file, statement)).toMatch(
        new RegExp(`^SEARCH tasks USING (COVERING )?INDEX ${index} \\(${index.slice(9)}_id>\\?\\)$`),
      );
      expect(readsTaskRows(file, statement)).toBe(false);
    }
  });
});

describe('the sidebar counts in steps (workspace:get)', () => {
  test('a few groups a read, with the event loop turning between, answer what one read counts', async () => {
    const { mirror } = await mirrorOf([
      taskJson({ task_id: 'tsk_a', section_id: 'sec_1', sprint_id: 'spr_1', goal_id: 'gol_1' }),
      taskJson({ section_id: 'sec_2', sprint_id: 'spr_1', goal_id: 'gol_2', status: 'completed' }),
      taskJson({ section_id: 'sec_3', sprint_id: 'spr_2', goal_id: 'gol_2' }),
      taskJson({ section_id: 'sec_3', sprint_id: 'spr_3', goal_id: 'gol_3', status: 'completed' }),
    ]);
    const inOneRead = [mirror.tasks.sectionCounts(), mirror.tasks.sprintCounts(), mirror.tasks.goalCounts()];
    for (const tasksPerRead of [1, 2, 20]) {
      // Tasks changed since the last count: counted again, in steps.
      mirror.tasks.edit('tsk_a', { title: `Renamed ${tasksPerRead}` });
      let turns = 0;
      let counting = true;
      const turn = () => {
        turns += 1;
        if (counting) setImmediate(turn);
      };
      setImmediate(turn);
      await mirror.tasks.countFilingsInSteps(tasksPerRead);
      counting = false;
      // 3 sections, 3 sprints and 3 goals: a read per group, and one that finds the end, per count.
      if (tasksPerRead === 1) expect(turns).toBeGreaterThanOrEqual(3 * 4);
      expect([mirror.tasks.sectionCounts(), mirror.tasks.sprintCounts(), mirror.tasks.goalCounts()]).toEqual(
        inOneRead,
      );
    }
  });

  test('answer what one read counts while another connection has dropped their indexes (a first load starting)', async () => {
    const { mirror, file } = await mirrorOf([
      taskJson({ task_id: 'tsk_a', section_id: 'sec_1', sprint_id: 'spr_1', goal_id: 'gol_1' }),
      taskJson({ section_id: 'sec_2', sprint_id: 'spr_1', goal_id: 'gol_2', status: 'completed' }),
      taskJson({ section_id: 'sec_3', sprint_id: 'spr_2', goal_id: 'gol_2' }),
    ]);
    const inOneRead = [mirror.tasks.sectionCounts(), mirror.tasks.sprintCounts(), mirror.tasks.goalCounts()];
    // The pull worker's connection, as deferSortIndexes drops them when a first load starts.
    const other = new Database(file);
    try {
      other.exec('DROP INDEX tasks_by_section; DROP INDEX tasks_by_sprint; DROP INDEX tasks_by_goal');
    } finally {
      other.close();
    }
    mirror.tasks.edit('tsk_a', { title: 'Renamed' });
    await mirror.tasks.countFilingsInSteps(1);
    expect([mirror.tasks.sectionCounts(), mirror.tasks.sprintCounts(), mirror.tasks.goalCounts()]).toEqual(
      inOneRead,
    );
  });

  test('no read counts more tasks than it may, however big a group, and none counts a task twice', async () => {
    // A small group, one of 300 (three statuses, 200 in one), then small ones: at 50 tasks a read
    // the big one is split by status, and its 200 in progress by ranges of rows.
    const statuses = (n: number) => (n < 200 ? 'in_progress' : n < 260 ? 'completed' : 'not_started');
    const filed = (group: string, status: string) =>
      taskJson({ section_id: `sec_${group}`, sprint_id: `spr_${group}`, goal_id: `gol_${group}`, status });
    const tasks = [
      ...Array.from({ length: 5 }, () => filed('a', 'completed')),
      ...Array.from({ length: 300 }, (_, n) => filed('b', statuses(n))),
      ...Array.from({ length: 120 }, (_, n) => filed(`c${Math.floor(n / 12)}`, statuses(n * 3))),
    ];
    const { file, mirror } = await mirrorOf(tasks);
    const inOneRead = {
      sections: [...mirror.tasks.sectionCounts()].map(([id, total]) => ({ id, total, completed: 0 })),
      sprints: [...mirror.tasks.sprintCounts()].map(([id, counts]) => ({ id, ...counts })),
      goals: [...mirror.tasks.goalCounts()].map(([id, counts]) => ({ id, ...counts })),
    };
    const db = new Database(file, { readonly: true });
    try {
      for (const count of FILING_COUNTS) {
        const tasksRead: number[] = [];
        const counted = await filingCountInSteps(
          db,
          (work) => {
            const read = work() as { rows: FilingCountRow[] };
            tasksRead.push(read.rows.reduce((sum, row) => sum + row.total, 0));
            return read as never;
          },
          count,
          50,
        );
        expect(counted).toEqual(inOneRead[count]);
        expect(Math.max(...tasksRead)).toBeLessThanOrEqual(50);
        expect(tasksRead.reduce((sum, n) => sum + n, 0)).toBe(tasks.length);
      }
    } finally {
      db.close();
    }
  });

  test("each read walks its count's index in its order, never every task nor a sort", async () => {
    const { file } = await mirrorOf([
      taskJson({ section_id: 'sec_1', sprint_id: 'spr_1', goal_id: 'gol_1' }),
    ]);
    for (const count of FILING_COUNTS) {
      const index = `tasks_by_${count.slice(0, -1)}`;
      filingKeys(count).forEach((key, level) => {
        for (const from of ['start', '>', '>='] as const) {
          const statements = [
            filingStepSql(count, level, 'probe', from),
            filingStepSql(count, level, 'count', from),
            filingStepSql(count, level, 'count', from, true),
          ];
          for (const statement of statements) {
            // Planned as the walk runs them, with its keys bound as parameters.
            const params = statement
              .split('?')
              .slice(1)
              .map(() => null);
            expect(plan(file, statement, params), `${count} ${key} ${from}`).toMatch(
              new RegExp(`^SEARCH tasks USING (COVERING )?INDEX ${index} `),
            );
            expect(plan(file, statement, params)).not.toMatch(/TEMP B-TREE/);
            expect(readsTaskRows(file, statement, params)).toBe(false);
          }
        }
      });
    }
  });
});

describe('the tags in use', () => {
  test('counted in row ranges, answer what one count over every task does: most used first, then by name', async () => {
    const { mirror, file } = await mirrorOf([
      taskJson({ tags: ['ux', 'backend'] }),
      taskJson({ tags: ['backend'] }),
      taskJson({ tags: [] }),
      taskJson({ task_id: 'tsk_hidden', tags: ['secret', 'ux', 'ux2'] }),
      taskJson({ tags: ['Zeta', 'ux', 'alpha'] }),
      taskJson({ tags: ['alpha', 'backend'] }),
      taskJson({ tags: ['émigré'] }),
    ]);
    mirror.tasks.delete('tsk_hidden');
    const db = new Database(file, { readonly: true });
    try {
      const oneCount = db
        .prepare(
          `SELECT j.value AS tag FROM tasks t, json_each(t.tags) j
            WHERE t.hidden = 0 GROUP BY j.value ORDER BY count(*) DESC, j.value LIMIT 500`,
        )
        .all()
        .map((row) => (row as { tag: string }).tag);
      expect(oneCount).toEqual(['backend', 'alpha', 'ux', 'Zeta', 'émigré']);
      const read = <T>(work: () => T): T => work();
      for (const stepRows of [1, 2, 3, 100]) expect(await tagsInUse(db, read, stepRows)).toEqual(oneCount);
    } finally {
      db.close();
    }
    expect(await mirror.tasks.tagsInUse()).toEqual(['backend', 'alpha', 'ux', 'Zeta', 'émigré']);
  });
});

describe("a milestone's tasks and progress (migration 0018)", () => {
  test('are found by walking tasks_by_milestone, never every task', async () => {
    const { mirror, file } = await mirrorOf([
      taskJson({ task_id: 'tsk_1', milestone_id: 'mst_1' }),
      taskJson({ task_id: 'tsk_2', milestone_id: 'mst_1', status: 'completed' }),
      taskJson({ task_id: 'tsk_3' }),
    ]);
    expect((await mirror.tasks.filed('milestone_id', ['mst_1'], 10)).tasks.map((t) => t.task_id)).toEqual([
      'tsk_1',
      'tsk_2',
    ]);
    // tasks:filed's statement as db/tasks/task-filing.ts builds it, and the progress count of db/collections/mirror-collections.ts.
    const filed = `SELECT task_id, title FROM tasks WHERE hidden = 0 AND milestone_id IN ('mst_1', 'mst_2')
        ORDER BY position IS NULL, position, k_title, task_id LIMIT 2001`;
    expect(plan(file, filed)).toMatch(/^SEARCH tasks USING INDEX tasks_by_milestone \(milestone_id=\?\)/);
    const progress = `SELECT milestone_id AS id, count(*) AS total, sum(status = 'completed') AS completed FROM tasks
        WHERE hidden = 0 AND milestone_id IN (SELECT milestone_id FROM milestones WHERE project_id = 'prj_1')
        GROUP BY milestone_id`;
    expect(plan(file, progress)).toMatch(
      /SEARCH tasks USING COVERING INDEX tasks_by_milestone \(milestone_id=\?\)/,
    );
    expect(readsTaskRows(file, progress)).toBe(false);
  });
});
