// Goals: the organization-wide list grouped by project under one ETag, the
// per-project list, create, PATCH (and its deprecated PUT), and the soft delete
// that keeps a goal's tasks in the project with `goal_id` null.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { goalCreateBodySchema, goalUpdateBodySchema } from '../../protocol/goal';
import { parseOr422 } from '../body-validation';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { etagOfJson } from '../entity-tag';
import { checkIfMatch, sendJson } from '../json-reply';
import { compareCodePoints, positionAfter, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { unfileTasks } from '../task-changes';
import { type GoalRecord, GOALS } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { authored, registerPatchAndPut, sendCreated, storeCreated, storeIfChanged } from './record-writes';
import { groupedListQuery, projectGroups, readableProject, sendProjectList } from './project-collections';

const SORT_KEYS = ['position', 'name', 'target_date', 'created_at'] as const;

export function serializeGoal(store: EmulatorStore, viewer: Viewer, g: GoalRecord): Record<string, unknown> {
  const counts = store.taskCounts(viewer).goal_id.get(g.goal_id);
  const { deleted_at: _deleted, ...fields } = g;
  return { ...fields, tasks_total: counts?.total ?? 0, tasks_completed: counts?.completed ?? 0, tasks: null };
}

function liveGoal(store: EmulatorStore, viewer: Viewer, projectId: string, goalId: string): GoalRecord {
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
  type ProjectParams = { Params: { project_id: string } };
  type GoalParams = { Params: { project_id: string; goal_id: string } };

  /** Who asks, and the goal the path names (a 404 when they cannot see it or its project, or it is deleted). */
  const requestedGoal = (request: FastifyRequest<GoalParams>) => {
    const viewer = viewerFor(ctx, request);
    const { project_id: projectId, goal_id: goalId } = request.params;
    return { viewer, goal: liveGoal(store, viewer, projectId, goalId) };
  };

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

  app.get<ProjectParams>(
    '/v1/projects/:project_id/goals',
    { config: { scope: 'projects:read', operationId: 'goals.list' } },
    (request, reply) =>
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

  app.get<GoalParams>(
    '/v1/projects/:project_id/goals/:goal_id',
    { config: { scope: 'projects:read', operationId: 'goals.get' } },
    (request, reply) => {
      const { viewer, goal } = requestedGoal(request);
      return sendJson(request, reply, 200, serializeGoal(store, viewer, goal));
    },
  );

  app.post<ProjectParams>(
    '/v1/projects/:project_id/goals',
    { config: { scope: 'projects:write', operationId: 'goals.create', idempotent: true } },
    (request, reply) => {
      const viewer = viewerFor(ctx, request);
      const project = readableProject(store, viewer, request.params.project_id);
      const input = parseOr422(goalCreateBodySchema, request.body, 'body');
      const now = store.nowIso();
      const goal: GoalRecord = {
        goal_id: store.newId('gol'),
        org_id: store.org.org_id,
        project_id: project.project_id,
        name: input.name,
        target_date: input.target_date ?? null,
        description: input.description ?? null,
        position:
          input.position ??
          positionAfter(
            [...store.records(GOALS).values()].filter((g) => g.project_id === project.project_id),
          ),
        status: 'open',
        closed_at: null,
        closed_by: null,
        converted_from_task_id: null,
        ...authored(viewer, now),
        deleted_at: null,
      };
      storeCreated(store, GOALS, goal.goal_id, goal);
      const location = `/v1/projects/${project.project_id}/goals/${goal.goal_id}`;
      return sendCreated(request, reply, location, serializeGoal(store, viewer, goal));
    },
  );

  const update = (request: FastifyRequest<GoalParams>, reply: FastifyReply) => {
    const { viewer, goal } = requestedGoal(request);
    checkIfMatch(request, etagOfJson(serializeGoal(store, viewer, goal)));
    const patch = parseOr422(goalUpdateBodySchema, request.body, 'body');
    const next: GoalRecord = { ...goal };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.target_date !== undefined) next.target_date = patch.target_date;
    if (patch.position !== undefined) next.position = patch.position;
    const now = store.nowIso();
    if (patch.status !== undefined && patch.status !== goal.status) {
      next.status = patch.status;
      next.closed_at = patch.status === 'closed' ? now : null;
      next.closed_by = patch.status === 'closed' ? viewer.username : null;
    }
    storeIfChanged(store, store.records(GOALS), next.goal_id, goal, next, viewer, now);
    return sendJson(request, reply, 200, serializeGoal(store, viewer, next));
  };
  registerPatchAndPut(app, '/v1/projects/:project_id/goals/:goal_id', 'projects:write', 'goals', update);

  app.delete<GoalParams>(
    '/v1/projects/:project_id/goals/:goal_id',
    { config: { scope: 'projects:write', operationId: 'goals.delete' } },
    (request, reply) => {
      const { viewer, goal } = requestedGoal(request);
      checkIfMatch(request, etagOfJson(serializeGoal(store, viewer, goal)));
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
    },
  );
}
