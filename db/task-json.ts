// How a task's server copy is stored in task_bodies.server_json: a task whose
// keys are the contract's fields in the contract's order (TASK_FIELDS, the
// order the service sends) is stored as the JSON array of its values, without
// the ~330 bytes of key names (a third of the text; 33 MB at 100 000 tasks);
// any other shape stays its JSON text. `[` or `{` tells them apart, and either
// reads back as exactly `JSON.stringify` of the task the mirror was given.
import { TASK_FIELDS } from '../protocol/task';
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
  if (typeof description !== 'string' || lower.length !== description.length || description.length < 16)
    return stored;
  const json = JSON.stringify(description);
  const offset = stored.indexOf(json);
  if (offset < 0) return stored;
  const header: (number | string)[] = [offset, description.length];
  for (let i = 0; i < description.length;) {
    if (description.charCodeAt(i) === lower.charCodeAt(i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < description.length && description.charCodeAt(end) !== lower.charCodeAt(end)) end++;
    header.push(i, description.slice(i, end));
    // A description mostly in capitals saves nothing.
    if (header.length > 2 + description.length / 4) return stored;
    i = end;
  }
  const headerJson = JSON.stringify(header);
  if (headerJson.length + 1 >= json.length) return stored;
  return `~${headerJson}${stored.slice(0, offset)}${stored.slice(offset + json.length)}` as SharedDescriptionForm;
}

/** The stored form back from task_bodies' text and the task's search text (its row of task_search_text). */
export function storedFormOf(body: BodyServerJson, searchText: string): StoredTaskJson {
  if (body.charCodeAt(0) !== SHARED_MARK) return body as StoredTaskJson;
  // The header holds numbers and the characters lower case changed, never a ']'.
  const end = body.indexOf(']') + 1;
  const header = JSON.parse(body.slice(1, end)) as [number, number, ...(number | string)[]];
  const [offset, length] = header;
  if (searchText.length < length)
    throw new Error('a server copy shares its description with a search text that does not hold it');
  let description = searchText.slice(searchText.length - length);
  for (let h = 2; h + 1 < header.length; h += 2) {
    const at = header[h] as number;
    const run = header[h + 1] as string;
    description = description.slice(0, at) + run + description.slice(at + run.length);
  }
  const rest = body.slice(end);
  return (rest.slice(0, offset) + JSON.stringify(description) + rest.slice(offset)) as StoredTaskJson;
}
