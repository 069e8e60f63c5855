// From a task's JSON to the columns the mirror filters, sorts and searches on:
// the check of the fields it reads (the same rules as protocol/task.ts,
// without the cost of a full parse) and the derived search keys; the sort keys
// SQLite computes from these (virtual columns, migration 0015), so that its
// plain binary order gives task-list-query.ts's order.
import { NULLABLE_TEXT_TASK_FIELDS, TASK_DATE_FIELDS } from '../../protocol/task';
import { MalformedRowError } from '../mirror-errors';
import { rowBeyondBounds } from '../collections/row-nesting';
import type { Selectable } from 'kysely';
import type { TasksTable } from '../schema';

/** A task as JSON: the fields we know, and any others kept untouched. */
export type TaskObject = Record<string, unknown>;

/** The key of a null value: an empty blob sorts after every number and text. */
export const NULL_KEY: Buffer = Buffer.alloc(0);

/** Separates tags in the `tags_key` / `search_tags` columns; never inside a search term's match unless the term has it. */
export const TAG_SEPARATOR = '\u001f';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks the fields the mirror stores in columns, by the rules of `taskSchema`
 * (protocol/task.ts). Returns the error naming the first bad field, or
 * null. Unknown fields are kept as sent, only not nested past what the mirror
 * can store (row-nesting.ts).
 */
export function checkTask(value: unknown): MalformedRowError | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new MalformedRowError('tasks', null, '(row)', 'is not a JSON object');
  }
  const task = value as TaskObject;
  const rawId = task.task_id;
  const id = typeof rawId === 'string' && rawId.length > 0 ? rawId : null;
  if (id === null) return new MalformedRowError('tasks', null, 'task_id', 'must be a non-empty string');
  const bad = (field: string, reason: string) => new MalformedRowError('tasks', id, field, reason);
  if (typeof task.title !== 'string') return bad('title', 'must be a string');
  if (typeof task.status !== 'string') return bad('status', 'must be a string');
  for (const field of NULLABLE_TEXT_TASK_FIELDS) {
    const v = task[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return bad(field, 'must be a string or null');
  }
  const tags = task.tags;
  if (tags !== undefined && tags !== null) {
    if (!Array.isArray(tags)) return bad('tags', 'must be an array of strings or null');
    for (const tag of tags)
      if (typeof tag !== 'string') return bad('tags', 'must be an array of strings or null');
  }
  for (const field of TASK_DATE_FIELDS) {
    const v = task[field];
    if (v !== undefined && v !== null && (typeof v !== 'string' || !DATE.test(v))) {
      return bad(field, 'must be a date YYYY-MM-DD or null');
    }
  }
  const position = task.position;
  if (position !== undefined && position !== null && typeof position !== 'number') {
    return bad('position', 'must be a number or null');
  }
  const beyond = rowBeyondBounds(task);
  if (beyond !== null) return bad(beyond.field, beyond.reason);
  return null;
}

function str(task: TaskObject, field: string): string | null {
  const v = task[field];
  return typeof v === 'string' ? v : null;
}

/** Fields whose sort key is their lower case (migration 0015 computes the keys in SQL). */
const LOWERED_FIELDS = [
  'title',
  'status',
  'priority',
  'assignee',
  'project_id',
  'created_at',
  'task_type',
] as const;
/** Anything but printable ASCII: only such a value may lower-case differently (then compared). */
const NOT_PRINTABLE_ASCII = /[^ -~]/;
const ASCII_UPPER = /[A-Z]/g;
/** SQLite's lower() of one letter A-Z (it folds no other). */
const asciiLower = (c: string) => c.toLowerCase();

/**
 * What a row keeps of `lower`, the lower case (JavaScript's) of `value`, in
 * a `*_kept` column (migration 0027): '' where SQLite's lower() of the value
 * gives it, which the virtual column then makes; `lower` itself otherwise.
 */
export function keptLowerCase(value: string, lower: string): string {
  return lower === value.replace(ASCII_UPPER, asciiLower) ? '' : lower;
}

/**
 * `k_lower`: the lower case of the lowered fields where JavaScript's differs
 * from SQLite's lower(), which folds only A-Z; null when none does (an ASCII
 * value never does, and that test is all most rows cost).
 */
function lowerOverrides(task: TaskObject, title: string, titleLower: string): string | null {
  let overrides: Record<string, string> | null = null;
  for (const field of LOWERED_FIELDS) {
    const value = field === 'title' ? title : task[field];
    if (typeof value !== 'string' || !NOT_PRINTABLE_ASCII.test(value)) continue;
    const lower = field === 'title' ? titleLower : value.toLowerCase();
    if (lower !== value.replace(ASCII_UPPER, asciiLower)) (overrides ??= {})[field] = lower;
  }
  return overrides === null ? null : JSON.stringify(overrides);
}

const ISO_DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const UTC_SUFFIX = /(?:[zZ]|[+-]00:?00)$/;

/**
 * The UTC day of a date-time, or null when it is not one (a null date never
 * matches a date bound). Its first ten characters are then within a day of it,
 * which lets the created-date filters narrow the created_at index first.
 */
export function utcDayOf(value: string | null): string | null {
  if (value === null || !ISO_DAY_PREFIX.test(value)) return null;
  if (value.length === 10 || UTC_SUFFIX.test(value)) return value.slice(0, 10);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

/** The sort keys SQLite computes from the row (migration 0015): never written. */
type VirtualColumns =
  | 'k_title'
  | 'k_status'
  | 'k_status_rank'
  | 'k_priority'
  | 'k_priority_rank'
  | 't_priority'
  | 'k_assignee'
  | 't_assignee'
  | 'k_project'
  | 't_project'
  | 'k_due'
  | 'k_start'
  | 'k_created'
  | 't_created'
  | 'k_task_type'
  | 't_task_type'
  | 't_created_case'
  | 't_id_case'
  | 'tags_key'
  | 'search_id'
  | 'search_tags'
  | 'created_day';

/**
 * Every stored column of a task row that follows from the (effective) task:
 * the `tasks` table (db/schema.ts) less its bookkeeping and virtual keys, plus
 * the parts of the search text.
 */
export type TaskColumns = Omit<
  Selectable<TasksTable>,
  'rid' | 'hidden' | 'pending' | 'server_gone' | 'seen_pass' | 'etag' | VirtualColumns
> & {
  /** The title, lower case (JavaScript's): the first part of the search text, and what k_title holds. */
  k_title: string;
  /** The description, lower case: the last part of the search text (searchTextRow), not stored alone. */
  search_body: string;
  /** The id lower case: a part of the search text, and what the search_id column gives. */
  search_id: string;
  /** The tags lower case, framed by U+001F: a part of the search text, and what the search_tags column gives. */
  search_tags: string;
};

/** The column values of a checked task (see {@link checkTask}). */
export function taskColumns(task: TaskObject): TaskColumns {
  const taskId = task.task_id as string;
  const title = task.title as string;
  const createdAt = str(task, 'created_at');
  const rawTags = task.tags;
  const tags = Array.isArray(rawTags) ? (rawTags as string[]) : [];
  const position = task.position;
  const titleLower = title.toLowerCase();
  let lowerTags = '';
  for (const tag of tags) lowerTags += TAG_SEPARATOR + tag.toLowerCase();
  const tagsJson = JSON.stringify(tags);
  const tagsKey = tags.length === 0 ? '' : TAG_SEPARATOR + tags.join(TAG_SEPARATOR) + TAG_SEPARATOR;
  const searchTags = tags.length === 0 ? '' : lowerTags + TAG_SEPARATOR;
  const createdDay = utcDayOf(createdAt);
  const searchId = taskId.toLowerCase();
  return {
    task_id: taskId,
    title,
    k_title: titleLower,
    status: task.status as string,
    priority: str(task, 'priority'),
    assignee: str(task, 'assignee'),
    project_id: str(task, 'project_id'),
    team_id: str(task, 'team_id'),
    section_id: str(task, 'section_id'),
    sprint_id: str(task, 'sprint_id'),
    goal_id: str(task, 'goal_id'),
    milestone_id: str(task, 'milestone_id'),
    parent_task_id: str(task, 'parent_task_id'),
    tags: tagsJson,
    // Migration 0027: '' where SQLite makes the value from the row's own, the value otherwise.
    tags_key_kept: tagsJson.includes('\\') ? tagsKey : '',
    due_date: str(task, 'due_date'),
    start_date: str(task, 'start_date'),
    created_at: createdAt,
    created_day_kept: createdDay !== null && createdDay === createdAt?.slice(0, 10) ? '' : createdDay,
    task_type: str(task, 'task_type'),
    created_via: str(task, 'created_via'),
    review: str(task, 'review'),
    position: typeof position === 'number' ? position : null,
    updated_at: str(task, 'updated_at'),
    completed_at: str(task, 'completed_at'),
    created_by: str(task, 'created_by'),
    updated_by: str(task, 'updated_by'),
    search_id: searchId,
    search_id_kept: keptLowerCase(taskId, searchId),
    search_tags: searchTags,
    search_tags_kept: keptLowerCase(tagsKey, searchTags),
    k_lower: lowerOverrides(task, title, titleLower),
    search_body: (str(task, 'description') ?? '').toLowerCase(),
  };
}

/** The text whose words go into the word index: title, description and tags, lower case (the id has its own trigrams). */
export function searchableText(
  columns: Pick<TaskColumns, 'k_title' | 'search_body' | 'search_tags'>,
): string {
  return `${columns.k_title} ${columns.search_body} ${columns.search_tags}`;
}

/**
 * A task's row of `task_search_text` (db/schema.ts): title, id, tags and
 * description joined by the tag separator; '' for a hidden task (migration
 * 0004 writes the same).
 */
export function searchTextRow(
  columns: Pick<TaskColumns, 'k_title' | 'search_id' | 'search_tags' | 'search_body'>,
  hidden: number,
): string {
  if (hidden !== 0) return '';
  return `${columns.k_title}${TAG_SEPARATOR}${columns.search_id}${TAG_SEPARATOR}${columns.search_tags}${TAG_SEPARATOR}${columns.search_body}`;
}

/** The description (lower case) inside a visible task's search text: what follows its title, id and tags. */
export function searchBodyOf(
  searchText: string,
  columns: Pick<TaskColumns, 'k_title' | 'search_id' | 'search_tags'>,
): string {
  return searchText.slice(columns.k_title.length + columns.search_id.length + columns.search_tags.length + 3);
}

/**
 * The words of {@link searchableText} read off a visible task's search text: its
 * title, then its tags and description as stored (the separator between them
 * splits words as a space does), without its id. Not the same string, the
 * same words, which is all the word index keeps (detail = none). The tags'
 * length is not needed: reading `search_tags`, a virtual column, cost a first
 * load's word-index build ~1 µs a task of its ~2.4 to read a row (measured).
 */
export function searchableTextOf(
  searchText: string,
  columns: Pick<TaskColumns, 'k_title' | 'search_id'>,
): string {
  return `${columns.k_title} ${searchText.slice(columns.k_title.length + columns.search_id.length + 2)}`;
}
