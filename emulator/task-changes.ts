// Creating, changing and deleting a task as the service would: field bounds
// (422), references that must exist, the token's project restriction, derived
// fields (completed_at, position, a milestone cleared when the project
// changes) and one history entry per change with its `{field, new, old}` list.
// The HTTP routes and the control API's peer edits both go through here; and
// the unfiling of the tasks of a section, goal or milestone that goes away.
import { z } from 'zod';
import {
  TASK_CREATED_VIA,
  TASK_PRIORITIES,
  TASK_REVIEWS,
  TASK_STATUSES,
  TASK_TYPES,
  TASK_DESCRIPTION_MAX,
  TASK_TITLE_MAX,
} from '../protocol/task';
import { daySchema, parseOr422, text, validationProblem } from './body-validation';
import { type ProblemErrorItem, ProblemReply } from './problem';
import { GOALS, MILESTONES, SECTIONS, SPRINTS, type TaskRecord } from './records';
import { UNKNOWN_TASK_PRIORITIES, UNKNOWN_TASK_STATUSES } from './variance';
import {
  canSeeProject,
  changedFields,
  creationHistory,
  type EmulatorStore,
  type TaskEntry,
  type Viewer,
} from './store';

const reference = z.string().min(1).max(1000).nullable();

const editableShape = {
  title: text(1, TASK_TITLE_MAX),
  description: text(0, TASK_DESCRIPTION_MAX).nullable(),
  status: z.enum(TASK_STATUSES),
  priority: z.enum(TASK_PRIORITIES).nullable(),
  assignee: z.string().min(1).max(200).nullable(),
  tags: z.array(text(1, 100)).max(100),
  due_date: daySchema.nullable(),
  start_date: daySchema.nullable(),
  project_id: reference,
  team_id: reference,
  section_id: reference,
  sprint_id: reference,
  goal_id: reference,
  milestone_id: reference,
  parent_task_id: reference,
  task_type: z.enum(TASK_TYPES),
  review: z.enum(TASK_REVIEWS).nullable(),
  position: z.number().finite(),
};

export const taskCreateSchema = z.object({
  ...Object.fromEntries(Object.entries(editableShape).map(([key, schema]) => [key, schema.optional()])),
  org_id: z.string().min(1).max(1000),
  title: editableShape.title,
  created_via: z.enum(TASK_CREATED_VIA).nullable().optional(),
}) as unknown as z.ZodType<TaskCreateInput>;

export const taskPatchSchema = z.object(editableShape).partial() as unknown as z.ZodType<TaskPatchInput>;

// Variance mode stores statuses and priorities the client has never heard of (gaps.md: "more may
// exist"); a value the server sends must be accepted back.
const widenedEnums = {
  status: z.enum([...TASK_STATUSES, ...UNKNOWN_TASK_STATUSES]),
  priority: z.enum([...TASK_PRIORITIES, ...UNKNOWN_TASK_PRIORITIES]).nullable(),
};
const taskCreateSchemaWide = z.object({
  ...Object.fromEntries(
    Object.entries({ ...editableShape, ...widenedEnums }).map(([key, schema]) => [key, schema.optional()]),
  ),
  org_id: z.string().min(1).max(1000),
  title: editableShape.title,
  created_via: z.enum(TASK_CREATED_VIA).nullable().optional(),
}) as unknown as z.ZodType<TaskCreateInput>;
const taskPatchSchemaWide = z
  .object({ ...editableShape, ...widenedEnums })
  .partial() as unknown as z.ZodType<TaskPatchInput>;

type Editable = {
  [K in keyof typeof editableShape]: z.infer<(typeof editableShape)[K]>;
};
export type TaskPatchInput = Partial<Editable>;
export type TaskCreateInput = TaskPatchInput & {
  org_id: string;
  title: string;
  created_via?: TaskRecord['created_via'];
};

/** `widened`: also the statuses and priorities variance mode stores. */
export function parseTaskCreate(body: unknown, widened = false): TaskCreateInput {
  return parseOr422(widened ? taskCreateSchemaWide : taskCreateSchema, body, 'body');
}

export function parseTaskPatch(body: unknown, widened = false): TaskPatchInput {
  return parseOr422(widened ? taskPatchSchemaWide : taskPatchSchema, body, 'body');
}

function forbiddenProject(projectId: string | null): ProblemReply {
  return new ProblemReply(
    403,
    null,
    'Forbidden',
    projectId === null
      ? 'This token is restricted to some projects: a task must be filed in one of them.'
      : `This token is restricted to some projects and ${projectId} is not one of them.`,
  );
}

/** Checks that what `next` points at exists and may be used; throws 422 listing every bad reference. */
function checkReferences(store: EmulatorStore, viewer: Viewer, next: TaskRecord, changed: Set<string>): void {
  const errors: ProblemErrorItem[] = [];
  const bad = (field: string, msg: string) => errors.push({ loc: ['body', field], msg, type: 'value_error' });
  if (changed.has('project_id') && next.project_id !== null) {
    const project = store.projects.get(next.project_id);
    if (!project) bad('project_id', `project ${next.project_id} does not exist`);
    else if (project.status === 'archived') bad('project_id', `project ${next.project_id} is archived`);
  }
  if (changed.has('team_id') && next.team_id !== null && !store.teams.has(next.team_id)) {
    bad('team_id', `team ${next.team_id} does not exist`);
  }
  if (changed.has('section_id') && next.section_id !== null) {
    const section = store.records(SECTIONS).get(next.section_id);
    if (!section || (section.scope_type === 'user' && section.scope_id !== viewer.username)) {
      bad('section_id', `section ${next.section_id} does not exist`);
    }
  }
  if (changed.has('sprint_id') && next.sprint_id !== null) {
    const sprint = store.records(SPRINTS).get(next.sprint_id);
    if (!sprint || !sprint.is_active) bad('sprint_id', `sprint ${next.sprint_id} does not exist`);
  }
  if ((changed.has('goal_id') || changed.has('project_id')) && next.goal_id !== null) {
    const goal = store.records(GOALS).get(next.goal_id);
    if (!goal || goal.deleted_at !== null) bad('goal_id', `goal ${next.goal_id} does not exist`);
    else if (goal.project_id !== next.project_id)
      bad('goal_id', `goal ${next.goal_id} belongs to another project`);
  }
  // A task files only under a milestone of its own project (contract); a milestone of another project is 422.
  if ((changed.has('milestone_id') || changed.has('project_id')) && next.milestone_id !== null) {
    const milestone = store.records(MILESTONES).get(next.milestone_id);
    if (!milestone || !canSeeProject(viewer, milestone.project_id))
      bad('milestone_id', `milestone ${next.milestone_id} does not exist`);
    else if (milestone.project_id !== next.project_id)
      bad('milestone_id', `milestone ${next.milestone_id} belongs to another project`);
  }
  if (changed.has('parent_task_id') && next.parent_task_id !== null) {
    let parentId: string | null = next.parent_task_id;
    const seen = new Set<string>([next.task_id]);
    while (parentId !== null) {
      if (seen.has(parentId)) {
        bad('parent_task_id', 'a task cannot be its own ancestor');
        break;
      }
      seen.add(parentId);
      const parent = store.tasks.get(parentId);
      if (!parent || !canSeeProject(viewer, parent.record.project_id)) {
        bad('parent_task_id', `task ${parentId} does not exist`);
        break;
      }
      parentId = parent.record.parent_task_id;
    }
  }
  if (changed.has('assignee') && next.assignee !== null) {
    const member = store.memberByUsername(next.assignee);
    if (!member || !member.is_active) bad('assignee', `no active member is called ${next.assignee}`);
  }
  if (errors.length > 0) throw validationProblem(errors);
}

function nextPosition(store: EmulatorStore, sectionId: string | null, projectId: string | null): number {
  let max = 0;
  for (const { record } of store.tasks.values()) {
    if (record.section_id === sectionId && (sectionId !== null || record.project_id === projectId)) {
      if (record.position > max) max = record.position;
    }
  }
  return max + 1024;
}

export function createTask(store: EmulatorStore, viewer: Viewer, input: TaskCreateInput): TaskEntry {
  const now = store.nowIso();
  const status = input.status ?? 'not_started';
  const projectId = input.project_id ?? null;
  if (!canSeeProject(viewer, projectId)) throw forbiddenProject(projectId);
  const record: TaskRecord = {
    task_id: store.newId('tsk'),
    org_id: store.org.org_id,
    project_id: projectId,
    team_id: input.team_id ?? null,
    section_id: input.section_id ?? null,
    sprint_id: input.sprint_id ?? null,
    goal_id: input.goal_id ?? null,
    milestone_id: input.milestone_id ?? null,
    parent_task_id: input.parent_task_id ?? null,
    title: input.title,
    description: input.description ?? null,
    status,
    priority: input.priority ?? null,
    assignee: input.assignee ?? null,
    tags: input.tags ? [...input.tags] : [],
    due_date: input.due_date ?? null,
    start_date: input.start_date ?? null,
    task_type: input.task_type ?? 'task',
    created_via: input.created_via === undefined ? 'api' : input.created_via,
    review: input.review ?? null,
    position: 0,
    created_by: viewer.username,
    updated_by: viewer.username,
    created_at: now,
    updated_at: now,
    completed_at: status === 'completed' ? now : null,
  };
  checkReferences(store, viewer, record, new Set(Object.keys(input)));
  record.position = input.position ?? nextPosition(store, record.section_id, record.project_id);
  const entry = store.insertTask(record);
  store.appendHistory(creationHistory(store.sequentialId('hst'), record, viewer.username));
  store.creates.tasks += 1;
  return entry;
}

/** Applies a merge-patch (`null` clears, omitted stays). A patch that changes nothing writes nothing. */
export function patchTask(
  store: EmulatorStore,
  viewer: Viewer,
  entry: TaskEntry,
  patch: TaskPatchInput,
): void {
  const before = entry.record;
  const next: TaskRecord = { ...before };
  const nextFields = next as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) nextFields[key] = Array.isArray(value) ? [...value] : value;
  }
  // A task files only under a milestone of its own project: moving it clears the milestone.
  if (next.project_id !== before.project_id && patch.milestone_id === undefined) next.milestone_id = null;
  if (next.project_id !== before.project_id && !canSeeProject(viewer, next.project_id)) {
    throw forbiddenProject(next.project_id);
  }
  const changes = changedFields(before, next);
  if (changes.length === 0) return;
  checkReferences(store, viewer, next, new Set(changes.map((c) => c.field)));
  const now = store.nowIso();
  if (next.status === 'completed' && before.status !== 'completed') next.completed_at = now;
  if (next.status !== 'completed') next.completed_at = null;
  next.updated_at = now;
  next.updated_by = viewer.username;
  store.materializeCreationHistory(before.task_id);
  store.updateTask(entry, next);
  store.appendHistory({
    history_id: store.sequentialId('hst'),
    task_id: next.task_id,
    action: 'updated',
    created_by: viewer.username,
    created_at: now,
    title: next.title,
    metadata: changes,
    hash_id: null,
    updated_at: now,
  });
}

export function deleteTask(store: EmulatorStore, viewer: Viewer, entry: TaskEntry): void {
  const task = entry.record;
  const now = store.nowIso();
  store.materializeCreationHistory(task.task_id);
  store.deleteTask(entry);
  store.appendHistory({
    history_id: store.sequentialId('hst'),
    task_id: task.task_id,
    action: 'deleted',
    created_by: viewer.username,
    created_at: now,
    title: task.title,
    metadata: null,
    hash_id: null,
    updated_at: now,
  });
  // Its comments go with it; its subtasks stay, no longer under a parent.
  for (const comment of store.commentsByTask.get(task.task_id) ?? [])
    store.comments.delete(comment.comment_id);
  store.commentsByTask.delete(task.task_id);
  for (const child of [...store.tasks.values()]) {
    if (child.record.parent_task_id === task.task_id)
      store.updateTask(child, { ...child.record, parent_task_id: null });
  }
}

/** A task the viewer may read, or 404 (a task outside the token's projects does not exist for it). */
export function readableTask(store: EmulatorStore, viewer: Viewer, taskId: string): TaskEntry {
  const entry = store.tasks.get(taskId);
  if (!entry || !canSeeProject(viewer, entry.record.project_id)) {
    throw new ProblemReply(404, null, 'Not Found', `task ${taskId} not found`);
  }
  return entry;
}

/** Files every task filed under `id` (by `field`) nowhere: the tasks stay, never deleted. Returns how many. */
export function unfileTasks(
  store: EmulatorStore,
  field: 'goal_id' | 'milestone_id' | 'section_id',
  id: string,
): number {
  let unfiled = 0;
  for (const entry of [...store.tasks.values()]) {
    if (entry.record[field] === id) {
      store.updateTask(entry, { ...entry.record, [field]: null });
      unfiled += 1;
    }
  }
  return unfiled;
}
