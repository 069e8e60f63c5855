// Tasks as a writable kind of the outbox: the shape checks of an edit, and the
// task row (server copy beside the effective row the overlay keeps) as the
// place answers land.
import type { Database } from 'better-sqlite3';
import {
  EDITABLE_TASK_FIELDS,
  NULLABLE_TEXT_TASK_FIELDS,
  TASK_DATE_FIELDS,
  TASK_DESCRIPTION_MAX,
  TASK_TITLE_MAX,
} from '../../../protocol/task';
import { InvalidEditError } from '../../mirror-errors';
import { recreateBody } from '../../tasks/recreate-references';
import { checkTask, type TaskObject } from '../../tasks/task-columns';
import { storedTaskJson } from '../../tasks/task-json';
import type { TaskOverlay } from '../../tasks/task-overlay';
import { effectiveTaskOf, type TaskStore } from '../../tasks/task-store';
import type { MirrorWriteKind } from './mirror-kind';

const EDITABLE = new Set<string>(EDITABLE_TASK_FIELDS);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Fields checked by their kind in the schema (protocol/task.ts); description and task_type have rules of their own.
const DATE_FIELDS = new Set<string>(TASK_DATE_FIELDS);
const NULLABLE_TEXT = new Set<string>(NULLABLE_TEXT_TASK_FIELDS);

/** Refuses an edit the server would refuse for its shape (its 422 is still the final word). */
export function checkTaskEdit(patch: TaskObject): void {
  for (const [field, value] of Object.entries(patch)) {
    if (!EDITABLE.has(field)) throw new InvalidEditError(field, 'is not a field a person may change');
    const fail = (reason: string) => new InvalidEditError(field, reason);
    if (field === 'title') {
      if (typeof value !== 'string' || value.length < 1 || value.length > TASK_TITLE_MAX) {
        throw fail(`must be text of 1 to ${TASK_TITLE_MAX} characters`);
      }
    } else if (field === 'description') {
      if (value !== null && (typeof value !== 'string' || value.length > TASK_DESCRIPTION_MAX)) {
        throw fail(`must be text of at most ${TASK_DESCRIPTION_MAX} characters, or null`);
      }
    } else if (field === 'status' || field === 'task_type') {
      if (typeof value !== 'string' || value.length === 0) throw fail('must be a non-empty text');
    } else if (field === 'tags') {
      if (!Array.isArray(value) || value.some((tag) => typeof tag !== 'string'))
        throw fail('must be a list of texts');
    } else if (DATE_FIELDS.has(field)) {
      if (
        value !== null &&
        (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value)))
      ) {
        throw fail('must be a date YYYY-MM-DD, or null');
      }
    } else if (field === 'position') {
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value)))
        throw fail('must be a number, or null');
    } else if (NULLABLE_TEXT.has(field)) {
      if (value !== null && typeof value !== 'string') throw fail('must be text, or null');
    }
  }
}

export function taskWriteKind(
  db: Database,
  store: TaskStore,
  overlay: TaskOverlay,
  /** The running full task pass, whose number a task settled now is seen in (see PageApplication). */
  runningTaskPass: () => number | null,
): MirrorWriteKind {
  return {
    entityType: 'task',
    table: 'tasks',
    idField: 'task_id',
    checkEdit: (patch) => checkTaskEdit(patch),
    refresh: (taskId) => overlay.refresh(taskId),
    answeredId(server) {
      const bad = checkTask(server);
      if (bad) throw bad;
      return (server as TaskObject).task_id as string;
    },
    writeServerCopy(taskId, _parentId, server, etag) {
      const existing = store.byId(taskId);
      const seenPass = runningTaskPass() ?? existing?.seen_pass ?? 0;
      overlay.writeServerCopy(existing, server, storedTaskJson(server), etag, seenPass);
    },
    renameRow(from, to) {
      const existing = store.byId(to);
      const temporary = store.byId(from);
      if (existing) {
        // The created task already came down in a pull: keep that row, drop the temporary one.
        if (temporary) store.remove(temporary.rid);
      } else if (temporary) {
        store.rename(temporary.rid, to);
      }
      db.prepare("UPDATE change_feed SET entity_id = ? WHERE entity_type = 'task' AND entity_id = ?").run(
        to,
        from,
      );
      db.prepare('UPDATE task_comments SET task_id = ?, scope = ? WHERE task_id = ?').run(to, to, from);
    },
    removeRow(taskId) {
      const task = store.byId(taskId);
      if (task) store.remove(task.rid);
    },
    markGone(taskId) {
      const task = store.byId(taskId);
      if (task) db.prepare('UPDATE tasks SET server_gone = 1 WHERE rid = ?').run(task.rid);
    },
    dropGone(taskId, othersPending) {
      const task = store.byId(taskId);
      if (task && !othersPending) store.remove(task.rid);
      else overlay.refresh(taskId);
    },
    afterDrop(taskId, othersPending) {
      const task = store.byId(taskId);
      if (task && task.server_gone && !othersPending) store.remove(task.rid);
      else overlay.refresh(taskId);
    },
    takeBackForRecreate(row, values) {
      const task = store.byId(row.entity_id);
      const effective = task === undefined ? {} : effectiveTaskOf(task);
      const body = recreateBody(db, values ?? effective);
      if (task) store.remove(task.rid);
      return body;
    },
  };
}
