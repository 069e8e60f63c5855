// The task resource as the service sends it. Its shape is assumed (gaps.md), so
// the schema is lenient: unknown fields are kept, unknown enum values stay
// strings, optional fields may be missing. Strict only where the contract is.
import { z } from 'zod';

export const TASK_STATUSES = ['not_started', 'in_progress', 'blocked', 'completed'] as const;
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const TASK_TYPES = ['task', 'bug'] as const;
export const TASK_CREATED_VIA = ['app', 'api', 'sdk', 'mcp'] as const;
export const TASK_REVIEWS = ['pending', 'accepted', 'rejected'] as const;

/** Field bounds from gaps.md: a title of 1..500 characters, a description up to 100 000. */
export const TASK_TITLE_MAX = 500;
export const TASK_DESCRIPTION_MAX = 100_000;

// One schema object per kind of field: the field lists below are read off the
// shape by which of them a field uses.
const nullableString = z.string().nullable().optional();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');
const nullableDate = isoDate.nullable().optional();

export const taskSchema = z.looseObject({
  task_id: z.string().min(1),
  org_id: nullableString,
  project_id: nullableString,
  team_id: nullableString,
  section_id: nullableString,
  sprint_id: nullableString,
  goal_id: nullableString,
  milestone_id: nullableString,
  parent_task_id: nullableString,
  title: z.string(),
  description: nullableString,
  status: z.string(),
  priority: nullableString,
  assignee: nullableString,
  tags: z.array(z.string()).nullable().optional(),
  due_date: nullableDate,
  start_date: nullableDate,
  task_type: nullableString,
  created_via: nullableString,
  review: nullableString,
  position: z.number().nullable().optional(),
  created_by: nullableString,
  updated_by: nullableString,
  created_at: nullableString,
  updated_at: nullableString,
  completed_at: nullableString,
});
export type Task = z.infer<typeof taskSchema>;

/** Every field of a task the contract names, in the schema's order. */
export const TASK_FIELDS = taskSchema.keyof().options;
export type TaskField = (typeof TASK_FIELDS)[number];

function fieldsOfKind(kind: z.ZodType): readonly TaskField[] {
  return TASK_FIELDS.filter((field) => taskSchema.shape[field] === kind);
}

/** The fields that are text, null or absent (ids, names, date-times kept as sent): `org_id` … `completed_at`. */
export const NULLABLE_TEXT_TASK_FIELDS = fieldsOfKind(nullableString);
/** The fields that are a day `YYYY-MM-DD`, null or absent: `due_date`, `start_date`. */
export const TASK_DATE_FIELDS = fieldsOfKind(nullableDate);

/**
 * The fields that name another resource a task is filed under or hangs from
 * (its project, team, section, sprint, goal, milestone and parent task): the
 * schema's ids less the task's own and its organisation's.
 */
export type TaskReferenceField = Exclude<Extract<TaskField, `${string}_id`>, 'task_id' | 'org_id'>;
export const TASK_REFERENCE_FIELDS = TASK_FIELDS.filter(
  (field): field is TaskReferenceField => field.endsWith('_id') && field !== 'task_id' && field !== 'org_id',
);
/** Every field of a task present, null where it has no value: how a stored copy or row holds one. */
export type TaskFieldValues = { [Field in TaskField]-?: Exclude<Task[Field], undefined> };
/** A task's references as a stored row holds them: an id, or null when it has none. */
export type TaskReferences = Pick<TaskFieldValues, TaskReferenceField>;

/** The fields a person may change on a task (what a merge-patch from us may carry): its references among them. */
export const EDITABLE_TASK_FIELDS = [
  'title',
  'description',
  'status',
  'priority',
  'assignee',
  'tags',
  'due_date',
  'start_date',
  ...TASK_REFERENCE_FIELDS,
  'task_type',
  'review',
  'position',
] as const satisfies readonly TaskField[];
export type EditableTaskField = (typeof EDITABLE_TASK_FIELDS)[number];

/** A JSON merge-patch of a task: only the fields a person changed (null clears a field). */
export type TaskPatch = { [Field in EditableTaskField]?: Task[Field] | null };

/** Body of `POST /v1/tasks`: `org_id` and `title` required, any editable field optional. */
export type TaskCreateBody = TaskPatch & { org_id: string; title: string };
