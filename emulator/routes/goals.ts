// Goals: the organization-wide list grouped by project under one ETag, the
// per-project list, create, PATCH (and its deprecated PUT), and the soft delete
// that keeps a goal's tasks in the project with `goal_id` null.
import type { FastifyInstance } from 'fastify';
import { goalCreateBodySchema, goalUpdateBodySchema } from '../../protocol/goal';
import type { EmulatorContext } from '../emulator-context';
import { sendJson } from '../json-reply';
import { compareCodePoints, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { unfileTasks } from '../task-changes';
import { type GoalRecord, GOALS } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { recordRoutes } from './record-routes';
import { assignDefined, authored, sendCreated, storeCreated, storeIfChanged } from './record-writes';
import {
  groupedListQuery,
  projectCreation,
  projectGroups,
  readableProject,
  sendProjectList,
} from './project-collections';

const SORT_KEYS = ['position', 'name', 'target_date', 'created_at'] as const;

export function serializeGoal(store: EmulatorStore, viewer: Viewer, g: GoalRecord): Record<string, unknown> {
  const counts = store.taskCounts(viewer).goal_id.get(g.goal_id);
  const { deleted_at: _deleted, ...fields } = g;
  return { ...fields, tasks_total: counts?.total ?? 0, tasks_completed: counts?.completed ?? 0, tasks: null };
}

/** The goal a path names: a 404 when they cannot see it or its project, or it is deleted. */
function liveGoal(
  store: EmulatorStore,
  viewer: Viewer,
  { project_id: projectId, goal_id: goalId }: { project_id: string; goal_id: string },
): GoalRecord {
  readableProject(store, viewer, projectId);
  const goal = store.records(GOALS).get(goalId);
  if (!goal || goal.project_id !== projectId || goal.deleted_at !== null) {
    throw new ProblemReply(404, null, 'Not Found', `goal ${goalId} not found`);
  }
  return goal;
}

const byPosition = (a: GoalRecord, b: GoalRecord) =>
  a.position - b.position || compareCodePoints(a.goal_id, b.goal_id);

export function registerGoalRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  type ProjectParams = { project_id: string };
  const goals = recordRoutes(app, ctx, '/v1/projects/:project_id/goals/:goal_id', {
    scope: 'projects',
    find: liveGoal,
    serialize: serializeGoal,
  });

  app.get(
    '/v1/goals',
    { config: { scope: 'projects:read', operationId: 'goals.list_grouped' } },
    (request, reply) => {
      const { orgId, viewer, projects } = groupedListQuery(ctx, request, queryPairs(request.url));
      const body = projectGroups(
        orgId,
        projects,
        'goals',
        (project) =>
          [...store.records(GOALS).values()]
            .filter((g) => g.project_id === project.project_id && g.deleted_at === null)
            .sort(byPosition),
        (g) => serializeGoal(store, viewer, g),
      );
      return sendJson(request, reply, 200, body);
    },
  );

  goals.list<ProjectParams>((request, reply) =>
    sendProjectList(ctx, request, reply, {
      kind: 'goals',
      itemsOf: (project) =>
        [...store.records(GOALS).values()].filter(
          (g) => g.project_id === project.project_id && g.deleted_at === null,
        ),
      sortKeys: SORT_KEYS,
      valueOf: (g, key) => g[key],
      idOf: (g) => g.goal_id,
      serialize: (viewer, g) => serializeGoal(store, viewer, g),
    }),
  );

  goals.get();

  goals.create<ProjectParams>((request, reply) => {
    const { viewer, project, input, position } = projectCreation(ctx, request, goalCreateBodySchema, GOALS);
    const goal: GoalRecord = {
      goal_id: store.newId('gol'),
      org_id: store.org.org_id,
      project_id: project.project_id,
      name: input.name,
      target_date: input.target_date ?? null,
      description: input.description ?? null,
      position,
      status: 'open',
      closed_at: null,
      closed_by: null,
      converted_from_task_id: null,
      ...authored(viewer, store.nowIso()),
      deleted_at: null,
    };
    storeCreated(store, GOALS, goal.goal_id, goal);
    const location = `/v1/projects/${project.project_id}/goals/${goal.goal_id}`;
    return sendCreated(request, reply, location, serializeGoal(store, viewer, goal));
  });

  goals.update({ body: goalUpdateBodySchema, deprecatedPut: true }, ({ viewer, record: goal, patch }) => {
    const next: GoalRecord = { ...goal };
    assignDefined(next, patch, ['name', 'description', 'target_date', 'position']);
    const now = store.nowIso();
    if (patch.status !== undefined && patch.status !== goal.status) {
      next.status = patch.status;
      next.closed_at = patch.status === 'closed' ? now : null;
      next.closed_by = patch.status === 'closed' ? viewer.username : null;
    }
    storeIfChanged(store, store.records(GOALS), next.goal_id, goal, next, viewer, now);
    return next;
  });

  goals.delete((request, reply, { viewer, record: goal }) => {
    const now = store.nowIso();
    store.records(GOALS).set(goal.goal_id, {
      ...goal,
      deleted_at: now,
      updated_at: now,
      updated_by: viewer.username,
    });
    const unfiled = unfileTasks(store, 'goal_id', goal.goal_id);
    store.touch();
    return sendJson(request, reply, 200, { ok: true, goal_id: goal.goal_id, unfiled_tasks: unfiled });
  });
}
