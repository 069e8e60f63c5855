// Milestones of a project (gaps.md "Milestones": the contract does not show
// their shape), the per-project list, the grouped `GET /v1/milestones` (the
// shape of `GET /v1/goals`), the unfiling answer and the write bodies. Assumed,
// so lenient: only what the client keys on is required, any status is kept.
import { z } from 'zod';
import { acknowledgementSchema } from './acknowledgement';
import { writableKind } from './writable-kind';
import { projectGroupsSchema } from './project-groups';
import { boundedText, calendarDateField } from './body-fields';
import {
  idField,
  optionalDate,
  optionalInt,
  optionalNumber,
  optionalString,
  stampFields,
} from './wire-fields';

export const milestoneSchema = z.looseObject({
  milestone_id: idField,
  org_id: optionalString,
  /** The client groups and files by it, and a milestone lives under one project. */
  project_id: idField,
  name: z.string(),
  description: optionalString,
  due_date: optionalDate,
  /** `open` or `completed`; more may exist. */
  status: optionalString,
  position: optionalNumber,
  tasks_total: optionalInt,
  tasks_completed: optionalInt,
  ...stampFields,
});
export type Milestone = z.infer<typeof milestoneSchema>;

/**
 * One project's milestones inside the grouped answer. As for goals, `data` and
 * `next_cursor` are needed as a list's envelope is (a group read without them
 * would look complete and the pass's sweep would delete what it missed).
 */
export const projectMilestonesSchema = z.looseObject({
  project_id: optionalString,
  data: z.array(milestoneSchema),
  next_cursor: z.string().nullable(),
  milestones_tasks_total: optionalInt,
  milestones_tasks_completed: optionalInt,
});
/** A group as the client reads it: with the project it belongs to. */
export type ProjectMilestones = z.infer<typeof projectMilestonesSchema> & { project_id: string };

/** The groups, each with the project it belongs to (protocol/project-groups.ts). */
export const projectMilestonesListSchema = projectGroupsSchema(projectMilestonesSchema, 'milestones');

/** `GET /v1/milestones?org_id=…`: every milestone of the readable projects, grouped by project. */
export const groupedMilestonesSchema = z.looseObject({
  org_id: optionalString,
  projects: projectMilestonesListSchema,
  total: optionalInt,
});
export type GroupedMilestones = z.infer<typeof groupedMilestonesSchema>;

/** `MilestoneTaskUnfiled` (contract): `DELETE …/milestones/{milestone_id}/tasks/{task_id}`. */
export const milestoneTaskUnfiledSchema = z.looseObject({
  ok: z.boolean(),
  milestone_id: idField,
  task_id: idField,
});
export type MilestoneTaskUnfiled = z.infer<typeof milestoneTaskUnfiledSchema>;

export const MILESTONE_STATUSES = ['open', 'completed'] as const;
export const MILESTONE_NAME_MAX = 120;
/** Not in gaps.md: the emulator's bound (as for goals), so that an absurd description is a clear error. */
export const MILESTONE_DESCRIPTION_MAX = 10_000;

/** Body of `POST /v1/projects/{project_id}/milestones` (gaps.md: `name` 1..120). */
export const milestoneCreateBodySchema = z.object({
  name: boundedText(1, MILESTONE_NAME_MAX),
  description: boundedText(0, MILESTONE_DESCRIPTION_MAX).nullable().optional(),
  due_date: calendarDateField.nullable().optional(),
  position: z.number().finite().nullable().optional(),
});
export type MilestoneCreateBody = z.infer<typeof milestoneCreateBodySchema>;

/** Merge-patch body of `PATCH /v1/projects/{project_id}/milestones/{milestone_id}`: the same fields (a position not null) and `status`. */
export const milestoneUpdateBodySchema = milestoneCreateBodySchema.partial().extend({
  position: z.number().finite().optional(),
  status: z.enum(MILESTONE_STATUSES).optional(),
});
export type MilestoneUpdateBody = z.infer<typeof milestoneUpdateBodySchema>;

/** Milestones as a writable kind (protocol/writable-kind.ts): under their project; a delete answers an Acknowledgement and unfiles their tasks. */
export const milestoneKind = writableKind({
  entityType: 'milestone',
  collection: 'milestones',
  idField: 'milestone_id',
  route: {
    name: 'milestones',
    path: 'milestones',
    parent: { path: 'projects', param: 'projectId' },
    idParam: 'milestoneId',
  },
  parentField: 'project_id',
  listedPer: 'parent',
  schemas: {
    read: milestoneSchema,
    create: milestoneCreateBodySchema,
    update: milestoneUpdateBodySchema,
    deleted: acknowledgementSchema,
  },
  orgIdInCreate: false,
  writeScope: 'projects:write',
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['tasks_total', 'tasks_completed'],
  filesTasksBy: 'milestone_id',
  columns: [
    ['project_id', 'string'],
    ['name', 'string'],
    ['status', 'string'],
    ['position', 'number'],
    ['due_date', 'string'],
  ],
  recreateFields: ['name', 'description', 'due_date', 'position'],
  statusVerbs: { completed: 'Complete', open: 'Reopen' },
});
