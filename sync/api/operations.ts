// The service operations the client speaks, one descriptor each: its name (as
// the contract names it, used in every error), where it lives and the schema
// its answer must match. Pull and push take these descriptors, so a resource
// module needs no HTTP code of its own.
import type { z } from 'zod';
import {
  type GoalCreateBody,
  goalDeletedSchema,
  goalSchema,
  groupedGoalsSchema,
  groupedGoalsUnreadSchema,
} from '../../protocol/goal';
import { healthSchema } from '../../protocol/health';
import { type ListPage, listPageSchema } from '../../protocol/list-page';
import { meSchema } from '../../protocol/me';
import { acknowledgementSchema } from '../../protocol/acknowledgement';
import {
  type MilestoneCreateBody,
  type MilestoneUpdateBody,
  milestoneSchema,
} from '../../protocol/milestone';
import { organizationSchema } from '../../protocol/organization';
import { organizationMemberSchema } from '../../protocol/organization-member';
import { projectSchema } from '../../protocol/project';
import { type SectionCreateBody, type SectionScopeType, sectionSchema } from '../../protocol/section';
import { type SprintCreateBody, sprintSchema } from '../../protocol/sprint';
import { type TaskCreateBody, type TaskPatch, taskSchema } from '../../protocol/task';
import {
  type TaskCommentCreateBody,
  type TaskCommentReplyBody,
  taskCommentSchema,
  type TaskCommentUpdateBody,
} from '../../protocol/task-comment';
import { taskHistoryEntrySchema } from '../../protocol/task-history';
import { teamDetailSchema, teamSchema } from '../../protocol/team';
import { UnsafeIdError } from './errors';

/** Where a request goes: a path under the base URL and fixed query parameters. */
export interface Endpoint {
  path: string;
  query?: Readonly<Record<string, string | undefined>>;
}

export interface ListOperation<Item, Params> {
  readonly kind: 'list';
  readonly name: string;
  readonly pageSchema: z.ZodType<ListPage<Item>>;
  endpoint(params: Params): Endpoint;
}

export interface ReadOperation<Body, Params> {
  readonly kind: 'read';
  readonly name: string;
  readonly schema: z.ZodType<Body>;
  /** False only for the unauthenticated health probe. */
  readonly authenticated: boolean;
  endpoint(params: Params): Endpoint;
}

export interface CreateOperation<Body, Input, Params> {
  readonly kind: 'create';
  readonly name: string;
  readonly schema: z.ZodType<Body>;
  endpoint(params: Params): Endpoint;
  /** Carries the request body's type; never called. */
  readonly input?: (input: Input) => void;
}

export interface UpdateOperation<Body, Patch, Params> {
  readonly kind: 'update';
  readonly name: string;
  readonly schema: z.ZodType<Body>;
  endpoint(params: Params): Endpoint;
  /** Carries the patch's type; never called. */
  readonly input?: (patch: Patch) => void;
}

export interface DeleteOperation<Body, Params> {
  readonly kind: 'delete';
  readonly name: string;
  /** The answer's schema; null when the answer is 204 (or a body we do not read). */
  readonly schema: z.ZodType<Body> | null;
  endpoint(params: Params): Endpoint;
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

function createOperation<Body, Input, Params>(
  name: string,
  schema: z.ZodType<Body>,
  endpoint: (params: Params) => Endpoint,
): CreateOperation<Body, Input, Params> {
  return { kind: 'create', name, schema, endpoint: checkedIds(name, endpoint) };
}

function updateOperation<Body, Patch, Params>(
  name: string,
  schema: z.ZodType<Body>,
  endpoint: (params: Params) => Endpoint,
): UpdateOperation<Body, Patch, Params> {
  return { kind: 'update', name, schema, endpoint: checkedIds(name, endpoint) };
}

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
  list: listOperation('teams.list', teamSchema, (p: { orgId: string }) => ({
    path: '/v1/teams',
    query: { org_id: p.orgId },
  })),
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
  get: readOperation('sections.get', sectionSchema, (p: { sectionId: string }) => ({
    path: `/v1/sections/${seg(p.sectionId)}`,
  })),
  create: createOperation<z.infer<typeof sectionSchema>, SectionCreateBody, NoParams>(
    'sections.create',
    sectionSchema,
    () => ({
      path: '/v1/sections',
    }),
  ),
  update: updateOperation<
    z.infer<typeof sectionSchema>,
    { name?: string; position?: number | null },
    { sectionId: string }
  >('sections.update', sectionSchema, (p) => ({ path: `/v1/sections/${seg(p.sectionId)}` })),
  delete: deleteOperation<unknown, { sectionId: string }>('sections.delete', null, (p) => ({
    path: `/v1/sections/${seg(p.sectionId)}`,
  })),
};

export const sprintOperations = {
  list: listOperation('sprints.list', sprintSchema, (p: { teamId: string }) => ({
    path: `/v1/teams/${seg(p.teamId)}/sprints`,
  })),
  get: readOperation('sprints.get', sprintSchema, (p: { teamId: string; sprintId: string }) => ({
    path: `/v1/teams/${seg(p.teamId)}/sprints/${seg(p.sprintId)}`,
  })),
  create: createOperation<z.infer<typeof sprintSchema>, SprintCreateBody, { teamId: string }>(
    'sprints.create',
    sprintSchema,
    (p) => ({
      path: `/v1/teams/${seg(p.teamId)}/sprints`,
    }),
  ),
  update: updateOperation<
    z.infer<typeof sprintSchema>,
    Partial<SprintCreateBody>,
    { teamId: string; sprintId: string }
  >('sprints.update', sprintSchema, (p) => ({
    path: `/v1/teams/${seg(p.teamId)}/sprints/${seg(p.sprintId)}`,
  })),
};

export const goalOperations = {
  /** Every live goal, grouped by project, under one ETag. */
  grouped: readOperation('goals.list_grouped', groupedGoalsSchema, (p: { orgId: string }) => ({
    path: '/v1/goals',
    query: { org_id: p.orgId },
  })),
  /** The same answer, its goals left for the pull to check where it applies them (deferred-validation.ts). */
  groupedUnread: readOperation('goals.list_grouped', groupedGoalsUnreadSchema, (p: { orgId: string }) => ({
    path: '/v1/goals',
    query: { org_id: p.orgId },
  })),
  /** One project's goals, to continue a group of the grouped answer past its `next_cursor`. */
  listInProject: listOperation('goals.list', goalSchema, (p: { projectId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/goals`,
  })),
  get: readOperation('goals.get', goalSchema, (p: { projectId: string; goalId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/goals/${seg(p.goalId)}`,
  })),
  create: createOperation<z.infer<typeof goalSchema>, GoalCreateBody, { projectId: string }>(
    'goals.create',
    goalSchema,
    (p) => ({
      path: `/v1/projects/${seg(p.projectId)}/goals`,
    }),
  ),
  update: updateOperation<
    z.infer<typeof goalSchema>,
    Partial<GoalCreateBody>,
    { projectId: string; goalId: string }
  >('goals.update', goalSchema, (p) => ({ path: `/v1/projects/${seg(p.projectId)}/goals/${seg(p.goalId)}` })),
  /** Soft delete: the goal's tasks stay in the project with `goal_id` null. */
  delete: deleteOperation('goals.delete', goalDeletedSchema, (p: { projectId: string; goalId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/goals/${seg(p.goalId)}`,
  })),
};

export const milestoneOperations = {
  /** One project's milestones (gaps.md "Milestones"); team milestone routes answer 404. */
  list: listOperation('milestones.list', milestoneSchema, (p: { projectId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/milestones`,
  })),
  get: readOperation('milestones.get', milestoneSchema, (p: { projectId: string; milestoneId: string }) => ({
    path: `/v1/projects/${seg(p.projectId)}/milestones/${seg(p.milestoneId)}`,
  })),
  create: createOperation<z.infer<typeof milestoneSchema>, MilestoneCreateBody, { projectId: string }>(
    'milestones.create',
    milestoneSchema,
    (p) => ({ path: `/v1/projects/${seg(p.projectId)}/milestones` }),
  ),
  update: updateOperation<
    z.infer<typeof milestoneSchema>,
    MilestoneUpdateBody,
    { projectId: string; milestoneId: string }
  >('milestones.update', milestoneSchema, (p) => ({
    path: `/v1/projects/${seg(p.projectId)}/milestones/${seg(p.milestoneId)}`,
  })),
  /** Answers an Acknowledgement (gaps.md); the milestone's tasks are unfiled. */
  delete: deleteOperation(
    'milestones.delete',
    acknowledgementSchema,
    (p: { projectId: string; milestoneId: string }) => ({
      path: `/v1/projects/${seg(p.projectId)}/milestones/${seg(p.milestoneId)}`,
    }),
  ),
};

export const taskOperations = {
  list: listOperation('tasks.list', taskSchema, (p: { orgId: string }) => ({
    path: '/v1/tasks',
    query: { org_id: p.orgId },
  })),
  get: readOperation('tasks.get', taskSchema, (p: { taskId: string }) => ({
    path: `/v1/tasks/${seg(p.taskId)}`,
  })),
  create: createOperation<z.infer<typeof taskSchema>, TaskCreateBody, NoParams>(
    'tasks.create',
    taskSchema,
    () => ({
      path: '/v1/tasks',
    }),
  ),
  update: updateOperation<z.infer<typeof taskSchema>, TaskPatch, { taskId: string }>(
    'tasks.update',
    taskSchema,
    (p) => ({
      path: `/v1/tasks/${seg(p.taskId)}`,
    }),
  ),
  delete: deleteOperation<unknown, { taskId: string }>('tasks.delete', null, (p) => ({
    path: `/v1/tasks/${seg(p.taskId)}`,
  })),
};

export const taskCommentOperations = {
  list: listOperation('task-comments.list', taskCommentSchema, (p: { taskId: string }) => ({
    path: '/v1/task-comments',
    query: { task_id: p.taskId },
  })),
  get: readOperation('task-comments.get', taskCommentSchema, (p: { commentId: string }) => ({
    path: `/v1/task-comments/${seg(p.commentId)}`,
  })),
  create: createOperation<z.infer<typeof taskCommentSchema>, TaskCommentCreateBody, NoParams>(
    'task-comments.create',
    taskCommentSchema,
    () => ({ path: '/v1/task-comments' }),
  ),
  reply: createOperation<z.infer<typeof taskCommentSchema>, TaskCommentReplyBody, NoParams>(
    'task-comments.reply',
    taskCommentSchema,
    () => ({ path: '/v1/task-comments/reply' }),
  ),
  update: updateOperation<z.infer<typeof taskCommentSchema>, TaskCommentUpdateBody, { commentId: string }>(
    'task-comments.update',
    taskCommentSchema,
    (p) => ({ path: `/v1/task-comments/${seg(p.commentId)}` }),
  ),
  delete: deleteOperation<unknown, { commentId: string }>('task-comments.delete', null, (p) => ({
    path: `/v1/task-comments/${seg(p.commentId)}`,
  })),
};

export const taskHistoryOperations = {
  list: listOperation('task-history.list', taskHistoryEntrySchema, (p: { taskId: string }) => ({
    path: '/v1/task-history',
    query: { task_id: p.taskId },
  })),
};
