// The service operations the client speaks, one descriptor each: its name (as
// the contract names it, used in every error), where it lives and the schema
// its answer must match. Pull and push take these descriptors, so a resource
// module needs no HTTP code of its own.
import type { z } from 'zod';
import { goalKind, goalSchema, groupedGoalsSchema, groupedGoalsUnreadSchema } from '../../protocol/goal';
import { healthSchema } from '../../protocol/health';
import { type ListPage, listPageSchema } from '../../protocol/list-page';
import { meSchema } from '../../protocol/me';
import { milestoneKind } from '../../protocol/milestone';
import { organizationSchema } from '../../protocol/organization';
import { organizationMemberSchema } from '../../protocol/organization-member';
import { projectSchema } from '../../protocol/project';
import { sectionKind, type SectionScopeType, sectionSchema } from '../../protocol/section';
import { sprintKind } from '../../protocol/sprint';
import { type Task, type TaskCreateBody, type TaskPatch, taskSchema } from '../../protocol/task';
import {
  type TaskCommentCreateBody,
  type TaskCommentReplyBody,
  taskCommentSchema,
  type TaskCommentUpdateBody,
} from '../../protocol/task-comment';
import { taskHistoryEntrySchema } from '../../protocol/task-history';
import { teamDetailSchema, teamSchema } from '../../protocol/team';
import type { WritableKind } from '../../protocol/writable-kind';
import { UnsafeIdError } from './errors';

/** Where a request goes: a path under the base URL and fixed query parameters. */
export interface Endpoint {
  path: string;
  query?: Readonly<Record<string, string | undefined>>;
}

/** What every operation has: its kind, its contract name (used in every error) and where it lives. */
interface OperationOf<Kind extends string, Params> {
  readonly kind: Kind;
  readonly name: string;
  endpoint(params: Params): Endpoint;
}

export interface ListOperation<Item, Params> extends OperationOf<'list', Params> {
  readonly pageSchema: z.ZodType<ListPage<Item>>;
}

export interface ReadOperation<Body, Params> extends OperationOf<'read', Params> {
  readonly schema: z.ZodType<Body>;
  /** False only for the unauthenticated health probe. */
  readonly authenticated: boolean;
}

/** A create or an update: it sends a body of type `Input` and answers the resource as written. */
export interface WriteOperation<Kind extends 'create' | 'update', Body, Input, Params> extends OperationOf<
  Kind,
  Params
> {
  readonly schema: z.ZodType<Body>;
  /** Carries the request body's type; never called. */
  readonly input?: (input: Input) => void;
}

export type CreateOperation<Body, Input, Params> = WriteOperation<'create', Body, Input, Params>;

/** `Patch` is the merge-patch's type. */
export type UpdateOperation<Body, Patch, Params> = WriteOperation<'update', Body, Patch, Params>;

/** Bytes, not JSON: an attachment's content, whole or one `Range`. */
export type ContentOperation<Params> = OperationOf<'content', Params>;

export interface DeleteOperation<Body, Params> extends OperationOf<'delete', Params> {
  /** The answer's schema; null when the answer is 204 (or a body we do not read). */
  readonly schema: z.ZodType<Body> | null;
}

function listOperation<Item, Params>(
  name: string,
  itemSchema: z.ZodType<Item>,
  endpoint: (params: Params) => Endpoint,
): ListOperation<Item, Params> {
  return {
    kind: 'list',
    name,
    pageSchema: listPageSchema(itemSchema),
    endpoint: checkedIds(name, endpoint),
  };
}

function readOperation<Body, Params>(
  name: string,
  schema: z.ZodType<Body>,
  endpoint: (params: Params) => Endpoint,
  authenticated = true,
): ReadOperation<Body, Params> {
  return { kind: 'read', name, schema, authenticated, endpoint: checkedIds(name, endpoint) };
}

/** The factory of one kind of write operation (`createOperation<Body, Input, Params>(name, schema, endpoint)`). */
function writeOperation<Kind extends 'create' | 'update'>(kind: Kind) {
  return <Body, Input, Params>(
    name: string,
    schema: z.ZodType<Body>,
    endpoint: (params: Params) => Endpoint,
  ): WriteOperation<Kind, Body, Input, Params> => ({
    kind,
    name,
    schema,
    endpoint: checkedIds(name, endpoint),
  });
}

const createOperation = writeOperation('create');
const updateOperation = writeOperation('update');

function deleteOperation<Body, Params>(
  name: string,
  schema: z.ZodType<Body> | null,
  endpoint: (params: Params) => Endpoint,
): DeleteOperation<Body, Params> {
  return { kind: 'delete', name, schema, endpoint: checkedIds(name, endpoint) };
}

/** Thrown by `seg` and named after its operation by `checkedIds`. */
class UnsafeSegment extends Error {
  constructor(readonly id: string) {
    super('unsafe path segment');
  }
}

/**
 * A path segment from an id: ids are opaque, so they are always encoded. Some
 * ids no encoding makes safe: `.` and `..` stay as they are and move the request
 * up the path (`PATCH /v1/teams/T/sprints/..` is a write to the team), an empty
 * one names the collection, and a control character has no business in a
 * URL. An id comes from the server or from a person's file, so such a one is
 * refused before anything is sent.
 */
const seg = (id: string): string => {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (id === '' || id === '.' || id === '..' || /[\u0000-\u001f\u007f-\u009f]/.test(id)) {
    throw new UnsafeSegment(id);
  }
  return encodeURIComponent(id);
};

/** The operation's endpoint, refusing an unsafe id with an UnsafeIdError that names the operation. */
function checkedIds<Params>(
  name: string,
  endpoint: (params: Params) => Endpoint,
): (params: Params) => Endpoint {
  return (params) => {
    try {
      return endpoint(params);
    } catch (error) {
      if (error instanceof UnsafeSegment) throw new UnsafeIdError(name, error.id);
      throw error;
    }
  };
}

type NoParams = Record<string, never>;

/** A collection read across one organization: `{path}?org_id=…`. */
const inOrg =
  (path: string) =>
  (p: { orgId: string }): Endpoint => ({ path, query: { org_id: p.orgId } });

/** A collection about one task: `{path}?task_id=…`. */
const ofTask =
  (path: string) =>
  (p: { taskId: string }): Endpoint => ({ path, query: { task_id: p.taskId } });

/** A path that takes no parameters. */
const fixed =
  (path: string) =>
  (_: NoParams): Endpoint => ({ path });

const taskPath = (p: { taskId: string }): Endpoint => ({ path: `/v1/tasks/${seg(p.taskId)}` });
const commentPath = (p: { commentId: string }): Endpoint => ({
  path: `/v1/task-comments/${seg(p.commentId)}`,
});

/**
 * The create, read, update, delete and list of a writable kind, from its route in
 * its descriptor (protocol/writable-kind.ts): `/v1/{path}` or under its
 * parent, `/v1/{parent}/{parent id}/{path}`, and `…/{id}`; the parameters are
 * named as the route names them (`{ projectId, goalId }`).
 */
function buildKindOperations<
  Entity extends string,
  Collection extends string,
  Body,
  Create extends z.ZodObject,
  Update extends z.ZodObject,
  ParentParam extends string,
  IdParam extends string,
>(kind: WritableKind<Entity, Collection, Body, Create, Update, ParentParam, IdParam>) {
  type Parent = string extends ParentParam ? NoParams : Record<ParentParam, string>;
  type Item = Omit<Parent, never> & Record<IdParam, string>;
  const { name, path, parent, idParam } = kind.route;
  const under = (params: Readonly<Record<string, string>>): string =>
    parent === null ? `/v1/${path}` : `/v1/${parent.path}/${seg(params[parent.param] ?? '')}/${path}`;
  const item = (params: Readonly<Record<string, string>>): Endpoint => ({
    path: `${under(params)}/${seg(params[idParam] ?? '')}`,
  });
  return {
    /** Its list under one parent (a team's sprints). */
    listInParent: listOperation<Body, Parent>(`${name}.list`, kind.schemas.read, (params) => ({
      path: under(params),
    })),
    /** Its list for the whole organization (every section the caller can read), when it has no parent route. */
    listInOrganization: listOperation<Body, { orgId: string }>(`${name}.list`, kind.schemas.read, (p) => ({
      path: `/v1/${path}`,
      query: { org_id: p.orgId },
    })),
    get: readOperation<Body, Item>(`${name}.get`, kind.schemas.read, item),
    // A kind whose body names the organization gets it added when it is sent (orgIdInCreate).
    create: createOperation<Body, z.infer<Create> & { org_id?: string }, Parent>(
      `${name}.create`,
      kind.schemas.read,
      (params) => ({ path: under(params) }),
    ),
    update: updateOperation<Body, z.infer<Update>, Item>(`${name}.update`, kind.schemas.read, item),
    delete: deleteOperation<unknown, Item>(`${name}.delete`, kind.schemas.deleted, item),
  };
}

const kindOperations = new WeakMap<WritableKind, unknown>();

/** The operations `buildKindOperations` makes for the descriptor type `Kind`, typed by its parameters. */
type KindOperations<Kind> =
  Kind extends WritableKind<
    infer Entity extends string,
    infer Collection extends string,
    infer Body,
    infer Create extends z.ZodObject,
    infer Update extends z.ZodObject,
    infer ParentParam extends string,
    infer IdParam extends string
  >
    ? ReturnType<typeof buildKindOperations<Entity, Collection, Body, Create, Update, ParentParam, IdParam>>
    : never;

/** A kind's operations, built once per descriptor (the pusher, the pull and the named catalogues below share them). */
export function kindOperationsOf<Kind extends WritableKind>(kind: Kind): KindOperations<Kind> {
  let built = kindOperations.get(kind);
  if (built === undefined) {
    built = buildKindOperations(kind);
    kindOperations.set(kind, built);
  }
  return built as KindOperations<Kind>;
}

export const healthOperation = readOperation(
  'health',
  healthSchema,
  (_: NoParams) => ({ path: '/v1/health' }),
  false,
);

export const meOperations = {
  get: readOperation('me.get', meSchema, (_: NoParams) => ({ path: '/v1/me' })),
};

export const organizationOperations = {
  list: listOperation('organizations.list', organizationSchema, (_: NoParams) => ({
    path: '/v1/organizations',
  })),
};

export const projectOperations = {
  list: listOperation('projects.list', projectSchema, (p: { orgId: string }) => ({
    path: `/v1/projects/${seg(p.orgId)}`,
  })),
};

export const teamOperations = {
  list: listOperation('teams.list', teamSchema, inOrg('/v1/teams')),
  get: readOperation('teams.get', teamDetailSchema, (p: { teamId: string }) => ({
    path: `/v1/teams/${seg(p.teamId)}`,
  })),
  update: updateOperation<
    z.infer<typeof teamDetailSchema>,
    { name?: string | null; description?: string | null },
    { teamId: string }
  >('teams.update', teamDetailSchema, (p) => ({ path: `/v1/teams/${seg(p.teamId)}` })),
};

export const organizationMemberOperations = {
  list: listOperation('organization-members.list', organizationMemberSchema, (p: { orgId: string }) => ({
    path: `/v1/organization-members/${seg(p.orgId)}`,
  })),
};

export const sectionOperations = {
  /** Without a scope: every section the caller can read. */
  list: listOperation(
    'sections.list',
    sectionSchema,
    (p: { orgId: string; scopeType?: SectionScopeType; scopeId?: string }) => ({
      path: '/v1/sections',
      query: { org_id: p.orgId, scope_type: p.scopeType, scope_id: p.scopeId },
    }),
  ),
  ...kindOperationsOf(sectionKind),
};

/** A kind the service lists only under its parent: its `list` is that list. */
function listedInParent<Operations extends { listInParent: unknown }>(
  operations: Operations,
): Operations & { list: Operations['listInParent'] } {
  return { ...operations, list: operations.listInParent };
}

export const sprintOperations = listedInParent(kindOperationsOf(sprintKind));

export const goalOperations = {
  /** Every live goal, grouped by project, under one ETag. */
  grouped: readOperation('goals.list_grouped', groupedGoalsSchema, inOrg('/v1/goals')),
  /** The same answer, its goals left for the pull to check where it applies them (deferred-validation.ts). */
  groupedUnread: readOperation('goals.list_grouped', groupedGoalsUnreadSchema, inOrg('/v1/goals')),
  /** One project's goals, to continue a group of the grouped answer past its `next_cursor`. */
  listInProject: listOperation('goals.list', goalSchema, (p: { projectId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/goals`,
  })),
  ...kindOperationsOf(goalKind),
};

/** Listed per project only (gaps.md "Milestones"); team milestone routes answer 404. */
export const milestoneOperations = listedInParent(kindOperationsOf(milestoneKind));

export const taskOperations = {
  list: listOperation('tasks.list', taskSchema, inOrg('/v1/tasks')),
  get: readOperation('tasks.get', taskSchema, taskPath),
  create: createOperation<Task, TaskCreateBody, NoParams>('tasks.create', taskSchema, fixed('/v1/tasks')),
  update: updateOperation<Task, TaskPatch, { taskId: string }>('tasks.update', taskSchema, taskPath),
  delete: deleteOperation<unknown, { taskId: string }>('tasks.delete', null, taskPath),
};

export const taskCommentOperations = {
  list: listOperation('task-comments.list', taskCommentSchema, ofTask('/v1/task-comments')),
  get: readOperation('task-comments.get', taskCommentSchema, commentPath),
  create: createOperation<z.infer<typeof taskCommentSchema>, TaskCommentCreateBody, NoParams>(
    'task-comments.create',
    taskCommentSchema,
    fixed('/v1/task-comments'),
  ),
  reply: createOperation<z.infer<typeof taskCommentSchema>, TaskCommentReplyBody, NoParams>(
    'task-comments.reply',
    taskCommentSchema,
    fixed('/v1/task-comments/reply'),
  ),
  update: updateOperation<z.infer<typeof taskCommentSchema>, TaskCommentUpdateBody, { commentId: string }>(
    'task-comments.update',
    taskCommentSchema,
    commentPath,
  ),
  delete: deleteOperation<unknown, { commentId: string }>('task-comments.delete', null, commentPath),
};

/** An attachment's bytes (gaps.md "Attachments"): `ETag` the quoted SHA-256, `Range` answered 206. */
export const attachmentContentOperation: ContentOperation<{ attachmentId: string }> = {
  kind: 'content',
  name: 'task-attachments.content',
  endpoint: checkedIds('task-attachments.content', (p: { attachmentId: string }) => ({
    path: `/v1/task-attachments/${seg(p.attachmentId)}/content`,
  })),
};

export const taskHistoryOperations = {
  list: listOperation('task-history.list', taskHistoryEntrySchema, ofTask('/v1/task-history')),
};

/** A saved view's rows as the service answers them: read while online for a view whose filters this version does not know. */
export const viewOperations = {
  rows: listOperation('views.rows', taskSchema, (p: { viewId: string }) => ({
    path: `/v1/views/${seg(p.viewId)}/rows`,
  })),
};
