// How a task's server copy is stored in task_bodies.server_json: a task whose
// keys are the contract's fields in the contract's order (TASK_FIELDS, the
// order the service sends) is stored as the JSON array of its values, without
// the ~330 bytes of key names (a third of the text; 33 MB at 100 000 tasks);
// any other shape stays its JSON text. `[` or `{` tells them apart, and either
// reads back as exactly `JSON.stringify` of the task the mirror was given.
import { TASK_FIELDS, type TaskField } from '../../protocol/task';
import type { TaskObject } from './task-columns';

/** Text in the stored form: made only by storedTaskJson (or read from task_bodies). */
export type StoredTaskJson = string & { readonly storedForm: unique symbol };

const ARRAY_MARK = 0x5b; // '['
const FIELD_COUNT = TASK_FIELDS.length;

/**
 * A server copy's stored form: the JSON array of its values when the task
 * has exactly the contract's fields in order (none undefined, which an array
 * would write as null), else its JSON text. One JSON.stringify either way.
 */
export function storedTaskJson(task: TaskObject): StoredTaskJson {
  const keys = Object.keys(task);
  return (
    keys.length === FIELD_COUNT && inContractOrder(keys, task)
      ? JSON.stringify(Object.values(task))
      : JSON.stringify(task)
  ) as StoredTaskJson;
}

function inContractOrder(keys: readonly string[], task: TaskObject): boolean {
  for (let i = 0; i < FIELD_COUNT; i++) {
    const key = keys[i] as string;
    if (key !== TASK_FIELDS[i]) return false;
    const type = typeof task[key];
    if (type === 'undefined' || type === 'function' || type === 'symbol') return false;
  }
  return true;
}

/** The task's JSON text (exactly `JSON.stringify(task)`) from its stored form. */
export function taskJsonOf(stored: StoredTaskJson): string {
  return stored.charCodeAt(0) === ARRAY_MARK ? JSON.stringify(taskObjectOf(stored)) : stored;
}

/** The task object from its stored form, without making its text first. */
export function taskObjectOf(stored: StoredTaskJson): TaskObject {
  if (stored.charCodeAt(0) !== ARRAY_MARK) return JSON.parse(stored) as TaskObject;
  const values = storedValues(stored);
  const task: TaskObject = {};
  for (let i = 0; i < values.length; i++) task[TASK_FIELDS[i] as string] = values[i];
  return task;
}

function storedValues(stored: string): unknown[] {
  const values = JSON.parse(stored) as unknown[];
  if (values.length !== TASK_FIELDS.length)
    throw new Error(`a stored task holds ${values.length} values, not the ${TASK_FIELDS.length} fields`);
  return values;
}

/**
 * A server copy as task_bodies holds it when the task's search text
 * (task_search_text) ends with its description in lower case: the stored form
 * less the description's JSON, which reads back from that text. Told by its
 * first character, `~`; made and read only here and by migration 0017.
 */
export type SharedDescriptionForm = string & { readonly sharedDescription: unique symbol };

/** What task_bodies.server_json holds: a stored form, or one sharing the description with the search text. */
export type BodyServerJson = StoredTaskJson | SharedDescriptionForm;

const SHARED_MARK = 0x7e; // '~'

/**
 * The server copy's text for task_bodies when its description can be read
 * back from the search text: `~`, a header `[offset, length, i, "X", …]` (where
 * the description's JSON sat, how long the description is, then each run of
 * characters its lower case changed, by position), and the stored form
 * without the description's JSON. Only for a description whose lower case
 * has its length and whose header is shorter than it; else the stored form.
 * `lower` is `description.toLowerCase()`, the end of the task's search text.
 */
export function shareDescription(
  stored: StoredTaskJson,
  description: unknown,
  lower: string,
): BodyServerJson {
  if (typeof description !== 'string' || hasLoneSurrogate(stored)) return stored;
  const json = JSON.stringify(description);
  const offset = stored.indexOf(json);
  if (offset < 0) return stored;
  const header = caseHeader(description, lower, offset);
  if (header === null) return stored;
  const headerJson = JSON.stringify(header);
  if (headerJson.length + 1 >= json.length) return stored;
  return `~${headerJson}${stored.slice(0, offset)}${stored.slice(offset + json.length)}` as SharedDescriptionForm;
}

/**
 * Whether a text in the task holds a lone surrogate: JSON.stringify writes
 * one as a `\\udxxx` escape, which the stored form keeps, but SQLite stores
 * a text column as UTF-8, where it becomes U+FFFD, so neither the search text
 * nor a task column gives it back. (A text holding a backslash before `ud`
 * also answers true: it only keeps the copy whole.)
 */
function hasLoneSurrogate(stored: string): boolean {
  return stored.includes('\\ud');
}

/** The stored form back from task_bodies' text and the task's search text (its row of task_search_text). */
export function storedFormOf(body: BodyServerJson, searchText: string): StoredTaskJson {
  if (body.charCodeAt(0) !== SHARED_MARK) return body as StoredTaskJson;
  // The header holds numbers and the characters lower case changed, never a ']'.
  const end = body.indexOf(']') + 1;
  const header = JSON.parse(body.slice(1, end)) as [number, number, ...(number | string)[]];
  const [offset] = header;
  const description = describedBy(header, searchText, 1);
  const rest = body.slice(end);
  return (rest.slice(0, offset) + JSON.stringify(description) + rest.slice(offset)) as StoredTaskJson;
}

/** The contract's fields no task column holds as sent: kept in the copy itself, or not text. */
const NOT_ROW_TEXT = ['org_id', 'description', 'tags', 'position'] as const;
type RowTextField = Exclude<TaskField, (typeof NOT_ROW_TEXT)[number]>;

/**
 * The fields of the contract a task row's columns hold exactly as sent when
 * each is a string or null (db/tasks/task-columns.ts), in TASK_FIELDS order;
 * `tags` (the column is the array's JSON) and `position` (a number) are told
 * apart below, `org_id` and `description` are the copy's own.
 */
const ROW_TEXT_FIELDS = TASK_FIELDS.filter(
  (field): field is RowTextField => !(NOT_ROW_TEXT as readonly string[]).includes(field),
);

/** The row a server copy in the row form is read back from: its task columns and search text. */
export type CopyRow = Record<RowTextField, string | null> & {
  tags: string;
  position: number | null;
  /** Its row of task_search_text ('' while hidden). */
  search_text: string;
};

/** The columns of `tasks` a CopyRow reads, for a SELECT (alias `t`). */
export const COPY_ROW_COLUMNS = [...ROW_TEXT_FIELDS, 'tags', 'position'].map((c) => `t.${c}`).join(', ');

const ROW_MARK = 0x5e; // '^'

/**
 * The server copy's text for task_bodies when the task row is the copy
 * itself (nothing pending, shown) and its columns hold every field as sent:
 * `^` and the JSON of what no column holds, `[org_id, description]`, the
 * description as the header of shareDescription (its length, then the runs
 * lower case changed) when the search text's end gives it back. `stored` must
 * be storedTaskJson(task) of this very object; any other shape keeps
 * shareDescription's form. About 300 bytes a task less than the array form.
 */
export function rowForm(stored: StoredTaskJson, task: TaskObject, lower: string): BodyServerJson {
  if (hasLoneSurrogate(stored)) return stored;
  if (stored.charCodeAt(0) !== ARRAY_MARK) return shareDescription(stored, task.description, lower);
  for (const field of ROW_TEXT_FIELDS) {
    const value = task[field];
    if (value !== null && typeof value !== 'string') return shareDescription(stored, task.description, lower);
  }
  const { position, description } = task;
  if (
    !Array.isArray(task.tags) ||
    (position !== null && typeof position !== 'number') ||
    (description !== null && typeof description !== 'string')
  )
    return shareDescription(stored, task.description, lower);
  const header = description === null ? null : caseHeader(description, lower);
  return `^${JSON.stringify([task.org_id, header ?? description])}` as SharedDescriptionForm;
}

/** Any surrogate code unit, paired or lone (a lone one SQLite's UTF-8 would not keep). */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * rowForm of a task whose stored form was not made: null when the row cannot
 * hold its copy, or the task is not in the contract's shape, or any of its
 * texts holds a surrogate (then the caller makes the stored form and asks
 * rowForm, which tells a lone one). Saves a first load's JSON.stringify of
 * each task (~3.5 µs of ~50).
 */
export function rowFormOf(task: TaskObject, lower: string): SharedDescriptionForm | null {
  const keys = Object.keys(task);
  if (keys.length !== FIELD_COUNT || !inContractOrder(keys, task)) return null;
  for (const field of ROW_TEXT_FIELDS) {
    const value = task[field];
    if (value !== null && (typeof value !== 'string' || SURROGATE.test(value))) return null;
  }
  const { org_id: orgId, tags, position, description } = task;
  if (
    !Array.isArray(tags) ||
    tags.some((tag) => typeof tag !== 'string' || SURROGATE.test(tag)) ||
    (position !== null && typeof position !== 'number') ||
    (description !== null && (typeof description !== 'string' || SURROGATE.test(description))) ||
    (orgId !== null && typeof orgId !== 'string') ||
    (typeof orgId === 'string' && SURROGATE.test(orgId))
  )
    return null;
  const header = description === null ? null : caseHeader(description, lower);
  return `^${JSON.stringify([orgId, header ?? description])}` as SharedDescriptionForm;
}

/**
 * [length, i, "X", …] (after `offset` when given): the description from its
 * lower case, or null when that does not pay.
 */
function caseHeader(description: string, lower: string, offset?: number): (number | string)[] | null {
  if (lower.length !== description.length || description.length < 16) return null;
  const header: (number | string)[] =
    offset === undefined ? [description.length] : [offset, description.length];
  for (let i = 0; i < description.length;) {
    if (description.charCodeAt(i) === lower.charCodeAt(i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < description.length && description.charCodeAt(end) !== lower.charCodeAt(end)) end++;
    header.push(i, description.slice(i, end));
    // A description mostly in capitals saves nothing.
    if (header.length * 4 > description.length) return null;
    i = end;
  }
  return header;
}

/**
 * A description read back from the end of the search text (its lower case)
 * and a header's runs of the characters lower case changed: `header[from]` is
 * its length, the runs follow as position and text. The runs come in order and
 * never overlap, so one pass puts them back (splicing each into the whole
 * text copied it once a run: quadratic in a long description with capitals).
 */
function describedBy(header: readonly (number | string)[], searchText: string, from: number): string {
  const length = header[from] as number;
  if (searchText.length < length)
    throw new Error('a server copy shares its description with a search text that does not hold it');
  const lower = searchText.slice(searchText.length - length);
  let description = '';
  let at = 0;
  for (let h = from + 1; h + 1 < header.length; h += 2) {
    const start = header[h] as number;
    const run = header[h + 1] as string;
    description += lower.slice(at, start) + run;
    at = start + run.length;
  }
  return description + lower.slice(at);
}

/** The stored form back from what task_bodies holds, whichever form, and the task's row. */
export function storedFormFromRow(body: BodyServerJson, row: CopyRow): StoredTaskJson {
  if (body.charCodeAt(0) !== ROW_MARK) return storedFormOf(body, row.search_text);
  const [orgId, held] = JSON.parse(body.slice(1)) as [unknown, string | null | (number | string)[]];
  const description = Array.isArray(held) ? describedBy(held, row.search_text, 0) : held;
  const s = JSON.stringify;
  return `[${s(row.task_id)},${s(orgId)},${s(row.project_id)},${s(row.team_id)},${s(row.section_id)},${s(
    row.sprint_id,
  )},${s(row.goal_id)},${s(row.milestone_id)},${s(row.parent_task_id)},${s(row.title)},${s(description)},${s(
    row.status,
  )},${s(row.priority)},${s(row.assignee)},${row.tags},${s(row.due_date)},${s(row.start_date)},${s(
    row.task_type,
  )},${s(row.created_via)},${s(row.review)},${s(row.position)},${s(row.created_by)},${s(row.updated_by)},${s(
    row.created_at,
  )},${s(row.updated_at)},${s(row.completed_at)}]` as StoredTaskJson;
}
