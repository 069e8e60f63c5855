// The mirrored collections other than tasks, described once each: table, id
// field, the columns lifted out of the raw JSON, and the check of those fields.
// The kinds a person writes (sections, sprints, goals, milestones) come from
// their descriptors (protocol/writable-kinds.ts); the read-only ones are listed
// here. Adding a collection is an entry (or a descriptor) plus a migration for
// its table.
import {
  COLLECTION_KINDS,
  WRITABLE_COLLECTIONS,
  type WritableCollection,
} from '../../protocol/writable-kinds';
import type { LiftedColumn } from '../../protocol/writable-kind';
import { MalformedRowError } from '../mirror-errors';
import { rowBeyondBounds } from './row-nesting';

/** Listed whole for the organization, read only. */
const DIRECTORY = ['organizations', 'projects', 'teams', 'organization_members'] as const;
/** A task's thread and history, read per task. */
const ACTIVITY = ['task_comments', 'task_history'] as const;

export type CollectionName =
  (typeof DIRECTORY)[number] | 'tasks' | WritableCollection | (typeof ACTIVITY)[number];
export const COLLECTION_NAMES: readonly CollectionName[] = [
  ...DIRECTORY,
  'tasks',
  ...WRITABLE_COLLECTIONS,
  ...ACTIVITY,
];
export type OtherCollection = Exclude<CollectionName, 'tasks'>;

export interface CollectionSpec {
  table: OtherCollection;
  idField: string;
  /** Fields copied into columns (same name), with the JSON type they must have when present and not null. */
  columns: readonly LiftedColumn[];
}

const READ_ONLY_COLLECTIONS: Readonly<Record<Exclude<OtherCollection, WritableCollection>, CollectionSpec>> =
  {
    organizations: {
      table: 'organizations',
      idField: 'org_id',
      columns: [
        ['name', 'string'],
        ['slug', 'string'],
      ],
    },
    projects: {
      table: 'projects',
      idField: 'project_id',
      columns: [
        ['org_id', 'string'],
        ['name', 'string'],
        ['status', 'string'],
        ['team_id', 'string'],
      ],
    },
    teams: {
      table: 'teams',
      idField: 'team_id',
      columns: [
        ['org_id', 'string'],
        ['name', 'string'],
      ],
    },
    organization_members: {
      table: 'organization_members',
      idField: 'user_id',
      columns: [
        ['org_id', 'string'],
        ['username', 'string'],
        ['email', 'string'],
        ['role', 'string'],
        ['is_active', 'boolean'],
      ],
    },
    task_comments: {
      table: 'task_comments',
      idField: 'comment_id',
      columns: [
        ['task_id', 'string'],
        ['parent_comment_id', 'string'],
        ['created_at', 'string'],
      ],
    },
    task_history: {
      table: 'task_history',
      idField: 'history_id',
      columns: [
        ['task_id', 'string'],
        ['created_at', 'string'],
      ],
    },
  };

export const COLLECTIONS: Readonly<Record<OtherCollection, CollectionSpec>> = {
  ...READ_ONLY_COLLECTIONS,
  ...(Object.fromEntries(
    COLLECTION_KINDS.map((kind): [WritableCollection, CollectionSpec] => [
      kind.collection,
      { table: kind.collection, idField: kind.idField, columns: kind.columns },
    ]),
  ) as Record<WritableCollection, CollectionSpec>),
};

export function isCollectionName(name: string): name is CollectionName {
  return (COLLECTION_NAMES as readonly string[]).includes(name);
}

/** The id of a resource, or the error naming what is wrong with the fields the mirror reads. */
export function checkResource(
  spec: CollectionSpec,
  value: unknown,
): { id: string; object: Record<string, unknown> } | MalformedRowError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new MalformedRowError(spec.table, null, '(row)', 'is not a JSON object');
  }
  const object = value as Record<string, unknown>;
  const rawId = object[spec.idField];
  if (typeof rawId !== 'string' || rawId.length === 0) {
    return new MalformedRowError(spec.table, null, spec.idField, 'must be a non-empty string');
  }
  for (const [field, kind] of spec.columns) {
    const v = object[field];
    if (v !== undefined && v !== null && typeof v !== kind) {
      return new MalformedRowError(spec.table, rawId, field, `must be a ${kind} or null`);
    }
  }
  const beyond = rowBeyondBounds(object);
  if (beyond !== null) return new MalformedRowError(spec.table, rawId, beyond.field, beyond.reason);
  return { id: rawId, object };
}

/** Column values in `spec.columns` order (booleans as 0/1, absent as null). */
export function columnValues(spec: CollectionSpec, object: Record<string, unknown>): unknown[] {
  return spec.columns.map(([field]) => {
    const v = object[field];
    if (v === undefined || v === null) return null;
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  });
}
