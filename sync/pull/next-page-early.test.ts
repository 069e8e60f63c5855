// A walk whose pages the pull worker reads asks for the next page as soon as
// an answer arrives (its cursor read off the body's end), not once the worker
// got to reading the page behind its current write: against the emulator
// over real HTTP, into a real mirror file through the real worker.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { openMirror } from '../../db/open-mirror';
import { startEmulator, type RunningEmulator } from '../../emulator/start';
import { ApiClient } from '../api/api-client';
import { staticCredentials } from '../api/credentials';
import { taskOperations } from '../api/operations';
import { listSource, nextCursorAtEnd } from './list-source';
import { walkList } from './page-walker';
import type { PullStore } from './pull-store';
import type { ListSource } from './walk-types';
import { WorkerPullStore } from './worker-pull-store';

const bodyOf = (text: string): ArrayBuffer => new TextEncoder().encode(text).buffer;

describe('nextCursorAtEnd', () => {
  test.each([
    { text: '{"data":[{"task_id":"t1"}],"next_cursor":"abc.DEF-1_"}', next: 'abc.DEF-1_' },
    { text: '{"data":[],"next_cursor":"abc","total":2500}\n', next: 'abc' },
    { text: '{"data":[{"task_id":"t1"}],"next_cursor":null}', next: null },
    // Escaped text is left to the parser.
    { text: '{"data":[],"next_cursor":"a\\"b"}', next: null },
    // A field of the last item, the envelope's own cursor first: not the envelope's end.
    { text: '{"next_cursor":null,"data":[{"next_cursor":"inner"}]}', next: null },
    { text: '{"next_cursor":"outer","data":[{"task_id":"t1","extra":{"next_cursor":"x"}}]}', next: null },
  ])('$text -> $next', ({ text, next }) => {
    expect(nextCursorAtEnd(bodyOf(text))).toBe(next);
  });

  test('only the end of a long body is read', () => {
    const items = Array.from({ length: 200 }, (_, i) => `{"task_id":"t${i}","title":"${'x'.repeat(40)}"}`);
    expect(nextCursorAtEnd(bodyOf(`{"data":[${items.join(',')}],"next_cursor":"c2"}`))).toBe('c2');
  });
});

let emulator: RunningEmulator | null = null;
let mirror: Mirror | null = null;
let store: WorkerPullStore | null = null;
let api: ApiClient | null = null;
let dir: string | null = null;

afterEach(async () => {
  await store?.close();
  mirror?.close();
  await api?.close();
  await emulator?.stop();
  if (dir !== null) await rm(dir, { recursive: true, force: true });
  emulator = mirror = store = api = dir = null;
});

/** The emulator with `seedTasks`, a client, a new mirror file and the pull worker over it (closed after each test). */
async function openBench(seedTasks: number) {
  emulator = await startEmulator({ seedTasks });
  dir = await mkdtemp(join(tmpdir(), 'svc-early-'));
  const file = join(dir, 'mirror.db');
  mirror = await openMirror(file);
  api = new ApiClient({ baseUrl: emulator.baseUrl, credentials: staticCredentials(emulator.tokens.live) });
  store = new WorkerPullStore(file);
  const client = api;
  const orgId = emulator.orgId;
  /** The task list in pages of `limit`, oldest first, its bodies read by `reader`. */
  const taskList = (limit: number, reader: Pick<PullStore, 'validatesItems' | 'readPage'>) =>
    listSource(
      client,
      taskOperations.list,
      { orgId },
      { limit, sortBy: 'created_at', sortOrder: 'asc' },
      'background',
      reader,
    );
  return { emulator, mirror, worker: store, taskList };
}

/** The task list walked whole from its start into `store`, eight pages at a time at most. */
function walkTasks(source: ListSource, store: PullStore) {
  return walkList({ collection: 'tasks', scope: '', source, store, partial: false, concurrency: 8 });
}

/**
 * The worker as a page reader that notes, as each page goes to be read, how many cursors `asked`
 * holds then: `askedAtRead`.
 */
function readerNotingAsks(worker: WorkerPullStore, asked: readonly (string | null)[]) {
  const askedAtRead: number[] = [];
  const reader = {
    validatesItems: true,
    readPage: (operation: string, body: ArrayBuffer) => {
      askedAtRead.push(asked.length);
      return worker.readPage(operation, body);
    },
  };
  return { reader, askedAtRead };
}

test('a walk read by the worker asks for each next page before the worker reads the page that names it, and mirrors every task', async () => {
  const { emulator, mirror, worker, taskList } = await openBench(2500);

  /** The cursors the walk asked for, in order; and how many it had asked for as each page went to be read. */
  const asked: (string | null)[] = [];
  const { reader, askedAtRead } = readerNotingAsks(worker, asked);
  const list = taskList(1000, reader);
  const source: ListSource = {
    fetch(cursor, ifNoneMatch, signal, onNextCursor) {
      asked.push(cursor);
      return list.fetch(cursor, ifNoneMatch, signal, onNextCursor);
    },
  };

  const result = await walkTasks(source, worker);

  // Three pages, each asked for once (every hint was the page's own next_cursor).
  expect(asked).toHaveLength(3);
  expect(asked[0]).toBeNull();
  expect(new Set(asked).size).toBe(3);
  // The second page was asked for before the first went to the worker, the third before the second.
  expect(askedAtRead).toEqual([2, 3, 3]);
  expect(result.pulled).toBe(2500);
  expect(mirror.tasks.total()).toBe(emulator.control.tasks().length);
});

test('a walk whose writes fall behind reads only a few pages ahead of them, not the rest of the list', async () => {
  const { mirror, worker, taskList } = await openBench(3000);

  // Pages of 200: 15 of them. The writes wait until `release` is called.
  let release = (): void => undefined;
  const writesHeld = new Promise<void>((resolve) => (release = resolve));
  let read = 0;
  let mostHeld = 0;
  let applyAsked = 0;
  const slowStore = Object.assign(Object.create(worker) as WorkerPullStore, {
    readPage: async (operation: string, body: ArrayBuffer) => {
      read += 1;
      mostHeld = Math.max(mostHeld, read - applyAsked);
      return worker.readPage(operation, body);
    },
    applyPage: async (...args: Parameters<WorkerPullStore['applyPage']>) => {
      applyAsked += 1;
      await writesHeld;
      return worker.applyPage(...args);
    },
  });
  const source = taskList(200, slowStore);
  const walked = walkTasks(source, slowStore);

  // The walk stands behind its held writes: however long they take, it reads no further.
  // Three pages queued for writing, the next the walk asked, and two asked early: six of the 15.
  await vi.waitFor(() => expect(read).toBeGreaterThanOrEqual(6), { timeout: 10_000, interval: 10 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(read).toBe(6);
  release();
  const result = await walked;
  expect(result.pulled).toBe(3000);
  expect(mirror.tasks.total()).toBe(3000);
  // Never more read and not yet written than those, whatever the pace.
  expect(mostHeld).toBeLessThanOrEqual(6);
});

test('hints that name another page than the answer’s own next leave the walk asking early after them, and are forgotten', async () => {
  const { mirror, worker, taskList } = await openBench(2500);

  // Pages of 250: ten. The first two answers hint at pages that are not their next.
  const list = taskList(250, worker);
  /** The real cursors asked, in order; how many had been asked as each page went to be read. */
  const asked: (string | null)[] = [];
  const { reader, askedAtRead } = readerNotingAsks(worker, asked);
  const wrongAsked: string[] = [];
  let answers = 0;
  /** What the worker read of the wrong pages, and how many real pages had been asked as each was dropped. */
  const wrongReads = new Set<number>();
  const droppedWhenAsked: number[] = [];
  const dropPage = worker.dropPage.bind(worker);
  worker.dropPage = (readAs: number) => {
    if (wrongReads.has(readAs)) droppedWhenAsked.push(asked.length);
    dropPage(readAs);
  };
  const readList = taskList(250, reader);
  const source: ListSource = {
    async fetch(cursor, ifNoneMatch, signal, onNextCursor) {
      if (cursor?.startsWith('wrong-')) {
        // A page no chain leads to: it would answer with a page of its own (never reached).
        wrongAsked.push(cursor);
        const answer = await list.fetch(null, ifNoneMatch, signal);
        if (answer.status === 200 && answer.read) wrongReads.add(answer.read.readAs);
        return answer;
      }
      asked.push(cursor);
      const answer = answers++;
      return readList.fetch(cursor, ifNoneMatch, signal, (next) =>
        onNextCursor?.(answer < 2 ? `wrong-${answer}` : next),
      );
    },
  };

  const result = await walkTasks(source, worker);

  expect(wrongAsked).toEqual(['wrong-0', 'wrong-1']);
  expect(asked).toHaveLength(10);
  expect(new Set(asked).size).toBe(10);
  // Past the wrong hints, pages are asked early again: the page after the third before the worker
  // reads the third, and of any two pages in a row, one's next before the worker reads it (a page
  // asked once the one before was read hints at its next with none asked early unreached).
  const askedEarly = (page: number) => (askedAtRead[page - 1] ?? 0) > page;
  expect(askedEarly(3)).toBe(true);
  // What the worker read of the wrong pages is dropped as the chain leaves them, not at the walk's end.
  expect(droppedWhenAsked).toHaveLength(2);
  for (const asked of droppedWhenAsked) expect(asked).toBeLessThan(10);
  for (let page = 3; page < 9; page++) expect(askedEarly(page) || askedEarly(page + 1)).toBe(true);
  expect(result.pulled).toBe(2500);
  expect(mirror.tasks.total()).toBe(2500);
});
