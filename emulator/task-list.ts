// Answers `GET /v1/tasks`: evaluates a parsed TaskListQuery with exactly the
// semantics written in protocol/task-list-query.ts (the local mirror is
// held equal to this). Built for 100 000 tasks: one sorted index per sort key,
// kept up to date on every write instead of re-sorted; the filtered list per
// query and each page's body and ETag cached per data version, so walking a
// list or revalidating a page does no sorting and no serializing.
import {
  PRIORITY_RANK,
  STATUS_RANK,
  TASK_FILTER_KEYS,
  type TaskListFilter,
  type TaskListQuery,
  type TaskSortKey,
  NO_TEAM,
  NULL_VALUE,
  ME,
  UNFILED_PROJECT,
} from '../protocol/task-list-query';
import { randomBytes } from 'node:crypto';
import { etagOf } from './entity-tag';
import { compareCodePoints, type CursorCodec, type CursorPosition, firstAfter } from './paging';
import type { TaskRecord } from './records';
import { canSeeProject, type EmulatorStore, type TaskEntry, type Viewer } from './store';

/**
 * A comparison key: nulls are the largest value; then rank, then lower case,
 * then the text as sent. `plain`: no character at or above U+D800, so the
 * native (UTF-16) comparison already is the code point order.
 */
type SortKey = { rank: number; lower: string; raw: string; plain: boolean } | null;

const NOT_PLAIN = /[\ud800-\uffff]/;

function key(rank: number, lower: string, raw: string): NonNullable<SortKey> {
  return { rank, lower, raw, plain: !NOT_PLAIN.test(lower) && !NOT_PLAIN.test(raw) };
}

const SORT_KEY_SLOTS: Record<TaskSortKey, number> = {
  task_id: 0,
  title: 1,
  status: 2,
  priority: 3,
  due_date: 4,
  start_date: 5,
  created_at: 6,
  assignee: 7,
  project_id: 8,
  priority_rank: 9,
  status_rank: 10,
  task_type: 11,
};

/** The raw value a task is sorted on (what a cursor carries). */
export function sortValueOf(task: TaskRecord, sortBy: TaskSortKey): string | null {
  switch (sortBy) {
    case 'priority_rank':
      return task.priority;
    case 'status_rank':
      return task.status;
    default:
      return task[sortBy];
  }
}

export function sortKeyOf(sortBy: TaskSortKey, value: string | null): SortKey {
  if (value === null) return null;
  if (sortBy === 'priority_rank' || sortBy === 'status_rank') {
    const ranks = sortBy === 'priority_rank' ? PRIORITY_RANK : STATUS_RANK;
    const rank = ranks[value];
    // Unknown values come after the known ones, by name.
    return rank === undefined ? key(4, value.toLowerCase(), value) : key(rank, '', '');
  }
  return key(0, value.toLowerCase(), value);
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a === b) return 0;
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.plain && b.plain) {
    if (a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
    return a.raw === b.raw ? 0 : a.raw < b.raw ? -1 : 1;
  }
  return compareCodePoints(a.lower, b.lower) || compareCodePoints(a.raw, b.raw);
}

function keyOfEntry(entry: TaskEntry, sortBy: TaskSortKey): SortKey {
  const slot = SORT_KEY_SLOTS[sortBy];
  const cached = entry.sortKeys[slot];
  if (cached !== undefined) return cached as SortKey;
  const computed = sortKeyOf(sortBy, sortValueOf(entry.record, sortBy));
  entry.sortKeys[slot] = computed;
  return computed;
}

/** Ascending order of a sort key, ties broken by task id. */
export function compareTasks(sortBy: TaskSortKey, a: TaskEntry, b: TaskEntry): number {
  return (
    compareKeys(keyOfEntry(a, sortBy), keyOfEntry(b, sortBy)) ||
    compareIds(a.record.task_id, b.record.task_id)
  );
}

/** Task ids are ASCII: the native comparison is the code point order. */
function compareIds(a: string, b: string): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function compareToPosition(
  sortBy: TaskSortKey,
  entry: TaskEntry,
  position: NonNullable<CursorPosition>,
): number {
  const value = typeof position.value === 'number' ? String(position.value) : position.value;
  return (
    compareKeys(keyOfEntry(entry, sortBy), sortKeyOf(sortBy, value)) ||
    compareCodePoints(entry.record.task_id, position.id)
  );
}

/** The filter as one predicate; `me` is the viewer's username. */
export function taskPredicate(
  filter: TaskListFilter,
  username: string,
  today: string,
): (task: TaskRecord) => boolean {
  const checks: ((task: TaskRecord) => boolean)[] = [];
  const nullable = (values: string[], token: string) => {
    const set = new Set(values.filter((v) => v !== token));
    const orNull = values.includes(token);
    return (value: string | null) => (value === null ? orNull : set.has(value));
  };
  if (filter.status) {
    const set = new Set(filter.status);
    checks.push((t) => set.has(t.status));
  }
  if (filter.priority) {
    const set = new Set(filter.priority);
    checks.push((t) => t.priority !== null && set.has(t.priority));
  }
  if (filter.assignee) {
    const set = new Set(filter.assignee.map((name) => (name === ME ? username : name)));
    checks.push((t) => t.assignee !== null && set.has(t.assignee));
  }
  // The filters whose token (unfiled, no team, null) also matches the field's null.
  const nullableFilters = [
    [filter.project, UNFILED_PROJECT, 'project_id'],
    [filter.team, NO_TEAM, 'team_id'],
    [filter.created_via, NULL_VALUE, 'created_via'],
    [filter.review, NULL_VALUE, 'review'],
  ] as const;
  for (const [values, token, field] of nullableFilters) {
    if (!values) continue;
    const match = nullable(values, token);
    checks.push((t) => match(t[field]));
  }
  if (filter.task_type) {
    const set = new Set(filter.task_type);
    checks.push((t) => set.has(t.task_type));
  }
  if (filter.tags) {
    const set = new Set(filter.tags);
    checks.push((t) => t.tags.some((tag) => set.has(tag)));
  }
  const { due_after, due_before, created_after, created_before } = filter;
  if (due_after !== undefined) checks.push((t) => t.due_date !== null && t.due_date >= due_after);
  if (due_before !== undefined) checks.push((t) => t.due_date !== null && t.due_date <= due_before);
  if (created_after !== undefined) checks.push((t) => t.created_at.slice(0, 10) >= created_after);
  if (created_before !== undefined) checks.push((t) => t.created_at.slice(0, 10) <= created_before);
  if (filter.overdue === true)
    checks.push((t) => t.due_date !== null && t.due_date < today && t.status !== 'completed');
  return (task) => checks.every((check) => check(task));
}

function searchMatcher(filter: TaskListFilter): ((entry: TaskEntry) => boolean) | null {
  if (filter.search === undefined) return null;
  const needle = filter.search.toLowerCase();
  if (filter.search_fields === 'title') return (entry) => entry.lower.title.includes(needle);
  return (entry) => {
    const lower = entry.lower;
    return (
      lower.title.includes(needle) ||
      lower.description.includes(needle) ||
      lower.id.includes(needle) ||
      lower.tags.some((tag) => tag.includes(needle))
    );
  };
}

/**
 * The query in one canonical text: same meaning, same text (values sorted, `me`
 * resolved, and for `overdue` the day it is evaluated on, since its answer moves at midnight).
 */
export function normalizedQueryKey(query: TaskListQuery, username: string, today: string): string {
  const filter: Record<string, unknown> = {};
  for (const key of TASK_FILTER_KEYS) {
    const value = query.filter[key];
    if (value === undefined) continue;
    if (key === 'search_fields' && value === 'all') continue;
    if (Array.isArray(value)) {
      const values = key === 'assignee' ? value.map((v: string) => (v === ME ? username : v)) : value;
      filter[key] = [...new Set(values)].sort();
    } else {
      filter[key] = value;
    }
  }
  if (query.filter.overdue === true) filter.today = today;
  return JSON.stringify({ f: filter, s: query.sort_by, o: query.sort_order });
}

export interface TaskPage {
  body: Buffer;
  etag: string;
}

export interface TaskPageRequest {
  viewer: Viewer;
  query: TaskListQuery;
  limit: number;
  cursor: string | null;
  offset: number;
  /** Fault injection: answer at most this many items and a non-null next_cursor whatever follows. */
  shortPage?: number;
}

const FILTERED_CACHE_SIZE = 32;
const PAGE_START = Buffer.from('{"data":[');
const PAGE_CACHE_BYTES = 512 * 1024 * 1024;

export class TaskListEngine {
  private readonly indexes = new Map<TaskSortKey, TaskEntry[]>();
  private readonly filtered = new Map<string, TaskEntry[]>();
  private filteredVersion = -1;
  private readonly pages = new Map<string, TaskPage>();
  private pagesVersion = -1;
  private pagesEpoch = -1;
  private pageBytes = 0;
  /** Revision numbers are not unique across emulators: a salt keeps two emulators from giving one ETag to different pages. */
  private readonly revisionSalt = randomBytes(9).toString('base64url');

  constructor(
    private readonly store: EmulatorStore,
    private readonly cursors: CursorCodec,
  ) {
    store.onTaskChange((change) => {
      for (const [sortBy, index] of this.indexes) {
        if (change.kind !== 'insert') {
          const at = index.indexOf(change.entry);
          if (at !== -1) index.splice(at, 1);
        }
        if (change.kind !== 'delete') {
          index.splice(this.insertionPoint(index, sortBy, change.entry), 0, change.entry);
        }
      }
    });
  }

  private insertionPoint(index: TaskEntry[], sortBy: TaskSortKey, entry: TaskEntry): number {
    let low = 0;
    let high = index.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareTasks(sortBy, index[mid] as TaskEntry, entry) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Every task in ascending order of `sortBy`, built once and then maintained. */
  index(sortBy: TaskSortKey): TaskEntry[] {
    let index = this.indexes.get(sortBy);
    if (!index) {
      // Decorate, sort, undecorate: each key computed once, not twice per comparison.
      const entries = [...this.store.tasks.values()];
      const keys = entries.map((entry) => keyOfEntry(entry, sortBy));
      const ids = entries.map((entry) => entry.record.task_id);
      const order = Array.from(entries.keys());
      order.sort(
        (i, j) =>
          compareKeys(keys[i] as SortKey, keys[j] as SortKey) ||
          compareIds(ids[i] as string, ids[j] as string),
      );
      index = order.map((i) => entries[i] as TaskEntry);
      this.indexes.set(sortBy, index);
    }
    return index;
  }

  /** The tasks the viewer can read that match the query, in the query's order. */
  matching(viewer: Viewer, query: TaskListQuery): TaskEntry[] {
    if (this.filteredVersion !== this.store.taskVersion) {
      this.filtered.clear();
      this.filteredVersion = this.store.taskVersion;
    }
    const key = `${viewer.visibilityKey}\u0000${normalizedQueryKey(query, viewer.username, this.store.today())}`;
    const cached = this.filtered.get(key);
    if (cached) {
      // Refresh its place in the least-recently-used order.
      this.filtered.delete(key);
      this.filtered.set(key, cached);
      return cached;
    }
    const predicate = taskPredicate(query.filter, viewer.username, this.store.today());
    const search = searchMatcher(query.filter);
    const index = this.index(query.sort_by);
    const everything = viewer.projectIds === null && search === null && isUnfiltered(query.filter);
    // A copy, never the index itself: the index changes on the next write, a cached list must not.
    const list: TaskEntry[] = everything ? index.slice() : [];
    if (!everything) {
      for (const entry of index) {
        if (!canSeeProject(viewer, entry.record.project_id)) continue;
        if (!predicate(entry.record)) continue;
        if (search && !search(entry)) continue;
        list.push(entry);
      }
    }
    if (query.sort_order === 'desc') list.reverse();
    this.filtered.set(key, list);
    if (this.filtered.size > FILTERED_CACHE_SIZE) {
      const oldest = this.filtered.keys().next().value;
      if (oldest !== undefined) this.filtered.delete(oldest);
    }
    return list;
  }

  page(request: TaskPageRequest): TaskPage {
    const { viewer, query } = request;
    const queryKey = normalizedQueryKey(query, viewer.username, this.store.today());
    const cacheable = request.shortPage === undefined;
    if (this.pagesVersion !== this.store.taskVersion || this.pagesEpoch !== this.cursors.epoch) {
      this.pages.clear();
      this.pageBytes = 0;
      this.pagesVersion = this.store.taskVersion;
      this.pagesEpoch = this.cursors.epoch;
    }
    const cacheKey = `${viewer.visibilityKey}\u0000${queryKey}\u0000${request.cursor ?? `@${request.offset}`}\u0000${request.limit}`;
    if (cacheable) {
      const hit = this.pages.get(cacheKey);
      if (hit) return hit;
    }

    const cursorKey = `tasks\u0000${viewer.visibilityKey}\u0000${queryKey}`;
    const after = request.cursor === null ? null : this.cursors.decode(request.cursor, cursorKey);
    const list = this.matching(viewer, query);
    const direction = query.sort_order === 'asc' ? 1 : -1;
    const start =
      after === null
        ? request.offset
        : firstAfter(
            list,
            after,
            (entry, position) => direction * compareToPosition(query.sort_by, entry, position),
          );
    let size = request.limit;
    if (request.shortPage !== undefined) size = Math.min(size, request.shortPage);
    const items = list.slice(start, start + size);
    const last = items[items.length - 1];
    let next: string | null = null;
    if (request.shortPage !== undefined) {
      const position: CursorPosition = last
        ? { value: sortValueOf(last.record, query.sort_by), id: last.record.task_id }
        : start === 0
          ? null
          : positionOfEntry(list[start - 1] as TaskEntry, query.sort_by);
      next = this.cursors.encode(cursorKey, position);
    } else if (start + size < list.length && last) {
      next = this.cursors.encode(cursorKey, positionOfEntry(last, query.sort_by));
    }

    const parts: Buffer[] = [PAGE_START];
    let revisions = '';
    for (let i = 0; i < items.length; i++) {
      const entry = items[i] as TaskEntry;
      parts.push(i === 0 ? entry.bytes : entry.framed);
      revisions += `${entry.revision},`;
    }
    const tail = `],"next_cursor":${next === null ? 'null' : `"${next}"`}}`;
    parts.push(Buffer.from(tail));
    const body = Buffer.concat(parts);
    // The body is exactly its tasks' bodies in order plus the tail, and a task's revision names its
    // body: hashing revisions and tail is a strong validator of the page without hashing 700 kB.
    const page: TaskPage = { body, etag: etagOf(`${this.revisionSalt}|${revisions}|${tail}`) };
    if (cacheable) {
      this.pages.set(cacheKey, page);
      this.pageBytes += body.length;
      while (this.pageBytes > PAGE_CACHE_BYTES && this.pages.size > 1) {
        const oldest = this.pages.keys().next().value as string;
        this.pageBytes -= this.pages.get(oldest)?.body.length ?? 0;
        this.pages.delete(oldest);
      }
    }
    return page;
  }
}

function positionOfEntry(entry: TaskEntry, sortBy: TaskSortKey): NonNullable<CursorPosition> {
  return { value: sortValueOf(entry.record, sortBy), id: entry.record.task_id };
}

function isUnfiltered(filter: TaskListFilter): boolean {
  return TASK_FILTER_KEYS.every(
    (key) => key === 'search_fields' || filter[key] === undefined || filter[key] === false,
  );
}
