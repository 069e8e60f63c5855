// The vocabulary of the service's task list (`GET /v1/tasks`): every
// `filter[...]` key and value, `sort_by` and `sort_order`, parsed into one typed
// query. The emulator answers it over HTTP and the local mirror answers it from
// SQLite; both read it through this parser so that they accept and refuse the
// same things, with the same errors.
//
// Semantics both sides implement (the contract's table, made precise where it is
// silent; the mirror's equivalence test holds them to it):
// - Values are OR-ed within a key, keys are AND-ed. A key may repeat or carry
//   comma-separated values, except `filter[search]`, whose text is taken whole
//   (a `,` in it matches literally).
// - `assignee=me` is the caller's username; `project=__unfiled__` matches a null
//   project, `team=__none__` a null team, `created_via=none` and `review=none` null.
// - `tags` matches a task carrying any of the tags (exact, case-sensitive).
// - Date bounds are inclusive days in UTC: `due_after=D` is `due_date >= D`,
//   `created_before=D` is `created_at` on or before day D; a null date never matches.
// - `overdue=true`: `due_date` before today (UTC) and status not `completed`;
//   `overdue=false` restricts nothing.
// - `search`: case-insensitive (Unicode lower case) substring of the title,
//   description, task id or any tag (`search_fields=title`: the title only);
//   every character matches literally. An empty search restricts nothing.
// - Sorting: strings compare case-insensitively (lower case), then by code
//   point; `priority_rank` orders low < medium < high < urgent and
//   `status_rank` not_started < in_progress < blocked < completed, unknown values
//   after the known ones (by name). Nulls sort as the largest value: last in
//   `asc`, first in `desc`. Ties are broken by `task_id` in the same direction.

export const TASK_FILTER_KEYS = [
  'status',
  'priority',
  'assignee',
  'project',
  'tags',
  'due_after',
  'due_before',
  'created_after',
  'created_before',
  'overdue',
  'search',
  'search_fields',
  'team',
  'task_type',
  'created_via',
  'review',
] as const;
export type TaskFilterKey = (typeof TASK_FILTER_KEYS)[number];

/** The keys that take one day, `YYYY-MM-DD`: inclusive bounds in UTC. */
export const TASK_DATE_FILTER_KEYS = ['due_after', 'due_before', 'created_after', 'created_before'] as const;
export type TaskDateFilterKey = (typeof TASK_DATE_FILTER_KEYS)[number];

/** The keys that take one value; a second is refused. */
const SINGLE_VALUED_KEYS = [...TASK_DATE_FILTER_KEYS, 'overdue', 'search', 'search_fields'] as const;
const SINGLE_VALUED: ReadonlySet<TaskFilterKey> = new Set(SINGLE_VALUED_KEYS);

/** The keys that take a list of values (repeated or comma-separated), OR-ed: the filter bar's choices. */
export type TaskChoiceFilterKey = Exclude<TaskFilterKey, (typeof SINGLE_VALUED_KEYS)[number]>;
export const TASK_CHOICE_FILTER_KEYS: readonly TaskChoiceFilterKey[] = TASK_FILTER_KEYS.filter(
  (key): key is TaskChoiceFilterKey => !SINGLE_VALUED.has(key),
);

export const TASK_SORT_KEYS = [
  'task_id',
  'title',
  'status',
  'priority',
  'due_date',
  'start_date',
  'created_at',
  'assignee',
  'project_id',
  'priority_rank',
  'status_rank',
  'task_type',
] as const;
export type TaskSortKey = (typeof TASK_SORT_KEYS)[number];

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const PRIORITY_RANK: Readonly<Record<string, number>> = { low: 0, medium: 1, high: 2, urgent: 3 };
export const STATUS_RANK: Readonly<Record<string, number>> = {
  not_started: 0,
  in_progress: 1,
  blocked: 2,
  completed: 3,
};

/** Allowed values of the keys whose values form a closed set. */
export const CLOSED_VALUES = {
  status: ['not_started', 'in_progress', 'blocked', 'completed'],
  priority: ['low', 'medium', 'high', 'urgent'],
  task_type: ['task', 'bug'],
  created_via: ['app', 'api', 'sdk', 'mcp', 'none'],
  review: ['pending', 'accepted', 'rejected', 'none'],
  overdue: ['true', 'false'],
  search_fields: ['all', 'title'],
} as const satisfies Partial<Record<TaskFilterKey, readonly string[]>>;

export interface TaskListFilter {
  status?: string[];
  priority?: string[];
  /** Usernames; `me` stays `me` here and is resolved by whoever knows the caller. */
  assignee?: string[];
  /** Project ids; `__unfiled__` stands for a null project. */
  project?: string[];
  tags?: string[];
  due_after?: string;
  due_before?: string;
  created_after?: string;
  created_before?: string;
  overdue?: boolean;
  search?: string;
  search_fields: 'all' | 'title';
  /** Team ids; `__none__` stands for a null team. */
  team?: string[];
  task_type?: string[];
  /** `none` stands for null. */
  created_via?: string[];
  /** `none` stands for null. */
  review?: string[];
}

export interface TaskListQuery {
  filter: TaskListFilter;
  sort_by: TaskSortKey;
  sort_order: SortOrder;
}

export const UNFILED_PROJECT = '__unfiled__';
export const NO_TEAM = '__none__';
export const NULL_VALUE = 'none';
export const ME = 'me';

/** A query parameter outside what the operation accepts: 400 `invalid-parameter`. */
export class InvalidParameterError extends Error {
  override readonly name = 'InvalidParameterError';
  constructor(
    /** Where, as the problem's `errors[].loc`: `['query', 'filter[status]']`. */
    readonly loc: string[],
    message: string,
    /** The values that would have been accepted, when they form a closed set. */
    readonly allowed: readonly string[] | null,
  ) {
    super(message);
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isFilterKey(key: string): key is TaskFilterKey {
  return (TASK_FILTER_KEYS as readonly string[]).includes(key);
}

/** A calendar date `YYYY-MM-DD` that exists (`2026-02-30` does not). */
export function isValidDay(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Parses the task-list parameters (the query string's pairs, in order) into a
 * typed query. Parameters that are not `filter[...]`, `sort_by` or
 * `sort_order` (such as `org_id`, `limit`, `cursor`) are left to the caller.
 * Throws {@link InvalidParameterError} naming the first parameter it refuses.
 */
export function parseTaskListQuery(params: Iterable<readonly [string, string]>): TaskListQuery {
  const raw = new Map<TaskFilterKey, string[]>();
  let sortBy: TaskSortKey = 'title';
  let sortOrder: SortOrder = 'asc';

  for (const [name, value] of params) {
    if (name === 'sort_by') {
      if (!(TASK_SORT_KEYS as readonly string[]).includes(value)) {
        throw new InvalidParameterError(['query', 'sort_by'], `sort_by cannot be '${value}'`, TASK_SORT_KEYS);
      }
      sortBy = value as TaskSortKey;
      continue;
    }
    if (name === 'sort_order') {
      if (!(SORT_ORDERS as readonly string[]).includes(value)) {
        throw new InvalidParameterError(
          ['query', 'sort_order'],
          `sort_order cannot be '${value}'`,
          SORT_ORDERS,
        );
      }
      sortOrder = value as SortOrder;
      continue;
    }
    const match = /^filter\[(.*)\]$/.exec(name);
    if (!match) continue;
    const key = match[1] ?? '';
    if (!isFilterKey(key)) {
      throw new InvalidParameterError(['query', name], `unknown filter '${key}'`, TASK_FILTER_KEYS);
    }
    if (SINGLE_VALUED.has(key) && raw.has(key)) {
      throw new InvalidParameterError(['query', name], `${name} takes one value`, null);
    }
    const values = key === 'search' ? [value] : value.split(',').map((part) => part.trim());
    const list = raw.get(key) ?? [];
    list.push(...values);
    raw.set(key, list);
  }

  const filter: TaskListFilter = { search_fields: 'all' };
  for (const [key, values] of raw) {
    const loc = ['query', `filter[${key}]`];
    if (key !== 'search') {
      const empty = values.find((v) => v === '');
      if (empty !== undefined)
        throw new InvalidParameterError(loc, `filter[${key}] has an empty value`, null);
    }
    if (key in CLOSED_VALUES) {
      const allowed: readonly string[] = CLOSED_VALUES[key as keyof typeof CLOSED_VALUES];
      const bad = values.find((v) => !allowed.includes(v));
      if (bad !== undefined) {
        throw new InvalidParameterError(loc, `filter[${key}] cannot be '${bad}'`, allowed);
      }
    }
    const unique = [...new Set(values)];
    const first = values[0] ?? '';
    switch (key) {
      case 'due_after':
      case 'due_before':
      case 'created_after':
      case 'created_before':
        if (!isValidDay(first)) {
          throw new InvalidParameterError(
            loc,
            `filter[${key}] must be a date YYYY-MM-DD, not '${first}'`,
            null,
          );
        }
        filter[key] = first;
        break;
      case 'overdue':
        filter.overdue = first === 'true';
        break;
      case 'search':
        if (first !== '') filter.search = first;
        break;
      case 'search_fields':
        filter.search_fields = first as 'all' | 'title';
        break;
      default:
        filter[key] = unique;
    }
  }
  return { filter, sort_by: sortBy, sort_order: sortOrder };
}
