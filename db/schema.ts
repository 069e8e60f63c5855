// The mirror's tables as Kysely types: one interface per table (a writable
// collection kind's derived from its descriptor), with Selectable aliases for
// the rows db/ reads. Kept in step with db/migrations by the migration test,
// which compares these names with the live schema.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { TaskReferences } from '../protocol/task';
import type { LiftedColumn, WritableKind } from '../protocol/writable-kind';
import type { COLLECTION_KINDS } from '../protocol/writable-kinds';

/**
 * Sort keys hold text, an integer rank, or an empty blob standing for null:
 * SQLite orders integers < text < blobs, which is exactly "known ranks, then
 * unknown values by name, then nulls as the largest value".
 */
export type SortKeyValue = string | number | Uint8Array;

/**
 * A virtual column (migration 0015): computed by SQLite from the row's own
 * values when read, never written.
 */
export type Virtual<T> = ColumnType<T, never, never>;

export interface MetaTable {
  key: string;
  value: string;
}

/**
 * One task: the server's copy (raw JSON as sent, ETag) and the columns of the
 * EFFECTIVE row (server copy with pending local edits applied), which are what
 * every query filters, sorts and shows.
 */
/** The task's references (team_id … parent_task_id, project_id beside its sort keys) are columns too. */
export interface TasksTable extends TaskReferences {
  rid: Generated<number>;
  task_id: string;
  /** 1 while a local delete is pending: the row is the merge base, not shown. */
  hidden: Generated<number>;
  /** Number of unsettled outbox operations on this task. */
  pending: Generated<number>;
  /** 1 when a complete pass no longer returned it but pending edits keep it. */
  server_gone: Generated<number>;
  /** The pass of the full task list that last returned it. */
  seen_pass: Generated<number>;
  title: string;
  k_title: Virtual<string>;
  status: string;
  k_status: Virtual<string>;
  k_status_rank: Virtual<SortKeyValue>;
  priority: string | null;
  k_priority: Virtual<SortKeyValue>;
  k_priority_rank: Virtual<SortKeyValue>;
  /**
   * `t_*`: the raw value as a tie-breaker, '' for null (the `k_*` key already
   * puts nulls last): never null, so that keyset row-value comparisons work.
   */
  t_priority: Virtual<string>;
  assignee: string | null;
  k_assignee: Virtual<SortKeyValue>;
  t_assignee: Virtual<string>;
  project_id: string | null;
  k_project: Virtual<SortKeyValue>;
  t_project: Virtual<string>;
  /** JSON array text. */
  tags: string;
  /** Tags framed by U+001F (`\u001fa\u001fb\u001f`) for exact matching; '' when none. */
  tags_key: Virtual<string>;
  /**
   * `*_kept` (migration 0027): the stored value of the virtual column of that
   * name, '' where SQLite makes it from the row (db/tasks/task-columns.ts keptValues).
   */
  tags_key_kept: string;
  due_date: string | null;
  k_due: Virtual<SortKeyValue>;
  start_date: string | null;
  k_start: Virtual<SortKeyValue>;
  created_at: string | null;
  k_created: Virtual<SortKeyValue>;
  t_created: Virtual<string>;
  /** created_at's tie-breaker in tasks_by_created: '' for the usual upper-case value, else created_at (migration 0027). */
  t_created_case: Virtual<string>;
  /** UTC day of created_at (YYYY-MM-DD). */
  created_day: Virtual<string | null>;
  created_day_kept: string | null;
  task_type: string | null;
  k_task_type: Virtual<SortKeyValue>;
  t_task_type: Virtual<string>;
  created_via: string | null;
  review: string | null;
  position: number | null;
  updated_at: string | null;
  completed_at: string | null;
  created_by: string | null;
  updated_by: string | null;
  /** Unicode lower case of the searchable id and tags, for exact substring checks. */
  search_id: Virtual<string>;
  search_id_kept: string;
  /**
   * task_id's tie-breaker in tasks_by_id (migration 0028): x'' for an id that is its own lower case, the id
   * (text) below it, its bytes (a blob) above it.
   */
  t_id_case: Virtual<SortKeyValue>;
  search_tags: Virtual<string>;
  search_tags_kept: string;
  etag: string | null;
  /**
   * The lower case of the fields keyed by lower case (title, status, priority,
   * assignee, project_id, created_at, task_type) whose JavaScript lower case is
   * not SQLite's lower() (which folds ASCII only), as a JSON object by field;
   * null when there is none (the usual). The `k_*` keys read it first.
   */
  k_lower: string | null;
}

/**
 * One row: how many writes may have changed a task list's answer (db/tasks/task-store.ts
 * contentChanges, counted per transaction): the list's caches compare it (migration 0029).
 */
export interface TaskChangesTable {
  id: number;
  n: number;
}

/** The large texts of a task, one row per `tasks` row (same rid), kept apart so task rows stay narrow. */
export interface TaskBodiesTable {
  rid: number;
  /**
   * The task as the server last sent it, in its stored form (db/tasks/task-json.ts:
   * the array of its values when it has the contract's fields in order, else
   * its JSON text); null for a local create not yet sent.
   */
  server_json: string | null;
  /** The effective task as JSON when it differs from server_json (pending edits). */
  local_json: string | null;
}

/**
 * Each task's searchable text in one compact row (same rid): title, id, tags
 * and description, lower case, joined by U+001F (TAG_SEPARATOR); '' while the
 * task is hidden. A term without U+001F is in some field exactly when it is in
 * this text, so a search reads this narrow row instead of task_bodies.
 */
export interface TaskSearchTextTable {
  rid: number;
  text: string;
}

interface CollectionRow {
  /** '' for a collection listed whole; the team id for sprints; the task id for comments and history. */
  scope: string;
  seen_pass: Generated<number>;
  raw_json: string;
  etag: string | null;
  fetched_at: string;
}

export interface OrganizationsTable extends CollectionRow {
  org_id: string;
  name: string | null;
  slug: string | null;
}

export interface ProjectsTable extends CollectionRow {
  project_id: string;
  org_id: string | null;
  name: string | null;
  status: string | null;
  team_id: string | null;
}

export interface TeamsTable extends CollectionRow {
  team_id: string;
  org_id: string | null;
  name: string | null;
}

export interface OrganizationMembersTable extends CollectionRow {
  user_id: string;
  org_id: string | null;
  username: string | null;
  email: string | null;
  role: string | null;
  is_active: number | null;
}

/** A lifted column's SQLite value: booleans are stored as integers. */
type ColumnValue<T extends LiftedColumn[1]> = T extends 'string' ? string : number;

/**
 * A writable collection kind's table, from its descriptor: its id, its lifted
 * columns (null when the answer lacks the field) and the collection row's
 * bookkeeping; the migration that makes the table is written to match.
 */
type CollectionKindTable<K extends WritableKind> = CollectionRow & { [F in K['idField']]: string } & {
  [C in K['columns'][number] as C[0]]: ColumnValue<C[1]> | null;
};

/** Every writable collection kind's table by its collection name (`sections`, `sprints`, …). */
type CollectionKindTables = {
  [K in (typeof COLLECTION_KINDS)[number] as K['collection']]: CollectionKindTable<K>;
};

export interface TaskCommentsTable extends CollectionRow {
  comment_id: string;
  task_id: string;
  parent_comment_id: string | null;
  created_at: string | null;
}

export interface TaskHistoryTable extends CollectionRow {
  history_id: string;
  task_id: string;
  created_at: string | null;
}

/** When the person last opened each task (0010): its comments are kept fresh for 30 days after. */
export interface TaskOpeningsTable {
  task_id: string;
  opened_at: string;
}

/** When each task's comments were last asked for (0011), 200 or 304: the watch refreshes the stalest first. */
export interface CommentChecksTable {
  task_id: string;
  checked_at: string;
}

export interface SearchWordsTable {
  word_id: Generated<number>;
  word: string;
}

/** Per collection and scope: the current or last pass over its list. */
export interface SyncPassesTable {
  collection: string;
  scope: string;
  pass_no: number;
  /** 'running' | 'complete' */
  state: string;
  /** 1: a filtered listing, which never removes anything. */
  partial: number;
  started_at: string;
  completed_at: string | null;
  /** 1 once any pass over the list completed (0009); a restarted first pass is still not one. */
  completed_once: number;
}

/** One page of the last pass: what was sent, what came back. */
export interface SyncPagesTable {
  collection: string;
  scope: string;
  page_index: number;
  pass_no: number;
  cursor_sent: string | null;
  etag: string | null;
  next_cursor: string | null;
  /** JSON array of the ids the page held. */
  item_ids: string;
  fetched_at: string;
}

export interface OutboxTable {
  seq: Generated<number>;
  /** Stable; sent as the Idempotency-Key. */
  op_id: string;
  /** The kind of resource: 'task', 'comment' (every row before 0012 is a task's). */
  entity_type: string;
  entity_id: string;
  /** The resource's parent its routes or screen need (a comment's task); null for a task (0012). */
  parent_id: string | null;
  /** 'create' | 'update' | 'delete' */
  kind: string;
  /** JSON merge-patch of the changed fields (for a create: the body). */
  patch: string;
  base_etag: string | null;
  /** JSON object: the server's values of the patched fields when the edit was made. */
  base_values: string;
  /** 'queued' | 'in_flight' | 'done' | 'conflict' | 'failed' | 'blocked' */
  state: string;
  attempts: number;
  /** JSON problem+json body (or a local description) of the last failure. */
  last_problem: string | null;
  created_at: string;
  updated_at: string;
  /** The bulk change that queued it (or last folded an edit into it); null for a single edit (0023). */
  batch_id: string | null;
}

export interface ConflictsTable {
  conflict_id: string;
  op_id: string;
  entity_type: string;
  entity_id: string;
  field: string;
  /** JSON values. */
  base: string;
  mine: string;
  theirs: string;
  theirs_etag: string | null;
  /** 'open' | 'resolved' */
  state: string;
  /** JSON: {"take":"mine"} | {"take":"theirs"} | {"value":...} */
  resolution: string | null;
  created_at: string;
  resolved_at: string | null;
}

export interface ChangeFeedTable {
  id: Generated<number>;
  created_at: string;
  /** What happened, e.g. 'task-assigned', 'task-status-changed', 'task-commented'. */
  kind: string;
  entity_type: string;
  entity_id: string;
  /** The username the notification is for. */
  for_user: string;
  /** JSON details for display. */
  summary: string;
  seen_at: string | null;
  /** The change it stands for (migration 0024): one entry per change and person; null before. */
  change_key: string | null;
}

/** Something a person started writing and has not sent (migration 0021). */
export interface DraftsTable {
  /** `comment`, `reply` or `new-task`. */
  kind: string;
  /** The task it is on; '' for a new task. */
  task_id: string;
  /** The comment a reply answers; '' otherwise. */
  reply_to: string;
  /** JSON: the text, or a new task's fields. */
  body: string;
  updated_at: string;
}

export interface MirrorDatabase extends CollectionKindTables {
  meta: MetaTable;
  tasks: TasksTable;
  task_bodies: TaskBodiesTable;
  task_search_text: TaskSearchTextTable;
  task_changes: TaskChangesTable;
  organizations: OrganizationsTable;
  projects: ProjectsTable;
  teams: TeamsTable;
  organization_members: OrganizationMembersTable;
  task_comments: TaskCommentsTable;
  task_history: TaskHistoryTable;
  task_openings: TaskOpeningsTable;
  comment_checks: CommentChecksTable;
  search_words: SearchWordsTable;
  sync_passes: SyncPassesTable;
  sync_pages: SyncPagesTable;
  outbox: OutboxTable;
  conflicts: ConflictsTable;
  change_feed: ChangeFeedTable;
  drafts: DraftsTable;
}

export type SyncPassRow = Selectable<SyncPassesTable>;
export type SyncPageRow = Selectable<SyncPagesTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type ChangeFeedRow = Selectable<ChangeFeedTable>;

/** Virtual (FTS5) tables: not queried through Kysely, listed for the schema test. */
export const VIRTUAL_TABLES = ['task_words', 'search_word_trigrams'] as const;
