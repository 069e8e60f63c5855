// A first sync into an empty mirror loads without the task sort indexes and
// without filling the word index or its vocabulary, and builds all three in
// bounded steps after the pass: maintaining them row by row under 1000-row
// transactions is most of a page's cost (at 100 000 tasks: sort indexes 138 ->
// 84 µs a task, the word index about half of what remains; measured). The
// vocabulary is then read off the finished word index's terms instead of
// splitting every text in JavaScript. Meanwhile queries are answered without
// them (slower, same results: no search takes the word-index path).
// The plan and its progress wait in `meta`, so a crash loses nothing: the next
// open finishes the build.
import type { Database } from 'better-sqlite3';
import { searchableTextOf } from './task-columns';
import { ID_TOKEN_MARK, idBigramTokens, type WordIndex } from './word-index';

/**
 * The indexes deferred: every task sort index, the filing count indexes
 * (migrations 0014, 0018), the sub-tasks' (0020) and the comment watch's (0016); the id index stays, lookups need it.
 */
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
  'tasks_by_section',
  'tasks_by_sprint',
  'tasks_by_goal',
  'tasks_by_milestone',
  'tasks_by_parent',
  'tasks_by_assignee_open',
  'tasks_by_creator_open',
] as const;

const META_KEY = 'deferred_task_indexes';
/**
 * Rows whose words are indexed per build step: ~50-100 ms of the pull worker
 * each, as long as a sort index's step; fewer, larger word-index segments
 * leave the merges less to do (at 1000, ~25 ms steps, the build cost ~3.5 µs
 * a task more CPU, measured).
 */
const WORDS_PER_STEP = 4000;
/** Word-index pages merged per build step. */
const MERGE_PAGES_PER_STEP = 100;
/** Vocabulary words registered per build step. */
const TERMS_PER_STEP = 1500;
/** The first character after the id bigram tokens' mark: every term starting with the mark sorts below it. */
const AFTER_ID_TOKENS = String.fromCodePoint((ID_TOKEN_MARK.codePointAt(0) as number) + 1);
/** A temp (per-connection, never in the file) view of the word index's terms. */
const TERMS_TABLE = 'temp.task_words_terms';

export interface DeferredBuild {
  indexes: { name: string; sql: string }[];
  /**
   * Rows up to this row id have their words indexed; rows above it get theirs
   * from the build (null: the word index is complete).
   */
  wordsFrom: number | null;
  /**
   * The vocabulary (search_words) holds every term of the word index up to
   * this one; null: complete. Absent in builds of loads that registered their
   * words as they came (before this field), which have nothing to add.
   */
  vocabularyFrom?: string | null;
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
  write(db, { indexes, wordsFrom: 0, vocabularyFrom: '' });
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  // The words of the load go in by chunks, merged at the end in bounded steps
  // (writes never merge the word index: migration 0007).
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

/** Whether writes must put the words of rows the build has not reached in the vocabulary themselves. */
export function registersVocabulary(build: DeferredBuild | null): boolean {
  return build === null || build.vocabularyFrom === undefined;
}

/** Whether searches may use the word index: every row in it, every word of it in the vocabulary. */
export function wordIndexComplete(build: DeferredBuild | null): boolean {
  return build === null || (build.wordsFrom === null && typeof build.vocabularyFrom !== 'string');
}

/**
 * Does ONE bounded step of the first load's build: a sort index, then the
 * words of the next rows, then some merging of the word index. Returns true
 * while steps remain. Must not run inside a transaction.
 */
export function buildNextSortIndex(db: Database, words: WordIndex): boolean {
  const build = read(db);
  if (!build) return false;
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
  const next = build.indexes.find(({ name }) => exists.get(name) === undefined);
  if (next) {
    db.exec(next.sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS '));
    return true;
  }
  if (build.wordsFrom !== null) {
    transaction(
      db,
      () => {
        const now = read(db) as DeferredBuild;
        const from = now.wordsFrom ?? 0;
        const last = (db.prepare('SELECT max(rid) AS n FROM tasks').get() as { n: number | null }).n ?? 0;
        const to = Math.min(from + WORDS_PER_STEP, last);
        // Hidden rows (their search text is empty) are left out: the write that shows one again indexes it.
        const rows = db
          .prepare(
            `SELECT t.rid, t.k_title, t.search_id, s.text
             FROM tasks t JOIN task_search_text s ON s.rid = t.rid
             WHERE t.rid > ? AND t.rid <= ? AND t.hidden = 0`,
          )
          .all(from, to) as {
          rid: number;
          k_title: string;
          search_id: string;
          text: string;
        }[];
        const insert = db.prepare('INSERT INTO task_words (rowid, words) VALUES (?, ?)');
        for (const row of rows) {
          // The same words as WordIndex.add is given.
          const text = searchableTextOf(row.text, row);
          insert.run(row.rid, `${text} ${idBigramTokens(row.search_id)}`);
          // The vocabulary step skips terms starting with the id tokens' mark: a
          // text word starting with it (all but unheard of) is registered here.
          if (!registersVocabulary(now) && text.includes(ID_TOKEN_MARK)) words.register(text);
        }
        write(db, { ...now, wordsFrom: to >= last ? null : to });
      },
      words,
    );
    return true;
  }
  // Then merge the segments the load left.
  if (words.mergeStep(MERGE_PAGES_PER_STEP)) return true;
  if (typeof build.vocabularyFrom === 'string') {
    const from = build.vocabularyFrom;
    transaction(db, () => write(db, { ...build, vocabularyFrom: registerTerms(db, words, from) }), words);
    return true;
  }
  db.exec(`DROP TABLE IF EXISTS ${TERMS_TABLE}`);
  db.prepare('DELETE FROM meta WHERE key = ?').run(META_KEY);
  // The planner's statistics of the new indexes.
  db.pragma('optimize');
  return false;
}

/** Runs `work` in a transaction, keeping the vocabulary cache of `words` in step with its outcome. */
function transaction(db: Database, work: () => void, words: WordIndex): void {
  try {
    db.transaction(work)();
    words.committed();
  } catch (error) {
    words.rolledBack();
    throw error;
  }
}

/**
 * Puts the next terms of the word index after `from` in the vocabulary, but
 * not the id bigram tokens (a range of their own, skipped). Returns the last
 * term registered, or null when none are left.
 */
function registerTerms(db: Database, words: WordIndex, from: string): string | null {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${TERMS_TABLE} USING fts5vocab(main, task_words, 'row')`);
  const inIdTokens = from >= ID_TOKEN_MARK && from < AFTER_ID_TOKENS;
  const terms = db
    .prepare(
      `SELECT term FROM ${TERMS_TABLE} WHERE term ${inIdTokens ? '>=' : '>'} ? ORDER BY term LIMIT ${TERMS_PER_STEP}`,
    )
    .pluck()
    .all(inIdTokens ? AFTER_ID_TOKENS : from) as string[];
  let last: string | null = null;
  for (const term of terms) {
    if (term >= ID_TOKEN_MARK && term < AFTER_ID_TOKENS) return ID_TOKEN_MARK;
    words.registerWord(term);
    last = term;
  }
  return terms.length < TERMS_PER_STEP ? null : last;
}

/** Finishes the whole build now (opening a file whose first load stopped short). */
export function restoreSortIndexes(db: Database, words: WordIndex): void {
  while (buildNextSortIndex(db, words));
}
