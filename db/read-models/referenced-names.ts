// The name of what a field's id points at (a task's project, team, section, sprint,
// goal, milestone or parent task; a reply's parent comment), read from the mirror
// with what waits applied: the one place the inspector, the conflict view, the
// notifications and the CLI take names from, so none of them shows a raw id it could name.
import type { Mirror } from '../mirror';
import type { OtherCollection } from '../collections/collections';
import { findIn } from '../outbox/kinds/comment';
import type { TaskObject } from '../tasks/task-columns';
import { textOf } from '../../protocol/wire-fields';
import { FILING_KINDS } from '../../protocol/writable-kinds';

/** The name of what `field`'s `id` points at; null when the mirror knows nothing by it. `taskId`: a comment's task. */
export type ReferenceNames = (field: string, id: string, taskId?: string | null) => string | null;

/** Marks a name whose resource a delete waiting here (or taken already) removed. */
export const DELETED_MARK = ' (deleted)';

const LONGEST_EXCERPT = 40;

/** A name as text: an empty one is no name. */
function text(value: unknown): string | null {
  return textOf(value) || null;
}

/** Collections named by a field: the stored ones, and those a person changes (kept with what waits applied). */
const NAMED_BY: Readonly<Record<string, { collection: OtherCollection; idField: string; kind?: string }>> = {
  project_id: { collection: 'projects', idField: 'project_id' },
  team_id: { collection: 'teams', idField: 'team_id' },
  // The kinds tasks are filed under, from their descriptors.
  ...Object.fromEntries(
    FILING_KINDS.map((kind) => [
      kind.filesTasksBy,
      { collection: kind.collection, idField: kind.idField, kind: kind.entityType },
    ]),
  ),
};

/** A comment in words: its author and first words ("ana: ‘Done, see the PR’"). */
function commentWords(comment: TaskObject): string {
  const body = (text(comment.content) ?? text(comment.comment) ?? '').replace(/\s+/g, ' ').trim();
  const excerpt = body.length > LONGEST_EXCERPT ? `${body.slice(0, LONGEST_EXCERPT - 1)}…` : body;
  const author = text(comment.created_by);
  return `${author === null ? '' : `${author}: `}‘${excerpt}’`;
}

/**
 * Names by field and id, each collection read once and only when asked (a listing
 * reads it for all its changes). A resource a waiting delete removed keeps its
 * name marked "(deleted)"; one the mirror never had gives null (the caller shows the id).
 */
export function referenceNames(mirror: Mirror): ReferenceNames {
  const tables = new Map<string, Map<string, string>>();
  const tableOf = (field: string): Map<string, string> | null => {
    const spec = NAMED_BY[field];
    if (spec === undefined) return null;
    let table = tables.get(field);
    if (table === undefined) {
      table = new Map();
      const nameOf = (r: TaskObject) => text(r.name);
      // Stored first (a waiting delete leaves it there), then as shown (queued ones and renames applied).
      for (const r of mirror.collections.list(spec.collection)) {
        const name = nameOf(r);
        if (name !== null) table.set(String(r[spec.idField]), `${name}${DELETED_MARK}`);
      }
      const writes = spec.kind === undefined ? null : mirror.writesOf(spec.kind);
      const shown = writes === null ? mirror.collections.list(spec.collection) : writes.list();
      for (const r of shown) {
        const name = nameOf(r);
        if (name !== null) table.set(String(r[spec.idField]), name);
      }
      tables.set(field, table);
    }
    return table;
  };
  return (field, id, taskId) => {
    const table = tableOf(field);
    if (table !== null) return table.get(id) ?? null;
    if (field === 'parent_task_id') {
      const task = mirror.tasks.get(id);
      const title = text(task?.task.title) ?? text(task?.server?.title);
      return title === null ? null : `‘${title}’`;
    }
    if (field === 'parent_comment_id' && typeof taskId === 'string' && taskId !== '') {
      const found = findIn(mirror.comments.threads(taskId), id);
      return found === null ? null : commentWords(found.node);
    }
    return null;
  };
}

/**
 * The names of the ids among `values` of the fields that point at something, by
 * id (what the screens and the CLI carry beside a change); undefined when none is named.
 */
export function namesIn(
  values: readonly { field: string; values: readonly unknown[] }[],
  names: ReferenceNames,
  taskId?: string | null,
): Record<string, string> | undefined {
  const found: Record<string, string> = {};
  let any = false;
  for (const { field, values: ids } of values) {
    for (const id of ids) {
      if (typeof id !== 'string' || id === '' || id in found) continue;
      const name = names(field, id, taskId);
      if (name !== null) {
        found[id] = name;
        any = true;
      }
    }
  }
  return any ? found : undefined;
}
