import { describe, expect, test } from 'vitest';
import { taskSchema } from '../../protocol/task';
import { IncompletePassError, MalformedRowError, NotInMirrorError } from '../mirror-errors';
import Database from 'better-sqlite3';
import { SORT_INDEX_NAMES } from '../tasks/deferred-indexes';
import { openMirror } from '../open-mirror';
import type { Mirror, PageInput } from '../mirror';
import { checkTask } from '../tasks/task-columns';
import { hashOf } from './id-hints';
import {
  loadPass,
  loadTasks,
  onlyPage,
  openTestMirrorPerTest,
  taskJson,
  type TestMirror,
} from '../test-mirror';

let handle: TestMirror;
let mirror: Mirror;
openTestMirrorPerTest((opened) => {
  handle = opened;
  mirror = opened.mirror;
});

function page(
  pageIndex: number,
  items: unknown[],
  next: string | null,
  extra: Partial<PageInput> = {},
): PageInput {
  return {
    collection: 'tasks',
    pageIndex,
    cursorSent: pageIndex === 0 ? null : `c${pageIndex}`,
    etag: `"e${pageIndex}"`,
    nextCursor: next,
    items,
    ...extra,
  };
}

const ids = () =>
  mirror.tasks
    .query(new URLSearchParams('sort_by=task_id'), { me: 'ada', today: '2026-03-10', limit: 1000 })
    .items.map((t) => t.task_id);

describe('applying pages', () => {
  test('returns what changed: created, updated with before and after of changed fields only, deleted', () => {
    const a = taskJson({ title: 'A', assignee: null });
    const b = taskJson({ title: 'B' });
    const c = taskJson({ title: 'C' });
    mirror.passes.begin('tasks');
    const first = mirror.passes.applyPage(page(0, [a, b, c], null));
    expect(first.changes.created.map((x) => x.id)).toEqual([a.task_id, b.task_id, c.task_id]);
    expect(mirror.passes.complete('tasks', '', 0).deleted).toEqual([]);

    mirror.passes.begin('tasks');
    const a2 = { ...a, assignee: 'ada', status: 'in_progress' };
    const second = mirror.passes.applyPage(page(0, [a2, b], null));
    expect(second.unchanged).toBe(1);
    expect(second.changes.created).toEqual([]);
    expect(second.changes.updated).toMatchObject([
      {
        collection: 'tasks',
        id: a.task_id,
        changes: {
          assignee: { before: null, after: 'ada' },
          status: { before: 'not_started', after: 'in_progress' },
        },
        before: { assignee: null },
        after: { assignee: 'ada' },
      },
    ]);
    const removed = mirror.passes.complete('tasks', '', 0);
    expect(removed.deleted).toMatchObject([{ collection: 'tasks', id: c.task_id, before: { title: 'C' } }]);
    expect(ids()).toEqual([a.task_id, b.task_id]);
  });

  test('a malformed row is refused naming resource and field; the rest of the page is applied', () => {
    const good = taskJson({ title: 'Good' });
    const kept = taskJson({ title: 'Kept as it was' });
    loadTasks(mirror, [kept]);
    mirror.passes.begin('tasks');
    const bad = [
      { ...kept, title: 'Broken update', due_date: 'tomorrow' },
      { ...taskJson(), title: 42 },
      { title: 'no id' },
      'not an object',
      { ...taskJson(), tags: ['ok', 7] },
    ];
    const applied = mirror.passes.applyPage(page(0, [good, ...bad], null));
    expect(applied.rejected.map((e) => [e.resource, e.field])).toEqual([
      ['tasks', 'due_date'],
      ['tasks', 'title'],
      ['tasks', 'task_id'],
      ['tasks', '(row)'],
      ['tasks', 'tags'],
    ]);
    expect(applied.rejected[0]).toBeInstanceOf(MalformedRowError);
    expect(applied.rejected[0]?.id).toBe(kept.task_id);
    expect(applied.rejected[0]?.message).toContain('due_date');
    // Refetch next time instead of a 304 that would skip the bad row for good.
    expect(mirror.passes.storedPage('tasks', '', 0)?.etag).toBeNull();
    // The refused row keeps its previous copy and is not removed as unseen.
    mirror.passes.complete('tasks', '', 0);
    expect(mirror.tasks.get(kept.task_id as string)?.task.title).toBe('Kept as it was');
    expect(mirror.tasks.get(good.task_id as string)?.task.title).toBe('Good');
  });

  test('a row whose id cannot be read makes its pass remove nothing, for it could be any row; the next pass removes again (issue 27)', () => {
    const [a, b, gone] = [taskJson({ title: 'A' }), taskJson({ title: 'B' }), taskJson({ title: 'Gone' })];
    loadTasks(mirror, [a, b, gone]);
    mirror.passes.begin('tasks');
    // One refused by the mirror, one the sync engine could not read: neither names an id.
    const applied = mirror.passes.applyPage(
      page(0, [a, { title: 'no id' }], null, {
        skipped: [{ item: { ...b, task_id: 17 }, field: 'task_id', reason: 'expected string' }],
      }),
    );
    expect(applied.rejected.map((e) => [e.id, e.field])).toEqual([
      [null, 'task_id'],
      [null, 'task_id'],
    ]);
    expect(mirror.passes.complete('tasks', '', 0).deleted).toEqual([]);
    expect(ids().sort()).toEqual([a.task_id, b.task_id, gone.task_id].sort());

    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [a, b], null));
    expect(mirror.passes.complete('tasks', '', 0).deleted.map((d) => d.id)).toEqual([gone.task_id]);
  });

  test('an item the sync engine could not read keeps its previous copy and is not removed by the pass (issue 27)', () => {
    const [a, kept] = [taskJson({ title: 'A' }), taskJson({ title: 'Kept as it was' })];
    loadTasks(mirror, [a, kept]);
    mirror.passes.begin('tasks');
    const applied = mirror.passes.applyPage(
      page(0, [a], null, {
        skipped: [
          { item: { ...kept, status: { not: 'a string' } }, field: 'status', reason: 'expected string' },
        ],
      }),
    );
    expect(applied.rejected).toEqual([expect.any(MalformedRowError)]);
    expect(applied.rejected[0]).toMatchObject({ resource: 'tasks', id: kept.task_id, field: 'status' });
    expect(mirror.passes.storedPage('tasks', '', 0)?.etag).toBeNull();
    expect(mirror.passes.complete('tasks', '', 0).deleted).toEqual([]);
    expect(mirror.tasks.get(kept.task_id as string)?.task.title).toBe('Kept as it was');
  });

  test('a chain row whose id cannot be read keeps the whole list’s pass from removing anything (issue 27)', () => {
    const [a, gone] = [taskJson({ title: 'A' }), taskJson({ title: 'Gone' })];
    loadTasks(mirror, [a, gone]);
    const walk = (items: unknown[]) => {
      mirror.passes.begin('tasks');
      mirror.passes.begin('tasks', '~all', { partial: true });
      mirror.passes.applyPage(page(0, items, null, { scope: '~all', partial: true }));
      mirror.passes.complete('tasks', '~all', 0);
      return mirror.passes.complete('tasks', '', -1).deleted.map((d) => d.id);
    };
    expect(walk([a, { title: 'no id' }])).toEqual([]);
    expect(walk([a])).toEqual([gone.task_id]);
  });

  test('a row nested deeper than the mirror can write is refused alone, a task or another resource (issue 27)', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    const [good, bad] = [taskJson({ title: 'Good' }), taskJson({ title: 'Deep' })];
    mirror.passes.begin('tasks');
    const applied = mirror.passes.applyPage(page(0, [good, { ...bad, extra: deep }], null));
    expect(applied.rejected.map((e) => [e.id, e.field])).toEqual([[bad.task_id, '(row)']]);
    expect(ids()).toEqual([good.task_id]);

    mirror.passes.begin('projects');
    const projects = mirror.passes.applyPage(
      onlyPage('projects', [
        { project_id: 'prj_1', name: 'Fine' },
        { project_id: 'prj_2', name: 'Deep', settings: deep },
      ]),
    );
    expect(projects.rejected.map((e) => [e.id, e.field])).toEqual([['prj_2', '(row)']]);
    expect(mirror.collections.ids('projects')).toEqual(['prj_1']);
  });

  test('the row check refuses what the wire schema refuses, for the fields the mirror reads', () => {
    const cases: Record<string, unknown>[] = [
      { task_id: '' },
      { title: null },
      { status: 3 },
      { project_id: 5 },
      { priority: true },
      { tags: 'a,b' },
      { tags: [null] },
      { due_date: '2026-1-1' },
      { start_date: 20260101 },
      { position: '1' },
      { created_at: 0 },
    ];
    for (const override of cases) {
      const task = taskJson(override);
      const field = Object.keys(override)[0] as string;
      expect(taskSchema.safeParse(task).success, field).toBe(false);
      expect(checkTask(task)?.field, field).toBe(field);
    }
    const lenient = taskJson({ status: 'archived', priority: 'critical', extra: { any: 1 }, tags: null });
    expect(taskSchema.safeParse(lenient).success).toBe(true);
    expect(checkTask(lenient)).toBeNull();
  });

  test('a 304 page counts its stored ids as returned, so completing the pass removes nothing', () => {
    const tasks = [taskJson(), taskJson(), taskJson()];
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, tasks.slice(0, 2), 'c1'));
    mirror.passes.applyPage(page(1, tasks.slice(2), null));
    mirror.passes.complete('tasks', '', 1);

    const pass = mirror.passes.begin('tasks');
    expect(pass.pages.map((p) => [p.etag, p.nextCursor])).toEqual([
      ['"e0"', 'c1'],
      ['"e1"', null],
    ]);
    expect(mirror.passes.reusePage('tasks', '', 0).nextCursor).toBe('c1');
    mirror.passes.reusePage('tasks', '', 1);
    expect(mirror.passes.complete('tasks', '', 1).deleted).toEqual([]);
    expect(ids()).toHaveLength(3);
    expect(() => mirror.passes.reusePage('tasks', '', 7)).toThrow(NotInMirrorError);
  });

  test('only a complete pass removes anything', () => {
    const tasks = [taskJson(), taskJson(), taskJson()];
    loadTasks(mirror, tasks);
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, tasks.slice(0, 1), 'c1'));
    // Page 1 (the one holding the rest) was never fetched in this pass.
    expect(() => mirror.passes.complete('tasks', '', 1)).toThrow(IncompletePassError);
    expect(ids()).toHaveLength(3);
  });

  test('an interrupted pass resumes after a restart where it stopped', async () => {
    const tasks = [taskJson(), taskJson(), taskJson()];
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, tasks.slice(0, 1), 'c1'));
    mirror.passes.applyPage(page(1, tasks.slice(1, 2), 'c2'));
    mirror = await handle.reopen();
    const resumed = mirror.passes.begin('tasks');
    expect(resumed).toMatchObject({
      state: 'running',
      resume: { pageIndex: 2, cursor: 'c2' },
      chainEnded: false,
    });
    mirror.passes.applyPage(page(2, tasks.slice(2), null));
    expect(mirror.passes.state('tasks')?.chainEnded).toBe(true);
    mirror.passes.complete('tasks', '', 2);
    expect(mirror.passes.state('tasks')?.state).toBe('complete');
    expect(ids()).toHaveLength(3);
  });

  test('a walk is given each stored page with how many ids it held, and the pass as state() tells it', () => {
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [taskJson(), taskJson(), taskJson()], 'c1'));
    mirror.passes.applyPage(page(1, [taskJson()], null));
    const { pages, ...pass } = mirror.passes.state('tasks') ?? { pages: [] };
    const walked = mirror.passes.walkState('tasks');
    expect(walked?.pages).toEqual(
      pages.map(({ ids: held, ...stored }) => ({ ...stored, count: held.length })),
    );
    expect(walked?.pages.map((p) => p.count)).toEqual([3, 1]);
    expect(walked).toMatchObject(pass);
  });

  test('a restarted pass (cursor refused) does not count what the old one saw', () => {
    const tasks = [taskJson(), taskJson()];
    loadTasks(mirror, tasks);
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, tasks, null));
    const restarted = mirror.passes.restart('tasks');
    expect(restarted.resume).toEqual({ pageIndex: 0, cursor: null });
    mirror.passes.applyPage(page(0, tasks.slice(1), null));
    expect(mirror.passes.complete('tasks', '', 0).deleted.map((d) => d.id)).toEqual([tasks[0]?.task_id]);
  });

  test('a partial (filtered) pass stores what it gets and never removes anything', () => {
    const tasks = [taskJson(), taskJson()];
    loadTasks(mirror, tasks);
    const fresh = taskJson({ title: 'Fresh' });
    mirror.passes.begin('tasks', 'created_after', { partial: true });
    mirror.passes.applyPage(page(0, [fresh], null, { scope: 'created_after', partial: true }));
    expect(mirror.passes.complete('tasks', 'created_after', 0).deleted).toEqual([]);
    expect(ids()).toHaveLength(3);
    // The full list's bookkeeping is untouched by the filtered one.
    expect(mirror.passes.state('tasks', '')?.pages).toHaveLength(1);
  });

  test('a task listed again unchanged (the person’s own, walked first) is not rewritten, yet counts as seen by the full pass', () => {
    const mine = taskJson({ title: 'Mine' });
    const mineToo = taskJson({ title: 'Mine too' });
    const own = [mine, mineToo];
    const other = taskJson({ title: 'Someone else’s' });
    mirror.passes.begin('tasks', 'hot:assigned', { partial: true });
    mirror.passes.applyPage(page(0, own, null, { scope: 'hot:assigned', partial: true }));
    mirror.passes.complete('tasks', 'hot:assigned', 0);
    // Every rewrite of a row's columns is counted (a row only marked seen is not).
    const counter = new Database(handle.file);
    counter.exec(`CREATE TABLE test_rewrites (task_id TEXT);
      CREATE TRIGGER test_rewrite AFTER UPDATE OF title ON tasks BEGIN INSERT INTO test_rewrites VALUES (new.task_id); END;`);
    const rewrites = () =>
      (counter.prepare('SELECT task_id FROM test_rewrites').all() as { task_id: string }[]).map(
        (r) => r.task_id,
      );

    mirror.passes.begin('tasks');
    const changed = { ...mineToo, title: 'Mine, renamed' };
    const full = mirror.passes.applyPage(page(0, [mine, changed, other], null));

    expect(full.unchanged).toBe(1);
    expect(full.changes.updated.map((u) => u.id)).toEqual([mineToo.task_id]);
    expect(full.changes.created.map((c) => c.id)).toEqual([other.task_id]);
    expect(rewrites()).toEqual([mineToo.task_id]);
    expect(mirror.passes.complete('tasks', '', 0).deleted).toEqual([]);
    expect(ids()).toEqual([mine.task_id, mineToo.task_id, other.task_id].sort());
    counter.close();
  });

  test('a task with pending edits that the server no longer lists stays, marked gone', () => {
    const task = taskJson({ title: 'Edited here' });
    const other = taskJson();
    loadTasks(mirror, [task, other]);
    mirror.tasks.edit(task.task_id as string, { title: 'Edited here, still' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [other], null));
    const changes = mirror.passes.complete('tasks', '', 0);
    expect(changes.deleted).toEqual([]);
    expect(mirror.tasks.get(task.task_id as string)).toMatchObject({ serverGone: true, pending: true });
    expect(
      mirror.tasks
        .query(new URLSearchParams(''), { me: 'ada', today: '2026-03-10' })
        .items.find((t) => t.task_id === task.task_id),
    ).toMatchObject({ title: 'Edited here, still', server_gone: true });
  });

  test('single reads: a newer version lands, a 404 removes (or marks gone under pending edits)', () => {
    const task = taskJson({ title: 'Single' });
    const edited = taskJson({ title: 'Edited' });
    loadTasks(mirror, [task, edited]);
    const changes = mirror.tasks.applyServerCopy({ ...task, title: 'Single v2' }, '"s2"');
    expect(changes.updated[0]?.changes).toEqual({ title: { before: 'Single', after: 'Single v2' } });
    expect(mirror.tasks.get(task.task_id as string)?.etag).toBe('"s2"');
    expect(() => mirror.tasks.applyServerCopy({ ...task, status: null }, null)).toThrow(MalformedRowError);
    expect(mirror.tasks.removeServerCopy(task.task_id as string).deleted).toHaveLength(1);
    mirror.tasks.edit(edited.task_id as string, { title: 'Mine' });
    expect(mirror.tasks.removeServerCopy(edited.task_id as string).deleted).toEqual([]);
    expect(mirror.tasks.get(edited.task_id as string)).toMatchObject({ serverGone: true, pending: true });
  });

  test('the change list names the stopped edits a complete pass or a 404 read parks as conflicts, each once', () => {
    const [failed, blocked, queued, read, kept] = [
      taskJson(),
      taskJson(),
      taskJson(),
      taskJson(),
      taskJson(),
    ];
    loadTasks(mirror, [failed, blocked, queued, read, kept]);
    const stopped = (task: typeof failed, patch: Record<string, unknown>, state: 'failed' | 'blocked') => {
      const { opId } = mirror.tasks.edit(task.task_id as string, patch) as { opId: string };
      mirror.outbox.start(opId);
      mirror.outbox.fail(opId, state, { status: state === 'failed' ? 422 : 403 });
      return opId;
    };
    const failedOp = stopped(failed, { title: 'F2', assignee: 'nobody' }, 'failed');
    const blockedOp = stopped(blocked, { title: 'B2' }, 'blocked');
    mirror.tasks.edit(queued.task_id as string, { title: 'Q2' });
    const readOp = stopped(read, { priority: 'high' }, 'failed');

    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [read, kept], null));
    const changes = mirror.passes.complete('tasks', '', 0);
    for (const gone of [failed, blocked, queued])
      expect(mirror.tasks.get(gone.task_id as string)).toMatchObject({ serverGone: true, pending: true });
    // The queued edit is left to the push (which meets the 404 itself): not parked, not named.
    expect(changes.parkedEdits).toEqual(
      expect.arrayContaining([
        { opId: failedOp, taskId: failed.task_id, fields: ['title', 'assignee'] },
        { opId: blockedOp, taskId: blocked.task_id, fields: ['title'] },
      ]),
    );
    expect(changes.parkedEdits).toHaveLength(2);
    expect(mirror.outbox.op(failedOp).state).toBe('conflict');
    expect(mirror.tasks.removeServerCopy(read.task_id as string).parkedEdits).toEqual([
      { opId: readOp, taskId: read.task_id, fields: ['priority'] },
    ]);

    // Parked once: a later pass and a later 404 name nothing again.
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [kept], null));
    expect(mirror.passes.complete('tasks', '', 0).parkedEdits).toEqual([]);
    expect(mirror.tasks.removeServerCopy(read.task_id as string).parkedEdits).toEqual([]);
    expect(mirror.outbox.openConflictCount()).toBe(3);
  });
});

describe('a first load into an empty mirror', () => {
  const sortIndexes = (): string[] => {
    const db = new Database(handle.file, { readonly: true });
    try {
      const rows = db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'tasks_by_%' ORDER BY name",
        )
        .all() as { name: string }[];
      return rows.map((r) => r.name).filter((n) => (SORT_INDEX_NAMES as readonly string[]).includes(n));
    } finally {
      db.close();
    }
  };
  const order = (qs: string) =>
    mirror.tasks
      .query(new URLSearchParams(qs), { me: 'ada', today: '2026-03-10', limit: 1000 })
      .items.map((t) => t.task_id);
  const searchOrder = (term: string) => order(`filter[search]=${encodeURIComponent(term)}`);
  const tasks = () =>
    Array.from({ length: 30 }, (_, i) =>
      taskJson({
        title: `T ${(i * 7) % 30}`,
        status: ['blocked', 'completed', 'not_started'][i % 3],
        priority: i % 4 ? 'high' : null,
        due_date: i % 5 ? `2026-03-${String(1 + (i % 28)).padStart(2, '0')}` : null,
      }),
    );
  const QUERIES = [
    'sort_by=title',
    'sort_by=status&sort_order=desc',
    'sort_by=due_date',
    'filter[status]=blocked&sort_by=priority',
    'filter[search]=t 2&sort_by=title',
    'filter[search]=tsk_&sort_by=due_date',
  ];

  test('loads without the sort indexes, answers the same meanwhile, and builds them at the end of the pass', () => {
    const all = tasks();
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, all.slice(0, 20), 'c1'));
    expect(sortIndexes()).toEqual([]);
    const during = QUERIES.map(order);
    mirror.passes.applyPage(page(1, all.slice(20), null));
    mirror.passes.complete('tasks', '', 1);
    expect(sortIndexes()).toEqual([...SORT_INDEX_NAMES].sort());
    const after = QUERIES.map(order);
    // What the first page held answers in the same order with and without the indexes.
    const firstPage = new Set(all.slice(0, 20).map((t) => t.task_id));
    expect(during).toEqual(after.map((ids) => ids.filter((id) => firstPage.has(id))));
    // A later full pass (the table is not empty) keeps its indexes.
    mirror.passes.begin('tasks');
    expect(sortIndexes()).toHaveLength(SORT_INDEX_NAMES.length);
  });

  test('a later page of the first load listing a stored task again updates it: one row, the edit kept on top', () => {
    const all = tasks();
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, all.slice(0, 20), 'c1'));
    const moved = all[2] as Record<string, unknown>;
    const edited = all[4] as Record<string, unknown>;
    mirror.tasks.edit(edited.task_id as string, { title: 'Mine, edited during the load' });
    // Both edited on the server meanwhile and listed again on the next page (their sort key moved).
    const later = mirror.passes.applyPage(
      page(
        1,
        [{ ...moved, title: 'Moved by a peer' }, { ...edited, priority: 'low' }, ...all.slice(20)],
        null,
      ),
    );
    mirror.passes.complete('tasks', '', 1);

    expect(later.changes.created.map((c) => c.id)).toEqual(all.slice(20).map((t) => t.task_id));
    expect(later.changes.updated.map((u) => u.id)).toEqual([moved.task_id, edited.task_id]);
    expect(ids()).toEqual(all.map((t) => t.task_id).sort());
    expect(mirror.tasks.get(moved.task_id as string)?.task.title).toBe('Moved by a peer');
    expect(mirror.tasks.get(edited.task_id as string)?.task).toMatchObject({
      title: 'Mine, edited during the load',
      priority: 'low',
    });
    expect(order('filter[search]=moved by a peer')).toEqual([moved.task_id]);
  });

  test('a chain page bringing the person’s own tasks again, walked beside it, compares them: no insert is tried for them (issue 28)', () => {
    const mine = taskJson({ title: 'Mine' });
    const mineToo = taskJson({ title: 'Mine too' });
    const other = taskJson({ title: 'Someone else’s' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [mine, mineToo], null, { scope: 'hot:assigned', partial: true }));
    // Every insert tried is counted, also one that finds its id taken (a BEFORE trigger runs for both).
    const counter = new Database(handle.file);
    counter.exec(`CREATE TABLE test_inserts (task_id TEXT);
      CREATE TRIGGER test_insert BEFORE INSERT ON tasks BEGIN INSERT INTO test_inserts VALUES (new.task_id); END;`);
    const inserts = () =>
      (counter.prepare('SELECT task_id FROM test_inserts').all() as { task_id: string }[]).map(
        (r) => r.task_id,
      );

    const changed = { ...mineToo, title: 'Mine, renamed' };
    const chain = mirror.passes.applyPage(
      page(0, [mine, changed, other], null, { scope: '~..', partial: true }),
    );

    expect(inserts()).toEqual([other.task_id]);
    expect(chain.unchanged).toBe(1);
    expect(chain.changes.updated.map((u) => u.id)).toEqual([mineToo.task_id]);
    expect(chain.changes.created.map((c) => c.id)).toEqual([other.task_id]);
    expect(mirror.tasks.get(mineToo.task_id as string)?.task.title).toBe('Mine, renamed');
    expect(ids()).toEqual([mine.task_id, mineToo.task_id, other.task_id].sort());
    counter.close();
  });

  test('a chain task whose id shares its hint with one of the person’s is still stored, and theirs still compared (issue 28)', () => {
    // The person's inserted tasks are kept as 30-bit hashes of their ids: find two ids of one hash.
    const byHash = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let n = 0; pair === null; n++) {
      const id = `tsk_hint${n}`;
      const earlier = byHash.get(hashOf(id));
      if (earlier !== undefined) pair = [earlier, id];
      else byHash.set(hashOf(id), id);
    }
    const mine = taskJson({ task_id: pair[0], title: 'Mine' });
    const stranger = taskJson({ task_id: pair[1], title: 'Someone else’s, of the same hint' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [mine], null, { scope: 'hot:assigned', partial: true }));

    const chain = mirror.passes.applyPage(
      page(0, [stranger, { ...mine, title: 'Mine, renamed' }], null, { scope: '~..', partial: true }),
    );

    expect(chain.changes.created.map((c) => c.id)).toEqual([stranger.task_id]);
    expect(chain.changes.updated.map((u) => u.id)).toEqual([mine.task_id]);
    expect(ids()).toEqual([mine.task_id, stranger.task_id].sort());
    expect(mirror.tasks.get(stranger.task_id as string)?.task.title).toBe('Someone else’s, of the same hint');
    expect(mirror.tasks.get(mine.task_id as string)?.task.title).toBe('Mine, renamed');
  });

  test('a chain page of a first load marks what it brings seen in the list’s pass, the person’s own tasks too: its end looks up only what no chain brought (issue 28)', () => {
    const mine = taskJson({ title: 'Mine' });
    const mineGone = taskJson({ title: 'Mine, deleted before its chain came' });
    const others = [taskJson({ title: 'Someone else’s' }), taskJson({ title: 'A third' })];
    const { passNo } = mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [mine, mineGone], null, { scope: 'hot:assigned', partial: true }));
    mirror.passes.applyPage(page(0, [others[0], mine], 'c1', { scope: '~..2026-03-01', partial: true }));
    mirror.passes.applyPage(page(1, [others[1]], null, { scope: '~..2026-03-01', partial: true }));
    mirror.passes.complete('tasks', '~..2026-03-01', 1);

    // What the sweep at the pass's end must look up in the chains' pages: the rows not seen in the pass.
    const db = new Database(handle.file, { readonly: true });
    const unseen = db.prepare('SELECT task_id FROM tasks WHERE seen_pass < ?').pluck().all(passNo);
    db.close();
    expect(unseen).toEqual([mineGone.task_id]);
    const removed = mirror.passes.complete('tasks', '', -1);
    expect(removed.deleted.map((d) => d.id)).toEqual([mineGone.task_id]);
    expect(ids()).toEqual([mine.task_id, ...others.map((t) => t.task_id)].sort());
  });

  test('the end of a first load whose chains brought every task reads none of the ids their pages hold (issue 28)', () => {
    const all = tasks();
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, all.slice(0, 5), null, { scope: 'hot:assigned', partial: true }));
    mirror.passes.applyPage(page(0, all.slice(0, 20), 'c1', { scope: '~..2026-03-01', partial: true }));
    mirror.passes.applyPage(page(1, all.slice(20), null, { scope: '~..2026-03-01', partial: true }));
    mirror.passes.complete('tasks', '~..2026-03-01', 1);
    // Ids no reader could parse: reading them, in JavaScript or in SQL, would fail the pass's end.
    const db = new Database(handle.file);
    db.prepare("UPDATE sync_pages SET item_ids = 'not ids' WHERE scope = '~..2026-03-01'").run();
    db.close();

    expect(mirror.passes.complete('tasks', '', -1).deleted).toEqual([]);
    expect(mirror.passes.state('tasks', '')?.state).toBe('complete');
    expect(ids()).toEqual(all.map((t) => t.task_id).sort());
  });

  test('by default the indexes are built in the background after the pass, one step each', async () => {
    mirror = await handle.reopen({ sortIndexBuild: 'background' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, tasks(), null));
    mirror.passes.complete('tasks', '', 0);
    expect(sortIndexes()).toEqual([]);
    expect(order('sort_by=title')).toHaveLength(30);
    await mirror.sortIndexesReady();
    expect(sortIndexes()).toEqual([...SORT_INDEX_NAMES].sort());
    expect(mirror.indexBuildSteps.length).toBeGreaterThan(SORT_INDEX_NAMES.length);
    expect(order('sort_by=title')).toHaveLength(30);
  });

  test('edits made while a first load is under way are searchable once it is built, and only as edited', async () => {
    mirror = await handle.reopen({ sortIndexBuild: 'background' });
    const all = tasks();
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, all.slice(0, 20), 'c1'));
    const edited = all[3]?.task_id as string;
    mirror.tasks.edit(edited, { title: 'Renamed during the load' });
    mirror.passes.applyPage(page(1, all.slice(20), null));
    mirror.passes.complete('tasks', '', 1);
    expect(searchOrder('renamed during')).toEqual([edited]);
    await mirror.sortIndexesReady();
    expect(searchOrder('renamed during')).toEqual([edited]);
    expect(searchOrder(`${all[3]?.title as string}`).includes(edited)).toBe(false);
    const created = mirror.tasks.create({ title: 'Created after the load' });
    expect(searchOrder('created after')).toEqual([created.taskId]);
  });

  test('a task deleted here while its first load is built is found again once the delete is dropped', async () => {
    mirror = await handle.reopen({ sortIndexBuild: 'background' });
    const all = tasks();
    const gone = taskJson({ title: 'Deleted then kept', description: 'unmistakable wording' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [...all.slice(0, 20), gone], 'c1'));
    const op = mirror.tasks.delete(gone.task_id as string);
    mirror.passes.applyPage(page(1, all.slice(20), null));
    mirror.passes.complete('tasks', '', 1);
    await mirror.sortIndexesReady();
    expect(searchOrder('unmistakable')).toEqual([]);
    mirror.outbox.drop(op?.opId as string);
    expect(searchOrder('unmistakable')).toEqual([gone.task_id]);
    expect(searchOrder('then kept')).toEqual([gone.task_id]);
  });

  test('words of a first load reach the vocabulary from the built index, ones shaped like id tokens too', async () => {
    mirror = await handle.reopen({ sortIndexBuild: 'background' });
    const all = tasks();
    const marked = taskJson({ title: 'Odd ǂ7473 marker', description: 'plain Ünïcode wörds here' });
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, [...all, marked], null));
    mirror.passes.complete('tasks', '', 0);
    await mirror.sortIndexesReady();
    const search = (term: string) =>
      mirror.tasks.query(new URLSearchParams(`filter[search]=${term}`), {
        me: 'ada',
        today: '2026-03-10',
      });
    for (const term of ['ǂ7473', '7473', 'ünïcode', 'nïcod', 'marker']) {
      const found = search(encodeURIComponent(term));
      expect(
        found.items.map((t) => t.task_id),
        term,
      ).toEqual([marked.task_id]);
      // Answered from the word index (its candidates), not by checking every row.
      expect(found.path, term).toMatch(/^candidate/);
    }
    // Words the load never held match nothing, straight from the vocabulary.
    expect(search('nowhere-seen').path).toBe('empty');
  });

  test('a first load cut short goes on after a restart, and its build finishes', async () => {
    const all = tasks();
    mirror.passes.begin('tasks');
    mirror.passes.applyPage(page(0, all.slice(0, 20), 'c1'));
    mirror = await handle.reopen();
    // The pass resumes, still loading without the indexes.
    expect(sortIndexes()).toEqual([]);
    expect(mirror.passes.begin('tasks').resume).toEqual({ pageIndex: 1, cursor: 'c1' });
    mirror.passes.applyPage(page(1, all.slice(20), null));
    mirror = await handle.reopen({ sortIndexBuild: 'background' });
    mirror.passes.complete('tasks', '', 1);
    // Closed before its background build ran: the next open finishes it.
    mirror = await handle.reopen();
    expect(sortIndexes()).toHaveLength(SORT_INDEX_NAMES.length);
    expect(order('filter[search]=t 2&sort_by=title').length).toBeGreaterThan(0);
    expect(order('sort_by=title')).toHaveLength(30);
  });
});

describe('two connections to one file (a sync worker and the app)', () => {
  test('writes through one are seen by the other’s cached counts, lists and account', async () => {
    loadTasks(mirror, [taskJson({ section_id: 'sec_1', assignee: 'ada' })]);
    const worker = await openMirror(handle.file);
    try {
      expect(mirror.tasks.sectionCounts().get('sec_1')).toBe(1);
      const count = () =>
        mirror.tasks.count(new URLSearchParams('filter[assignee]=me'), { me: 'ada', today: '2026-03-10' });
      expect(count()).toBe(1);
      worker.passes.applyPage(page(1, [taskJson({ section_id: 'sec_1', assignee: 'ada' })], null));
      expect(mirror.tasks.sectionCounts().get('sec_1')).toBe(2);
      expect(count()).toBe(2);
      worker.identity.setAccount({ orgId: 'org_other', username: 'grace' });
      expect(mirror.identity.account()).toEqual({ orgId: 'org_other', username: 'grace' });
    } finally {
      worker.close();
    }
  });
});

describe('other collections', () => {
  test('sprints are bookkept per team: a team pass removes only that team’s unseen sprints', () => {
    const sprint = (id: string, team: string) => ({
      sprint_id: id,
      team_id: team,
      name: id,
      start_date: '2026-03-01',
    });
    for (const team of ['team_a', 'team_b']) {
      loadPass(mirror, 'sprints', [sprint(`${team}_1`, team), sprint(`${team}_2`, team)], { scope: team });
    }
    mirror.passes.begin('sprints', 'team_a');
    const updated = mirror.passes.applyPage(
      onlyPage('sprints', [{ ...sprint('team_a_1', 'team_a'), name: 'renamed', future: true }], {
        scope: 'team_a',
      }),
    );
    expect(updated.changes.updated[0]?.changes).toEqual({
      name: { before: 'team_a_1', after: 'renamed' },
      future: { before: null, after: true },
    });
    expect(mirror.passes.complete('sprints', 'team_a', 0).deleted.map((d) => d.id)).toEqual(['team_a_2']);
    expect(mirror.collections.ids('sprints')).toEqual(['team_a_1', 'team_b_1', 'team_b_2']);
    expect(mirror.collections.list('sprints', 'team_a')).toEqual([
      { sprint_id: 'team_a_1', team_id: 'team_a', name: 'renamed', start_date: '2026-03-01', future: true },
    ]);
  });

  test('a malformed resource is refused by field; comments are kept per task', () => {
    mirror.passes.begin('task_comments', 'tsk_1');
    const applied = mirror.passes.applyPage(
      onlyPage(
        'task_comments',
        [
          { comment_id: 'cmt_1', task_id: 'tsk_1', content: 'hi' },
          { comment_id: 'cmt_2', task_id: 12 },
          { content: 'no id' },
        ],
        { scope: 'tsk_1', etag: '"c"' },
      ),
    );
    expect(applied.rejected.map((e) => [e.resource, e.id, e.field])).toEqual([
      ['task_comments', 'cmt_2', 'task_id'],
      ['task_comments', null, 'comment_id'],
    ]);
    expect(applied.changes.created.map((c) => c.id)).toEqual(['cmt_1']);
    expect(mirror.collections.list('task_comments', 'tsk_1')).toHaveLength(1);
  });

  test('notifications are stored per person and marked seen', () => {
    const [first] = mirror.feed.add([
      {
        kind: 'task-assigned',
        entityType: 'task',
        entityId: 'tsk_1',
        forUser: 'ada',
        summary: { title: 'T' },
      },
      { kind: 'task-commented', entityType: 'task', entityId: 'tsk_2', forUser: 'grace', summary: {} },
    ]);
    expect(mirror.feed.list('ada', { unseenOnly: true })).toMatchObject([{ kind: 'task-assigned' }]);
    mirror.feed.markSeen([first as number]);
    expect(mirror.feed.list('ada', { unseenOnly: true })).toEqual([]);
    expect(mirror.feed.list('ada')[0]?.seenAt).not.toBeNull();
  });
});
