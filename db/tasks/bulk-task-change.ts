// One bulk change as it reaches each task: what a person set, added
// or removed across many tasks becomes that task's own merge-patch, and what it
// changed is kept for the undo (db/undo).
import { sameJson } from '../outbox/outbox-types';
import type { TaskObject } from './task-columns';

/** One change made to many tasks at once: fields set, tags added and removed, or a delete. */
export type BulkTaskChange =
  | { kind: 'edit'; set: TaskObject; addTags: readonly string[]; removeTags: readonly string[] }
  | { kind: 'delete' };

/** A bulk edit as one task's merge-patch: its tags are its own with some added and some removed. */
export function taskPatchOf(change: Extract<BulkTaskChange, { kind: 'edit' }>, task: TaskObject): TaskObject {
  const patch: TaskObject = { ...change.set };
  if (change.addTags.length > 0 || change.removeTags.length > 0) {
    const own = Array.isArray(patch.tags) ? patch.tags : Array.isArray(task.tags) ? task.tags : [];
    const removed = new Set(change.removeTags);
    const tags = (own as string[]).filter((tag) => !removed.has(tag));
    for (const tag of change.addTags) if (!removed.has(tag) && !tags.includes(tag)) tags.push(tag);
    patch.tags = tags;
  }
  // Only what differs: a task already so is left alone (an edit never sent would otherwise count it queued).
  for (const [field, value] of Object.entries(patch))
    if (sameJson(value, task[field] ?? null)) delete patch[field];
  return patch;
}

/**
 * What a bulk change did to one task, for its undo (db/undo): the fields it
 * changed with their values before and after (a delete: the task as it was,
 * after null) and the operation that carries it.
 */
export interface BulkTaskChanged {
  taskId: string;
  before: TaskObject;
  after: TaskObject | null;
  opId: string | null;
}

/** The values `task` has for the fields of `patch` (null for one it lacks). */
export function pickFields(task: TaskObject, patch: TaskObject): TaskObject {
  const out: TaskObject = {};
  for (const field of Object.keys(patch)) out[field] = task[field] ?? null;
  return out;
}
