import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import {
  rowForm,
  rowFormOf,
  shareDescription,
  storedFormOf,
  storedTaskJson,
  taskJsonOf,
  taskObjectOf,
} from './task-json';
import {
  loadTasks,
  onlyPage,
  openTestMirrorPerTest,
  storedServerCopies,
  taskJson,
  type TestMirror,
} from '../test-mirror';

describe('the stored form of a server copy', () => {
  const odd = [
    { description: 'quote " backslash \\ tab \t ,"org_id":"x" \u2028 ☃ \ud800 end' },
    { position: -0 },
    { position: 1e21 },
    { position: 0.1 + 0.2 },
    { tags: ['a', 'B', '"c"'] },
    { tags: null, priority: 'urgent', due_date: '2026-02-30' },
  ];

  test.each(odd)('reads back as exactly JSON.stringify of the task (%j)', (overrides) => {
    const task = taskJson(overrides);
    const stored = storedTaskJson(task);
    expect(stored.startsWith('[')).toBe(true);
    expect(taskJsonOf(stored)).toBe(JSON.stringify(task));
    expect(JSON.stringify(taskObjectOf(stored))).toBe(JSON.stringify(task));
  });

  test('leaves out the key names of a task shaped as the contract', () => {
    const task = taskJson({ description: 'some words' });
    expect(storedTaskJson(task).length).toBeLessThan(JSON.stringify(task).length * 0.65);
  });

  test('keeps the JSON text of any other shape: an extra, a missing, a moved or an undefined field', () => {
    const extra = { ...taskJson(), x_new_field: 1 };
    const { review: _review, ...missing } = taskJson();
    const { task_id, ...rest } = taskJson();
    const moved = { ...rest, task_id };
    const undefinedValue = taskJson({ review: undefined });
    for (const task of [extra, missing, moved, undefinedValue]) {
      expect(storedTaskJson(task)).toBe(JSON.stringify(task));
      expect(taskJsonOf(storedTaskJson(task))).toBe(JSON.stringify(task));
    }
  });
});

describe('server copies in the mirror', () => {
  let handle: TestMirror;
  let mirror: Mirror;
  openTestMirrorPerTest((opened) => {
    handle = opened;
    mirror = opened.mirror;
  });
  const storedRows = () => storedServerCopies(handle.file);

  test('are stored without key names and read back, exported and compared as the JSON the server sent', () => {
    const tasks = [
      taskJson({ description: 'First' }),
      taskJson({ tags: ['x'] }),
      { ...taskJson(), extra: true },
    ];
    loadTasks(mirror, tasks);
    const rows = storedRows();
    // The first two are held by their rows (rowForm), the third has a field the contract does not name.
    expect(rows.map((row) => row[0])).toEqual(['^', '^', '{']);
    for (const task of tasks) {
      const read = mirror.tasks.get(task.task_id as string);
      expect(JSON.stringify(read?.server)).toBe(JSON.stringify(task));
      expect(JSON.stringify(read?.task)).toBe(JSON.stringify(task));
    }
    expect([...mirror.tasks.exportJson()].sort()).toEqual(tasks.map((t) => JSON.stringify(t)).sort());

    mirror.passes.begin('tasks');
    const again = mirror.passes.applyPage(
      onlyPage(
        'tasks',
        tasks.map((t) => JSON.parse(JSON.stringify(t)) as Record<string, unknown>),
        { etag: '"p1"' },
      ),
    );
    expect(again.unchanged).toBe(3);
    expect(again.changes.updated).toEqual([]);
  });

  test('a mirror written before keeps reading its JSON text, and a changed task is stored compactly', async () => {
    const [a, b] = [taskJson({ title: 'Old A' }), taskJson({ title: 'Old B' })];
    loadTasks(mirror, [a, b]);
    handle.mirror.close();
    // As an earlier version stored them: the JSON text itself.
    const db = new Database(handle.file);
    const put = db.prepare('UPDATE task_bodies SET server_json = ? WHERE rid = ?');
    [a, b].forEach((task, i) => put.run(JSON.stringify(task), i + 1));
    db.close();
    mirror = await handle.reopen();
    expect(JSON.stringify(mirror.tasks.get(a.task_id as string)?.server)).toBe(JSON.stringify(a));
    expect([...mirror.tasks.exportJson()].sort()).toEqual([a, b].map((t) => JSON.stringify(t)).sort());

    const editedB = { ...b, title: 'New B' };
    mirror.passes.begin('tasks');
    const applied = mirror.passes.applyPage(onlyPage('tasks', [a, editedB], { etag: '"p1"' }));
    // The old text is the same task: no change announced for it, only for B.
    expect(applied.changes.updated.map((u) => [u.id, Object.keys(u.changes)])).toEqual([
      [b.task_id, ['title']],
    ]);
    expect(storedRows().every((row) => row.startsWith('^'))).toBe(true);
    expect(JSON.stringify(mirror.tasks.get(b.task_id as string)?.server)).toBe(JSON.stringify(editedB));
  });
});

describe('a description shared with the search text (migration 0017)', () => {
  const texts = [
    'Fix the Page when the User signs in twice, then write it all Down',
    'all lower case words of a description that is long enough',
    'İstanbul changes length in lower case, so it keeps its copy',
    'Quote " backslash \\ and ☃ with 🚀 Capitals Here And There',
    'MOSTLY CAPITALS SAVE NOTHING AT ALL IN THIS DESCRIPTION',
    'short',
  ];

  test.each(texts)('reads back as exactly the stored form from the search text (%j)', (description) => {
    const task = taskJson({ title: 'Title', description });
    const stored = storedTaskJson(task);
    const lower = description.toLowerCase();
    const body = shareDescription(stored, description, lower);
    const searchText = `title\u001ftsk\u001f\u001f${lower}`;
    expect(storedFormOf(body, searchText)).toBe(stored);
    if (body.startsWith('~')) expect(body.length).toBeLessThan(stored.length - 16);
  });

  test('is left out where it would not pay or cannot be read back', () => {
    // A length changed by lower case, mostly capitals, too short; a description the copy does not hold.
    for (const description of [texts[2], texts[4], texts[5]] as string[]) {
      const stored = storedTaskJson(taskJson({ description }));
      expect(shareDescription(stored, description, description.toLowerCase())).toBe(stored);
    }
    const stored = storedTaskJson(taskJson({ description: texts[0] }));
    const other = 'not in it at all, not in it';
    expect(shareDescription(stored, other, other)).toBe(stored);
  });
});

describe('server copies sharing their description in the mirror', () => {
  let handle: TestMirror;
  let mirror: Mirror;
  openTestMirrorPerTest((opened) => {
    handle = opened;
    mirror = opened.mirror;
    mirror.identity.setAccount({ orgId: 'org_test', username: 'ada' });
  });

  const storedRows = () => storedServerCopies(handle.file);
  const described = (description: string) => taskJson({ description });

  test('hold it once while shown and unedited, and read, export, compare and remove as the JSON the server sent', () => {
    const tasks = [
      described('Fix the Page when the User signs in twice'),
      described('plain lower case words, long enough to share'),
      described('Edited Later: this one gets a pending change'),
      described('Deleted Later: this one gets a pending delete'),
    ];
    loadTasks(mirror, tasks);
    expect(storedRows().map((row) => row[0])).toEqual(['^', '^', '^', '^']);
    for (const task of tasks)
      expect(JSON.stringify(mirror.tasks.get(task.task_id as string)?.server)).toBe(JSON.stringify(task));
    expect([...mirror.tasks.exportJson()].sort()).toEqual(tasks.map((t) => JSON.stringify(t)).sort());

    // With a change pending the search text is the edited task's: the copy holds its description again.
    mirror.tasks.edit(tasks[2]?.task_id as string, { description: 'Something Else' });
    mirror.tasks.delete(tasks[3]?.task_id as string);
    expect(storedRows().map((row) => row[0])).toEqual(['^', '^', '[', '[']);
    for (const task of tasks)
      expect(JSON.stringify(mirror.tasks.get(task.task_id as string)?.server)).toBe(JSON.stringify(task));

    // The next pass: unchanged tasks are told as unchanged; the one it no longer returns is removed as it was.
    mirror.passes.begin('tasks');
    const again = mirror.passes.applyPage(
      onlyPage(
        'tasks',
        tasks.slice(1).map((t) => JSON.parse(JSON.stringify(t)) as Record<string, unknown>),
        { etag: '"p1"' },
      ),
    );
    expect(again.unchanged).toBe(3);
    const removed = mirror.passes.complete('tasks', '', 0);
    expect(removed.deleted.map((d) => JSON.stringify(d.before))).toEqual([JSON.stringify(tasks[0])]);
  });

  test('hold it once too while edits that leave the description wait, and read back as the server sent them', () => {
    const tasks = [
      described('Status Later: a pending change of its status'),
      described('Title Later: a pending change of its title'),
    ];
    loadTasks(mirror, tasks);
    const [status, title] = tasks.map((task) => task.task_id as string) as [string, string];

    mirror.tasks.edit(status, { status: 'blocked' });
    mirror.tasks.edit(title, { title: 'Renamed Here' });

    // The copy less its description (~), and the task as shown without key names ([): a bulk
    // change of many tasks does not write each one's description twice, nor its keys.
    expect(storedRows().map((row) => row[0])).toEqual(['~', '~']);
    const db = new Database(handle.file, { readonly: true });
    const shown = db.prepare('SELECT local_json FROM task_bodies ORDER BY rid').pluck().all() as string[];
    db.close();
    expect(shown.map((row) => row[0])).toEqual(['[', '[']);
    for (const task of tasks)
      expect(JSON.stringify(mirror.tasks.get(task.task_id as string)?.server)).toBe(JSON.stringify(task));
    expect(mirror.tasks.get(status)?.task).toMatchObject({
      status: 'blocked',
      description: tasks[0]?.description,
    });
    // Its description edited too: the search text is no longer the copy's, which holds it whole again.
    mirror.tasks.edit(status, { description: 'Something Else' });
    expect(storedRows().map((row) => row[0])).toEqual(['[', '~']);
    expect(JSON.stringify(mirror.tasks.get(status)?.server)).toBe(JSON.stringify(tasks[0]));
  });
});

describe('a server copy held by its task row (rowForm)', () => {
  let handle: TestMirror;
  openTestMirrorPerTest((opened) => (handle = opened));

  const odd = [
    { description: 'quote " backslash \\ tab \t ,"org_id":"x" \u2028 ☃ \ud800 End Of It' },
    { description: null, org_id: null },
    { position: -0 },
    { position: 1e21 },
    { position: 0.1 + 0.2, tags: ['a', 'B', '"c"', '\u001f'] },
    { tags: [], title: 'İstanbul Ünïcödé 🚀', assignee: 'Zoë', completed_at: '2026-01-02T00:00:00Z' },
    { org_id: null, description: 'MOSTLY CAPITALS, SO NO HEADER FOR IT' },
    // Tags the column would give back as [], and a lone surrogate SQLite's UTF-8 would not keep: kept as an array.
    { tags: null },
    { title: 'lone \ud800 surrogate' },
  ];

  test.each(odd)('reads back as exactly JSON.stringify of the task (%j)', (overrides) => {
    const task = taskJson(overrides);
    loadTasks(handle.mirror, [task]);
    expect(JSON.stringify(handle.mirror.tasks.get(task.task_id as string)?.server)).toBe(
      JSON.stringify(task),
    );
    expect([...handle.mirror.tasks.exportJson()]).toEqual([JSON.stringify(task)]);
    const db = new Database(handle.file, { readonly: true });
    const body = db.prepare('SELECT server_json FROM task_bodies').pluck().get() as string;
    db.close();
    const heldByRow =
      !('tags' in overrides && overrides.tags === null) && !JSON.stringify(overrides).includes('\\ud');
    expect(body.startsWith('^')).toBe(heldByRow);
    if (heldByRow) expect(body.length).toBeLessThan(60);
  });
});

describe('rowFormOf, without the stored form', () => {
  test('is rowForm of the stored form whenever it answers, and leaves surrogates and odd shapes to it', () => {
    const tasks = [
      taskJson({ description: 'Fix the Page when the User signs in twice, then more' }),
      taskJson({ description: null, org_id: null, position: 0.1 + 0.2 }),
      taskJson({ title: 'Ship 🚀 now' }),
      taskJson({ description: 'lone \ud800 in a long enough description' }),
      taskJson({ tags: null }),
      { ...taskJson(), extra: 1 },
    ];
    const answered = tasks.map((task) => {
      const lower = typeof task.description === 'string' ? task.description.toLowerCase() : '';
      const of = rowFormOf(task, lower);
      if (of !== null) expect(of).toBe(rowForm(storedTaskJson(task), task, lower));
      return of !== null;
    });
    expect(answered).toEqual([true, true, false, false, false, false]);
  });
});
