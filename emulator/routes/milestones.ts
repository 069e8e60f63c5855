// Milestones of a project (gaps.md "Milestones"): the per-project list (cursor
// pages, page ETags), the organization-wide list grouped by project under one
// ETag (the shape of `GET /v1/goals`, with `filter[project]` and
// `filter[status]`), one milestone with its ETag, create (Idempotency-Key),
// PATCH with If-Match (and its deprecated PUT), the delete that unfiles its
// tasks, and unfiling one task. Filing is a task PATCH of `milestone_id`.
import type { FastifyInstance } from 'fastify';
import {
  MILESTONE_STATUSES,
  milestoneCreateBodySchema,
  milestoneUpdateBodySchema,
} from '../../protocol/milestone';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { sendJson } from '../json-reply';
import { compareCodePoints, invalidParameter, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { type MilestoneRecord, MILESTONES } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { patchTask, readableTask, unfileTasks } from '../task-changes';
import { recordRoutes } from './record-routes';
import { assignDefined, authored, sendCreated, storeCreated, storeIfChanged } from './record-writes';
import {
  groupedListQuery,
  projectCreation,
  projectGroups,
  readableProject,
  sendProjectList,
} from './project-collections';

const SORT_KEYS = ['position', 'name', 'due_date', 'created_at'] as const;
const GROUPED_PARAMS = new Set(['org_id', 'filter[project]', 'filter[status]']);

export function serializeMilestone(
  store: EmulatorStore,
  viewer: Viewer,
  m: MilestoneRecord,
): Record<string, unknown> {
  const counts = store.taskCounts(viewer).milestone_id.get(m.milestone_id);
  return {
    milestone_id: m.milestone_id,
    org_id: m.org_id,
    project_id: m.project_id,
    name: m.name,
    description: m.description,
    due_date: m.due_date,
    status: m.status,
    position: m.position,
    tasks_total: counts?.total ?? 0,
    tasks_completed: counts?.completed ?? 0,
    created_by: m.created_by,
    updated_by: m.updated_by,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

/** The milestone a path names: a 404 when they cannot see it or its project. */
function readableMilestone(
  store: EmulatorStore,
  viewer: Viewer,
  { project_id: projectId, milestone_id: milestoneId }: { project_id: string; milestone_id: string },
): MilestoneRecord {
  readableProject(store, viewer, projectId);
  const milestone = store.records(MILESTONES).get(milestoneId);
  if (!milestone || milestone.project_id !== projectId) {
    throw new ProblemReply(404, null, 'Not Found', `milestone ${milestoneId} not found`);
  }
  return milestone;
}

const byPosition = (a: MilestoneRecord, b: MilestoneRecord) =>
  a.position - b.position || compareCodePoints(a.milestone_id, b.milestone_id);

/** The values of a grouped-list filter, repeated or comma-separated (the contract's filter syntax). */
function filterValues(params: URLSearchParams, key: string): string[] | null {
  const raw = params.getAll(key);
  if (raw.length === 0) return null;
  return raw.flatMap((value) => value.split(',')).filter((value) => value !== '');
}

export function registerMilestoneRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  type ProjectParams = { project_id: string };
  type TaskParams = { Params: ProjectParams & { milestone_id: string; task_id: string } };
  const milestones = recordRoutes(app, ctx, '/v1/projects/:project_id/milestones/:milestone_id', {
    scope: 'projects',
    find: readableMilestone,
    serialize: serializeMilestone,
  });

  app.get(
    '/v1/milestones',
    { config: { scope: 'projects:read', operationId: 'milestones.list_grouped' } },
    (request, reply) => {
      const params = queryPairs(request.url);
      for (const key of params.keys()) {
        if (key.startsWith('filter[') && !GROUPED_PARAMS.has(key))
          throw invalidParameter(key, `${key} is not a filter of this list`, [
            'filter[project]',
            'filter[status]',
          ]);
      }
      const { orgId, viewer, projects: visible } = groupedListQuery(ctx, request, params);
      const projectFilter = filterValues(params, 'filter[project]');
      const statusFilter = filterValues(params, 'filter[status]');
      for (const status of statusFilter ?? []) {
        if (!(MILESTONE_STATUSES as readonly string[]).includes(status))
          throw invalidParameter(
            'filter[status]',
            `filter[status] cannot be '${status}'`,
            MILESTONE_STATUSES,
          );
      }
      const projects = visible.filter((p) => projectFilter === null || projectFilter.includes(p.project_id));
      const body = projectGroups(
        orgId,
        projects,
        'milestones',
        (project) =>
          [...store.records(MILESTONES).values()]
            .filter((m) => m.project_id === project.project_id)
            .filter((m) => statusFilter === null || statusFilter.includes(m.status))
            .sort(byPosition),
        (m) => serializeMilestone(store, viewer, m),
      );
      return sendJson(request, reply, 200, body);
    },
  );

  milestones.list<ProjectParams>((request, reply) =>
    sendProjectList(ctx, request, reply, {
      kind: 'milestones',
      itemsOf: (project) =>
        [...store.records(MILESTONES).values()].filter((m) => m.project_id === project.project_id),
      sortKeys: SORT_KEYS,
      valueOf: (m, key) => m[key],
      idOf: (m) => m.milestone_id,
      serialize: (viewer, m) => serializeMilestone(store, viewer, m),
    }),
  );

  milestones.get();

  milestones.create<ProjectParams>((request, reply) => {
    const { viewer, project, input, position } = projectCreation(
      ctx,
      request,
      milestoneCreateBodySchema,
      MILESTONES,
    );
    const milestone: MilestoneRecord = {
      milestone_id: store.newId('mst'),
      org_id: store.org.org_id,
      project_id: project.project_id,
      name: input.name,
      description: input.description ?? null,
      due_date: input.due_date ?? null,
      status: 'open',
      position,
      ...authored(viewer, store.nowIso()),
    };
    storeCreated(store, MILESTONES, milestone.milestone_id, milestone);
    const location = `/v1/projects/${project.project_id}/milestones/${milestone.milestone_id}`;
    return sendCreated(request, reply, location, serializeMilestone(store, viewer, milestone));
  });

  milestones.update(
    { body: milestoneUpdateBodySchema, deprecatedPut: true },
    ({ viewer, record: milestone, patch }) => {
      const next: MilestoneRecord = { ...milestone };
      assignDefined(next, patch, ['name', 'description', 'due_date', 'position', 'status']);
      storeIfChanged(store, store.records(MILESTONES), next.milestone_id, milestone, next, viewer);
      return next;
    },
  );

  milestones.delete((request, reply, { record: milestone }) => {
    store.records(MILESTONES).delete(milestone.milestone_id);
    // Its tasks are unfiled, never deleted (gaps.md), as a goal's are on its soft delete.
    unfileTasks(store, 'milestone_id', milestone.milestone_id);
    store.touch();
    return sendJson(request, reply, 200, { ok: true });
  });

  app.delete<TaskParams>(
    '/v1/projects/:project_id/milestones/:milestone_id/tasks/:task_id',
    { config: { scope: 'projects:write', operationId: 'milestones.unfile_task' } },
    (request, reply) => {
      const viewer = viewerFor(ctx, request);
      const milestone = readableMilestone(store, viewer, request.params);
      const entry = readableTask(store, viewer, request.params.task_id);
      if (entry.record.milestone_id !== milestone.milestone_id) {
        throw new ProblemReply(
          404,
          null,
          'Not Found',
          `task ${entry.record.task_id} is not filed under milestone ${milestone.milestone_id}`,
        );
      }
      // The task keeps its project and is never deleted; the change is the task's own (history, updated_at).
      patchTask(store, viewer, entry, { milestone_id: null });
      return sendJson(request, reply, 200, {
        ok: true,
        milestone_id: milestone.milestone_id,
        task_id: entry.record.task_id,
      });
    },
  );
}
