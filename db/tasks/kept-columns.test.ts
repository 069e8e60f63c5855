// Migration 0027: a task row stores search_id, tags_key, search_tags and created_day only
// where SQLite cannot make them from the row's own values ('' elsewhere), and
// the created_at index breaks ties by t_created_case instead of created_at.
// What the columns give must not change: the tag, search and created-date
// filters and the created_at order read them.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { idsPageByPage, loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';
import { utcDayOf } from './task-columns';

let handle: TestMirror | undefined;
afterEach(() => {
  handle?.cleanup();
  handle = undefined;
});

const SEP = '\u001f';

/** The values as the mirror defines them (what task-columns.ts stored before 0027). */
function expectedColumns(task: Record<string, unknown>): Record<string, unknown> {
  const tags = (task.tags ?? []) as string[];
  return {
    search_id: (task.task_id as string).toLowerCase(),
    tags_key: tags.length === 0 ? '' : SEP + tags.join(SEP) + SEP,
    search_tags: tags.length === 0 ? '' : SEP + tags.map((t) => t.toLowerCase()).join(SEP) + SEP,
    created_day: utcDayOf((task.created_at ?? null) as string | null),
  };
}

function rows(file: string): Map<string, Record<string, unknown>> {
  const db = new Database(file, { readonly: true });
  try {
    const all = db
      .prepare(
        `SELECT task_id, search_id, tags_key, search_tags, created_day,
                search_id_kept, tags_key_kept, search_tags_kept, created_day_kept FROM tasks`,
      )
      .all() as Record<string, unknown>[];
    return new Map(all.map((row) => [row.task_id as string, row]));
  } finally {
    db.close();
  }
}

const TASKS = [
  taskJson({ task_id: 'tsk_usual', tags: ['backend', 'Tag-5'], created_at: '2026-01-05T10:00:00.000Z' }),
  taskJson({ task_id: 'tsk_no_tags', tags: [], created_at: '2026-01-05' }),
  taskJson({ task_id: 'tsk_empty_tag', tags: ['', ''], created_at: '2026-01-05T23:30:00+00:00' }),
  // JSON escapes these: their framing is kept.
  taskJson({ task_id: 'tsk_quote', tags: ['say "hi"', 'a\\b'], created_at: '2026-01-05T10:00:00+0000' }),
  taskJson({ task_id: 'tsk_separator', tags: [`a${SEP}b`, 'tab\there'] }),
  // Lower case SQLite's lower() does not make: kept; a tag JavaScript leaves alone is not.
  taskJson({ task_id: 'tsk_umlaut', tags: ['ÄRGER', 'über', '\u212Aelvin'] }),
  taskJson({ task_id: 'tsk_emoji', tags: ['🚀 Launch', 'ß'] }),
  // An offset other than UTC may move the day: kept.
  taskJson({ task_id: 'tsk_offset', created_at: '2026-01-05T01:30:00+02:00' }),
  taskJson({ task_id: 'tsk_offset_same_day', created_at: '2026-01-05T12:00:00-05:00' }),
  taskJson({ task_id: 'tsk_not_a_date', created_at: 'soon' }),
  taskJson({ task_id: 'tsk_null_created', created_at: null, tags: null }),
  taskJson({ task_id: 'TSK_Upper', title: 'An id in capitals', created_at: '2026-02-01T10:00:00Z' }),
  taskJson({ task_id: 'TSK_Ärger', title: 'An id SQLite cannot lower', created_at: '2026-02-01T10:00:00Z' }),
];

describe('columns a task row keeps only where SQLite cannot make them', () => {
  test('read as the mirror defines them, for every kind of value', async () => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    const stored = rows(handle.file);
    for (const task of TASKS) {
      const row = stored.get(task.task_id as string);
      expect({ id: task.task_id, ...row }).toMatchObject({ id: task.task_id, ...expectedColumns(task) });
    }
  });

  test('are not stored for the usual task: its tags, their lower case and its UTC day come from the row', async () => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    const stored = rows(handle.file);
    expect(stored.get('tsk_usual')).toMatchObject({
      search_id_kept: '',
      tags_key_kept: '',
      search_tags_kept: '',
      created_day_kept: '',
    });
    expect(stored.get('tsk_quote')?.tags_key_kept).toBe(`${SEP}say "hi"${SEP}a\\b${SEP}`);
    expect(stored.get('tsk_umlaut')?.search_tags_kept).toBe(`${SEP}ärger${SEP}über${SEP}kelvin${SEP}`);
    expect(stored.get('tsk_offset')?.created_day_kept).toBe('2026-01-04');
    expect(stored.get('tsk_not_a_date')?.created_day_kept).toBeNull();
    expect(stored.get('TSK_Upper')?.search_id_kept).toBe('');
    expect(stored.get('TSK_Ärger')?.search_id_kept).toBe('tsk_ärger');
  });

  test('answer the tag, search and created-date filters as before', async () => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, TASKS);
    const ids = (query: string) =>
      handle?.mirror.tasks
        .query(new URLSearchParams(`${query}&sort_by=task_id`), { me: 'ada', today: '2026-03-10' })
        .items.map((t) => t.task_id);
    expect(ids('filter[tags]=Tag-5')).toEqual(['tsk_usual']);
    // Found by id (the id index), and searched by id.
    expect(handle.mirror.tasks.get('TSK_Ärger')?.task.title).toBe('An id SQLite cannot lower');
    expect(handle.mirror.tasks.get('TSK_Upper')?.task.title).toBe('An id in capitals');
    expect(ids('filter[search]=k_ärg')).toEqual(['TSK_Ärger']);
    expect(ids('filter[search]=K_UPP')).toEqual(['TSK_Upper']);
    expect(ids('filter[tags]=a\\b')).toEqual(['tsk_quote']);
    expect(ids('filter[tags]=ÄRGER')).toEqual(['tsk_umlaut']);
    expect(ids('filter[search]=ärger')).toEqual(['tsk_umlaut', 'TSK_Ärger']);
    expect(ids('filter[search]=tag-5')).toEqual(['tsk_usual']);
    // The default day of taskJson (2026-01-01), and the offset's UTC day.
    expect(ids('filter[created_before]=2026-01-04')).toEqual([
      'tsk_emoji',
      'tsk_offset',
      'tsk_separator',
      'tsk_umlaut',
    ]);
    expect(ids('filter[created_after]=2026-01-05&filter[created_before]=2026-01-05')).toEqual([
      'tsk_empty_tag',
      'tsk_no_tags',
      'tsk_offset_same_day',
      'tsk_quote',
      'tsk_usual',
    ]);
  });
});

describe('the created_at order', () => {
  // Values differing in case alone: created_at's order breaks their tie by the value itself.
  const SAME_LOWER = [
    taskJson({ task_id: 'tsk_c1', created_at: '2026-01-05t10:00:00z' }),
    taskJson({ task_id: 'tsk_c2', created_at: '2026-01-05T10:00:00Z' }),
    taskJson({ task_id: 'tsk_c3', created_at: '2026-01-05T10:00:00z' }),
    taskJson({ task_id: 'tsk_c4', created_at: '2026-01-05T10:00:00Z' }),
    taskJson({ task_id: 'tsk_c5', created_at: '2026-01-05t10:00:00Z' }),
    taskJson({ task_id: 'tsk_c6', created_at: '2026-01-05T10:00:00\u212A' }),
    taskJson({ task_id: 'tsk_c7', created_at: '2026-01-05T10:00:00K' }),
    taskJson({ task_id: 'tsk_c8', created_at: '2026-01-05T10:00:00k' }),
    // SQLite's upper() leaves É and é alone: neither is the smallest by its own test, the raw value decides.
    taskJson({ task_id: 'tsk_ca', created_at: '2026-01-05T10:00:00é' }),
    taskJson({ task_id: 'tsk_cb', created_at: '2026-01-05T10:00:00É' }),
    taskJson({ task_id: 'tsk_early', created_at: '2026-01-04T10:00:00Z' }),
    taskJson({ task_id: 'tsk_none', created_at: null }),
  ];
  /** By lower case (JavaScript's), then the value, then the id; nulls last. */
  function expectedOrder(): string[] {
    const key = (t: Record<string, unknown>) => t.created_at as string | null;
    const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...SAME_LOWER]
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        return (
          compare(x.toLowerCase(), y.toLowerCase()) ||
          compare(Buffer.from(x).toString('latin1'), Buffer.from(y).toString('latin1')) ||
          compare(a.task_id as string, b.task_id as string)
        );
      })
      .map((t) => t.task_id as string);
  }

  test.each(['asc', 'desc'])('is kept page by page (%s) with the smaller index', async (order) => {
    handle = await openTestMirror();
    loadTasks(handle.mirror, SAME_LOWER);
    const seen = idsPageByPage(
      handle.mirror,
      new URLSearchParams(`sort_by=created_at&sort_order=${order}`),
      3,
      SAME_LOWER.length,
    );
    const expected = expectedOrder();
    expect(seen).toEqual(order === 'asc' ? expected : [...expected].reverse());
  });
});
