// A kind of resource a person writes besides tasks and comments (sections,
// sprints, goals, milestones), described once, beside its wire schemas. The
// layers above derive what they need of it from this one record: the routes
// and operations the client sends (sync/api/operations.ts), the pusher's kind
// (sync/push/kinds/), the outbox's check, fold and mirror copy
// (db/outbox/kinds/), the mirrored collection's columns (db/collections/collections.ts),
// the unfiling of its tasks, the IPC enum, the headless command's verbs and
// the scopes a sign-in asks for. Adding a kind is a descriptor here, a line in
// writable-kinds.ts, a migration for its table and the emulator's route
// (docs/adding-a-kind.md).
import type { z } from 'zod';

/** A field the mirror lifts out of the raw JSON into a column of the same name, with the JSON type it must have. */
export type LiftedColumn = readonly [field: string, type: 'string' | 'number' | 'boolean'];

/** The task fields a kind files tasks under (a task names at most one of each). */
export type FilingField = 'section_id' | 'sprint_id' | 'goal_id' | 'milestone_id';

/**
 * Where a kind lives in the contract's routes: `/v1/{path}` and
 * `/v1/{path}/{id}`, or under a parent, `/v1/{parent.path}/{parent id}/{path}`
 * and `…/{path}/{id}`. The parameter names are the operations' (`projectId`).
 */
export interface KindRoute<ParentParam extends string, IdParam extends string> {
  /** The contract's prefix of its operations' names: `${name}.create`, `${name}.get`, … */
  readonly name: string;
  readonly path: string;
  readonly parent: { readonly path: string; readonly param: ParentParam } | null;
  readonly idParam: IdParam;
}

export interface WritableKind<
  Entity extends string = string,
  Collection extends string = string,
  Body = unknown,
  Create extends z.ZodObject = z.ZodObject,
  Update extends z.ZodObject = z.ZodObject,
  ParentParam extends string = string,
  IdParam extends string = string,
  IdField extends string = string,
  Columns extends readonly LiftedColumn[] = readonly LiftedColumn[],
> {
  /** The outbox's `entity_type`, and the word for one of it ("goal"). */
  readonly entityType: Entity;
  /** Its mirrored collection: the table and the word for many ("goals"). */
  readonly collection: Collection;
  /** The id field of its answers and its table's key. */
  readonly idField: IdField;
  readonly route: KindRoute<ParentParam, IdParam>;
  /**
   * The resource's field naming the parent its routes need (a sprint's
   * `team_id`), set on a create as the operation's parent; null: none (a
   * section's scope is in its body).
   */
  readonly parentField: string | null;
  /**
   * Where the pull lists it: per parent (one list per parent the mirror holds,
   * the row's scope its parent; derived from its route) or for the whole
   * organization (a resource of its own in sync/pull/resources/).
   */
  readonly listedPer: 'parent' | 'organization';
  /** The order its per-parent list is asked in, when the route takes one (`sort_by`, `sort_order`). */
  readonly listOrder?: { readonly sortBy: string; readonly sortOrder: 'asc' | 'desc' };
  readonly schemas: {
    /** A resource as the service answers it. */
    readonly read: z.ZodType<Body>;
    /** The create body, without `org_id` and without the route's parent id. */
    readonly create: Create;
    /** The merge-patch body of an update. */
    readonly update: Update;
    /** What a delete answers (null: no body read; a kind the service does not delete says so in `endedBy`). */
    readonly deleted: z.ZodType | null;
  };
  /**
   * The service has no delete of it: it is ended by setting this status
   * instead (a sprint is completed), and a delete is refused before it is
   * queued. Absent: the service deletes it.
   */
  readonly endedBy?: { readonly status: string };
  /** The create body names the organization (`org_id`), added when it is sent. */
  readonly orgIdInCreate: boolean;
  /** The scope its writes need: a 403 that names no scope is taken as this one refused. */
  readonly writeScope: string;
  /**
   * Fields the service derives from other resources (a goal's task counts),
   * part of its ETag: a delete refused with 412 where nothing else changed
   * deletes the new version instead of waiting for the person.
   */
  readonly derivedFields: readonly string[];
  /** The task field that files tasks under it, whose delete unfiles them (the service's rule, gaps.md); null: tasks are not filed under it. */
  readonly filesTasksBy: FilingField | null;
  /** Fields the mirror's table lifts into columns (and its Kysely type, db/schema.ts). */
  readonly columns: Columns;
  /** The fields a re-create sends (the person keeps one deleted on the server), from their values or the row's. */
  readonly recreateFields: readonly string[];
  /** How a create's body changes when an edit folds into it besides taking its fields (a sprint's end date replaces its weeks). */
  foldIntoCreate?(create: Record<string, unknown>, patch: Record<string, unknown>): void;
  /** What setting a status says of it ("Complete", "Close", "Reopen"), by the status set; absent: it has none. */
  readonly statusVerbs?: Readonly<Record<string, string>>;
}

/** Keeps a descriptor's literal types (its entity type, its route's parameter names) for the layers that derive from it. */
export function writableKind<
  const Entity extends string,
  const Collection extends string,
  Body,
  Create extends z.ZodObject,
  Update extends z.ZodObject,
  const ParentParam extends string,
  const IdParam extends string,
  const IdField extends string,
  const Columns extends readonly LiftedColumn[],
>(
  kind: WritableKind<Entity, Collection, Body, Create, Update, ParentParam, IdParam, IdField, Columns>,
): WritableKind<Entity, Collection, Body, Create, Update, ParentParam, IdParam, IdField, Columns> {
  return kind;
}

/** The create body's fields a person may set (the route's parent and the organization aside). */
export function createFieldsOf(kind: WritableKind): string[] {
  return Object.keys(kind.schemas.create.shape);
}

/** The update body's fields. */
export function updateFieldsOf(kind: WritableKind): string[] {
  return Object.keys(kind.schemas.update.shape);
}

/** The create fields a person must give (the headless command says so before anything is queued). */
export function requiredCreateFieldsOf(kind: WritableKind): string[] {
  const shape = kind.schemas.create.shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter((field) => !shape[field]!.safeParse(undefined).success);
}

/** The service deletes resources of this kind. */
export function isDeletable(kind: WritableKind): boolean {
  return kind.endedBy === undefined;
}

/** How a kind without a delete is ended, in words ("complete"), from its status verbs. */
export function endingVerb(kind: WritableKind): string {
  const status = kind.endedBy?.status ?? '';
  return (kind.statusVerbs?.[status] ?? `set status ${status} on`).toLowerCase();
}
