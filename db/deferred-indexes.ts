// A first sync into an empty mirror loads without the task sort indexes and
// without filling the word index, and builds both in bounded steps after the
// pass: maintaining them row by row under 1000-row transactions is most of a
// page's cost (at 100 000 tasks: sort indexes 138 -> 84 µs a task, the word
// index about half of what remains; measured). Meanwhile queries are answered
// without them (slower, same results: no search takes the word-index path).
// The plan and its progress wait in `meta`, so a crash loses nothing: the next
// open finishes the build.
import type { Database } from 'better-sqlite3';
import { searchableText } from './task-columns';
import { idTrigramTokens } from './word-index';

/** The indexes deferred: every task sort index (the id index stays, lookups need it). */
export const SORT_INDEX_NAMES = [
  'tasks_by_title',
  'tasks_by_status_rank',
  'tasks_by_priority_rank',
  'tasks_by_due',
  'tasks_by_start',
  'tasks_by_created',
  'tasks_by_assignee',
  'tasks_by_project',
  'tasks_by_task_type',
] as const;

const META_KEY = 'deferred_task_indexes';
/** Rows whose words are indexed per build step (about 50 ms of work, measured). */
const WORDS_PER_STEP = 2000;
/** Word-index pages merged per build step. */
const MERGE_PAGES_PER_STEP = 300;

export interface DeferredBuild {
  indexes: { name: string; sql: string }[];
  /**
   * Rows up to this row id have their words indexed; rows above it get theirs
   * from the build (null: the word index is complete).
   */
  wordsFrom: number | null;
}

function read(db: Database): DeferredBuild | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as
    { value: string } | undefined;
  return row ? (JSON.parse(row.value) as DeferredBuild) : null;
}

function write(db: Database, build: DeferredBuild): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META_KEY, JSON.stringify(build));
}

/**
 * Starts a first load on an EMPTY task table: drops the sort indexes, keeping
 * their definitions, stops filling and merging the word index. Runs inside the
 * caller's transaction; returns false (and does nothing) when tasks exist or a
 * first load is already under way.
 */
export function deferSortIndexes(db: Database): boolean {
  if (db.prepare('SELECT 1 FROM tasks LIMIT 1').get() !== undefined) return false;
  if (read(db) !== null) return false;
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks'
          AND name IN (${SORT_INDEX_NAMES.map(() => '?').join(', ')}) ORDER BY name`,
    )
    .all(...SORT_INDEX_NAMES) as { name: string; sql: string }[];
  write(db, { indexes, wordsFrom: 0 });
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  // The words of the load go in by chunks; one merge of all the chunks at the
  // end (in bounded steps) writes less than merging as they come.
  db.exec("INSERT INTO task_words (task_words, rank) VALUES ('automerge', 0)");
  return true;
}

/** The first load's build still to do, or null. */
export function deferredBuild(db: Database): DeferredBuild | null {
  const meta = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get();
  return meta === undefined ? null : read(db);
}

export function hasDeferredSortIndexes(db: Database): boolean {
  return deferredBuild(db) !== null;
}

/**
 * Does ONE bounded step of the first load's build: a sort index, then the
 * words of the next rows, then some merging of the word index. Returns true
 * while steps remain. Must not run inside a transaction.
 */
export function buildNextSortIndex(db: Database): boolean {
  const build = read(db);
  if (!build) return false;
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
  const next = build.indexes.find(({ name }) => exists.get(name) === undefined);
  if (next) {
    db.exec(next.sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS '));
    return true;
  }
  if (build.wordsFrom !== null) {
    db.transaction(() => {
      const now = read(db) as DeferredBuild;
      const from = now.wordsFrom ?? 0;
      const last = (db.prepare('SELECT max(rid) AS n FROM tasks').get() as { n: number | null }).n ?? 0;
      const to = Math.min(from + WORDS_PER_STEP, last);
      const rows = db
        .prepare(
          `SELECT t.rid, t.k_title, b.search_body, t.search_tags, t.search_id
             FROM tasks t JOIN task_bodies b ON b.rid = t.rid WHERE t.rid > ? AND t.rid <= ?`,
        )
        .all(from, to) as {
        rid: number;
        k_title: string;
        search_body: string;
        search_tags: string;
        search_id: string;
      }[];
      const insert = db.prepare('INSERT INTO task_words (rowid, words) VALUES (?, ?)');
      // The same text as WordIndex.add (the vocabulary already has these words).
      for (const row of rows) insert.run(row.rid, `${searchableText(row)} ${idTrigramTokens(row.search_id)}`);
      write(db, { ...now, wordsFrom: to >= last ? null : to });
    })();
    return true;
  }
  // Then merge the segments the load left; fewer than two changes: nothing left (FTS5 docs).
  const before = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
  db.exec(`INSERT INTO task_words (task_words, rank) VALUES ('merge', ${MERGE_PAGES_PER_STEP})`);
  if ((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n - before >= 2) return true;
  db.exec("INSERT INTO task_words (task_words, rank) VALUES ('automerge', 4)");
  db.prepare('DELETE FROM meta WHERE key = ?').run(META_KEY);
  // The planner's statistics of the new indexes.
  db.pragma('optimize');
  return false;
}

/** Finishes the whole build now (opening a file whose first load stopped short). */
export function restoreSortIndexes(db: Database): void {
  while (buildNextSortIndex(db));
}
