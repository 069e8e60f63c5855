// What the sidebar and the editor read besides tasks, from the mirror's
// collections: the organization, projects, teams with their sprints (which
// one runs today), goals and sections with their task counts, members, and a
// task's cached comments and history. Names fall back to ids; order is the
// screens' (by name, sections by position, sprints newest first).
import type { PendingResource } from './collection-writes';
import type { Mirror } from './mirror';
import type { OutboxState } from './outbox/outbox-types';
import type { Resource } from './page-apply';

/** A change of it still waits to be sent (or was refused): its state. Absent when none waits. */
export type PendingMark = { pending?: Exclude<OutboxState, 'done'> };

export interface SprintSummary extends PendingMark {
  sprint_id: string;
  team_id: string;
  name: string;
  description: string | null;
  /** The sprint's goal, in words. */
  goal: string | null;
  status: string | null;
  start_date: string;
  end_date: string;
  duration_label: string | null;
  task_count: number;
  completed_count: number;
  /** Runs today and is not completed. */
  current: boolean;
}

export interface WorkspaceCollections {
  organization: { org_id: string; name: string } | null;
  projects: { project_id: string; name: string; status: string | null; team_id: string | null }[];
  teams: { team_id: string; name: string; sprints: SprintSummary[] }[];
  goals: (PendingMark & {
    goal_id: string;
    project_id: string;
    name: string;
    description: string | null;
    status: string | null;
    target_date: string | null;
    tasks_total: number;
    tasks_completed: number;
  })[];
  sections: (PendingMark & {
    section_id: string;
    name: string;
    scope_type: string;
    scope_id: string;
    position: number;
    task_count: number;
  })[];
  /** `role` is the organization role (`owner`, `admin`, `member`, or null when the service names none). */
  members: { user_id: string; username: string; active: boolean; role: string | null }[];
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The waiting change's state, for a resource read with its changes applied. */
export function pendingMark(resource: PendingResource): PendingMark {
  const state = resource.pending;
  return state === undefined || state === 'done' ? {} : { pending: state };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** A team's sprints with their task counts, newest first; `day` (YYYY-MM-DD) says which one is current. */
export function sprintSummaries(mirror: Mirror, teamId: string, day: string): SprintSummary[] {
  const counts = mirror.tasks.sprintCounts();
  return mirror.sprints
    .list(teamId)
    .map((sprint): SprintSummary => {
      const id = String(sprint.sprint_id);
      const status = text(sprint.status);
      const start = text(sprint.start_date) ?? '';
      const end = text(sprint.end_date) ?? '';
      const done = status === 'completed' || text(sprint.completed_at) !== null;
      return {
        sprint_id: id,
        team_id: teamId,
        name: text(sprint.name) ?? id,
        description: text(sprint.description),
        goal: text(sprint.goal),
        status,
        start_date: start,
        end_date: end,
        duration_label: text(sprint.duration_label),
        task_count: counts.get(id)?.total ?? 0,
        completed_count: counts.get(id)?.completed ?? 0,
        current: !done && start <= day && day <= end,
        ...pendingMark(sprint),
      };
    })
    .sort((a, b) => b.start_date.localeCompare(a.start_date) || a.name.localeCompare(b.name));
}

/** Every collection the sidebar shows; `day` (YYYY-MM-DD) is today, for the current sprints. */
export function workspaceCollections(mirror: Mirror, day: string): WorkspaceCollections {
  const organization = mirror.collections.list('organizations')[0];
  // The mirror's counts see the pull worker's writes (its caches follow PRAGMA data_version).
  const sectionCounts = mirror.tasks.sectionCounts();
  const goalCounts = mirror.tasks.goalCounts();
  return {
    organization:
      organization === undefined
        ? null
        : {
            org_id: String(organization.org_id),
            name: text(organization.name) ?? String(organization.org_id),
          },
    projects: mirror.collections
      .list('projects')
      .map((p) => ({
        project_id: String(p.project_id),
        name: text(p.name) ?? String(p.project_id),
        status: text(p.status),
        team_id: text(p.team_id),
      }))
      .sort(byName),
    teams: mirror.collections
      .list('teams')
      .map((t) => ({
        team_id: String(t.team_id),
        name: text(t.name) ?? String(t.team_id),
        sprints: sprintSummaries(mirror, String(t.team_id), day),
      }))
      .sort(byName),
    goals: mirror.goals
      .list()
      .map((g) => ({
        goal_id: String(g.goal_id),
        project_id: text(g.project_id) ?? '',
        name: text(g.name) ?? String(g.goal_id),
        description: text(g.description),
        status: text(g.status),
        target_date: text(g.target_date),
        tasks_total: goalCounts.get(String(g.goal_id))?.total ?? 0,
        tasks_completed: goalCounts.get(String(g.goal_id))?.completed ?? 0,
        ...pendingMark(g),
      }))
      .sort(byName),
    sections: mirror.sections
      .list()
      .map((s) => ({
        section_id: String(s.section_id),
        name: text(s.name) ?? String(s.section_id),
        scope_type: text(s.scope_type) ?? 'project',
        scope_id: text(s.scope_id) ?? '',
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
        role: text(m.role),
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
    (text(a.created_at) ?? '').localeCompare(text(b.created_at) ?? '');
  return {
    // Threads as stored, with the person's comments still waiting applied (a new one at once, marked `pending`).
    comments: mirror.comments.threads(taskId).sort(byTime),
    history: mirror.collections.list('task_history', taskId).sort(byTime),
    cached:
      mirror.passes.state('task_comments', taskId) !== null ||
      mirror.passes.state('task_history', taskId) !== null,
  };
}
