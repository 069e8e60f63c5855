// Goals (`GoalOut`), the grouped answer of `GET /v1/goals` (one ETag for all
// groups) and the soft delete's `GoalDeleted`. All documented. Goal `status`
// values beyond the default `open` are not shown, so any string is kept.
import { z } from 'zod';
import { writableKind } from './writable-kind';
import { projectGroupsSchema } from './project-groups';
import { boundedText, calendarDateField } from './body-fields';
import {
  freeFormObjectSchema,
  idField,
  optionalDate,
  optionalInt,
  optionalString,
  stampFields,
} from './wire-fields';

export const goalSchema = z.looseObject({
  goal_id: idField,
  org_id: idField,
  project_id: idField,
  name: z.string(),
  target_date: optionalDate,
  description: optionalString,
  position: optionalInt,
  status: optionalString,
  closed_at: optionalString,
  closed_by: optionalString,
  converted_from_task_id: optionalString,
  ...stampFields,
  tasks_total: optionalInt,
  tasks_completed: optionalInt,
  tasks: z.array(freeFormObjectSchema).nullish(),
});
export type Goal = z.infer<typeof goalSchema>;

/**
 * One project's goals inside the grouped answer, as the service sends it. The
 * contract marks none of its fields required; the client still needs `data` and
 * `next_cursor` as it needs a list's envelope: a group read without its goals or
 * its cursor would look complete and the pass's sweep would delete the goals it
 * missed. `project_id` may be absent or null (see `projectGoalsListSchema`).
 */
export const projectGoalsSchema = z.looseObject({
  project_id: optionalString,
  data: z.array(goalSchema),
  /** Null when the group is complete; absent is not null (a list is read to its null cursor). */
  next_cursor: z.string().nullable(),
  goals_tasks_total: optionalInt,
  goals_tasks_completed: optionalInt,
});
/** A group as the client reads it: with the project it belongs to. */
export type ProjectGoals = z.infer<typeof projectGoalsSchema> & { project_id: string };

/** The groups, each with the project it belongs to (protocol/project-groups.ts). */
export const projectGoalsListSchema = projectGroupsSchema(projectGoalsSchema, 'goals');

/** `GET /v1/goals?org_id=…`: every live goal grouped by project; `total` counts goals in all groups. */
export const groupedGoalsSchema = z.looseObject({
  org_id: optionalString,
  /** Required for the same reason as a list's `data`. */
  projects: projectGoalsListSchema,
  total: optionalInt,
});

/**
 * The grouped answer with its goals not read yet: the pull checks them where
 * it applies them, as the pages of one project's goal list, so that a goal
 * that breaks the contract is left out rather than failing every group.
 */
export const groupedGoalsUnreadSchema = groupedGoalsSchema.extend({
  projects: projectGroupsSchema(projectGoalsSchema.extend({ data: z.array(z.unknown()) }), 'goals'),
});
export type GroupedGoals = z.infer<typeof groupedGoalsSchema>;

/** `DELETE /v1/projects/{project_id}/goals/{goal_id}`: the goal's tasks stay, unfiled. */
export const goalDeletedSchema = z.looseObject({
  ok: z.boolean(),
  goal_id: idField,
  unfiled_tasks: z.number().int(),
});
export type GoalDeleted = z.infer<typeof goalDeletedSchema>;

/** Goal statuses a PATCH may set (gaps.md): closing records `closed_at` and `closed_by`. */
export const GOAL_STATUSES = ['open', 'closed'] as const;
export const GOAL_NAME_MAX = 200;
/** Not in the contract: the emulator's bound, so that an absurd description is a clear error. */
export const GOAL_DESCRIPTION_MAX = 10_000;

/** Body of `POST /v1/projects/{project_id}/goals` (gaps.md: `name` 1..200). */
export const goalCreateBodySchema = z.object({
  name: boundedText(1, GOAL_NAME_MAX),
  description: boundedText(0, GOAL_DESCRIPTION_MAX).nullable().optional(),
  target_date: calendarDateField.nullable().optional(),
  position: z.number().int().nullable().optional(),
});
export type GoalCreateBody = z.infer<typeof goalCreateBodySchema>;

/** Merge-patch body of `PATCH /v1/projects/{project_id}/goals/{goal_id}`: the same fields (a position not null) and `status`. */
export const goalUpdateBodySchema = goalCreateBodySchema.partial().extend({
  position: z.number().int().optional(),
  status: z.enum(GOAL_STATUSES).optional(),
});
export type GoalUpdateBody = z.infer<typeof goalUpdateBodySchema>;

/** Goals as a writable kind (protocol/writable-kind.ts): under their project; the delete is soft and unfiles their tasks. */
export const goalKind = writableKind({
  entityType: 'goal',
  collection: 'goals',
  idField: 'goal_id',
  route: {
    name: 'goals',
    path: 'goals',
    parent: { path: 'projects', param: 'projectId' },
    idParam: 'goalId',
  },
  parentField: 'project_id',
  // Pulled grouped for the whole organization (GET /v1/goals).
  listedPer: 'organization',
  schemas: {
    read: goalSchema,
    create: goalCreateBodySchema,
    update: goalUpdateBodySchema,
    deleted: goalDeletedSchema,
  },
  orgIdInCreate: false,
  writeScope: 'projects:write',
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['tasks_total', 'tasks_completed'],
  filesTasksBy: 'goal_id',
  columns: [
    ['project_id', 'string'],
    ['name', 'string'],
    ['status', 'string'],
    ['position', 'number'],
  ],
  recreateFields: ['name', 'description', 'target_date', 'position'],
  statusVerbs: { closed: 'Close', open: 'Reopen' },
});
