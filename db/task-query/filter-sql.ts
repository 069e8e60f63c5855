// From a task-list filter to SQL over the effective task rows (`tasks t`):
// the WHERE conditions, with the parameters they bind, and for each filter
// index the conditions it could narrow to, which the planner weighs.
import {
  ME,
  NO_TEAM,
  NULL_VALUE,
  PRIORITY_RANK,
  STATUS_RANK,
  TASK_FILTER_KEYS,
  type TaskListFilter,
  UNFILED_PROJECT,
} from '../../protocol/task-list-query';
import { NULL_KEY, TAG_SEPARATOR } from '../tasks/task-columns';
import type { KeyValue } from './cursor';

/** Conditions that are a range of an index's leading column (what it could narrow to). */
export interface Narrowing {
  sql: string[];
  params: unknown[];
}

export interface Where {
  sql: string[];
  params: unknown[];
  /** Per index, what it could narrow to. */
  narrowing: Map<string, Narrowing>;
  /** Filters no index narrowing implies (team, tags, search, ...): they may leave far fewer matches than any narrowing. */
  unnarrowed: number;
}

function narrow(where: Where, index: string, sql: string, params: readonly unknown[]): void {
  const entry = where.narrowing.get(index) ?? { sql: [], params: [] };
  entry.sql.push(sql);
  entry.params.push(...params);
  where.narrowing.set(index, entry);
}

/** `n` placeholders, comma-separated. */
export const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function nullableIn(where: Where, column: string, values: readonly string[], nullToken: string): void {
  const concrete = values.filter((v) => v !== nullToken);
  const orNull = values.includes(nullToken);
  const parts: string[] = [];
  if (concrete.length > 0) {
    parts.push(`${column} IN (${marks(concrete.length)})`);
    where.params.push(...concrete);
  }
  if (orNull) parts.push(`${column} IS NULL`);
  where.sql.push(`(${parts.join(' OR ')})`);
}

/**
 * Every filter but the search text's exact check, as SQL over `tasks t`;
 * `parent` keeps the sub-tasks of that task alone (the mirror's own narrowing:
 * the service's list has no such filter, see TaskQueryOptions).
 */
export function filterWhere(f: TaskListFilter, me: string, today: string, parent?: string): Where {
  const where: Where = { sql: ['t.hidden = 0'], params: [], narrowing: new Map(), unnarrowed: 0 };
  /** A condition that also narrows an index. */
  const keyed = (index: string, sql: string, params: readonly unknown[]) => {
    where.sql.push(sql);
    where.params.push(...params);
    narrow(where, index, sql, params);
  };
  if (parent !== undefined) {
    // `hidden = 0` again in the narrowing: the sub-tasks' index (0020) holds only shown tasks.
    keyed('tasks_by_parent', 't.parent_task_id = ? AND t.hidden = 0', [parent]);
  }
  if (f.status) {
    const ranks = f.status.map((s) => STATUS_RANK[s]);
    keyed('tasks_by_status_rank', `t.k_status_rank IN (${marks(ranks.length)})`, ranks);
  }
  if (f.priority) {
    const ranks = f.priority.map((p) => PRIORITY_RANK[p]);
    keyed('tasks_by_priority_rank', `t.k_priority_rank IN (${marks(ranks.length)})`, ranks);
  }
  if (f.assignee) {
    const names = [...new Set(f.assignee.map((a) => (a === ME ? me : a)))];
    // The lower-case key lets the assignee index narrow; the raw column decides.
    keyed(
      'tasks_by_assignee',
      `t.k_assignee IN (${marks(names.length)})`,
      names.map((n) => n.toLowerCase()),
    );
    where.sql.push(`t.assignee IN (${marks(names.length)})`);
    where.params.push(...names);
  }
  if (f.project) {
    const ids = f.project.filter((p) => p !== UNFILED_PROJECT);
    const keys: KeyValue[] = ids.map((p) => p.toLowerCase());
    if (f.project.includes(UNFILED_PROJECT)) keys.push(NULL_KEY);
    keyed('tasks_by_project', `t.k_project IN (${marks(keys.length)})`, keys);
    nullableIn(where, 't.project_id', f.project, UNFILED_PROJECT);
  }
  if (f.team) nullableIn(where, 't.team_id', f.team, NO_TEAM);
  if (f.created_via) nullableIn(where, 't.created_via', f.created_via, NULL_VALUE);
  if (f.review) nullableIn(where, 't.review', f.review, NULL_VALUE);
  where.unnarrowed += [f.team, f.created_via, f.review, f.tags, f.search].filter(
    (v) => v !== undefined,
  ).length;
  if (f.task_type) {
    const n = f.task_type.length;
    keyed(
      'tasks_by_task_type',
      `t.k_task_type IN (${marks(n)})`,
      f.task_type.map((v) => v.toLowerCase()),
    );
    where.sql.push(`t.task_type IN (${marks(n)})`);
    where.params.push(...f.task_type);
  }
  if (f.tags) {
    const parts = f.tags.map((tag) => {
      if (tag.includes(TAG_SEPARATOR)) {
        where.params.push(tag);
        return 'mirror_has_tag(t.tags, ?)';
      }
      where.params.push(TAG_SEPARATOR + tag + TAG_SEPARATOR);
      return 'instr(t.tags_key, ?) > 0';
    });
    where.sql.push(`(${parts.join(' OR ')})`);
  }
  // Dates are text; a null date's key is a blob, which sorts after all text.
  if (f.due_after !== undefined) keyed('tasks_by_due', "t.k_due >= ? AND t.k_due < x''", [f.due_after]);
  if (f.due_before !== undefined) keyed('tasks_by_due', 't.k_due <= ?', [f.due_before]);
  // created_day decides; the bound on k_created (a day wider: an offset moves
  // the written date at most a day from the UTC one) lets its index narrow.
  if (f.created_after !== undefined) {
    where.sql.push('t.created_day >= ?');
    where.params.push(f.created_after);
    keyed('tasks_by_created', 't.k_created >= ?', [addDays(f.created_after, -1)]);
  }
  if (f.created_before !== undefined) {
    where.sql.push('t.created_day <= ?');
    where.params.push(f.created_before);
    keyed('tasks_by_created', 't.k_created < ?', [addDays(f.created_before, 2)]);
  }
  if (f.overdue === true) {
    keyed('tasks_by_due', 't.k_due < ?', [today]);
    where.sql.push(`t.k_status_rank <> ${STATUS_RANK.completed}`);
    where.unnarrowed++;
  }
  if (f.search !== undefined) {
    const term = f.search.toLowerCase();
    if (f.search_fields === 'title') {
      where.sql.push('instr(t.k_title, ?) > 0');
      where.params.push(term);
    } else {
      const tags = term.includes(TAG_SEPARATOR)
        ? 'mirror_tags_contain(t.tags, ?)'
        : 'instr(t.search_tags, ?) > 0';
      // The description lives apart: read only when title, id and tags did not
      // match, from the compact search text (a term without the separator is
      // in it exactly when it is in a field), else from its last part alone.
      const body = term.includes(TAG_SEPARATOR)
        ? 'mirror_search_body_contains((SELECT s.text FROM task_search_text s WHERE s.rid = t.rid), t.k_title, t.search_id, t.search_tags, ?)'
        : 'instr((SELECT s.text FROM task_search_text s WHERE s.rid = t.rid), ?) > 0';
      where.sql.push(`(instr(t.k_title, ?) > 0 OR instr(t.search_id, ?) > 0 OR ${tags} OR ${body})`);
      where.params.push(term, term, term, term);
    }
  }
  return where;
}

/**
 * The lower-case term of a filter that is a search of all fields and nothing
 * else, when the compact search text answers it exactly (no separator in the
 * term); else null.
 */
export function searchOnly(f: TaskListFilter): string | null {
  if (f.search === undefined || f.search === '' || f.search_fields !== 'all') return null;
  for (const key of TASK_FILTER_KEYS) {
    if (key !== 'search' && key !== 'search_fields' && f[key] !== undefined) return null;
  }
  const term = f.search.toLowerCase();
  return term.includes(TAG_SEPARATOR) ? null : term;
}

function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}
