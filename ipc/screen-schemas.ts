// What the screens send and read over the bridge: accounts, the task list in
// the service's own filter/sort vocabulary, a task and its edits, the sidebar's
// collections with their counts, and the sync status. The channels that use
// these are declared in ./contract; no Electron here.
import { z } from 'zod';
import { FILING_FIELDS } from '../protocol/writable-kinds';
import { taskCommentSchema } from '../protocol/task-comment';
import { taskHistoryEntrySchema } from '../protocol/task-history';
import { SORT_ORDERS, TASK_SORT_KEYS } from '../protocol/task-list-query';
import { TASK_DESCRIPTION_MAX, TASK_TITLE_MAX, taskSchema } from '../protocol/task';
import { waitsOnSchema } from './outbox-schemas';
import { workspaceCollectionsSchema } from '../db/read-models/workspace';
import { taskFamilySchema } from '../db/read-models/task-family';
import { idSchema, localIdSchema } from './id-schemas';

// ---- accounts ----------------------------------------------------------------

/** Where an account's service lives: a self-hosted or staging service is one field away. */
export const serverSettingsSchema = z.strictObject({
  base_url: z.string().min(1).max(2000),
  auth_url: z.string().min(1).max(2000),
  client_id: z.string().min(1).max(200),
});
export type ServerSettings = z.infer<typeof serverSettingsSchema>;

export const accountSummarySchema = z.object({
  account_id: z.string(),
  username: z.string(),
  user_id: z.string(),
  org_id: z.string(),
  org_name: z.string().nullable(),
  server: serverSettingsSchema,
  /** Signed in with a test token or a token without write scopes: edits are refused before they are queued. */
  read_only: z.boolean(),
  /**
   * Kinds (`sprint`, `goal`, `milestone`...) this sign-in may not change, each
   * with the scope it lacks: not granted at sign-in or refused by the service
   * since. Signing in again asks for it; until then their edits are refused before they are queued.
   */
  read_only_kinds: z.array(z.object({ kind: z.string(), scope: z.string() })),
  /** `signed-out` keeps the mirror and queued edits until the person signs in again. */
  state: z.enum(['signed-in', 'signed-out']),
  /** The account the window shows. */
  current: z.boolean(),
  /** Runs against the local emulator started by "Try the demo". */
  demo: z.boolean(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const accountListSchema = z.object({
  accounts: z.array(accountSummarySchema),
  current: z.string().nullable(),
});
export type AccountList = z.infer<typeof accountListSchema>;

/**
 * Whether sign-ins outlive a restart: `encrypted` by the OS keychain;
 * `session-only` where the OS offers no real keychain (Linux `basic_text`) and
 * the person has not chosen otherwise; `unencrypted-by-choice` when they did.
 */
export const secretStorageSchema = z.object({
  persistence: z.enum(['encrypted', 'session-only', 'unencrypted-by-choice']),
});
export type SecretStorage = z.infer<typeof secretStorageSchema>;

export const tokenSignInSchema = z.strictObject({
  server: serverSettingsSchema,
  token: z.string().min(1).max(4096),
  /** Sign in again to this (signed-out) account: only as its own user and organization (`account-mismatch`). */
  account_id: localIdSchema.optional(),
});

export const signOutSchema = z.strictObject({
  account_id: localIdSchema,
  /** With edits still queued: keep them for the next sign-in to the same account (the default) or drop them. */
  keep_pending: z.boolean().optional(),
});

// ---- the task list -----------------------------------------------------------------

/** A jump passes over at most this many pages per call, so main never blocks long on one. */
export const MAX_SKIPPED_PAGES = 40;

const filterValues = z.array(z.string().min(1).max(1000)).max(500);
const filterDay = z.string().max(10);

/**
 * `filter[...]` of `GET /v1/tasks`, one key per filter; the values are checked
 * by the service's own parser (protocol/task-list-query.ts), so the
 * mirror refuses what the service would, with its `invalid-parameter` error.
 */
export const taskFilterSchema = z.strictObject({
  status: filterValues.optional(),
  priority: filterValues.optional(),
  /** Usernames, or `me`. */
  assignee: filterValues.optional(),
  /** Project ids, or `__unfiled__`. */
  project: filterValues.optional(),
  tags: filterValues.optional(),
  due_after: filterDay.optional(),
  due_before: filterDay.optional(),
  created_after: filterDay.optional(),
  created_before: filterDay.optional(),
  overdue: z.boolean().optional(),
  search: z.string().max(1000).optional(),
  search_fields: z.enum(['all', 'title']).optional(),
  /** Team ids, or `__none__`. */
  team: filterValues.optional(),
  task_type: filterValues.optional(),
  created_via: filterValues.optional(),
  review: filterValues.optional(),
});
export type TaskFilter = z.infer<typeof taskFilterSchema>;

export const taskListQuerySchema = z.strictObject({
  filter: taskFilterSchema,
  sort_by: z.enum(TASK_SORT_KEYS),
  sort_order: z.enum(SORT_ORDERS),
});
export type TaskListQueryInput = z.infer<typeof taskListQuerySchema>;

/**
 * The list on screen a page or count is for (e.g. `task-list`): a later call
 * for that list with another query, or its next count, stops its count still
 * running, which then answers null (the person typed on); so does the list's
 * close (`tasks:list-closed`).
 */
const listNameSchema = z.string().min(1).max(100);

/**
 * Only the sub-tasks of this task: the list filtered by parent, which the
 * mirror answers beside the query (the service's list has no parent filter).
 */
export const listParentSchema = idSchema.optional();

export const taskQueryRequestSchema = z.strictObject({
  query: taskListQuerySchema,
  /** The `next` of the previous page; absent or null for the first page. */
  after: z.string().max(4000).nullable().optional(),
  /** Default 200, at most 1000. */
  limit: z.number().int().min(1).max(1000).optional(),
  /**
   * Pages of `limit` rows to pass over before the page answered (a jump far
   * down a long list): walked in main, only their cursors come back.
   */
  skip: z.number().int().min(0).max(MAX_SKIPPED_PAGES).optional(),
  /**
   * The page counted from the list's end: its last `limit` rows, or those just
   * before `before` (the answer's `before` of the page after); `after` is then
   * not asked, and `skip` passes over pages towards the list's start.
   */
  from_end: z.literal(true).optional(),
  before: z.string().max(4000).nullable().optional(),
  list: listNameSchema.optional(),
  parent: listParentSchema,
});

/** Every match of a query, counted apart from its pages so that a page never waits for it. */
export const taskCountRequestSchema = z.strictObject({
  query: taskListQuerySchema,
  list: listNameSchema.optional(),
  parent: listParentSchema,
});

/** A list the window no longer shows (the person went to another screen): its count still running stops. */
export const listClosedSchema = z.strictObject({ list: listNameSchema });

/**
 * How a task stands with the server, for the mark beside it: edits waiting to
 * be pushed, a conflict waiting for the person, an edit the server refused, or
 * an edit blocked because the account may not write.
 */
export const syncMarkSchema = z.enum(['pending', 'conflict', 'failed', 'blocked']).nullable();
export type SyncMark = z.infer<typeof syncMarkSchema>;

/** A task as a list row shows it (its effective values: pending edits included). */
export const taskRowSchema = z.object({
  task_id: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string().nullable(),
  assignee: z.string().nullable(),
  project_id: z.string().nullable(),
  team_id: z.string().nullable(),
  section_id: z.string().nullable(),
  sprint_id: z.string().nullable(),
  goal_id: z.string().nullable(),
  tags: z.array(z.string()),
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  created_at: z.string().nullable(),
  task_type: z.string().nullable(),
  review: z.string().nullable(),
  position: z.number().nullable(),
  sync_mark: syncMarkSchema,
  /** The stopped change a queued edit of it is held behind (its mark then says so); absent when none. */
  waits_on: waitsOnSchema.optional(),
});
export type TaskRow = z.infer<typeof taskRowSchema>;

export const taskPageSchema = z.object({
  rows: z.array(taskRowSchema),
  next: z.string().nullable(),
  /**
   * With `skip`: the cursor (`after`) of each page passed over after the first, in order;
   * from the end, the `before` of each page passed over, towards the start.
   */
  skipped: z.array(z.string()),
  /**
   * From the end: the cursor (`after`) that fetches these rows walking forward, null when
   * they are the list's first; absent when not known (a write came between).
   */
  after: z.string().nullable().optional(),
  /** From the end: pass as `before` for the page before these; null when they are the first, absent when not known. */
  before: z.string().nullable().optional(),
});
export type TaskPage = z.infer<typeof taskPageSchema>;

/**
 * What the gate checks of a page of rows before it leaves (contract `envelope`): the rows are built
 * field by field from the mirror's typed columns by our own code (task-handlers.ts `rowOf`), so
 * parsing each of them only copied every row once more before Electron's structured clone copies
 * it; their shape is checked by the tests (task-handlers.test.ts) against `taskRowSchema`.
 */
export const taskPageEnvelopeSchema = taskPageSchema.extend({ rows: z.array(z.unknown()) });

export const taskCountSchema = z.object({
  /** Every match of the query; null when a later call for its list stopped it first. */
  count: z.number().int().nullable(),
});
export type TaskCount = z.infer<typeof taskCountSchema>;

/** How many tasks wait in each team's intake (review pending), by team id; a team none wait in is left out. */
export const intakeCountsSchema = z.record(z.string(), z.number().int().nonnegative());

/**
 * The tasks filed in some sections, sprints, goals or milestones (the board,
 * the sprint, goal and milestones views): not part of the service's list vocabulary, so a channel of
 * its own, ordered by `position` then title.
 */
export const filedTasksRequestSchema = z.strictObject({
  field: z.enum(FILING_FIELDS),
  values: z.array(idSchema).min(1).max(200),
  /** Default 2000, at most 5000. */
  limit: z.number().int().min(1).max(5000).optional(),
});

export const filedTasksSchema = z.object({
  rows: z.array(taskRowSchema),
  /** More matched than `limit`. */
  truncated: z.boolean(),
});
export type FiledTasks = z.infer<typeof filedTasksSchema>;

/** What the gate checks of filed tasks before they leave: the envelope, as for a page (taskPageEnvelopeSchema). */
export const filedTasksEnvelopeSchema = filedTasksSchema.extend({ rows: z.array(z.unknown()) });

// ---- one task -------------------------------------------------------------------------

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .nullable();
const reference = idSchema.nullable();

/** A JSON merge-patch of the fields a person may change (null clears a field). */
export const taskPatchSchema = z.strictObject({
  title: z.string().trim().min(1).max(TASK_TITLE_MAX).optional(),
  description: z.string().max(TASK_DESCRIPTION_MAX).nullable().optional(),
  status: z.string().min(1).max(100).optional(),
  priority: z.string().min(1).max(100).nullable().optional(),
  assignee: z.string().min(1).max(200).nullable().optional(),
  tags: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  due_date: day.optional(),
  start_date: day.optional(),
  project_id: reference.optional(),
  team_id: reference.optional(),
  section_id: reference.optional(),
  sprint_id: reference.optional(),
  goal_id: reference.optional(),
  milestone_id: reference.optional(),
  parent_task_id: reference.optional(),
  task_type: z.string().min(1).max(50).optional(),
  review: z.string().min(1).max(50).nullable().optional(),
  position: z.number().finite().nullable().optional(),
});
export type TaskPatchInput = z.infer<typeof taskPatchSchema>;

export const taskCreateSchema = taskPatchSchema.extend({
  title: z.string().trim().min(1).max(TASK_TITLE_MAX),
});

export const taskDetailSchema = z.object({
  /** The effective task (unknown fields kept). */
  task: taskSchema,
  sync_mark: syncMarkSchema,
  /** Fields whose shown value is a local edit not yet accepted by the server. */
  pending_fields: z.array(z.string()),
  /** The stopped change a queued edit of it is held behind (its marks then say so); absent when none. */
  waits_on: waitsOnSchema.optional(),
  /** The server no longer lists the task; it stays while edits to it are pending. */
  server_gone: z.boolean(),
  /** The task it is a sub-task of, and its own sub-tasks with how many are done. */
  family: taskFamilySchema,
});
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const taskActivitySchema = z.object({
  comments: z.array(taskCommentSchema),
  history: z.array(taskHistoryEntrySchema),
  /** False when nothing was cached yet and the server could not be asked (offline). */
  cached: z.boolean(),
});
export type TaskActivity = z.infer<typeof taskActivitySchema>;

// ---- the sidebar's collections ---------------------------------------------------

// The read models declare their shapes once (db/read-models/workspace.ts, db/read-models/milestone-list.ts).
export { type MilestoneSummary, milestoneSummarySchema } from '../db/read-models/milestone-list';
export { type SprintSummary, sprintSummarySchema } from '../db/read-models/workspace';
export { type TaskFamily, taskFamilySchema } from '../db/read-models/task-family';

export const workspaceSchema = workspaceCollectionsSchema.extend({
  me: z.object({ username: z.string(), user_id: z.string() }).nullable(),
  /** Tag values in use, most used first (for the tag filter and the editor's suggestions). */
  tags: z.array(z.string()),
});
export type Workspace = z.infer<typeof workspaceSchema>;

// ---- sync status -----------------------------------------------------------------

/** Why the app cannot reach the service, in a form the renderer words for a person. */
export const syncProblemSchema = z.object({
  /** `network`, `problem`, `signed-out`, `storage`, `internal`, … (SyncErrorInfo.kind). */
  kind: z.string(),
  /** The problem type name (`rate-limit`, `token-revoked`, …) or storage problem, when there is one. */
  type: z.string().nullable(),
  message: z.string(),
  /** When the service said to try again (rate-limited), ISO 8601; null when it did not. */
  retry_at: z.string().nullable(),
});
export type SyncProblem = z.infer<typeof syncProblemSchema>;

/** A collection (or one team's sprints) the last full sync could not sync; the rest was synced. */
export const unsyncedCollectionSchema = z.object({
  /** `sections`, `sprints`, `tasks`, … */
  collection: z.string(),
  /** '' for a collection listed whole; the team id for a team's sprints. */
  scope: z.string(),
  /** Not tried because this collection, which it needs, failed; null when it was tried. */
  skipped_because: z.string().nullable(),
  /** SyncErrorInfo.kind of what failed it (`problem`, `network`, `cursor-refused`, …). */
  kind: z.string(),
  /** The problem type, when the service named one. */
  type: z.string().nullable(),
  /** The HTTP status of the failing answer, when there was one. */
  status: z.number().int().nullable(),
  message: z.string(),
});
export type UnsyncedCollection = z.infer<typeof unsyncedCollectionSchema>;

/** An item a sync left out because the server sent it in a form that breaks the contract; its previous copy is kept. */
export const leftOutItemSchema = z.object({
  /** `tasks`, `task_comments`, `me`, … */
  collection: z.string(),
  /** The item's id, clipped; null when it named none that could be read. */
  id: z.string().nullable(),
  /** Where in the item, e.g. `status`; `(row)` for the item itself, `(answer)` for a whole answer. */
  field: z.string(),
  /** The check's words (never the value received). */
  reason: z.string(),
});
export type LeftOutItem = z.infer<typeof leftOutItemSchema>;

/** How an account's link with the service stands, as the status bar and the account panel show it. */
export const connectionFields = {
  connection: z.enum(['online', 'offline', 'unknown']),
  /** Why offline (or why the last sync failed), with when to try again. */
  problem: syncProblemSchema.nullable(),
  syncing: z.boolean(),
  last_synced_at: z.string().nullable(),
};

export const syncStatusSchema = z.object({
  account_id: z.string().nullable(),
  ...connectionFields,
  pending_count: z.number().int(),
  conflict_count: z.number().int(),
  /** Refused by the server. */
  failed_count: z.number().int(),
  /** Not sent: the account may not make them (read-only). */
  blocked_count: z.number().int(),
  /** While the first full sync of the account runs: what it is fetching and how far it got. */
  first_sync: z
    .object({
      collection: z.string(),
      items_done: z.number().int(),
      estimated_total: z.number().int().nullable(),
    })
    .nullable(),
  /** The account may read but not write (test token or missing scope). */
  read_only: z.boolean(),
  signed_out: z.boolean(),
  /** The person paused syncing (tray or account panel): no polling, no pushes until resumed. */
  paused: z.boolean(),
  /** What the last full sync could not sync (tried again soon); empty when everything synced. */
  unsynced: z.array(unsyncedCollectionSchema),
  /** What the last full sync (and any since) left out, by name up to 50, then counted in `more`. */
  left_out: z.object({ items: z.array(leftOutItemSchema), more: z.number().int().min(0) }),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** Something in the mirror changed; lists and open screens reload what concerns them. */
export const mirrorChangedSchema = z.object({
  account_id: z.string().nullable(),
  /** Collections that changed (`tasks`, `sections`, `task_comments`, …; `tags`: the tags in use counted again). */
  collections: z.array(z.string()),
  /** The tasks that changed, when known; null means "any". */
  task_ids: z.array(z.string()).nullable(),
  /** Temporary ids replaced by the server's (a screen showing one follows it). */
  remapped: z.array(z.object({ from: z.string(), to: z.string() })),
});
export type MirrorChanged = z.infer<typeof mirrorChangedSchema>;
