// The emulator's in-memory data: one organization and everything in it, a
// version counter that moves on every write (list caches key on it), and the
// per-task caches (serialized body, ETag, lower-cased search text) that make a
// repeated read O(1).
import type { Clock } from './clock';
import { DeterministicRandom } from './deterministic-random';
import { EDITABLE_TASK_FIELDS } from '../protocol/task';
import { etagOf } from './entity-tag';
import { WRITABLE_COLLECTIONS, type WritableCollection, FILING_FIELDS } from '../protocol/writable-kinds';
import type { FilingField } from '../protocol/writable-kind';
import type {
  CollectionKey,
  CommentRecord,
  HistoryRecord,
  OrganizationMemberRecord,
  OrganizationRecord,
  ProjectRecord,
  TaskRecord,
  TeamMemberRecord,
  TeamRecord,
} from './records';

/** Who is asking, as far as what they may read: their member record and their token's project restriction. */
export interface Viewer {
  member: OrganizationMemberRecord;
  username: string;
  /** null: every project of the organization. */
  projectIds: ReadonlySet<string> | null;
  /** Stable text naming the project restriction, for cache keys. */
  visibilityKey: string;
}

export function viewerOf(member: OrganizationMemberRecord, projectIds: readonly string[] | null): Viewer {
  const restricted = projectIds === null ? null : new Set(projectIds);
  return {
    member,
    username: member.username ?? member.user_id,
    projectIds: restricted,
    visibilityKey: restricted === null ? '*' : [...restricted].sort().join(','),
  };
}

export function canSeeProject(viewer: Viewer, projectId: string | null): boolean {
  if (viewer.projectIds === null) return true;
  return projectId !== null && viewer.projectIds.has(projectId);
}

// Strings that JSON.stringify would escape: quotes, backslashes, control characters, and surrogates (lone ones are escaped).
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be found
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(value: string | null): string {
  if (value === null) return 'null';
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * Exactly `JSON.stringify(task)` for a TaskRecord (same keys, same order, same
 * escapes), about twice as fast: a list page of 100 000 tasks is serialized once.
 */
export function serializeTask(r: TaskRecord): string {
  let tags = '';
  for (let i = 0; i < r.tags.length; i++) tags += (i > 0 ? ',' : '') + quote(r.tags[i] as string);
  return (
    `{"task_id":${quote(r.task_id)},"org_id":${quote(r.org_id)},"project_id":${quote(r.project_id)}` +
    `,"team_id":${quote(r.team_id)},"section_id":${quote(r.section_id)},"sprint_id":${quote(r.sprint_id)}` +
    `,"goal_id":${quote(r.goal_id)},"milestone_id":${quote(r.milestone_id)},"parent_task_id":${quote(r.parent_task_id)}` +
    `,"title":${quote(r.title)},"description":${quote(r.description)},"status":${quote(r.status)}` +
    `,"priority":${quote(r.priority)},"assignee":${quote(r.assignee)},"tags":[${tags}]` +
    `,"due_date":${quote(r.due_date)},"start_date":${quote(r.start_date)},"task_type":${quote(r.task_type)}` +
    `,"created_via":${quote(r.created_via)},"review":${quote(r.review)},"position":${JSON.stringify(r.position)}` +
    `,"created_by":${quote(r.created_by)},"updated_by":${quote(r.updated_by)},"created_at":${quote(r.created_at)}` +
    `,"updated_at":${quote(r.updated_at)},"completed_at":${quote(r.completed_at)}}`
  );
}

/** Revisions of task bodies: a new number, never reused, whenever a task's body changes. */
let nextRevision = 1;

/** A stored task with the caches derived from it; `record` is replaced, never mutated. */
export class TaskEntry {
  private framedCache: Buffer | undefined;
  private etagCache: string | undefined;
  private lowerCache: { title: string; description: string; id: string; tags: string[] } | undefined;
  /** Per-sort-key comparison keys, filled and cleared by the task list (null is a key; undefined: not computed). */
  sortKeys: unknown[] = [];
  /** Names this version of the body: equal revisions mean equal bytes (list pages build their ETag from them). */
  revision = nextRevision++;

  constructor(public record: TaskRecord) {}

  /** `,` and the task's body (UTF-8): list pages join these without adding separators. */
  get framed(): Buffer {
    this.framedCache ??= Buffer.from(`,${serializeTask(this.record)}`);
    return this.framedCache;
  }

  /** The task's body as sent (UTF-8), built once per version of the task. */
  get bytes(): Buffer {
    return this.framed.subarray(1);
  }

  get json(): string {
    return this.bytes.toString('utf8');
  }

  get etag(): string {
    this.etagCache ??= etagOf(this.bytes);
    return this.etagCache;
  }

  /** Unicode lower case of the searchable fields (task-list-query.ts: search). */
  get lower(): { title: string; description: string; id: string; tags: string[] } {
    this.lowerCache ??= {
      title: this.record.title.toLowerCase(),
      description: (this.record.description ?? '').toLowerCase(),
      id: this.record.task_id.toLowerCase(),
      tags: this.record.tags.map((tag) => tag.toLowerCase()),
    };
    return this.lowerCache;
  }

  replace(record: TaskRecord): void {
    this.record = record;
    this.framedCache = undefined;
    this.etagCache = undefined;
    this.lowerCache = undefined;
    this.sortKeys = [];
    this.revision = nextRevision++;
  }
}

export type TaskChange =
  | { kind: 'insert'; entry: TaskEntry }
  | { kind: 'update'; entry: TaskEntry; before: TaskRecord }
  | { kind: 'delete'; entry: TaskEntry };

/** How many of the tasks filed under one resource there are, and how many are completed. */
export interface FiledCount {
  total: number;
  completed: number;
}

/** Per filing field (`section_id`, …), the counts of the tasks filed under each resource, by its id. */
export type TaskCounts = Record<FilingField, Map<string, FiledCount>>;

/**
 * Filing fields whose counts leave sub-tasks out (contract: GoalOut.tasks_total);
 * under the others every task filed counts, sub-tasks too: each was filed on its own.
 */
const TOP_LEVEL_COUNTS: ReadonlySet<FilingField> = new Set(['goal_id']);

/** Successful creates through the API per collection ('tasks', 'comments', 'sections', …). */
export type CreateCounts = Record<'tasks' | 'comments' | WritableCollection, number>;

function noCreates(): CreateCounts {
  const counts = { tasks: 0, comments: 0 } as CreateCounts;
  for (const collection of WRITABLE_COLLECTIONS) counts[collection] = 0;
  return counts;
}

export class EmulatorStore {
  org: OrganizationRecord = { org_id: '', name: '', slug: '', created_at: '' };
  readonly members = new Map<string, OrganizationMemberRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly teams = new Map<string, TeamRecord>();
  readonly teamMembers = new Map<string, TeamMemberRecord[]>();
  /** The records of each collection kind, by id: reached through `records(key)`. */
  private readonly collections = new Map<WritableCollection, Map<string, unknown>>();
  readonly tasks = new Map<string, TaskEntry>();
  readonly comments = new Map<string, CommentRecord>();
  readonly commentsByTask = new Map<string, CommentRecord[]>();
  /** History by task id; kept after a task is deleted (the history of a deleted task stays readable). */
  readonly history = new Map<string, HistoryRecord[]>();
  /** The project a task was last in, for the visibility of the history of deleted tasks. */
  readonly historyProject = new Map<string, string | null>();
  /** Seeded tasks whose `created` history entry is written on first need, so seeding 100 000 tasks stays fast. */
  readonly pendingCreationHistory = new Set<string>();
  readonly creates: CreateCounts = noCreates();
  mainUserId = '';
  peerUserId = '';

  /** Moves on every write. */
  version = 0;
  /** Moves on every change to a task (insert, update, delete): task pages and counts are cached per task version. */
  taskVersion = 0;
  private readonly ids: DeterministicRandom;
  private sequence = 0;
  private readonly taskListeners: ((change: TaskChange) => void)[] = [];
  private countsCache = new Map<string, TaskCounts>();
  private countsVersion = -1;

  constructor(
    readonly clock: Clock,
    seed: number,
  ) {
    this.ids = new DeterministicRandom((seed ^ 0x5eed1d5) >>> 0);
  }

  /** A new random-looking id; deterministic for a given seed and sequence of writes. */
  newId(prefix: string): string {
    return `${prefix}_${this.ids.token(12)}`;
  }

  /** A new id that sorts after every id made before it (history and comments keep creation order on ties). */
  sequentialId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}_${this.sequence.toString(36).padStart(10, '0')}`;
  }

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Today's date in UTC, `YYYY-MM-DD`. */
  today(): string {
    return this.nowIso().slice(0, 10);
  }

  /** A collection kind's records by id (sections, sprints, …; a new kind's own key works the same). */
  records<R>(key: CollectionKey<R>): Map<string, R> {
    let records = this.collections.get(key.collection);
    if (!records) {
      records = new Map();
      this.collections.set(key.collection, records);
    }
    return records as Map<string, R>;
  }

  touch(): void {
    this.version += 1;
  }

  memberByUsername(username: string): OrganizationMemberRecord | undefined {
    for (const member of this.members.values()) if (member.username === username) return member;
    return undefined;
  }

  get mainMember(): OrganizationMemberRecord {
    return this.requireMember(this.mainUserId);
  }

  get peerMember(): OrganizationMemberRecord {
    return this.requireMember(this.peerUserId);
  }

  private requireMember(userId: string): OrganizationMemberRecord {
    const member = this.members.get(userId);
    if (!member) throw new Error(`no member ${userId}`);
    return member;
  }

  onTaskChange(listener: (change: TaskChange) => void): void {
    this.taskListeners.push(listener);
  }

  private notify(change: TaskChange): void {
    for (const listener of this.taskListeners) listener(change);
  }

  insertTask(record: TaskRecord): TaskEntry {
    const entry = new TaskEntry(record);
    this.tasks.set(record.task_id, entry);
    this.historyProject.set(record.task_id, record.project_id);
    this.taskVersion += 1;
    this.touch();
    this.notify({ kind: 'insert', entry });
    return entry;
  }

  updateTask(entry: TaskEntry, record: TaskRecord): void {
    const before = entry.record;
    entry.replace(record);
    this.historyProject.set(record.task_id, record.project_id);
    this.taskVersion += 1;
    this.touch();
    this.notify({ kind: 'update', entry, before });
  }

  deleteTask(entry: TaskEntry): void {
    this.tasks.delete(entry.record.task_id);
    this.taskVersion += 1;
    this.touch();
    this.notify({ kind: 'delete', entry });
  }

  historyOf(taskId: string): HistoryRecord[] {
    this.materializeCreationHistory(taskId);
    return this.history.get(taskId) ?? [];
  }

  appendHistory(record: HistoryRecord): void {
    this.materializeCreationHistory(record.task_id);
    const list = this.history.get(record.task_id) ?? [];
    list.push(record);
    this.history.set(record.task_id, list);
  }

  /** Writes the `created` entry of a seeded task, from its record as seeded (call before changing it). */
  materializeCreationHistory(taskId: string): void {
    if (!this.pendingCreationHistory.delete(taskId)) return;
    const entry = this.tasks.get(taskId);
    if (!entry) return;
    const task = entry.record;
    const list = this.history.get(taskId) ?? [];
    list.unshift(creationHistory(this.sequentialId('hst'), task, task.created_by ?? 'system'));
    this.history.set(taskId, list);
  }

  /** Task counts per resource tasks are filed under, over the tasks the viewer can read. */
  taskCounts(viewer: Viewer): TaskCounts {
    if (this.countsVersion !== this.taskVersion) {
      this.countsCache = new Map();
      this.countsVersion = this.taskVersion;
    }
    const cached = this.countsCache.get(viewer.visibilityKey);
    if (cached) return cached;
    const counts = Object.fromEntries(FILING_FIELDS.map((field) => [field, new Map()])) as TaskCounts;
    for (const { record: task } of this.tasks.values()) {
      if (!canSeeProject(viewer, task.project_id)) continue;
      for (const field of FILING_FIELDS) {
        const filedUnder = task[field];
        if (filedUnder === null) continue;
        if (TOP_LEVEL_COUNTS.has(field) && task.parent_task_id !== null) continue;
        const byResource = counts[field];
        const count = byResource.get(filedUnder) ?? { total: 0, completed: 0 };
        count.total += 1;
        if (task.status === 'completed') count.completed += 1;
        byResource.set(filedUnder, count);
      }
    }
    this.countsCache.set(viewer.visibilityKey, counts);
    return counts;
  }
}

/** The fields a `created` history entry lists: every field set at creation, i.e. every editable one. */
const HISTORY_FIELDS = EDITABLE_TASK_FIELDS satisfies readonly (keyof TaskRecord)[];

export function creationHistory(historyId: string, task: TaskRecord, by: string): HistoryRecord {
  const metadata = HISTORY_FIELDS.filter((field) => {
    const value = task[field];
    return value !== null && !(Array.isArray(value) && value.length === 0);
  }).map((field) => ({ field, new: task[field], old: null }));
  return {
    history_id: historyId,
    task_id: task.task_id,
    action: 'created',
    created_by: by,
    created_at: task.created_at,
    title: task.title,
    metadata,
    hash_id: null,
    updated_at: task.created_at,
  };
}

/** The `{field, new, old}` list of what changed between two versions of a task. */
export function changedFields(before: TaskRecord, after: TaskRecord) {
  return HISTORY_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field])).map(
    (field) => ({ field, new: after[field], old: before[field] }),
  );
}
