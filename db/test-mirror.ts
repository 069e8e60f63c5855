// Test support for the mirror's tests: a real mirror file in a fresh temporary
// folder, a fixed clock, and task JSON built from a few overrides.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import type { CollectionName } from './collections/collections';
import type { Mirror, PageInput } from './mirror';
import { openMirror, type OpenMirrorOptions } from './open-mirror';
import { contractTask } from './tasks/task-overlay';

export interface TestMirror {
  mirror: Mirror;
  dir: string;
  file: string;
  /** Closes and opens the same file again (what a restart does). */
  reopen(options?: OpenMirrorOptions): Promise<Mirror>;
  cleanup(): void;
}

/** A clock that advances one second per reading, from a fixed instant. */
export function steppingClock(start = '2026-03-10T12:00:00.000Z'): () => string {
  let ms = Date.parse(start);
  return () => {
    ms += 1000;
    return new Date(ms).toISOString();
  };
}

export async function openTestMirror(options: OpenMirrorOptions = {}): Promise<TestMirror> {
  const dir = mkdtempSync(join(tmpdir(), 'mirror-test-'));
  const file = join(dir, 'mirror.db');
  const now = options.now ?? steppingClock();
  // Tests read right after a load: its indexes are built inside passes.complete.
  const defaults = { now, sortIndexBuild: 'at-once' as const };
  const handle: TestMirror = {
    mirror: await openMirror(file, { ...defaults, ...options }),
    dir,
    file,
    async reopen(reopenOptions: OpenMirrorOptions = {}) {
      handle.mirror.close();
      handle.mirror = await openMirror(file, { ...defaults, ...reopenOptions });
      return handle.mirror;
    },
    cleanup() {
      handle.mirror.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  handle.mirror.identity.setAccount({ orgId: 'org_test', username: 'ada' });
  return handle;
}

/**
 * Opens a fresh test mirror before each test of the file (or of the describe it
 * is called in) and removes it after; `use` is handed each one as it opens.
 */
export function openTestMirrorPerTest(
  use: (handle: TestMirror) => void,
  options: OpenMirrorOptions = {},
): void {
  let handle: TestMirror | undefined;
  beforeEach(async () => {
    handle = await openTestMirror(options);
    use(handle);
  });
  afterEach(() => handle?.cleanup());
}

/** The server copies in the file's task_bodies as stored, row by row (read through a connection of its own). */
export function storedServerCopies(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT server_json FROM task_bodies ORDER BY rid').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/**
 * Copies the file's write-ahead log back and empties it, through a connection
 * of its own: logPages counts from zero after it.
 */
export function emptyLog(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * The pages in the file's log: with `checkpoints: 'another-connection'` (the
 * log never copied back meanwhile), every page the commits since emptyLog
 * wrote, a page once per commit that changed it. Each is a header of 24 bytes
 * and the page, after the log's header of 32.
 */
export function logPages(file: string): number {
  const log = `${file}-wal`;
  if (!existsSync(log)) return 0;
  const db = new Database(file, { readonly: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    return Math.max(0, Math.floor((statSync(log).size - 32) / (24 + pageSize)));
  } finally {
    db.close();
  }
}

let counter = 0;

/** A complete task as the service sends it; every field can be overridden. */
export function taskJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return contractTask({
    task_id: `tsk_${String(counter).padStart(6, '0')}`,
    org_id: 'org_test',
    project_id: 'prj_a',
    title: `Task ${counter}`,
    status: 'not_started',
    tags: [],
    task_type: 'task',
    created_via: 'app',
    position: counter * 1024,
    created_by: 'ada',
    updated_by: 'ada',
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    ...overrides,
  });
}

/** The first page of a pass that is also its last (no cursor either way); `fields` for the rest (scope, etag, partial). */
export function onlyPage(
  collection: CollectionName,
  items: readonly unknown[],
  fields: Partial<PageInput> = {},
): PageInput {
  return { collection, pageIndex: 0, cursorSent: null, etag: null, nextCursor: null, items, ...fields };
}

/** Applies items as one complete pass of a single page (the way a first sync of a short list looks). */
export function loadPass(
  mirror: Mirror,
  collection: CollectionName,
  items: readonly unknown[],
  fields: { scope?: string; etag?: string | null } = {},
): void {
  const scope = fields.scope ?? '';
  mirror.passes.begin(collection, scope);
  mirror.passes.applyPage(onlyPage(collection, items, { ...fields, scope }));
  mirror.passes.complete(collection, scope, 0);
}

/** Applies tasks as one complete pass of single page (the way a first sync of a small list looks). */
export function loadTasks(mirror: Mirror, tasks: readonly Record<string, unknown>[]): void {
  loadPass(mirror, 'tasks', tasks, { etag: '"p0"' });
}

/**
 * The ids of a task list query's every page, `limit` a page, each page asked
 * with the cursor the one before gave; never more than `most` ids (a cursor
 * that lost its place would walk on forever).
 */
export function idsPageByPage(mirror: Mirror, query: URLSearchParams, limit: number, most: number): string[] {
  const seen: string[] = [];
  let after: string | null = null;
  do {
    const page = mirror.tasks.query(query, { me: 'ada', today: '2026-03-10', limit, after });
    seen.push(...page.items.map((t) => t.task_id));
    after = page.next;
  } while (after !== null && seen.length <= most);
  return seen;
}
