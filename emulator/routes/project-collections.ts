// What the routes of a project's own collections (goals, milestones) share:
// the project a path names, readable or a 404; the per-project list in its
// sort order, one cursor page at a time; and the organization-wide list
// grouped by project, each group with its items' task totals.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../emulator-context';
import { sendKeyedList } from '../json-reply';
import { compareCodePoints, compareNumber, compareText, parseSort } from '../paging';
import { ProblemReply } from '../problem';
import type { ProjectRecord } from '../records';
import { canSeeProject, type EmulatorStore, type Viewer } from '../store';

export function readableProject(store: EmulatorStore, viewer: Viewer, projectId: string): ProjectRecord {
  const project = store.projects.get(projectId);
  if (!project || !canSeeProject(viewer, projectId)) {
    throw new ProblemReply(404, null, 'Not Found', `project ${projectId} not found`);
  }
  return project;
}

/** The projects the viewer can see, by name then id, as the grouped lists order them. */
export function visibleProjects(store: EmulatorStore, viewer: Viewer): ProjectRecord[] {
  return [...store.projects.values()]
    .filter((p) => canSeeProject(viewer, p.project_id))
    .sort((a, b) => compareText(a.name, b.name) || compareCodePoints(a.project_id, b.project_id));
}

/**
 * The groups of a grouped list: each project that has items, with its items
 * serialized and the sums of their task counts as `<kind>_tasks_total` and
 * `<kind>_tasks_completed`; `total` counts the items of every group.
 */
export function projectGroups<R>(
  projects: readonly ProjectRecord[],
  kind: 'goals' | 'milestones',
  itemsOf: (project: ProjectRecord) => R[],
  serialize: (item: R) => Record<string, unknown>,
): { groups: Record<string, unknown>[]; total: number } {
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
  return { groups, total };
}

export interface ProjectListSpec<R, K extends string> {
  kind: 'goals' | 'milestones';
  project: ProjectRecord;
  /** The project's items, in any order. */
  items: R[];
  params: URLSearchParams;
  /** The keys the list sorts by; `position` is the default and compares as a number, the others as text. */
  sortKeys: readonly K[];
  valueOf: (item: R, key: K) => string | number | null;
  idOf: (item: R) => string;
  serialize: (item: R) => Record<string, unknown>;
}

/** One page of a project's list of `kind`, sorted as asked (ties by id). */
export function sendProjectList<R, K extends string>(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  list: ProjectListSpec<R, K>,
): FastifyReply {
  const sort = parseSort(list.params, list.sortKeys, 'position' as K);
  const compareValues = (a: string | number | null, b: string | number | null) =>
    sort.sortBy === 'position'
      ? compareNumber(a as number | null, b as number | null)
      : compareText(a as string | null, b as string | null);
  return sendKeyedList(ctx, request, reply, {
    queryKey: `${list.kind}\u0000${list.project.project_id}\u0000${sort.sortBy}\u0000${sort.sortOrder}`,
    items: list.items,
    order: sort.sortOrder,
    defaultLimit: 100,
    params: list.params,
    sortedBy: { value: (item) => list.valueOf(item, sort.sortBy), id: list.idOf, compare: compareValues },
    serialize: list.serialize,
  });
}
