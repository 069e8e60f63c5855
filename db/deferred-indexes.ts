// A first sync into an empty mirror loads without the task sort indexes and
// builds them once at the end of the pass: maintaining ten indexes row by row
// under 1000-row transactions cost 138 µs a task at 100 000 tasks, loading
// without them and building them after 84 µs (measured). Queries meanwhile are
// answered without them (slower, same results). Their definitions wait in
// `meta`, so a crash mid-load loses nothing: the next open builds them.
import type { Database } from 'better-sqlite3';

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

/**
 * Drops the sort indexes of an EMPTY task table, keeping their definitions to
 * build later. Runs inside the caller's transaction; returns false (and does
 * nothing) when tasks exist or the indexes are already deferred.
 */
export function deferSortIndexes(db: Database): boolean {
  if (db.prepare('SELECT 1 FROM tasks LIMIT 1').get() !== undefined) return false;
  if (db.prepare('SELECT 1 FROM meta WHERE key = ?').get(META_KEY) !== undefined) return false;
  const definitions = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks'
          AND name IN (${SORT_INDEX_NAMES.map(() => '?').join(', ')}) ORDER BY name`,
    )
    .all(...SORT_INDEX_NAMES) as { name: string; sql: string }[];
  if (definitions.length === 0) return false;
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(META_KEY, JSON.stringify(definitions));
  for (const { name } of definitions) db.exec(`DROP INDEX ${name}`);
  return true;
}

export function hasDeferredSortIndexes(db: Database): boolean {
  const meta = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get();
  return meta !== undefined && db.prepare('SELECT 1 FROM meta WHERE key = ?').get(META_KEY) !== undefined;
}

/**
 * Builds ONE deferred index that does not exist yet (its CREATE INDEX is its
 * own transaction, so each is one bounded step); once all exist, forgets the
 * definitions. Returns true while indexes remain to build. Must not run inside
 * a transaction.
 */
export function buildNextSortIndex(db: Database): boolean {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as
    { value: string } | undefined;
  if (!row) return false;
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
  const next = (JSON.parse(row.value) as { name: string; sql: string }[]).find(
    ({ name }) => exists.get(name) === undefined,
  );
  if (next) {
    db.exec(next.sql.replace(/^CREATE INDEX /i, 'CREATE INDEX IF NOT EXISTS '));
    return true;
  }
  db.prepare('DELETE FROM meta WHERE key = ?').run(META_KEY);
  // The planner's statistics of the new indexes.
  db.pragma('optimize');
  return false;
}

/** Builds every deferred index now (opening a file whose first load stopped short). */
export function restoreSortIndexes(db: Database): void {
  while (buildNextSortIndex(db));
}
