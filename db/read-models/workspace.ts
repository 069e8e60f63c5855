// What the sidebar and the editor read besides tasks, from the mirror's
// collections: the organization, projects, teams with their sprints (which
// one runs today), goals and sections with their task counts, members, and a
// task's cached comments and history. Names fall back to ids; order is the
// screens' (by name, sections by position, sprints newest first).
import { z } from 'zod';
import type { PendingResource } from '../collections/collection-writes';
import type { Mirror } from '../mirror';
import type { FilingCounts } from '../tasks/filing-counts';
import type { Resource } from '../passes/page-apply';
import { textOf } from '../../protocol/wire-fields';

/**
 * A change of it waits to be sent, is being sent, or was refused; absent when
 * none waits. The read models' shapes are zod schemas declared here, once:
 * ipc/screen-schemas.ts checks what crosses the bridge against them.
 */
export const pendingSchema = z.enum(['queued', 'in_flight', 'conflict', 'failed', 'blocked']).optional();
export type PendingMark = { pending?: z.infer<typeof pendingSchema> };

export const sprintSummarySchema = z.object({
  sprint_id: z.string(),
  team_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The sprint's goal, in words. */
  goal: z.string().nullable(),
  status: z.string().nullable(),
  start_date: z.string(),
  end_date: z.string(),
  duration_label: z.string().nullable(),
  task_count: z.number().int(),
  completed_count: z.number().int(),
  /** Runs today and is not completed. */
  current: z.boolean(),
  pending: pendingSchema,
});
export type SprintSummary = z.infer<typeof sprintSummarySchema>;

/**
 * What the goals and milestones views show alike of one of a project's goals or
 * milestones: its words, its status, and its progress counted over the mirrored
 * tasks, so a task filed or completed offline moves the bar at once.
 */
export const progressSummaryFields = {
  project_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Its own statuses (`open`, `closed`, `completed`); more may exist (kept as sent). */
  status: z.string().nullable(),
  tasks_total: z.number().int(),
  tasks_completed: z.number().int(),
  pending: pendingSchema,
};

export const workspaceCollectionsSchema = z.object({
  organization: z.object({ org_id: z.string(), name: z.string() }).nullable(),
  projects: z.array(
    z.object({
      project_id: z.string(),
      name: z.string(),
      status: z.string().nullable(),
      team_id: z.string().nullable(),
    }),
  ),
  teams: z.array(z.object({ team_id: z.string(), name: z.string(), sprints: z.array(sprintSummarySchema) })),
  goals: z.array(
    z.object({ goal_id: z.string(), ...progressSummaryFields, target_date: z.string().nullable() }),
  ),
  sections: z.array(
    z.object({
      section_id: z.string(),
      name: z.string(),
      scope_type: z.string(),
      scope_id: z.string(),
      position: z.number(),
      task_count: z.number().int(),
      pending: pendingSchema,
    }),
  ),
  /** `role`: the organization role (`owner`, `admin`, `member`, or null when the service names none; an owner or admin may delete others' comments). */
  members: z.array(
    z.object({ user_id: z.string(), username: z.string(), active: z.boolean(), role: z.string().nullable() }),
  ),
});
export type WorkspaceCollections = z.infer<typeof workspaceCollectionsSchema>;

/** The waiting change's state, for a resource read with its changes applied. */
export function pendingMark(resource: PendingResource): PendingMark {
  const state = resource.pending;
  return state === undefined || state === 'done' ? {} : { pending: state };
}

/** The fields of progressSummaryFields, read from a goal or milestone (`id`) with its counts of filed tasks. */
export function progressSummaryOf(
  resource: PendingResource,
  id: string,
  projectId: string,
  counts: ReadonlyMap<string, { total: number; completed: number }>,
) {
  return {
    project_id: projectId,
    name: textOf(resource.name) ?? id,
    description: textOf(resource.description),
    status: textOf(resource.status),
    tasks_total: counts.get(id)?.total ?? 0,
    tasks_completed: counts.get(id)?.completed ?? 0,
    ...pendingMark(resource),
  };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * A team's sprints with their task counts, newest first; `day` (YYYY-MM-DD) says which one is
 * current. `counts`: the sprints' counts as already counted (the mirror's, counted now, if not).
 */
export function sprintSummaries(
  mirror: Mirror,
  teamId: string,
  day: string,
  counts: FilingCounts['sprints'] = mirror.tasks.sprintCounts(),
): SprintSummary[] {
  return mirror.sprints
    .list(teamId)
    .map((sprint): SprintSummary => {
      const id = String(sprint.sprint_id);
      const status = textOf(sprint.status);
      const start = textOf(sprint.start_date) ?? '';
      const end = textOf(sprint.end_date) ?? '';
      const done = status === 'completed' || textOf(sprint.completed_at) !== null;
      return {
        sprint_id: id,
        team_id: teamId,
        name: textOf(sprint.name) ?? id,
        description: textOf(sprint.description),
        goal: textOf(sprint.goal),
        status,
        start_date: start,
        end_date: end,
        duration_label: textOf(sprint.duration_label),
        task_count: counts.get(id)?.total ?? 0,
        completed_count: counts.get(id)?.completed ?? 0,
        current: !done && start <= day && day <= end,
        ...pendingMark(sprint),
      };
    })
    .sort((a, b) => b.start_date.localeCompare(a.start_date) || a.name.localeCompare(b.name));
}

/**
 * Every collection the sidebar shows; `day` (YYYY-MM-DD) is today, for the current sprints.
 * `counts`: the tasks filed per section, sprint and goal as the caller counted them in steps
 * (MirrorTasks.countFilingsInSteps); counted now in one read each if not given.
 */
export function workspaceCollections(
  mirror: Mirror,
  day: string,
  counts?: FilingCounts,
): WorkspaceCollections {
  const organization = mirror.collections.list('organizations')[0];
  // The mirror's counts see the pull worker's writes (its caches follow PRAGMA data_version).
  const sectionCounts = counts?.sections ?? mirror.tasks.sectionCounts();
  const goalCounts = counts?.goals ?? mirror.tasks.goalCounts();
  const sprintCounts = counts?.sprints ?? mirror.tasks.sprintCounts();
  return {
    organization:
      organization === undefined
        ? null
        : {
            org_id: String(organization.org_id),
            name: textOf(organization.name) ?? String(organization.org_id),
          },
    projects: mirror.collections
      .list('projects')
      .map((p) => ({
        project_id: String(p.project_id),
        name: textOf(p.name) ?? String(p.project_id),
        status: textOf(p.status),
        team_id: textOf(p.team_id),
      }))
      .sort(byName),
    teams: mirror.collections
      .list('teams')
      .map((t) => ({
        team_id: String(t.team_id),
        name: textOf(t.name) ?? String(t.team_id),
        sprints: sprintSummaries(mirror, String(t.team_id), day, sprintCounts),
      }))
      .sort(byName),
    goals: mirror.goals
      .list()
      .map((g) => {
        const id = String(g.goal_id);
        return {
          goal_id: id,
          ...progressSummaryOf(g, id, textOf(g.project_id) ?? '', goalCounts),
          target_date: textOf(g.target_date),
        };
      })
      .sort(byName),
    sections: mirror.sections
      .list()
      .map((s) => ({
        section_id: String(s.section_id),
        name: textOf(s.name) ?? String(s.section_id),
        scope_type: textOf(s.scope_type) ?? 'project',
        scope_id: textOf(s.scope_id) ?? '',
        position: typeof s.position === 'number' ? s.position : 0,
        task_count: sectionCounts.get(String(s.section_id)) ?? 0,
        ...pendingMark(s),
      }))
      .sort((a, b) => a.position - b.position || a.name.localeCompare(b.name)),
    members: mirror.collections
      .list('organization_members')
      .filter((m) => typeof m.username === 'string')
      .map((m) => ({
        user_id: String(m.user_id),
        username: String(m.username),
        active: m.is_active !== false,
        role: textOf(m.role),
      }))
      .sort((a, b) => a.username.localeCompare(b.username)),
  };
}

/**
 * A task's cached comments (with the person's waiting ones) and history,
 * oldest first, and whether anything was cached yet (false until a fetch of
 * either list began).
 */
export function taskActivity(
  mirror: Mirror,
  taskId: string,
): { comments: Resource[]; history: Resource[]; cached: boolean } {
  const byTime = (a: Resource, b: Resource) =>
    (textOf(a.created_at) ?? '').localeCompare(textOf(b.created_at) ?? '');
  return {
    // Threads as stored, with the person's comments still waiting applied (a new one at once, marked `pending`).
    comments: mirror.comments.threads(taskId).sort(byTime),
    history: mirror.collections.list('task_history', taskId).sort(byTime),
    cached:
      mirror.passes.state('task_comments', taskId) !== null ||
      mirror.passes.state('task_history', taskId) !== null,
  };
}
