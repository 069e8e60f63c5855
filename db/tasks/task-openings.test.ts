// Which tasks the comment watch picks, case by case, in a real mirror file:
// each reason a task is in (or out of) the likely-opened set, and the order
// (never asked first, then the longest unchecked).
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { COMMENT_WATCH, COMMENT_WATCH_INDEXES } from './task-openings';
import { loadPass, onlyPage, openTestMirror, type TestMirror } from '../test-mirror';

let handle: TestMirror;
let mirror: Mirror;

const TODAY = '2026-03-10';
const WATCH = { username: 'ada', today: TODAY, openedSince: '2026-02-08T00:00:00.000Z', limit: 100 };

function task(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { task_id: id, org_id: 'org_1', title: id, status: 'not_started', tags: [], ...fields };
}

function load(collection: 'tasks' | 'teams', items: Record<string, unknown>[], scope = ''): void {
  loadPass(mirror, collection, items, { scope });
}

function loadSprints(teamId: string, items: Record<string, unknown>[]): void {
  loadPass(mirror, 'sprints', items, { scope: teamId });
}

beforeEach(async () => {
  handle = await openTestMirror();
  mirror = handle.mirror;
  mirror.identity.setAccount({ orgId: 'org_1', username: 'ada' });
  load('teams', [
    { team_id: 'tm_mine', name: 'Mine', team_role: 'member' },
    { team_id: 'tm_guest', name: 'Visited', team_role: null },
  ]);
  loadSprints('tm_mine', [
    {
      sprint_id: 'spr_now',
      team_id: 'tm_mine',
      name: 'Now',
      status: 'active',
      start_date: '2026-03-02',
      end_date: '2026-03-15',
    },
    {
      sprint_id: 'spr_done',
      team_id: 'tm_mine',
      name: 'Done',
      status: 'completed',
      start_date: '2026-03-02',
      end_date: '2026-03-15',
    },
    {
      sprint_id: 'spr_past',
      team_id: 'tm_mine',
      name: 'Past',
      status: 'active',
      start_date: '2026-02-01',
      end_date: '2026-02-14',
    },
    {
      sprint_id: 'spr_off',
      team_id: 'tm_mine',
      name: 'Off',
      status: 'active',
      is_active: false,
      start_date: '2026-03-02',
      end_date: '2026-03-15',
    },
  ]);
  loadSprints('tm_guest', [
    {
      sprint_id: 'spr_theirs',
      team_id: 'tm_guest',
      name: 'Theirs',
      status: 'active',
      start_date: '2026-03-02',
      end_date: '2026-03-15',
    },
  ]);
});

afterEach(() => handle.cleanup());

describe('the comment watch', () => {
  test.each([
    ['assigned to me, open', true, task('t', { assignee: 'ada' })],
    ['created by me, open', true, task('t', { created_by: 'ada', assignee: 'grace' })],
    ['mine but completed', false, task('t', { assignee: 'ada', status: 'completed' })],
    ["someone else's", false, task('t', { assignee: 'grace', created_by: 'grace' })],
    [
      "in my team's current sprint, anyone's, any status",
      true,
      task('t', { sprint_id: 'spr_now', status: 'completed' }),
    ],
    ["in my team's completed sprint", false, task('t', { sprint_id: 'spr_done' })],
    ["in my team's ended sprint", false, task('t', { sprint_id: 'spr_past' })],
    ["in my team's inactive sprint", false, task('t', { sprint_id: 'spr_off' })],
    ['in the current sprint of a team I am not on', false, task('t', { sprint_id: 'spr_theirs' })],
  ])('%s: watched %s', (_name, watched, row) => {
    load('tasks', [row]);
    expect(mirror.openings.commentWatch(WATCH)).toEqual(watched ? ['t'] : []);
  });

  test('a task opened within the window is watched; one opened before it, or a deleted one, is not', () => {
    load('tasks', [task('recent'), task('old'), task('gone')]);
    mirror.openings.record('recent', { at: '2026-03-01T00:00:00.000Z' });
    mirror.openings.record('old', { at: '2026-02-01T00:00:00.000Z' });
    mirror.openings.record('gone', { at: '2026-03-01T00:00:00.000Z' });
    mirror.tasks.delete('gone');
    expect(mirror.openings.commentWatch(WATCH)).toEqual(['recent']);
  });

  test('a task created here and not on the server yet is not asked for', () => {
    load('tasks', []);
    const { taskId } = mirror.tasks.create({ title: 'Mine, queued', assignee: 'ada' });
    mirror.openings.record(taskId);
    expect(mirror.openings.commentWatch(WATCH)).toEqual([]);
  });

  test('never-asked tasks come first, then the longest unchecked, up to the limit', () => {
    load(
      'tasks',
      ['a', 'b', 'c', 'd'].map((id) => task(id, { assignee: 'ada' })),
    );
    mirror.openings.commentsChecked(['c'], '2026-03-10T10:00:00.000Z');
    mirror.openings.commentsChecked(['a'], '2026-03-10T09:00:00.000Z');
    expect(mirror.openings.commentWatch(WATCH)).toEqual(['b', 'd', 'a', 'c']);
    expect(mirror.openings.commentWatch({ ...WATCH, limit: 3 })).toEqual(['b', 'd', 'a']);
    mirror.openings.commentsChecked(['b', 'd'], '2026-03-10T11:00:00.000Z');
    expect(mirror.openings.commentWatch({ ...WATCH, limit: 2 })).toEqual(['a', 'c']);
  });

  test('opening again keeps the latest time; recording forgets openings before the window', () => {
    mirror.openings.record('x', { at: '2026-03-05T00:00:00.000Z' });
    mirror.openings.record('x', { at: '2026-03-01T00:00:00.000Z' });
    mirror.openings.record('old', { at: '2026-01-01T00:00:00.000Z' });
    expect(mirror.openings.openedSince('2026-03-04T00:00:00.000Z')).toEqual(['x']);
    mirror.openings.record('y', { at: '2026-03-06T00:00:00.000Z', forgetBefore: '2026-02-04T00:00:00.000Z' });
    expect(mirror.openings.openedSince('1970-01-01T00:00:00.000Z')).toEqual(['y', 'x']);
  });

  test('each reason walks its own index and no task row is scanned (migration 0016)', () => {
    load('tasks', [task('t', { assignee: 'ada', sprint_id: 'spr_now' })]);
    const db = new Database(handle.file, { readonly: true });
    try {
      const steps = (
        db.prepare(`EXPLAIN QUERY PLAN ${COMMENT_WATCH}`).all({
          temporary: 'local-',
          me: 'ada',
          today: TODAY,
          opened: '[]',
          limit: 10,
        }) as { detail: string }[]
      ).map((step) => step.detail);
      // Mine through indexes holding all they test; a sprint's through 0014's (its ids read from their rows).
      expect(steps).toContain('SEARCH tasks USING COVERING INDEX tasks_by_assignee_open (assignee=?)');
      expect(steps).toContain('SEARCH tasks USING COVERING INDEX tasks_by_creator_open (created_by=?)');
      expect(steps).toContain('SEARCH tasks USING INDEX tasks_by_sprint (sprint_id=?)');
      expect(steps.filter((step) => /^SCAN tasks\b/.test(step))).toEqual([]);
    } finally {
      db.close();
    }
  });

  test('while a first load still builds its indexes, the watch picks the same tasks', () => {
    const rows = [
      task('mine', { assignee: 'ada' }),
      task('made', { created_by: 'ada', assignee: 'grace' }),
      task('done', { assignee: 'ada', status: 'completed' }),
      task('sprint', { sprint_id: 'spr_now', status: 'completed' }),
      task('theirs', { sprint_id: 'spr_theirs' }),
      task('opened'),
      task('other'),
    ];
    mirror.openings.record('opened', { at: '2026-03-01T00:00:00.000Z' });
    mirror.openings.commentsChecked(['mine'], '2026-03-10T09:00:00.000Z');
    // A first full pass into the empty table drops the indexes until it completes.
    mirror.passes.begin('tasks', '');
    mirror.passes.applyPage(onlyPage('tasks', rows));
    const indexes = () => {
      const db = new Database(handle.file, { readonly: true });
      try {
        return db
          .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks'")
          .pluck()
          .all() as string[];
      } finally {
        db.close();
      }
    };
    expect(indexes().filter((name) => COMMENT_WATCH_INDEXES.includes(name))).toEqual([]);
    const expected = ['made', 'opened', 'sprint', 'mine'];
    expect(mirror.openings.commentWatch(WATCH)).toEqual(expected);
    mirror.passes.complete('tasks', '', 0);
    expect(indexes()).toEqual(expect.arrayContaining([...COMMENT_WATCH_INDEXES]));
    expect(mirror.openings.commentWatch(WATCH)).toEqual(expected);
  });
});
