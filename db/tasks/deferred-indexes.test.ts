// A first load indexes its tasks' words after the pass, reading them back off
// the stored search text (deferred-indexes.ts): the word index must end up
// holding what writing each task indexes, no more (an id's own words would
// flood the vocabulary) and no less (a tag or a description word missed
// would hide the task from searches that take the word-index path).
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { loadPass, loadTasks, openTestMirror, taskJson, type TestMirror } from '../test-mirror';

const handles: TestMirror[] = [];
afterEach(() => {
  for (const handle of handles.splice(0)) handle.cleanup();
});

/** Each term of the word index and how many tasks hold it (its vocabulary view, read from the file). */
function wordIndexTerms(file: string): Record<string, number> {
  const db = new Database(file);
  try {
    db.exec("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, task_words, 'row')");
    const rows = db.prepare('SELECT term, doc FROM temp.terms ORDER BY term').all() as {
      term: string;
      doc: number;
    }[];
    return Object.fromEntries(rows.map(({ term, doc }) => [term, doc]));
  } finally {
    db.close();
  }
}

/** Whether a first load's build (its words among it) is still to do. */
function buildWaiting(file: string): boolean {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT 1 FROM meta WHERE key = 'deferred_task_indexes'").get() !== undefined;
  } finally {
    db.close();
  }
}

const first = taskJson({ task_id: 'tsk_first', title: 'Already here' });
const tasks = [
  taskJson({
    task_id: 'tsk_Zebra-Quux',
    title: 'Éclair menu for the Offsite',
    description: 'Order pastries; confirm the venue.\nThen: tell Ada',
    tags: ['Food', 'offsite-2026'],
  }),
  taskJson({
    task_id: 'TSK_Longer_ID_42',
    title: 'Straße sign',
    description: null,
    tags: ['x\u001fy', 'Ünïcode'],
  }),
  taskJson({ task_id: 'tsk_untagged', title: 'No tags at all', description: 'just words here', tags: [] }),
  taskJson({ task_id: 'tsk_hidden_title\u001fpart', title: 'Title\u001fwith separator', tags: ['a b'] }),
];

test("a first load's word index holds the terms writing the same tasks one by one gives, in as many tasks", async () => {
  // A first load into an empty mirror: the words come from the build after the pass.
  const loaded = await openTestMirror({ sortIndexBuild: 'background' });
  handles.push(loaded);
  loadTasks(loaded.mirror, [first, ...tasks]);
  expect(buildWaiting(loaded.file)).toBe(true);
  await loaded.mirror.sortIndexesReady();
  expect(buildWaiting(loaded.file)).toBe(false);

  // The same tasks written into a mirror that holds one already: each write indexes its words.
  const written = await openTestMirror();
  handles.push(written);
  loadTasks(written.mirror, [first]);
  loadPass(written.mirror, 'tasks', [first, ...tasks], { etag: '"p1"' });

  const terms = wordIndexTerms(loaded.file);
  expect(terms).toEqual(wordIndexTerms(written.file));
  // What the comparison stands on: titles, descriptions and tags are in, the ids' own words are not.
  expect(terms).toMatchObject({ éclair: 1, pastries: 1, food: 1, 'offsite-2026': 1, ünïcode: 1, words: 1 });
  expect(Object.keys(terms)).not.toContain('tsk_zebra-quux');
  expect(Object.keys(terms)).not.toContain('tsk_untagged');
});
