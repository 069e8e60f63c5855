// What a task re-created from a draft ("mine" on a task deleted on the server)
// can still point at. A reference the mirror does not hold (a teammate's
// personal section this token never lists) or holds as gone (a delete of it
// waits here) would make the create a 422 that no sync gets past, so the
// re-create leaves it out, and the conflict view says which and why.
import type { Database } from 'better-sqlite3';
import { COLLECTIONS, type OtherCollection } from '../collections/collections';
import type { TaskObject } from './task-columns';
import { UNSETTLED_SQL } from './task-overlay';
import { FILING_KINDS } from '../../protocol/writable-kinds';
import { EDITABLE_TASK_FIELDS } from '../../protocol/task';

/**
 * A reference a re-create leaves out: `not-visible` (the mirror never had it),
 * `deleted`, `archived` (a project no task may be created in), or
 * `other-project` (a goal or milestone of a project the task is not re-created in).
 */
export interface LeftOutReference {
  field: string;
  id: string;
  reason: 'not-visible' | 'deleted' | 'archived' | 'other-project';
}

/** Task fields that point at another resource: its collection, and the outbox kind that writes it (if any). */
const REFERENCES: Readonly<Record<string, { collection: OtherCollection | 'tasks'; kind: string | null }>> = {
  project_id: { collection: 'projects', kind: null },
  team_id: { collection: 'teams', kind: null },
  section_id: { collection: 'sections', kind: 'section' },
  sprint_id: { collection: 'sprints', kind: 'sprint' },
  goal_id: { collection: 'goals', kind: 'goal' },
  milestone_id: { collection: 'milestones', kind: 'milestone' },
  parent_task_id: { collection: 'tasks', kind: 'task' },
};

/** True for a task field that points at another resource (a re-create may leave it out). */
export function isTaskReference(field: string): boolean {
  return Object.hasOwn(REFERENCES, field);
}

/**
 * The references among `values` a re-create cannot use. A collection the
 * mirror has never listed in full tells nothing (its references are kept, the
 * service judges them).
 */
export function leftOutReferences(db: Database, values: TaskObject): LeftOutReference[] {
  const out: LeftOutReference[] = [];
  for (const [field, { collection, kind }] of Object.entries(REFERENCES)) {
    const id = values[field];
    if (typeof id !== 'string' || id === '') continue;
    const waiting = (opKind: string) =>
      kind !== null &&
      db
        .prepare(
          `SELECT 1 FROM outbox WHERE entity_type = ? AND entity_id = ? AND kind = ? AND state IN ${UNSETTLED_SQL} LIMIT 1`,
        )
        .get(kind, id, opKind) !== undefined;
    if (waiting('delete')) {
      out.push({ field, id, reason: 'deleted' });
      continue;
    }
    if (waiting('create')) continue;
    const listed = db
      .prepare('SELECT 1 FROM sync_passes WHERE collection = ? AND completed_once = 1 LIMIT 1')
      .get(collection);
    if (listed === undefined) continue;
    const held =
      collection === 'tasks'
        ? db.prepare('SELECT 1 FROM tasks WHERE task_id = ? AND server_gone = 0').get(id)
        : db
            .prepare(
              `SELECT 1 FROM ${COLLECTIONS[collection].table} WHERE ${COLLECTIONS[collection].idField} = ?`,
            )
            .get(id);
    if (held === undefined) out.push({ field, id, reason: 'not-visible' });
  }
  // A task is created in a project that is not archived, and files only under goals and milestones of its own project.
  const projectId =
    typeof values.project_id === 'string' && values.project_id !== '' ? values.project_id : null;
  let project = out.some((reference) => reference.field === 'project_id') ? null : projectId;
  if (project !== null) {
    const row = db.prepare('SELECT status FROM projects WHERE project_id = ?').get(project) as
      { status: string | null } | undefined;
    if (row?.status === 'archived') {
      out.push({ field: 'project_id', id: project, reason: 'archived' });
      project = null;
    }
  }
  for (const [field, table, idField] of PROJECT_REFERENCES) {
    const id = values[field];
    if (typeof id !== 'string' || id === '' || out.some((reference) => reference.field === field)) continue;
    const row = db.prepare(`SELECT project_id FROM ${table} WHERE ${idField} = ?`).get(id) as
      { project_id: string | null } | undefined;
    if (typeof row?.project_id === 'string' && row.project_id !== project)
      out.push({ field, id, reason: 'other-project' });
  }
  return out;
}

/** Task references that belong to a project (kinds created under one): the field, and the mirror's table and id column of what it names. */
const PROJECT_REFERENCES = FILING_KINDS.filter((kind) => kind.parentField === 'project_id').map(
  (kind) => [kind.filesTasksBy, kind.collection, kind.idField] as const,
);

/**
 * The values a re-create sends, with the project the task must be in when the
 * server sent it without one: a task's goal and milestone belong to its project
 * (contract), and a field the contract does not mark required may come absent
 * or null, so a draft may hold a goal but no project; sent so, the create is
 * refused (422 'goal ... belongs to another project') at every sync. The
 * project of the goal (else the milestone) the mirror holds is the task's;
 * leftOutReferences then judges it like any other.
 */
export function withImpliedProject(db: Database, values: TaskObject): TaskObject {
  if (typeof values.project_id === 'string' && values.project_id !== '') return values;
  for (const [field, table, idField] of PROJECT_REFERENCES) {
    const id = values[field];
    if (typeof id !== 'string' || id === '') continue;
    const row = db.prepare(`SELECT project_id FROM ${table} WHERE ${idField} = ?`).get(id) as
      { project_id: string | null } | undefined;
    if (typeof row?.project_id === 'string' && row.project_id !== '')
      return { ...values, project_id: row.project_id };
  }
  return values;
}

/**
 * The body a task re-created from `values` is sent with ("mine" on a task
 * deleted on the server, an undone delete that was sent): its editable fields
 * that have a value, with its implied project, less what the person can no
 * longer use (it would be refused, 422, at every sync).
 */
export function recreateBody(db: Database, values: TaskObject): TaskObject {
  const draft = withImpliedProject(db, values);
  const body: TaskObject = {};
  for (const field of EDITABLE_TASK_FIELDS) {
    const value = draft[field];
    if (value !== undefined && value !== null) body[field] = value;
  }
  for (const { field } of leftOutReferences(db, body)) delete body[field];
  return body;
}

/** Words for a reference left out, with the name of what it points at when known (db/referenced-names). */
export function leftOutWords(reference: LeftOutReference, name: string | null): string {
  const noun = NOUNS[reference.field] ?? reference.field;
  const what = `${noun[0]?.toUpperCase() ?? ''}${noun.slice(1)} ${name === null ? reference.id : `'${name}'`}`;
  const why = WHY[reference.reason];
  return `${what} ${why}; the task is re-created without a ${noun}`;
}

const WHY: Readonly<Record<LeftOutReference['reason'], string>> = {
  'not-visible': 'is not visible to you',
  deleted: 'is deleted',
  archived: 'is archived',
  'other-project': 'belongs to another project',
};

const NOUNS: Readonly<Record<string, string>> = {
  project_id: 'project',
  team_id: 'team',
  section_id: 'section',
  sprint_id: 'sprint',
  goal_id: 'goal',
  milestone_id: 'milestone',
  parent_task_id: 'parent task',
};
