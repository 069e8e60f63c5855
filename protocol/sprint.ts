// A sprint (`SprintOut`). Documented: ids, name and both dates required. Its
// `status` values beyond the default `active` are not shown, so any string is kept.
import { z } from 'zod';
import { writableKind } from './writable-kind';
import { boundedText, calendarDateField, readTextAtMost } from './body-fields';
import {
  idField,
  isoDateField,
  optionalBoolean,
  optionalInt,
  optionalString,
  stampFields,
} from './wire-fields';

/** The contract's bounds on a sprint's name (1..120) and its description and goal (up to 2000 each). */
export const SPRINT_NAME_MAX = 120;
export const SPRINT_TEXT_MAX = 2000;

export const sprintSchema = z.looseObject({
  sprint_id: idField,
  org_id: idField,
  team_id: idField,
  name: readTextAtMost(SPRINT_NAME_MAX),
  start_date: isoDateField,
  end_date: isoDateField,
  description: readTextAtMost(SPRINT_TEXT_MAX).nullish(),
  goal: readTextAtMost(SPRINT_TEXT_MAX).nullish(),
  completed_by: optionalString,
  status: optionalString,
  completed_at: optionalString,
  ...stampFields,
  is_active: optionalBoolean,
  duration_weeks: optionalInt,
  duration_label: optionalString,
  task_count: optionalInt,
  completed_count: optionalInt,
});
export type Sprint = z.infer<typeof sprintSchema>;

/** Sprint statuses a PATCH may set (gaps.md); completing records `completed_at` and `completed_by`. */
export const SPRINT_STATUSES = ['active', 'completed'] as const;
const sprintFields = {
  name: boundedText(1, SPRINT_NAME_MAX),
  description: boundedText(0, SPRINT_TEXT_MAX).nullable(),
  goal: boundedText(0, SPRINT_TEXT_MAX).nullable(),
  start_date: calendarDateField,
  end_date: calendarDateField,
  duration_weeks: z.number().int().min(1).max(52),
};

/** "Sending both `end_date` and `duration_weeks` is a 422" (contract): one issue on each. */
function notBoth(
  body: { end_date?: string | null | undefined; duration_weeks?: number | null | undefined },
  ctx: z.RefinementCtx,
) {
  if (body.end_date == null || body.duration_weeks == null) return;
  for (const field of ['end_date', 'duration_weeks'])
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: 'send end_date or duration_weeks, not both',
      params: { type: 'value_error' },
    });
}

/**
 * Body of `POST /v1/teams/{team_id}/sprints` (contract): a start date plus an end
 * date or a length in weeks, never both. The name is unique among the team's
 * active sprints, case-insensitive (409).
 */
export const sprintCreateBodySchema = z
  .object({
    name: sprintFields.name,
    description: sprintFields.description.optional(),
    goal: sprintFields.goal.optional(),
    start_date: sprintFields.start_date,
    end_date: sprintFields.end_date.nullable().optional(),
    duration_weeks: sprintFields.duration_weeks.nullable().optional(),
  })
  .superRefine(notBoth);
export type SprintCreateBody = z.infer<typeof sprintCreateBodySchema>;

/** Merge-patch body of `PATCH /v1/teams/{team_id}/sprints/{sprint_id}` (gaps.md); the same rule on the dates. */
export const sprintUpdateBodySchema = z
  .object({
    name: sprintFields.name.optional(),
    description: sprintFields.description.optional(),
    goal: sprintFields.goal.optional(),
    start_date: sprintFields.start_date.optional(),
    end_date: sprintFields.end_date.optional(),
    duration_weeks: sprintFields.duration_weeks.nullable().optional(),
    status: z.enum(SPRINT_STATUSES).optional(),
  })
  .superRefine(notBoth);
export type SprintUpdateBody = z.infer<typeof sprintUpdateBodySchema>;

/** Sprints as a writable kind (protocol/writable-kind.ts): under their team; the service has no delete. */
export const sprintKind = writableKind({
  entityType: 'sprint',
  collection: 'sprints',
  idField: 'sprint_id',
  route: {
    name: 'sprints',
    path: 'sprints',
    parent: { path: 'teams', param: 'teamId' },
    idParam: 'sprintId',
  },
  parentField: 'team_id',
  listedPer: 'parent',
  listOrder: { sortBy: 'created_at', sortOrder: 'asc' },
  schemas: {
    read: sprintSchema,
    create: sprintCreateBodySchema,
    update: sprintUpdateBodySchema,
    deleted: null,
  },
  endedBy: { status: 'completed' },
  orgIdInCreate: false,
  writeScope: 'teams:write',
  // Task counts are part of its ETag: filing a task is no edit of it.
  derivedFields: ['task_count', 'completed_count'],
  filesTasksBy: 'sprint_id',
  columns: [
    ['team_id', 'string'],
    ['name', 'string'],
    ['status', 'string'],
    ['start_date', 'string'],
    ['end_date', 'string'],
  ],
  recreateFields: ['name', 'description', 'goal', 'start_date', 'end_date'],
  // The create takes an end date or a length in weeks, never both: the one chosen last stands.
  foldIntoCreate(create, patch) {
    if (patch.end_date != null && patch.duration_weeks === undefined) delete create.duration_weeks;
    if (patch.duration_weeks != null && patch.end_date === undefined) delete create.end_date;
  },
  statusVerbs: { completed: 'Complete', active: 'Reopen' },
});
