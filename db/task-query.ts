// Answers the task list's vocabulary (protocol/task-list-query.ts) from the
// effective task rows, with the same ids in the same order as the service, in
// keyset pages. A search or tag filter that narrows to a few thousand tasks is
// answered from the word index's candidates, sorted; anything broader walks the
// sort index and checks each row until the page is full.
import type { Database, Statement } from 'better-sqlite3';
import {
  InvalidParameterError,
  ME,
  NO_TEAM,
  NULL_VALUE,
  parseTaskListQuery,
  PRIORITY_RANK,
  STATUS_RANK,
  TASK_FILTER_KEYS,
  type TaskListFilter,
  type TaskListQuery,
  type TaskSortKey,
  UNFILED_PROJECT,
} from '../protocol/task-list-query';
import { NULL_KEY, TAG_SEPARATOR } from './task-columns';
import {
  allOfAnyQuery,
  anyOfAllQuery,
  MIN_ID_LOOKUP_CHARS,
  termWords,
  type WordIndex,
  wordsOf,
} from './word-index';

export interface TaskQueryOptions {
  /** The signed-in person's username: what `assignee=me` means. */
  me: string;
  /** Today as a UTC day `YYYY-MM-DD`: what `overdue` compares with. */
  today: string;
  /** Page size: default 200, at most 1000. */
  limit?: number;
  /** The `next` of the previous page. */
  after?: string | null;
}

/** A task as a list shows it: its effective values. */
export interface TaskListItem {
  task_id: string;
  title: string;
  status: string;
  priority: string | null;
  assignee: string | null;
  project_id: string | null;
  team_id: string | null;
  section_id: string | null;
  sprint_id: string | null;
  goal_id: string | null;
  milestone_id: string | null;
  parent_task_id: string | null;
  tags: string[];
  due_date: string | null;
  start_date: string | null;
  created_at: string | null;
  updated_at: string | null;
  completed_at: string | null;
  task_type: string | null;
  created_via: string | null;
  review: string | null;
  position: number | null;
  /** Local edits not yet accepted by the server are part of these values. */
  pending: boolean;
  /** The server no longer lists it; pending edits keep it until they are settled. */
  server_gone: boolean;
}

/** How a query was answered (for benchmarks and tests; not part of the result's meaning). */
export type TaskQueryPath =
  'candidates' | 'candidate-walk' | 'filter-index' | 'filter-walk' | 'walk' | 'groups' | 'empty';

export interface TaskListPage {
  items: TaskListItem[];
  /** Pass as `after` for the next page; null on the last page. */
  next: string | null;
  path: TaskQueryPath;
}

/** Anything the service's parser accepts: a parsed query, or the query string's pairs. */
export type TaskQueryInput = TaskListQuery | URLSearchParams | Iterable<readonly [string, string]>;

/**
 * Above this many candidates a search is "broad": fetching them costs more
 * than walking the sort order and checking every row.
 */
const CANDIDATE_LIMIT = 10_000;
/**
 * A count's synchronous step aims at this much work (wall time): far under
 * the 50 ms that stall the main process even when a step takes three times
 * its estimate (seen on a loaded machine).
 */
const COUNT_STEP_MS = 5;
/** A count's first row id range and candidate slice: about 2-3 ms each at 100 000 tasks (measured). */
const FIRST_COUNT_RANGE = 2048;
const FIRST_COUNT_SLICE = 1024;
/** Writes between a count's steps start it again this many times at most; then it counts on through them. */
const COUNT_RESTARTS = 2;
/** Candidates fetched first, to estimate how many there are in all. */
const FIRST_CANDIDATES = 2000;
/** A term word found inside more vocabulary words than this narrows too little to look up. */
const MAX_WORDS_PER_PART = 300;
/** Filter indexes are counted up to this many rows; beyond, walking the sort order is always cheaper. */
const PROBE_LIMIT = 8000;
/**
 * CPU per step of a plan, in µs, measured at 100 000 tasks (the bench's file,
 * its pages in the cache): what plan() weighs the ways of answering with.
 */
const COST = {
  /** A task row reached from an index entry, read and its filters checked. */
  rowCheck: 0.8,
  /** A task row reached from a filter index, checked, and its sort key sorted. */
  sortedRow: 1.3,
  /** A row of a sorted page read again by its id for its item (a walk reads it once). */
  reread: 2.5,
  /** A row id put in a filter's set (its index entries alone, no row read). */
  setMember: 0.45,
  /** A sort index entry walked and its row id looked up in that set. */
  setTest: 0.1,
};
const DEFAULT_LIMIT = 200;
/** A search word found in no task: nothing can match. */
const NO_MATCH = Symbol('no match');
const MAX_LIMIT = 1000;

/**
 * A list item's columns then its row id, as one JSON array text a row:
 * better-sqlite3 makes a JS value of every column (~0.15 µs each, nulls
 * too), and one text through JSON.parse costs about a quarter less a page
 * (measured; SQLite writes reals with digits enough to read back the same).
 */
const ITEM_JSON =
  'json_array(t.task_id, t.title, t.status, t.priority, t.assignee, t.project_id, t.team_id, t.section_id, ' +
  't.sprint_id, t.goal_id, t.milestone_id, t.parent_task_id, json(t.tags), t.due_date, t.start_date, ' +
  't.created_at, t.updated_at, t.completed_at, t.task_type, t.created_via, t.review, t.position, ' +
  't.pending > 0, t.server_gone > 0, t.rid)';

/** The ORDER BY columns of each sort key, ascending; each list ends in the tie-breakers and never holds a null. */
const SORT_COLUMNS: Record<TaskSortKey, readonly string[]> = {
  task_id: ['search_id', 'task_id'],
  title: ['k_title', 'title', 'task_id'],
  status: ['k_status', 'status', 'task_id'],
  priority: ['k_priority', 't_priority', 'task_id'],
  due_date: ['k_due', 'task_id'],
  start_date: ['k_start', 'task_id'],
  created_at: ['k_created', 't_created', 'task_id'],
  assignee: ['k_assignee', 't_assignee', 'task_id'],
  project_id: ['k_project', 't_project', 'task_id'],
  priority_rank: ['k_priority_rank', 't_priority', 'task_id'],
  status_rank: ['k_status_rank', 'status', 'task_id'],
  task_type: ['k_task_type', 't_task_type', 'task_id'],
};

type KeyValue = string | number | Buffer;

/** A row of ITEM_JSON, parsed. */
type ItemRow = unknown[];
const RID_AT = 24;

function itemOf(row: ItemRow): TaskListItem {
  return {
    task_id: row[0] as string,
    title: row[1] as string,
    status: row[2] as string,
    priority: row[3] as string | null,
    assignee: row[4] as string | null,
    project_id: row[5] as string | null,
    team_id: row[6] as string | null,
    section_id: row[7] as string | null,
    sprint_id: row[8] as string | null,
    goal_id: row[9] as string | null,
    milestone_id: row[10] as string | null,
    parent_task_id: row[11] as string | null,
    tags: row[12] as string[],
    due_date: row[13] as string | null,
    start_date: row[14] as string | null,
    created_at: row[15] as string | null,
    updated_at: row[16] as string | null,
    completed_at: row[17] as string | null,
    task_type: row[18] as string | null,
    created_via: row[19] as string | null,
    review: row[20] as string | null,
    position: row[21] as number | null,
    pending: row[22] === 1,
    server_gone: row[23] === 1,
  };
}

function isParsedQuery(input: TaskQueryInput): input is TaskListQuery {
  return (
    typeof (input as TaskListQuery).sort_by === 'string' &&
    typeof (input as TaskListQuery).filter === 'object'
  );
}

/** The pairs a parsed query stands for: running them through the parser again refuses what the service would. */
export function taskQueryParams(query: TaskListQuery): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of TASK_FILTER_KEYS) {
    const value = query.filter[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([`filter[${key}]`, v]);
    else pairs.push([`filter[${key}]`, String(value)]);
  }
  pairs.push(['sort_by', query.sort_by], ['sort_order', query.sort_order]);
  return pairs;
}

/** Parses any accepted input into a query, with the service's errors for unknown keys and values. */
export function normalizeTaskQuery(input: TaskQueryInput): TaskListQuery {
  return parseTaskListQuery(isParsedQuery(input) ? taskQueryParams(input) : input);
}

function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Compares sort key values as SQLite's binary collation does: numbers < text < blobs, text by code point. */
function compareKeyValues(a: KeyValue, b: KeyValue): number {
  const kind = (v: KeyValue) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return ka - kb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return Buffer.compare(a as Buffer, b as Buffer);
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

interface Cursor {
  sortBy: TaskSortKey;
  order: 'asc' | 'desc';
  values: KeyValue[];
}

function encodeCursor(cursor: Cursor): string {
  const values = cursor.values.map((v) => (Buffer.isBuffer(v) ? { null: true } : v));
  return Buffer.from(JSON.stringify({ s: cursor.sortBy, o: cursor.order, v: values })).toString('base64url');
}

function decodeCursor(text: string, query: TaskListQuery): Cursor {
  const refuse = () =>
    new InvalidParameterError(['query', 'cursor'], 'the cursor does not belong to this sort order', null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  const { s, o, v } = (parsed ?? {}) as { s?: unknown; o?: unknown; v?: unknown };
  const width = SORT_COLUMNS[query.sort_by].length;
  if (s !== query.sort_by || o !== query.sort_order || !Array.isArray(v) || v.length !== width)
    throw refuse();
  const values = v.map((item: unknown): KeyValue => {
    if (typeof item === 'string' || typeof item === 'number') return item;
    if (typeof item === 'object' && item !== null && (item as { null?: unknown }).null === true)
      return NULL_KEY;
    throw refuse();
  });
  return { sortBy: query.sort_by, order: query.sort_order, values };
}

/** Conditions that are a range of an index's leading column (what it could narrow to). */
interface Narrowing {
  sql: string[];
  params: unknown[];
}

interface Where {
  sql: string[];
  params: unknown[];
  /** Per index, what it could narrow to. */
  narrowing: Map<string, Narrowing>;
  /** Filters no index narrowing implies (team, tags, search, ...): they may leave far fewer matches than any narrowing. */
  unnarrowed: number;
}

/** How a page is read: `index` is walked (or, for filter-index, read and sorted); `set` narrows a walk. */
interface Plan {
  path: TaskQueryPath;
  index: string | null;
  set?: { index: string; narrowing: Narrowing };
}

function narrow(where: Where, index: string, sql: string, params: readonly unknown[]): void {
  const entry = where.narrowing.get(index) ?? { sql: [], params: [] };
  entry.sql.push(sql);
  entry.params.push(...params);
  where.narrowing.set(index, entry);
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function nullableIn(where: Where, column: string, values: readonly string[], nullToken: string): void {
  const concrete = values.filter((v) => v !== nullToken);
  const orNull = values.includes(nullToken);
  const parts: string[] = [];
  if (concrete.length > 0) {
    parts.push(`${column} IN (${marks(concrete.length)})`);
    where.params.push(...concrete);
  }
  if (orNull) parts.push(`${column} IS NULL`);
  where.sql.push(`(${parts.join(' OR ')})`);
}

/** Every filter but the search text's exact check, as SQL over `tasks t`. */
function filterWhere(f: TaskListFilter, me: string, today: string): Where {
  const where: Where = { sql: ['t.hidden = 0'], params: [], narrowing: new Map(), unnarrowed: 0 };
  /** A condition that also narrows an index. */
  const keyed = (index: string, sql: string, params: readonly unknown[]) => {
    where.sql.push(sql);
    where.params.push(...params);
    narrow(where, index, sql, params);
  };
  if (f.status) {
    const ranks = f.status.map((s) => STATUS_RANK[s]);
    keyed('tasks_by_status_rank', `t.k_status_rank IN (${marks(ranks.length)})`, ranks);
  }
  if (f.priority) {
    const ranks = f.priority.map((p) => PRIORITY_RANK[p]);
    keyed('tasks_by_priority_rank', `t.k_priority_rank IN (${marks(ranks.length)})`, ranks);
  }
  if (f.assignee) {
    const names = [...new Set(f.assignee.map((a) => (a === ME ? me : a)))];
    // The lower-case key lets the assignee index narrow; the raw column decides.
    keyed(
      'tasks_by_assignee',
      `t.k_assignee IN (${marks(names.length)})`,
      names.map((n) => n.toLowerCase()),
    );
    where.sql.push(`t.assignee IN (${marks(names.length)})`);
    where.params.push(...names);
  }
  if (f.project) {
    const ids = f.project.filter((p) => p !== UNFILED_PROJECT);
    const keys: KeyValue[] = ids.map((p) => p.toLowerCase());
    if (f.project.includes(UNFILED_PROJECT)) keys.push(NULL_KEY);
    keyed('tasks_by_project', `t.k_project IN (${marks(keys.length)})`, keys);
    nullableIn(where, 't.project_id', f.project, UNFILED_PROJECT);
  }
  if (f.team) nullableIn(where, 't.team_id', f.team, NO_TEAM);
  if (f.created_via) nullableIn(where, 't.created_via', f.created_via, NULL_VALUE);
  if (f.review) nullableIn(where, 't.review', f.review, NULL_VALUE);
  where.unnarrowed += [f.team, f.created_via, f.review, f.tags, f.search].filter(
    (v) => v !== undefined,
  ).length;
  if (f.task_type) {
    const n = f.task_type.length;
    keyed(
      'tasks_by_task_type',
      `t.k_task_type IN (${marks(n)})`,
      f.task_type.map((v) => v.toLowerCase()),
    );
    where.sql.push(`t.task_type IN (${marks(n)})`);
    where.params.push(...f.task_type);
  }
  if (f.tags) {
    const parts = f.tags.map((tag) => {
      if (tag.includes(TAG_SEPARATOR)) {
        where.params.push(tag);
        return 'mirror_has_tag(t.tags, ?)';
      }
      where.params.push(TAG_SEPARATOR + tag + TAG_SEPARATOR);
      return 'instr(t.tags_key, ?) > 0';
    });
    where.sql.push(`(${parts.join(' OR ')})`);
  }
  // Dates are text; a null date's key is a blob, which sorts after all text.
  if (f.due_after !== undefined) keyed('tasks_by_due', "t.k_due >= ? AND t.k_due < x''", [f.due_after]);
  if (f.due_before !== undefined) keyed('tasks_by_due', 't.k_due <= ?', [f.due_before]);
  // created_day decides; the bound on k_created (a day wider: an offset moves
  // the written date at most a day from the UTC one) lets its index narrow.
  if (f.created_after !== undefined) {
    where.sql.push('t.created_day >= ?');
    where.params.push(f.created_after);
    keyed('tasks_by_created', 't.k_created >= ?', [addDays(f.created_after, -1)]);
  }
  if (f.created_before !== undefined) {
    where.sql.push('t.created_day <= ?');
    where.params.push(f.created_before);
    keyed('tasks_by_created', 't.k_created < ?', [addDays(f.created_before, 2)]);
  }
  if (f.overdue === true) {
    keyed('tasks_by_due', 't.k_due < ?', [today]);
    where.sql.push(`t.k_status_rank <> ${STATUS_RANK.completed}`);
    where.unnarrowed++;
  }
  if (f.search !== undefined) {
    const term = f.search.toLowerCase();
    if (f.search_fields === 'title') {
      where.sql.push('instr(t.k_title, ?) > 0');
      where.params.push(term);
    } else {
      const tags = term.includes(TAG_SEPARATOR)
        ? 'mirror_tags_contain(t.tags, ?)'
        : 'instr(t.search_tags, ?) > 0';
      // The description lives apart: read only when title, id and tags did not
      // match, from the compact search text (a term without the separator is
      // in it exactly when it is in a field), else from its last part alone.
      const body = term.includes(TAG_SEPARATOR)
        ? 'mirror_search_body_contains((SELECT s.text FROM task_search_text s WHERE s.rid = t.rid), t.k_title, t.search_id, t.search_tags, ?)'
        : 'instr((SELECT s.text FROM task_search_text s WHERE s.rid = t.rid), ?) > 0';
      where.sql.push(`(instr(t.k_title, ?) > 0 OR instr(t.search_id, ?) > 0 OR ${tags} OR ${body})`);
      where.params.push(term, term, term, term);
    }
  }
  return where;
}

/**
 * The lower-case term of a filter that is a search of all fields and nothing
 * else, when the compact search text answers it exactly (no separator in the
 * term); else null.
 */
function searchOnly(f: TaskListFilter): string | null {
  if (f.search === undefined || f.search === '' || f.search_fields !== 'all') return null;
  for (const key of TASK_FILTER_KEYS) {
    if (key !== 'search' && key !== 'search_fields' && f[key] !== undefined) return null;
  }
  const term = f.search.toLowerCase();
  return term.includes(TAG_SEPARATOR) ? null : term;
}

/** A group of a grouped walk: one value of the sort key, walked in task id order on the rank index. */
interface SortGroup {
  /** The rank index's first column value (rank, lower-case name, or the null key). */
  rank: KeyValue;
  /** Its second column (the raw value, '' for null). */
  raw: string;
  /** The group's place in the sort order: its `k_*` value. */
  key: KeyValue;
}

/** The index whose order is each sort key's order (status and priority are walked in groups on the rank indexes). */
const SORT_INDEX: Record<TaskSortKey, string | null> = {
  task_id: 'tasks_by_id',
  title: 'tasks_by_title',
  status: null,
  priority: null,
  due_date: 'tasks_by_due',
  start_date: 'tasks_by_start',
  created_at: 'tasks_by_created',
  assignee: 'tasks_by_assignee',
  project_id: 'tasks_by_project',
  priority_rank: 'tasks_by_priority_rank',
  status_rank: 'tasks_by_status_rank',
  task_type: 'tasks_by_task_type',
};

const GROUPED: Partial<
  Record<TaskSortKey, { rankColumn: string; rawColumn: string; known: Record<string, number>; index: string }>
> = {
  status: {
    rankColumn: 'k_status_rank',
    rawColumn: 'status',
    known: STATUS_RANK,
    index: 'tasks_by_status_rank',
  },
  priority: {
    rankColumn: 'k_priority_rank',
    rawColumn: 't_priority',
    known: PRIORITY_RANK,
    index: 'tasks_by_priority_rank',
  },
};

/** The next step's range or slice: scaled toward COUNT_STEP_MS by the last one's time, at most doubled. */
function nextStepSize(size: number, ms: number): number {
  const scale = Math.min(2, Math.max(0.25, COUNT_STEP_MS / Math.max(ms, 0.05)));
  return Math.max(64, Math.round(size * scale));
}

export class TaskQueries {
  private readonly statements = new Map<string, Statement>();
  private readonly rowStatements = new Map<string, Statement>();
  private probes = new Map<string, number>();
  private probesVersion = '';
  /**
   * The candidates of the last search or tag filter, until the data changes:
   * the next pages of a list (and its count) ask for the same ones, and
   * fetching a few thousand costs about as much as the page itself (measured).
   */
  private lastCandidates: { version: string; key: string; rids: number[] | null } | null = null;

  /**
   * Runs a page's statements in one read transaction: its row ids, then their
   * items and the cursor's sort key, come from one state of the file even
   * while another connection (the sync worker's) commits in between.
   */
  private readonly oneRead: (work: () => TaskListPage) => TaskListPage;

  constructor(
    private readonly db: Database,
    private readonly words: WordIndex,
    /** Moves on every task write (probe counts are cached until it does). */
    private readonly version: () => string,
    /** The task indexes that exist now (sort indexes are absent during a first load). */
    private readonly indexes: () => ReadonlySet<string>,
    /** False while a first load's tasks are not all in the word index: no candidates then. */
    private readonly wordsComplete: () => boolean,
  ) {
    this.oneRead = db.transaction((work: () => TaskListPage) => work());
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Up to how many candidates fetching and sorting them beats walking the sort
   * order testing membership: sorting costs ~4 µs a candidate, the walk ~0.3 µs
   * an index entry over limit x total / candidates entries (measured).
   */
  private sortableCandidates(limit: number): number {
    return Math.sqrt(limit * this.rowEstimate() * 0.075);
  }

  /** About how many task rows there are: the largest row id (deleted rows only make it high). */
  private rowEstimate(): number {
    return (this.statement('SELECT max(rid) AS n FROM tasks').get() as { n: number | null }).n ?? 0;
  }

  /** The item rows a statement selecting ITEM_JSON returns. */
  private rows(sql: string, params: readonly unknown[]): ItemRow[] {
    let statement = this.rowStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).pluck(true);
      this.rowStatements.set(sql, statement);
    }
    return (statement.all(...params) as string[]).map((text) => JSON.parse(text) as ItemRow);
  }

  /** The item rows of `rids`, in that order. */
  private rowsById(rids: readonly number[]): ItemRow[] {
    if (rids.length === 0) return [];
    const found = this.rows(`SELECT ${ITEM_JSON} FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value`, [
      JSON.stringify(rids),
    ]);
    const byRid = new Map(found.map((row) => [row[RID_AT] as number, row]));
    return rids.map((rid) => byRid.get(rid) as ItemRow);
  }

  /** The sort key values of one row (a page's last: its cursor). */
  private sortValues(sortBy: TaskSortKey, rid: number): KeyValue[] {
    const columns = SORT_COLUMNS[sortBy].map((c) => `t.${c}`).join(', ');
    return this.statement(`SELECT ${columns} FROM tasks t WHERE t.rid = ?`).raw(true).get(rid) as KeyValue[];
  }

  /** How many rows an index narrows to, counted up to PROBE_LIMIT (index entries only, no row reads). */
  private probe(index: string, narrowing: Narrowing): number {
    if (this.probesVersion !== this.version()) {
      this.probes = new Map();
      this.probesVersion = this.version();
    }
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')} LIMIT ${PROBE_LIMIT + 1})`;
    const key = `${sql}\u0000${JSON.stringify(narrowing.params, (_, v: unknown) => (Buffer.isBuffer(v) ? null : v))}`;
    let n = this.probes.get(key);
    if (n === undefined) {
      n = (this.statement(sql).get(...narrowing.params) as { n: number }).n;
      this.probes.set(key, n);
    }
    return n;
  }

  /**
   * Of the filter indexes the file has (but `except`), the one narrowing to
   * the fewest rows, when that is at most PROBE_LIMIT; else null.
   */
  private narrowestIndex(
    where: Where,
    except: string | null,
  ): { index: string; n: number; narrowing: Narrowing } | null {
    const available = this.indexes();
    let best: { index: string; n: number; narrowing: Narrowing } | null = null;
    for (const [index, narrowing] of where.narrowing) {
      if (index === except || !available.has(index)) continue;
      const n = this.probe(index, narrowing);
      if (n <= PROBE_LIMIT && (best === null || n < best.n)) best = { index, n, narrowing };
    }
    return best;
  }

  /**
   * Chooses how to answer without candidates, by selectivity (SQLite's planner
   * decides from sampled statistics and was measured sorting half the table
   * for a two-status filter, hence the explicit choice). With n the fewest
   * rows a filter index narrows to and about limit x total / n entries of the
   * sort order to walk until the page is full, the cheapest (COST) of:
   * - walk: check the row of every entry walked;
   * - filter-index: read and sort those n rows, then read the page's again;
   * - filter-walk: put their n row ids in a set (index entries only) and
   *   walk the sort order testing each entry's row id, reading only members.
   */
  private plan(sortBy: TaskSortKey, where: Where, limit: number): Plan {
    const available = this.indexes();
    const sortIndex = SORT_INDEX[sortBy];
    const grouped = GROUPED[sortBy];
    const walk: Plan = grouped
      ? available.has(grouped.index)
        ? { path: 'groups', index: null }
        : { path: 'walk', index: null }
      : // Without its index (a first load in progress) SQLite sorts: slower, same order.
        { path: 'walk', index: sortIndex !== null && available.has(sortIndex) ? sortIndex : null };
    const best = this.narrowestIndex(where, sortIndex);
    if (best === null) return walk;
    const total = Math.max(this.rowEstimate(), 1);
    const walked = Math.min(total, ((limit + 1) * total) / Math.max(best.n, 1));
    const costs: [number, Plan][] = [
      [walked * COST.rowCheck, walk],
      [
        best.n * COST.sortedRow + Math.min(limit + 1, best.n) * COST.reread,
        { path: 'filter-index', index: best.index },
      ],
    ];
    // A set walk needs the sort order's index (grouped sorts walk theirs value by value), and
    // its filter alone: with others it may walk the whole order for a few matches.
    if (walk.path === 'walk' && walk.index !== null && where.narrowing.size === 1 && where.unnarrowed === 0)
      costs.push([
        best.n * COST.setMember + walked * COST.setTest + Math.min(limit + 1, best.n) * COST.rowCheck,
        { path: 'filter-walk', index: walk.index, set: { index: best.index, narrowing: best.narrowing } },
      ]);
    return costs.reduce((a, b) => (b[0] < a[0] ? b : a))[1];
  }

  /**
   * The word-index query the search term's words narrow to: NO_MATCH when some
   * word of it is in no title, description or tag; null when no word of it is
   * long and rare enough to narrow anything.
   */
  private searchWordsQuery(term: string): string | typeof NO_MATCH | null {
    const groups: string[][] = [];
    for (const part of termWords(term)) {
      const found =
        part.openBefore && part.openAfter
          ? this.words.wordsWith(part.word, MAX_WORDS_PER_PART)
          : part.openBefore
            ? this.words.wordsEndingWith(part.word, MAX_WORDS_PER_PART)
            : part.openAfter
              ? this.words.wordsStartingWith(part.word, MAX_WORDS_PER_PART)
              : this.words.wordIs(part.word);
      if (found === null) continue;
      if (found.length === 0) return NO_MATCH;
      groups.push(found);
    }
    return groups.length > 0 ? allOfAnyQuery(groups) : null;
  }

  /** A word-index query true for every task carrying one of the tags (null: a tag has no word to look for). */
  private tagsQuery(tags: readonly string[] | undefined): string | null {
    if (!tags) return null;
    const alternatives = tags.map((tag) => wordsOf(tag.toLowerCase()));
    return alternatives.every((words) => words.length > 0) ? anyOfAllQuery(alternatives) : null;
  }

  /**
   * Row ids to answer from (a superset of the matches, checked exactly by the
   * query), or null when the search and tags narrow to more than
   * CANDIDATE_LIMIT tasks or cannot narrow at all: then the sort order is walked.
   */
  private candidates(f: TaskListFilter): number[] | null {
    if (!this.wordsComplete()) return null;
    if (f.search === undefined && f.tags === undefined) return null;
    const version = this.version();
    const key = JSON.stringify([f.search, f.search_fields, f.tags]);
    const last = this.lastCandidates;
    if (last !== null && last.version === version && last.key === key) return last.rids;
    const rids = this.findCandidates(f);
    this.lastCandidates = { version, key, rids };
    return rids;
  }

  private findCandidates(f: TaskListFilter, limit = CANDIDATE_LIMIT): number[] | null {
    const tags = this.tagsQuery(f.tags);
    if (f.search === undefined) return tags === null ? null : this.fetchCandidates(tags, limit);
    const term = f.search.toLowerCase();
    // Punctuation alone has no word to look up: scan the compact search text
    // (a superset for title-only search too), stopping past CANDIDATE_LIMIT.
    if (termWords(term).length === 0)
      return tags === null ? this.limited(this.textContaining(term, limit), limit) : null;
    const words = this.searchWordsQuery(term);
    if (words === null) return null;
    let hits: number[] = [];
    if (words !== NO_MATCH) {
      const found = this.fetchCandidates(tags === null ? words : `${words} AND ${tags}`, limit);
      if (found === null) return null;
      hits = found;
    }
    if (f.search_fields === 'all') {
      // The id is searched too: by its own bigrams, or a one-character term
      // by scanning the id index (ids only: a few MB, no row reads).
      const ids =
        [...term].length < MIN_ID_LOOKUP_CHARS
          ? this.idsContaining(term, limit)
          : this.words.matchId(term, limit + 1);
      if (ids.length > 0) hits = [...new Set([...hits, ...ids])];
    }
    return this.limited(hits, limit);
  }

  /**
   * Candidates of a word-index query, or null when there are more than
   * `limit`. They come in row id order, so the first few thousand tell
   * how dense the rest is: a query clearly beyond the limit stops there
   * instead of fetching ten thousand rows to learn it.
   */
  private fetchCandidates(query: string, limit: number): number[] | null {
    const first = this.words.match(query, FIRST_CANDIDATES);
    if (first.length < FIRST_CANDIDATES) return first;
    const last = first[first.length - 1] as number;
    const estimate = (first.length * this.rowEstimate()) / last;
    if (estimate > limit * 1.5) return null;
    const rest = this.words.match(query, limit + 1 - first.length, last);
    return this.limited([...first, ...rest], limit);
  }

  /** Row ids of the tasks whose id contains `term` (lower case), up to `limit` + 1. */
  private idsContaining(term: string, limit: number): number[] {
    return this.statement(
      'SELECT rid FROM tasks INDEXED BY tasks_by_id WHERE instr(search_id, ?) > 0 LIMIT ?',
    )
      .pluck()
      .all(term, limit + 1) as number[];
  }

  /** Row ids of the visible tasks whose search text contains `term` (lower case), up to `limit` + 1. */
  private textContaining(term: string, limit: number): number[] {
    return this.statement('SELECT rid FROM task_search_text WHERE instr(text, ?) > 0 LIMIT ?')
      .pluck()
      .all(term, limit + 1) as number[];
  }

  private limited(rids: number[], limit: number): number[] | null {
    return rids.length > limit ? null : rids;
  }

  page(input: TaskQueryInput, options: TaskQueryOptions): TaskListPage {
    return this.oneRead(() => this.readPage(input, options));
  }

  private readPage(input: TaskQueryInput, options: TaskQueryOptions): TaskListPage {
    const query = normalizeTaskQuery(input);
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT);
    const after = options.after ? decodeCursor(options.after, query) : null;
    const where = filterWhere(query.filter, options.me, options.today);
    const rids = this.candidates(query.filter);
    if (rids !== null && rids.length === 0) return { items: [], next: null, path: 'empty' };

    const columns = SORT_COLUMNS[query.sort_by];
    const desc = query.sort_order === 'desc';
    let plan: Plan;
    if (rids !== null && rids.length <= this.sortableCandidates(limit))
      plan = { path: 'candidates', index: null };
    else {
      if (rids !== null) {
        // Too many to fetch and sort: walk the sort order, testing membership on each index entry (no row read).
        where.sql.push('t.rid IN (SELECT value FROM json_each(?))');
        where.params.push(JSON.stringify(rids));
      }
      plan = this.plan(query.sort_by, where, limit);
      if (rids !== null && plan.path === 'walk') plan = { ...plan, path: 'candidate-walk' };
    }
    if (plan.set) {
      // Built once per statement from the filter index's entries; tested on each sort index entry before its row is read.
      const { index, narrowing } = plan.set;
      where.sql.push(
        `t.rid IN (SELECT t.rid FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')})`,
      );
      where.params.push(...narrowing.params);
    }
    let rows: ItemRow[];
    const path = plan.path;
    if (plan.path === 'groups') {
      rows = this.groupedWalk(query.sort_by, desc, where, after, limit + 1, query.filter);
    } else {
      const sql = [...where.sql];
      const params = [...where.params];
      if (after) {
        sql.push(
          `(${columns.map((c) => `t.${c}`).join(', ')}) ${desc ? '<' : '>'} (${marks(columns.length)})`,
        );
        params.push(...after.values);
      }
      const order = columns.map((c) => `t.${c}${desc ? ' DESC' : ''}`).join(', ');
      const candidates = plan.path === 'candidates';
      const from = candidates
        ? 'json_each(?) c CROSS JOIN tasks t ON t.rid = c.value'
        : plan.index === null
          ? 'tasks t'
          : `tasks t INDEXED BY ${plan.index}`;
      if (candidates) params.unshift(JSON.stringify(rids));
      const tail = `FROM ${from} WHERE ${sql.join(' AND ')} ORDER BY ${order} LIMIT ?`;
      // SQLite sorts the candidates, a filter index's rows, or (its index absent) the walk's.
      const sorted = candidates || plan.path === 'filter-index' || plan.index === null;
      rows = sorted
        ? // Only the row id and the sort key go through the sorter; the page's rows are read after.
          this.rowsById(
            this.statement(`SELECT t.rid ${tail}`)
              .pluck()
              .all(...params, limit + 1) as number[],
          )
        : this.rows(`SELECT ${ITEM_JSON} ${tail}`, [...params, limit + 1]);
    }
    const more = rows.length > limit;
    if (more) rows.length = limit;
    const last = rows[rows.length - 1];
    const next =
      more && last
        ? encodeCursor({
            sortBy: query.sort_by,
            order: query.sort_order,
            values: this.sortValues(query.sort_by, last[RID_AT] as number),
          })
        : null;
    return { items: rows.map(itemOf), next, path };
  }

  /** Every match of the query, counted in one go (`countSteps` run to the end): for callers that may block. */
  count(input: TaskQueryInput, options: Pick<TaskQueryOptions, 'me' | 'today'>): number {
    const steps = this.countSteps(input, options);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * Every match of the query, counted in synchronous steps of about
   * COUNT_STEP_MS each (`next()` runs one): a broad count is a full pass
   * over 100 000 tasks, 50-100 ms in one statement, which would stall the
   * main process, so it counts row id ranges or slices of its candidates
   * instead. A write between steps starts the count again, so the answer is
   * the one a single statement gives; after COUNT_RESTARTS writes it counts on,
   * each step on the rows as they are then (the writes' change notice brings a
   * recount anyway).
   */
  *countSteps(
    input: TaskQueryInput,
    options: Pick<TaskQueryOptions, 'me' | 'today'>,
  ): Generator<void, number, void> {
    const query = normalizeTaskQuery(input);
    for (let restart = 0; ; restart++) {
      const version = this.version();
      let total = 0;
      let moved = false;
      for (const part of this.countParts(query, options)) {
        total += part;
        yield;
        if (restart < COUNT_RESTARTS && this.version() !== version) {
          moved = true;
          break;
        }
      }
      if (!moved) return total;
    }
  }

  /** The partial counts of a query, one synchronous step each (a step that only prepares counts 0). */
  private *countParts(
    query: TaskListQuery,
    options: Pick<TaskQueryOptions, 'me' | 'today'>,
  ): Generator<number> {
    const where = filterWhere(query.filter, options.me, options.today);
    const rids = this.candidates(query.filter);
    if (rids !== null && rids.length === 0) return;
    const term = searchOnly(query.filter);
    if (term !== null) {
      // A search and nothing else: its candidates' compact search text is
      // checked (hidden tasks have none), or, with too many or none to take,
      // every task's; no task or body rows read either way.
      if (rids === null)
        yield* this.rangeCounts(
          'task_search_text',
          'SELECT count(*) AS n FROM task_search_text WHERE rid > ? AND rid <= ? AND instr(text, ?) > 0',
          [term],
        );
      else
        yield* this.sliceCounts(
          rids,
          `SELECT count(*) AS n FROM json_each(?) c CROSS JOIN task_search_text s ON s.rid = c.value
            WHERE instr(s.text, ?) > 0`,
          [term],
        );
      return;
    }
    const conditions = where.sql.join(' AND ');
    if (rids !== null) {
      yield* this.sliceCounts(
        rids,
        `SELECT count(*) AS n FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value WHERE ${conditions}`,
        where.params,
      );
      return;
    }
    // A filter whose index narrows to a few thousand rows is one short step on that index.
    const best = this.narrowestIndex(where, null);
    if (best !== null) {
      yield 0;
      yield (
        this.statement(`SELECT count(*) AS n FROM tasks t INDEXED BY ${best.index} WHERE ${conditions}`).get(
          ...where.params,
        ) as { n: number }
      ).n;
      return;
    }
    // Anything broader reads the rows in row id order, a range a step (whole
    // rows: all 100 000 in ~16 ms CPU, where one statement may count on a
    // narrower covering index in ~10, but in one stall; measured).
    yield* this.rangeCounts(
      'tasks',
      `SELECT count(*) AS n FROM tasks t NOT INDEXED WHERE t.rid > ? AND t.rid <= ? AND ${conditions}`,
      where.params,
    );
  }

  /**
   * Counts of `sql` (its first two parameters a row id range, `> lo` and
   * `<= hi`) over the table's row ids as they are now, a range a step, each
   * range sized by the time the last one took.
   */
  private *rangeCounts(table: string, sql: string, params: readonly unknown[]): Generator<number> {
    const bounds = this.statement(
      // Apart: SQLite reads one end of the row ids for a lone min() or max(), the whole table for both.
      `SELECT (SELECT min(rid) FROM ${table}) AS low, (SELECT max(rid) FROM ${table}) AS high`,
    ).get() as {
      low: number | null;
      high: number | null;
    };
    if (bounds.low === null || bounds.high === null) return;
    const statement = this.statement(sql);
    let size = FIRST_COUNT_RANGE;
    for (let lo = bounds.low - 1; lo < bounds.high;) {
      const hi = Math.min(lo + size, bounds.high);
      const start = performance.now();
      const { n } = statement.get(lo, hi, ...params) as { n: number };
      size = nextStepSize(size, performance.now() - start);
      lo = hi;
      yield n;
    }
  }

  /** Counts of `sql` (its first parameter the JSON of row ids) over slices of `rids`, a slice a step. */
  private *sliceCounts(rids: readonly number[], sql: string, params: readonly unknown[]): Generator<number> {
    const statement = this.statement(sql);
    let size = FIRST_COUNT_SLICE;
    for (let at = 0; at < rids.length;) {
      const slice = rids.slice(at, at + size);
      const start = performance.now();
      const { n } = statement.get(JSON.stringify(slice), ...params) as { n: number };
      size = nextStepSize(size, performance.now() - start);
      at += slice.length;
      yield n;
    }
  }

  /** The values present of a grouped sort key, in ascending sort order. */
  private groups(sortBy: TaskSortKey, f: TaskListFilter): SortGroup[] {
    const spec = GROUPED[sortBy];
    if (!spec) return [];
    const allowed = sortBy === 'status' ? f.status : sortBy === 'priority' ? f.priority : undefined;
    const groups: SortGroup[] = [];
    for (const [name, rank] of Object.entries(spec.known)) {
      if (allowed && !allowed.includes(name)) continue;
      groups.push({ rank, raw: name, key: name.toLowerCase() });
    }
    if (!allowed) {
      // Values the contract does not name: their key is their lower-case text (text sorts after ranks).
      const unknown = this.statement(
        `SELECT DISTINCT t.${spec.rankColumn} AS rank, t.${spec.rawColumn} AS raw FROM tasks t
          WHERE t.${spec.rankColumn} > 3 AND t.${spec.rankColumn} < x''`,
      ).all() as { rank: string; raw: string }[];
      for (const { rank, raw } of unknown) groups.push({ rank, raw, key: rank });
      if (sortBy === 'priority') groups.push({ rank: NULL_KEY, raw: '', key: NULL_KEY });
    }
    return groups.sort((a, b) => compareKeyValues(a.key, b.key) || compareCodePoints(a.raw, b.raw));
  }

  /** A status or priority sort: each value's tasks in id order on the rank index, value after value. */
  private groupedWalk(
    sortBy: TaskSortKey,
    desc: boolean,
    where: Where,
    after: Cursor | null,
    want: number,
    f: TaskListFilter,
  ): ItemRow[] {
    const spec = GROUPED[sortBy] as NonNullable<(typeof GROUPED)[TaskSortKey]>;
    let groups = this.groups(sortBy, f);
    if (desc) groups = groups.reverse();
    const rows: ItemRow[] = [];
    const base = `SELECT ${ITEM_JSON} FROM tasks t WHERE ${where.sql.join(' AND ')} AND t.${spec.rankColumn} = ? AND t.${spec.rawColumn} = ?`;
    const order = ` ORDER BY t.task_id${desc ? ' DESC' : ''} LIMIT ?`;
    for (const group of groups) {
      let idBound: string | null = null;
      if (after) {
        const [key, raw, id] = after.values as [KeyValue, string, string];
        const position = compareKeyValues(group.key, key) || compareCodePoints(group.raw, raw);
        if (desc ? position > 0 : position < 0) continue;
        if (position === 0) idBound = id;
      }
      const sql = idBound === null ? base + order : `${base} AND t.task_id ${desc ? '<' : '>'} ?${order}`;
      const params = [...where.params, group.rank, group.raw, ...(idBound === null ? [] : [idBound])];
      const found = this.rows(sql, [...params, want - rows.length]);
      rows.push(...found);
      if (rows.length >= want) break;
    }
    return rows;
  }
}
