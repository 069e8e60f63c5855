// What the routes of a project's own collections (goals, milestones) share:
// the project a path names, readable or a 404; what a create starts from;
// the per-project list in its
// sort order, one cursor page at a time; and the organization-wide list
// grouped by project, each group with its items' task totals.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseOr422 } from '../body-validation';
import { type EmulatorContext, requireOwnOrg, viewerFor } from '../emulator-context';
import { sendKeyedList } from '../json-reply';
import {
  compareCodePoints,
  compareNumber,
  compareText,
  parseSort,
  positionAfter,
  queryPairs,
} from '../paging';
import { ProblemReply } from '../problem';
import type { CollectionKey, ProjectRecord } from '../records';
import { canSeeProject, type EmulatorStore, type Viewer } from '../store';

export function readableProject(store: EmulatorStore, viewer: Viewer, projectId: string): ProjectRecord {
  const project = store.projects.get(projectId);
  if (!project || !canSeeProject(viewer, projectId)) {
    throw new ProblemReply(404, null, 'Not Found', `project ${projectId} not found`);
  }
  return project;
}

/**
 * What a create of a project's own record starts from: who creates it, the
 * project the path names (404), the body as `schema` reads it (422), and the
 * record's position, the body's or after the last of the project's records of
 * its kind.
 */
export function projectCreation<
  S extends z.ZodType<{ position?: number | null | undefined }>,
  R extends { project_id: string; position: number },
>(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { project_id: string } }>,
  schema: S,
  kind: CollectionKey<R>,
): { viewer: Viewer; project: ProjectRecord; input: z.infer<S>; position: number } {
  const viewer = viewerFor(ctx, request);
  const project = readableProject(ctx.store, viewer, request.params.project_id);
  const input = parseOr422(schema, request.body, 'body');
  const siblings = [...ctx.store.records(kind).values()].filter((r) => r.project_id === project.project_id);
  return { viewer, project, input, position: input.position ?? positionAfter(siblings) };
}

/** The projects the viewer can see, by name then id, as the grouped lists order them. */
export function visibleProjects(store: EmulatorStore, viewer: Viewer): ProjectRecord[] {
  return [...store.projects.values()]
    .filter((p) => canSeeProject(viewer, p.project_id))
    .sort((a, b) => compareText(a.name, b.name) || compareCodePoints(a.project_id, b.project_id));
}

const groupedQuerySchema = z.object({ org_id: z.string().min(1) });

/**
 * The organization a grouped list is asked for, which must be the caller's
 * own (422), who asks, and the projects they can see in the groups' order.
 */
export function groupedListQuery(
  ctx: EmulatorContext,
  request: FastifyRequest,
  params: URLSearchParams,
): { orgId: string; viewer: Viewer; projects: ProjectRecord[] } {
  const { org_id: orgId } = parseOr422(groupedQuerySchema, Object.fromEntries(params), 'query');
  requireOwnOrg(ctx, orgId, ['query', 'org_id']);
  const viewer = viewerFor(ctx, request);
  return { orgId, viewer, projects: visibleProjects(ctx.store, viewer) };
}

/**
 * The body of a grouped list: each project that has items, with its items
 * serialized and the sums of their task counts as `<kind>_tasks_total` and
 * `<kind>_tasks_completed`; `total` counts the items of every group.
 */
export function projectGroups<R>(
  orgId: string,
  projects: readonly ProjectRecord[],
  kind: 'goals' | 'milestones',
  itemsOf: (project: ProjectRecord) => R[],
  serialize: (item: R) => Record<string, unknown>,
): { org_id: string; projects: Record<string, unknown>[]; total: number } {
  const groups: Record<string, unknown>[] = [];
  let total = 0;
  for (const project of projects) {
    const items = itemsOf(project);
    if (items.length === 0) continue;
    const data = items.map(serialize);
    total += items.length;
    groups.push({
      project_id: project.project_id,
      data,
      next_cursor: null,
      [`${kind}_tasks_total`]: data.reduce((sum, item) => sum + (item.tasks_total as number), 0),
      [`${kind}_tasks_completed`]: data.reduce((sum, item) => sum + (item.tasks_completed as number), 0),
    });
  }
  return { org_id: orgId, projects: groups, total };
}

export interface ProjectListSpec<R, K extends string> {
  kind: 'goals' | 'milestones';
  /** The project's items, in any order. */
  itemsOf: (project: ProjectRecord) => R[];
  /** The keys the list sorts by; `position` is the default and compares as a number, the others as text. */
  sortKeys: readonly K[];
  valueOf: (item: R, key: K) => string | number | null;
  idOf: (item: R) => string;
  serialize: (viewer: Viewer, item: R) => Record<string, unknown>;
}

/** One page of the list of `kind` of the project the path names (404 when not readable), sorted as asked (ties by id). */
export function sendProjectList<R, K extends string>(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { project_id: string } }>,
  reply: FastifyReply,
  list: ProjectListSpec<R, K>,
): FastifyReply {
  const params = queryPairs(request.url);
  const viewer = viewerFor(ctx, request);
  const project = readableProject(ctx.store, viewer, request.params.project_id);
  const sort = parseSort(params, list.sortKeys, 'position' as K);
  const compareValues = (a: string | number | null, b: string | number | null) =>
    sort.sortBy === 'position'
      ? compareNumber(a as number | null, b as number | null)
      : compareText(a as string | null, b as string | null);
  return sendKeyedList(ctx, request, reply, {
    queryKey: `${list.kind}\u0000${project.project_id}\u0000${sort.sortBy}\u0000${sort.sortOrder}`,
    items: list.itemsOf(project),
    order: sort.sortOrder,
    defaultLimit: 100,
    params,
    sortedBy: { value: (item) => list.valueOf(item, sort.sortBy), id: list.idOf, compare: compareValues },
    serialize: (item) => list.serialize(viewer, item),
  });
}
