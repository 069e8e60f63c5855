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
