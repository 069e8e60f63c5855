import { describe, expect, test } from 'vitest';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { taskRow } from '../testing/screen-fixtures';
import { type FetchEndPage, type FetchPage, RowWindow } from './row-window';

function row(index: number): TaskRow {
  return taskRow({
    task_id: `t${String(index).padStart(5, '0')}`,
    title: `Task ${index}`,
    task_type: 'task',
  });
}

/** `page`, or the page `skip` further on, with the cursors of those passed over (`cursorOf` each one's cursor on). */
function passOver<P extends object>(
  page: P,
  skip: number,
  cursorOf: (page: P) => string | null | undefined,
  pageAt: (cursor: string) => P,
): P & { skipped: string[] } {
  const skipped: string[] = [];
  for (let i = 0; i < skip; i++) {
    const cursor = cursorOf(page);
    if (typeof cursor !== 'string') break;
    skipped.push(cursor);
    page = pageAt(cursor);
  }
  return { ...page, skipped };
}

/** A keyset source over `rows` (which a test may change): the cursor is the last id of the previous page. */
function keysetSource(
  rows: TaskRow[],
  record: (after: string | null, limit: number, skip: number) => void,
): FetchPage {
  const pageAfter = (after: string | null, limit: number) => {
    const start = after === null ? 0 : rows.findIndex((r) => r.task_id === after) + 1;
    const page = rows.slice(start, start + limit);
    const last = page[page.length - 1];
    return { rows: page, next: start + limit < rows.length && last ? last.task_id : null };
  };
  return (after, limit, skip) => {
    record(after, limit, skip);
    return Promise.resolve(
      passOver(
        pageAfter(after, limit),
        skip,
        (page) => page.next,
        (next) => pageAfter(next, limit),
      ),
    );
  };
}

/** A keyset source over `total` rows, each call's `after` recorded in `calls`. */
function source(total: number, calls: (string | null)[] = []): FetchPage {
  const rows = Array.from({ length: total }, (_, i) => row(i));
  return keysetSource(rows, (after) => calls.push(after));
}

const settle = () => new Promise((done) => setTimeout(done, 0));

/**
 * A keyset source over `rows` (which a test may change) answering from either
 * end: `before` is the first id of the page after the one wanted, `after` the
 * id before a page's first. Each call is recorded as `from` (after or before),
 * `limit` and `skip`.
 */
function twoEnded(rows: TaskRow[], calls: string[]): { fetchPage: FetchPage; fetchEnd: FetchEndPage } {
  const at = (id: string) => rows.findIndex((r) => r.task_id === id);
  const endPage = (before: string | null, limit: number) => {
    const end = before === null ? rows.length : at(before);
    const start = Math.max(0, end - limit);
    const first = rows[start];
    return {
      rows: rows.slice(start, end),
      after: start === 0 ? null : (rows[start - 1] as TaskRow).task_id,
      before: start === 0 || first === undefined ? null : first.task_id,
    };
  };
  return {
    fetchPage: keysetSource(rows, (after, limit, skip) => calls.push(`after ${after} ${limit} ${skip}`)),
    fetchEnd: (before, limit, skip) => {
      calls.push(`before ${before} ${limit} ${skip}`);
      const page = passOver(
        endPage(before, limit),
        skip,
        (answer) => answer.before,
        (next) => endPage(next, limit),
      );
      return Promise.resolve(page);
    },
  };
}

/** A window over `total` rows answering from either end (pages of 100, a first of 40, 40 passed over a call), and its calls. */
function endedWindow(total: number): { window: RowWindow; calls: string[]; rows: TaskRow[] } {
  const calls: string[] = [];
  const rows = Array.from({ length: total }, (_, i) => row(i));
  const { fetchPage, fetchEnd } = twoEnded(rows, calls);
  const window = new RowWindow(fetchPage, { pageSize: 100, firstPageSize: 40, maxSkip: 40, fetchEnd });
  return { window, calls, rows };
}

describe('RowWindow', () => {
  test('fetches the pages covering the wanted rows, walking forward from the last known cursor', async () => {
    const calls: (string | null)[] = [];
    const window = new RowWindow(source(1000, calls), { pageSize: 100 });
    window.want(450, 460);
    await settle();
    expect(window.rowAt(455)?.title).toBe('Task 455');
    // Pages 0..4 were walked in order: each cursor comes from the page before.
    expect(calls).toEqual([null, 't00099', 't00199', 't00299', 't00399']);
  });

  test('a far page is reached by a fetch that passes over the pages between', async () => {
    const calls: (string | null)[] = [];
    const window = new RowWindow(source(1000, calls), { pageSize: 100, maxSkip: 40 });
    window.want(950, 960);
    await settle();
    expect(window.rowAt(955)?.title).toBe('Task 955');
    // The first page, then one fetch from page 1 straight to page 9.
    expect(calls).toEqual([null, 't00099']);
    // The cursors passed over are kept: going back to page 3 starts from its own cursor.
    window.want(350, 360);
    await settle();
    expect(calls).toEqual([null, 't00099', 't00299']);
  });

  test('a smaller first page is followed by full pages, and jumps start after it', async () => {
    const calls: (string | null)[] = [];
    const window = new RowWindow(source(1000, calls), { pageSize: 100, firstPageSize: 30, maxSkip: 40 });
    window.want(0, 20);
    await settle();
    expect(window.rowAt(29)?.title).toBe('Task 29');
    expect(window.rowAt(30)).toBeUndefined();
    window.want(700, 710);
    await settle();
    expect(window.rowAt(705)?.title).toBe('Task 705');
    expect(window.rowAt(129)).toBeUndefined();
    // The first page (30 rows), then one jump from page 1 (rows 30..129) over to the page holding row 705.
    expect(calls).toEqual([null, 't00029']);
    window.want(150, 160);
    await settle();
    expect(window.rowAt(155)?.title).toBe('Task 155');
  });

  test('keeps at most maxPages in memory, dropping those farthest from what is wanted', async () => {
    const window = new RowWindow(source(2000, []), { pageSize: 100, maxPages: 3 });
    window.want(0, 50);
    await settle();
    window.want(1500, 1550);
    await settle();
    expect(window.rowAt(1520)?.title).toBe('Task 1520');
    expect(window.rowAt(10)).toBeUndefined();
  });

  test('knows its size from the last page, or from a count', async () => {
    const window = new RowWindow(source(250, []), { pageSize: 100 });
    expect(window.sizeKnown).toBe(false);
    window.want(0, 300);
    await settle();
    expect(window.size).toBe(250);
    expect(window.sizeKnown).toBe(true);
    const counted = new RowWindow(source(250, []), { pageSize: 100 });
    counted.setCount(250);
    expect(counted.size).toBe(250);
  });

  test('once counted, the last page is fetched from the end in one call, its rows where a walk puts them', async () => {
    const { window, calls } = endedWindow(100_000);
    window.want(0, 20);
    await settle();
    window.setCount(100_000);
    window.want(99_980, 99_999);
    await settle();
    // Rows 99 940..99 999 are the last page (40 on the first, then pages of 100): 60 rows asked from the end.
    expect(calls).toEqual(['after null 40 0', 'before null 60 0']);
    for (const index of [99_940, 99_990, 99_999]) expect(window.rowAt(index)?.title).toBe(`Task ${index}`);
    expect(window.rowAt(99_939)).toBeUndefined();
    expect(window.size).toBe(100_000);
    // A refresh asks the last page from the end again, though its forward cursor is known too.
    window.refresh();
    await settle();
    expect(calls.slice(2)).toEqual(['before null 60 0']);
    expect(window.rowAt(99_999)?.title).toBe('Task 99999');
  });

  test('a page nearer the end than any known cursor is reached from the end, passing over pages', async () => {
    const { window, calls } = endedWindow(100_000);
    window.setCount(100_000);
    window.want(99_990, 99_999);
    await settle();
    window.want(95_000, 95_010);
    await settle();
    for (const index of [94_940, 95_000, 95_039]) expect(window.rowAt(index)?.title).toBe(`Task ${index}`);
    // The last page, then 40 pages passed over from the one before it, then the 8 left: no walk from the top.
    expect(calls).toEqual(['before null 60 0', 'before t99940 100 40', 'before t95840 100 8']);
    // Scrolling on down: the pages passed over left their `before`, so the next page down is one call.
    window.want(95_140, 95_150);
    await settle();
    expect(window.rowAt(95_145)?.title).toBe('Task 95145');
    expect(calls.slice(3)).toEqual(['before t95240 100 0']);
  });

  test('rows removed meanwhile: the count that follows the refresh puts the last rows right again', async () => {
    const { window, rows } = endedWindow(1000);
    window.setCount(1000);
    window.want(980, 999);
    await settle();
    expect(window.rowAt(999)?.title).toBe('Task 999');
    rows.splice(500, 2);
    window.refresh();
    await settle();
    window.setCount(998);
    window.want(980, 997);
    await settle();
    await settle();
    expect(window.size).toBe(998);
    expect(window.rowAt(997)?.title).toBe('Task 999');
    expect(window.rowAt(960)?.title).toBe('Task 962');
    expect(window.rowAt(998)).toBeUndefined();
  });

  test('a page answered after another refresh asked it again is shown until its new copy arrives', async () => {
    // Each change's refresh dropped the page on its way: changes coming faster than a page kept
    // the rows from before the first of them on show (a bulk change's push, for minutes).
    const held: (() => void)[] = [];
    let label = 'old';
    const fetchPage: FetchPage = async (after, limit) => {
      const asked = label;
      if (asked !== 'old') await new Promise<void>((done) => held.push(done));
      const page = await source(100)(after, limit, 0);
      return { ...page, rows: page.rows.map((r) => ({ ...r, title: `${asked} ${r.title}` })) };
    };
    const window = new RowWindow(fetchPage, { pageSize: 50 });
    window.want(0, 10);
    await settle();
    expect(window.rowAt(3)?.title).toBe('old Task 3');
    label = 'changed';
    window.refresh();
    await settle();
    label = 'changed again';
    window.refresh();
    await settle();

    held.shift()?.();
    await settle();
    await settle();
    expect(window.rowAt(3)?.title).toBe('changed Task 3');
    expect(held).toHaveLength(1);
    held.shift()?.();
    await settle();
    await settle();
    expect(window.rowAt(3)?.title).toBe('changed again Task 3');
  });

  test('a refresh keeps the old rows on show until the new ones arrive', async () => {
    let release: (() => void) | null = null;
    let label = 'old';
    const fetchPage: FetchPage = async (after, limit) => {
      if (label === 'new') await new Promise<void>((done) => (release = done));
      const page = await source(100)(after, limit, 0);
      return { ...page, rows: page.rows.map((r) => ({ ...r, title: `${label} ${r.title}` })) };
    };
    const window = new RowWindow(fetchPage, { pageSize: 50 });
    window.want(0, 10);
    await settle();
    expect(window.rowAt(3)?.title).toBe('old Task 3');
    label = 'new';
    window.refresh();
    await settle();
    expect(window.rowAt(3)?.title).toBe('old Task 3');
    (release as (() => void) | null)?.();
    await settle();
    await settle();
    expect(window.rowAt(3)?.title).toBe('new Task 3');
  });
});
