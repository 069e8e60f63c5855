// The keyset cursor of a task-list page: each sort key's ORDER BY columns, the
// last row's values of them carried as an opaque `next`, and SQLite's binary
// order of those values for the walks that compare them in JS.
import { InvalidParameterError, type TaskListQuery, type TaskSortKey } from '../../protocol/task-list-query';
import { NULL_KEY } from '../tasks/task-columns';

/** A sort key column's value: text, a number, or a blob (the null key, an empty one; an id's bytes, migration 0028). */
export type KeyValue = string | number | Buffer;

/** The ORDER BY columns of each sort key, ascending; each list ends in the tie-breakers and never holds a null. */
export const SORT_COLUMNS: Record<TaskSortKey, readonly string[]> = {
  // The id index's order (migration 0028): the same as (search_id, task_id), on its shorter tie-breaker.
  task_id: ['search_id', 't_id_case'],
  title: ['k_title', 'title', 'task_id'],
  status: ['k_status', 'status', 'task_id'],
  priority: ['k_priority', 't_priority', 'task_id'],
  due_date: ['k_due', 'task_id'],
  start_date: ['k_start', 'task_id'],
  created_at: ['k_created', 't_created_case', 'task_id'],
  assignee: ['k_assignee', 't_assignee', 'task_id'],
  project_id: ['k_project', 't_project', 'task_id'],
  priority_rank: ['k_priority_rank', 't_priority', 'task_id'],
  status_rank: ['k_status_rank', 'status', 'task_id'],
  task_type: ['k_task_type', 't_task_type', 'task_id'],
};

/** The condition of the rows after a cursor in the sort's direction; its parameters are the cursor's values. */
export function afterCursorSql(sortBy: TaskSortKey, desc: boolean): string {
  const columns = SORT_COLUMNS[sortBy];
  const marks = columns.map(() => '?').join(', ');
  return `(${columns.map((c) => `t.${c}`).join(', ')}) ${desc ? '<' : '>'} (${marks})`;
}

/** The SQL condition true for a row up to the sort key values of the `?`s in the order, that row's included (a walk's bound). */
export function throughCursorSql(sortBy: TaskSortKey, desc: boolean): string {
  const columns = SORT_COLUMNS[sortBy];
  const marks = columns.map(() => '?').join(', ');
  return `(${columns.map((c) => `t.${c}`).join(', ')}) ${desc ? '>=' : '<='} (${marks})`;
}

/** The ORDER BY terms of a sort key in its direction. */
export function orderBySql(sortBy: TaskSortKey, desc: boolean): string {
  return SORT_COLUMNS[sortBy].map((c) => `t.${c}${desc ? ' DESC' : ''}`).join(', ');
}

export interface Cursor {
  sortBy: TaskSortKey;
  order: 'asc' | 'desc';
  values: KeyValue[];
}

export function encodeCursor(cursor: Cursor): string {
  const values = cursor.values.map((v) =>
    Buffer.isBuffer(v) ? (v.length === 0 ? { null: true } : { bytes: v.toString('base64url') }) : v,
  );
  return Buffer.from(JSON.stringify({ s: cursor.sortBy, o: cursor.order, v: values })).toString('base64url');
}

/** The cursor `text` stands for; refused (400 `invalid-parameter`) unless it was made for this sort and order. */
export function decodeCursor(text: string, query: TaskListQuery): Cursor {
  const refuse = () =>
    new InvalidParameterError(['query', 'cursor'], 'the cursor does not belong to this sort order', null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  const { s, o, v } = (parsed ?? {}) as { s?: unknown; o?: unknown; v?: unknown };
  const width = SORT_COLUMNS[query.sort_by].length;
  if (s !== query.sort_by || o !== query.sort_order || !Array.isArray(v) || v.length !== width)
    throw refuse();
  const values = v.map((item: unknown): KeyValue => {
    if (typeof item === 'string' || typeof item === 'number') return item;
    if (typeof item === 'object' && item !== null && (item as { null?: unknown }).null === true)
      return NULL_KEY;
    const bytes = typeof item === 'object' && item !== null ? (item as { bytes?: unknown }).bytes : undefined;
    if (typeof bytes === 'string' && bytes !== '') return Buffer.from(bytes, 'base64url');
    throw refuse();
  });
  return { sortBy: query.sort_by, order: query.sort_order, values };
}

/** Compares sort key values as SQLite's binary collation does: numbers < text < blobs, text by code point. */
export function compareKeyValues(a: KeyValue, b: KeyValue): number {
  const kind = (v: KeyValue) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  const ka = kind(a);
  const kb = kind(b);
  if (ka !== kb) return ka - kb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return Buffer.compare(a as Buffer, b as Buffer);
}

export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
