// The task rows: writes the effective columns (server copy with pending edits
// applied) and keeps the word index in step, with prepared statements only,
// because a page of 1000 tasks must land in a few tens of milliseconds.
import type { Database, Statement } from 'better-sqlite3';
import {
  keptLowerCase,
  searchableText,
  searchBodyOf,
  searchTextRow,
  type TaskColumns,
  taskColumns,
  type TaskObject,
} from './task-columns';
import {
  COPY_ROW_COLUMNS,
  type CopyRow,
  rowForm,
  rowFormOf,
  shareDescription,
  type StoredTaskJson,
  storedFormFromRow,
  storedTaskJson,
  taskJsonOf,
  taskObjectOf,
} from './task-json';
import type { WordIndex } from './word-index';

/** A column of `tasks` a write sets from the task: what taskColumns makes, less the search text's parts. */
type WrittenColumn = Exclude<keyof TaskColumns, SearchTextPart>;
/** The parts of the search text taskColumns makes beside the columns: virtual or not stored alone. */
type SearchTextPart = 'k_title' | 'search_body' | 'search_id' | 'search_tags';
const SEARCH_TEXT_PARTS: readonly string[] = [
  'k_title',
  'search_body',
  'search_id',
  'search_tags',
] satisfies SearchTextPart[];
/**
 * Column order of inserts and updates (then BOOKKEEPING): taskColumns' own
 * order, read off what it makes of the least task it checks, so that a column
 * it gains is written; the sort keys are virtual (migration 0015).
 */
const COLUMNS = Object.keys(taskColumns({ task_id: '-', title: '', status: '' })).filter(
  (column) => !SEARCH_TEXT_PARTS.includes(column),
) as readonly WrittenColumn[];
const BOOKKEEPING = ['etag', 'seen_pass', 'pending', 'hidden', 'server_gone'] as const;
/** Of BOOKKEEPING, what a pass writes of a task the server sent unchanged: no answer of a query moves with them. */
const PASS_MARKS: readonly string[] = ['etag', 'seen_pass'];

/** Partial UPDATE statements kept at most (see TaskStore.updates). */
const MAX_UPDATE_STATEMENTS = 256;

/** Whether a column's new value is the one stored (a blob read back is a Buffer; null and undefined bind alike). */
function sameValue(next: unknown, stored: unknown): boolean {
  if (next === stored || (next == null && stored == null)) return true;
  return Buffer.isBuffer(next) && Buffer.isBuffer(stored) && next.equals(stored);
}

/** What the store reads of a row before writing it. */
export interface StoredTask {
  rid: number;
  task_id: string;
  hidden: number;
  pending: number;
  server_gone: number;
  seen_pass: number;
  etag: string | null;
  /** The server copy in its stored form (db/tasks/task-json.ts); null for a local create not yet sent. */
  server_stored: StoredTaskJson | null;
  /** The same as JSON text, made when first read. */
  readonly server_json: string | null;
  /**
   * The task as shown when edits are pending (else null), in the stored form
   * too: a bulk change of thousands of tasks writes no key names for each.
   */
  local_json: StoredTaskJson | null;
  k_title: string;
  search_id: string;
  search_tags: string;
  /** Its row of task_search_text ('' while hidden). */
  search_text: string;
}

/** A row's server copy as a task object (null: a local create not yet sent), without making its JSON text first. */
export function serverTaskOf(row: StoredTask): TaskObject | null {
  return row.server_stored === null ? null : taskObjectOf(row.server_stored);
}

/** A row's task as shown: its pending edits applied (local_json), else its server copy. */
export function effectiveTaskOf(row: StoredTask): TaskObject {
  return row.local_json !== null ? taskObjectOf(row.local_json) : (serverTaskOf(row) as TaskObject);
}

const STORED =
  't.rid, t.hidden, t.pending, t.server_gone, t.seen_pass, t.etag, b.server_json AS server_stored, b.local_json, ' +
  `t.k_title, t.search_id, t.search_tags, coalesce(s.text, '') AS search_text, ${COPY_ROW_COLUMNS} ` +
  'FROM tasks t JOIN task_bodies b ON b.rid = t.rid LEFT JOIN task_search_text s ON s.rid = t.rid';

/** Bookkeeping written beside the effective columns. */
export interface TaskRowState {
  /**
   * server_stored was made by storedTaskJson from the very task written (its
   * server copy with nothing pending): the row itself can then hold the copy
   * (db/tasks/task-json.ts rowForm).
   */
  serverIsEffective?: boolean;
  etag: string | null;
  /**
   * The server copy in its stored form (storedTaskJson), null for a local
   * create not yet sent; with serverIsEffective, null: not made yet (made
   * here from the task when its row cannot hold it).
   */
  server_stored: StoredTaskJson | null;
  local_json: StoredTaskJson | null;
  seen_pass: number;
  pending: number;
  hidden: number;
  server_gone: number;
}

/**
 * A row as read, its server copy's JSON text made only when asked for: a
 * page's unchanged tasks are told by comparing stored forms. A copy sharing
 * its description with the search text is given back in its stored form.
 */
/** A row as selected (STORED): the stored task and the columns its server copy may be read back from. */
type SelectedRow = Omit<StoredTask, 'server_json'> & CopyRow;

function readable(row: SelectedRow | undefined): StoredTask | undefined {
  if (row === undefined) return undefined;
  if (row.server_stored !== null) row.server_stored = storedFormFromRow(row.server_stored, row);
  let text: string | null | undefined;
  return Object.defineProperty(row, 'server_json', {
    enumerable: true,
    get: () => (text ??= row.server_stored === null ? null : taskJsonOf(row.server_stored)),
  }) as unknown as StoredTask;
}

export class TaskStore {
  private readonly selectById: Statement<[string, string], SelectedRow>;
  private readonly selectByRid: Statement<[number], SelectedRow>;
  private readonly selectRid: Statement<[string, string], number>;
  private readonly insert: Statement<unknown[]>;
  private readonly insertIfNewRow: Statement<unknown[]>;
  /** A row's columns as the update writes them (COLUMNS, then BOOKKEEPING), for telling which changed. */
  private readonly selectColumns: Statement<[number], unknown[]>;
  /**
   * UPDATEs of some columns, by which (a mask over COLUMNS and BOOKKEEPING):
   * SQLite rewrites the entries of every index on a column an UPDATE names,
   * changed or not, and a task has some fifteen; a status change names only
   * status and the bookkeeping it moves.
   */
  private readonly updates = new Map<string, Statement<unknown[]>>();
  private readonly db: Database;
  private readonly deleteRow: Statement<[number]>;
  private readonly insertBody: Statement<[number, string | null, string | null]>;
  private readonly updateBody: Statement<[string | null, string | null, number]>;
  private readonly deleteBody: Statement<[number]>;
  private readonly writeSearchText: Statement<[number, string]>;
  private readonly deleteSearchText: Statement<[number]>;
  private readonly markSeen: Statement<[number, number]>;
  private readonly markSeenById: Statement<[number, string, string]>;
  private readonly renameRow: Statement<[string, string, number]>;
  /** Moves on every task write; aggregate caches compare it. */
  version = 0;
  /**
   * Moves on every write that may change a task list's answer (a task added,
   * removed, renamed, a value or its search text changed), not on a pass's
   * marks of tasks the server sent unchanged: the mirror counts it in the file
   * (task_changes), so that the list's caches outlive another connection's pass.
   */
  contentChanges = 0;
  /** A row byId gives back without reading while `version` is still this (withKnownRow). */
  private known: { row: StoredTask; version: number } | null = null;
  /**
   * During a first load, rows above this row id get their words from the
   * build (deferred-indexes.ts), not from writes; null: index every write.
   * Set at the start of each write transaction.
   */
  wordsDeferredAbove: number | null = null;
  /**
   * Whether the words of rows the build indexes later go in the vocabulary
   * now (false: the build reads them off the word index). Set with
   * wordsDeferredAbove.
   */
  registersDeferredWords = true;

  private indexesWords(rid: number): boolean {
    return this.wordsDeferredAbove === null || rid <= this.wordsDeferredAbove;
  }

  constructor(
    db: Database,
    private readonly words: WordIndex,
  ) {
    this.db = db;
    const all = [...COLUMNS, ...BOOKKEEPING];
    this.selectColumns = db
      .prepare<[number], unknown[]>(`SELECT ${all.join(', ')} FROM tasks WHERE rid = ?`)
      .raw();
    this.selectById = db.prepare(`SELECT ${STORED} WHERE t.search_id = ? AND t.task_id = ?`);
    this.selectByRid = db.prepare(`SELECT ${STORED} WHERE t.rid = ?`);
    this.selectRid = db
      .prepare<[string, string], number>('SELECT rid FROM tasks WHERE search_id = ? AND task_id = ?')
      .pluck();
    this.insert = db.prepare(
      `INSERT INTO tasks (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`,
    );
    this.insertIfNewRow = db.prepare(
      `INSERT INTO tasks (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
    );
    this.deleteRow = db.prepare('DELETE FROM tasks WHERE rid = ?');
    this.insertBody = db.prepare('INSERT INTO task_bodies (rid, server_json, local_json) VALUES (?, ?, ?)');
    this.updateBody = db.prepare('UPDATE task_bodies SET server_json = ?, local_json = ? WHERE rid = ?');
    this.deleteBody = db.prepare('DELETE FROM task_bodies WHERE rid = ?');
    this.writeSearchText = db.prepare('INSERT OR REPLACE INTO task_search_text (rid, text) VALUES (?, ?)');
    this.deleteSearchText = db.prepare('DELETE FROM task_search_text WHERE rid = ?');
    this.markSeen = db.prepare('UPDATE tasks SET seen_pass = ? WHERE rid = ?');
    this.markSeenById = db.prepare('UPDATE tasks SET seen_pass = ? WHERE search_id = ? AND task_id = ?');
    this.renameRow = db.prepare('UPDATE tasks SET task_id = ?, search_id_kept = ? WHERE rid = ?');
  }

  byId(taskId: string): StoredTask | undefined {
    const known = this.known;
    if (known !== null && known.row.task_id === taskId && known.version === this.version) return known.row;
    return readable(this.selectById.get(taskId.toLowerCase(), taskId));
  }

  /** The task's row id (off the id index alone), undefined when it is not stored. */
  ridOf(taskId: string): number | undefined {
    return this.selectRid.get(taskId.toLowerCase(), taskId);
  }

  /**
   * Runs `work` with byId answering `row` (just read) for its task until a
   * task is written: a bulk change reads each task once, not again when its
   * queued edit rewrites the effective row. Inside one write transaction.
   */
  withKnownRow<T>(row: StoredTask, work: () => T): T {
    const outer = this.known;
    this.known = { row, version: this.version };
    try {
      return work();
    } finally {
      this.known = outer;
    }
  }

  byRid(rid: number): StoredTask | undefined {
    return readable(this.selectByRid.get(rid));
  }

  /**
   * Writes a task's effective columns and bookkeeping: inserts when `existing`
   * is undefined, otherwise updates it, re-indexing its words only when its
   * searchable text changed. Returns the row id.
   */
  write(existing: StoredTask | undefined, effective: TaskObject, state: TaskRowState): number {
    return this.writeRow(existing, effective, state, false) as number;
  }

  /**
   * Inserts a task unless its id is stored already (then writes nothing and
   * returns undefined): a first load's new tasks skip looking their id up.
   */
  insertIfNew(effective: TaskObject, state: TaskRowState): number | undefined {
    return this.writeRow(undefined, effective, state, true);
  }

  private writeRow(
    existing: StoredTask | undefined,
    effective: TaskObject,
    state: TaskRowState,
    ifNew: boolean,
  ): number | undefined {
    const columns = taskColumns(effective);
    const values: unknown[] = new Array(COLUMNS.length + BOOKKEEPING.length);
    let i = 0;
    for (const column of COLUMNS) values[i++] = columns[column];
    values[i++] = state.etag;
    values[i++] = state.seen_pass;
    values[i++] = state.pending;
    values[i++] = state.hidden;
    values[i++] = state.server_gone;
    this.version++;
    // A shown task's search text ends with its description in lower case: a
    // server copy holding the same description need not hold it too. With
    // edits pending that left the description as the server has it, too: a
    // bulk change of 34 000 tasks at a million wrote each one's whole copy
    // beside its effective one (shareDescription keeps a copy whole whose
    // description is not the effective one).
    const body =
      state.serverIsEffective === true
        ? (rowFormOf(effective, columns.search_body) ??
          rowForm(state.server_stored ?? storedTaskJson(effective), effective, columns.search_body))
        : state.server_stored === null || state.hidden !== 0
          ? state.server_stored
          : shareDescription(state.server_stored, effective.description, columns.search_body);
    if (existing === undefined) {
      const inserted = (ifNew ? this.insertIfNewRow : this.insert).run(values);
      if (inserted.changes === 0) return undefined;
      this.contentChanges++;
      const rid = Number(inserted.lastInsertRowid);
      this.insertBody.run(rid, body, state.local_json);
      this.writeSearchText.run(rid, searchTextRow(columns, state.hidden));
      if (this.indexesWords(rid)) this.words.add(rid, searchableText(columns), columns.search_id);
      else if (this.registersDeferredWords) this.words.register(searchableText(columns));
      return rid;
    }
    if (this.updateChanged(existing.rid, values)) this.contentChanges++;
    this.updateBody.run(body, state.local_json, existing.rid);
    const visibleText = searchTextRow(columns, 0);
    const text = state.hidden === 0 ? visibleText : '';
    if (text !== existing.search_text) {
      this.writeSearchText.run(existing.rid, text);
      this.contentChanges++;
    }
    // A hidden row's stored text is empty: its words are unknown here, index them anew.
    if (existing.hidden !== 0 || visibleText !== existing.search_text) {
      if (this.indexesWords(existing.rid)) {
        this.words.remove(existing.rid);
        this.words.add(existing.rid, searchableText(columns), columns.search_id);
      } else if (this.registersDeferredWords) this.words.register(searchableText(columns));
    }
    return existing.rid;
  }

  /**
   * Writes the columns whose value differs from the row's (`values` in COLUMNS, BOOKKEEPING order);
   * true when one of them is more than a pass's marks (PASS_MARKS).
   */
  private updateChanged(rid: number, values: readonly unknown[]): boolean {
    const stored = this.selectColumns.get(rid);
    if (stored === undefined) return false;
    let mask = '';
    const changed: unknown[] = [];
    let content = false;
    for (let i = 0; i < values.length; i++) {
      const same = sameValue(values[i], stored[i]);
      mask += same ? '0' : '1';
      if (same) continue;
      changed.push(values[i]);
      if (!PASS_MARKS.includes(BOOKKEEPING[i - COLUMNS.length] ?? '')) content = true;
    }
    if (changed.length === 0) return false;
    changed.push(rid);
    let update = this.updates.get(mask);
    if (update === undefined) {
      // Server pages change many sets of columns: the statements kept stay few.
      if (this.updates.size >= MAX_UPDATE_STATEMENTS) this.updates.clear();
      const all = [...COLUMNS, ...BOOKKEEPING];
      const set = all.filter((_, i) => mask[i] === '1').map((column) => `${column} = ?`);
      update = this.db.prepare(`UPDATE tasks SET ${set.join(', ')} WHERE rid = ?`);
      this.updates.set(mask, update);
    }
    update.run(changed);
    return content;
  }

  seen(rid: number, passNo: number): void {
    this.markSeen.run(passNo, rid);
  }

  /** The same by task id, without reading the row (a 304's page: nothing else of it is needed). */
  seenById(taskId: string, passNo: number): void {
    this.markSeenById.run(passNo, taskId.toLowerCase(), taskId);
  }

  remove(rid: number): void {
    this.version++;
    this.contentChanges++;
    this.deleteRow.run(rid);
    this.deleteBody.run(rid);
    this.deleteSearchText.run(rid);
    if (this.indexesWords(rid)) this.words.remove(rid);
  }

  /** Gives a row a new task id (a temporary id replaced by the server's); the caller re-writes its other columns. */
  rename(rid: number, taskId: string): void {
    this.version++;
    this.contentChanges++;
    const lower = taskId.toLowerCase();
    const row = this.byRid(rid);
    this.renameRow.run(taskId, keptLowerCase(taskId, lower), rid);
    // A server copy the row held (rowForm) would read back with the new id: it is stored whole again.
    if (row) this.updateBody.run(row.server_stored, row.local_json, rid);
    // A hidden row keeps its empty text; the write that follows a rename re-indexes it.
    if (!row || row.hidden !== 0) return;
    const columns = { ...row, search_id: lower, search_body: searchBodyOf(row.search_text, row) };
    this.writeSearchText.run(rid, searchTextRow(columns, 0));
    if (this.indexesWords(rid)) {
      this.words.remove(rid);
      this.words.add(rid, searchableText(columns), lower);
    }
  }
}
