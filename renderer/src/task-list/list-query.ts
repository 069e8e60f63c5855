// From what the person chose (the sidebar's scope, the filter bar and the
// search box's language, the sort) to the service's task-list query, which the
// mirror answers exactly as `GET /v1/tasks` would.
import type { TaskListQueryInput, Workspace } from '../../../ipc/screen-schemas';
import {
  TASK_CHOICE_FILTER_KEYS,
  TASK_DATE_FILTER_KEYS,
  type TaskChoiceFilterKey,
  type TaskDateFilterKey,
} from '../../../protocol/task-list-query';
import {
  EMPTY_SEARCH_CONTEXT,
  type TaskSearchContext,
  type TaskSearchFilter,
} from '../../../protocol/task-search';
import type { ListScope } from '../store/view-store';

export type SortKey = TaskListQueryInput['sort_by'];
export type SortOrder = TaskListQueryInput['sort_order'];

/** The multi-valued filters of the filter bar (values OR-ed within a key, keys AND-ed): the service's list keys. */
export const CHOICE_KEYS = TASK_CHOICE_FILTER_KEYS;
export type ChoiceKey = TaskChoiceFilterKey;

/** The filter bar's day bounds. */
export const DATE_KEYS = TASK_DATE_FILTER_KEYS;
export type DateKey = TaskDateFilterKey;

export interface ListFilters {
  search: string;
  searchFields: 'all' | 'title';
  choices: Readonly<Record<ChoiceKey, readonly string[]>>;
  dates: Readonly<Record<DateKey, string>>;
  overdue: boolean;
}

export const NO_FILTERS: ListFilters = {
  search: '',
  searchFields: 'all',
  choices: {
    status: [],
    priority: [],
    assignee: [],
    project: [],
    team: [],
    tags: [],
    task_type: [],
    review: [],
    created_via: [],
  },
  dates: { due_after: '', due_before: '', created_after: '', created_before: '' },
  overdue: false,
};

export interface ListSort {
  by: SortKey;
  order: SortOrder;
}

export const DEFAULT_SORT: ListSort = { by: 'title', order: 'asc' };

/** The key a scope fixes (the filter bar does not offer it there). */
export function scopeKey(scope: ListScope): ChoiceKey | null {
  switch (scope.kind) {
    case 'my-tasks':
      return 'assignee';
    case 'project':
      return 'project';
    case 'team':
      return 'team';
    case 'all':
    case 'sub-tasks':
      return null;
  }
}

export function activeFilterCount(filters: ListFilters): number {
  let count = filters.search.trim() === '' ? 0 : 1;
  for (const key of CHOICE_KEYS) if (filters.choices[key].length > 0) count++;
  for (const key of DATE_KEYS) if (filters.dates[key] !== '') count++;
  if (filters.overdue) count++;
  return count;
}

/** The filter bar's choices as the service's filter: what the search box's text says. */
export function searchFilterOf(filters: ListFilters): TaskSearchFilter {
  const filter: TaskSearchFilter = {};
  for (const key of CHOICE_KEYS) {
    const values = filters.choices[key];
    if (values.length > 0) filter[key] = [...values];
  }
  for (const key of DATE_KEYS) {
    if (filters.dates[key] !== '') filter[key] = filters.dates[key];
  }
  if (filters.overdue) filter.overdue = true;
  if (filters.search !== '') filter.search = filters.search;
  return filter;
}

/** The search box's filter as the filter bar's choices (where to search stays as it was). */
export function listFiltersOf(
  filter: TaskSearchFilter,
  searchFields: ListFilters['searchFields'],
): ListFilters {
  const choices = { ...NO_FILTERS.choices };
  for (const key of CHOICE_KEYS) choices[key] = filter[key] ?? [];
  const dates = { ...NO_FILTERS.dates };
  for (const key of DATE_KEYS) dates[key] = filter[key] ?? '';
  return { search: filter.search ?? '', searchFields, choices, dates, overdue: filter.overdue === true };
}

const contexts = new WeakMap<Workspace, TaskSearchContext>();

/** What the search box's names resolve against: the mirror's projects, teams, members and tags. */
export function searchContextOf(workspace: Workspace | null): TaskSearchContext {
  if (workspace === null) return EMPTY_SEARCH_CONTEXT;
  let context = contexts.get(workspace);
  if (!context) {
    context = {
      projects: workspace.projects.map((p) => ({ id: p.project_id, name: p.name })),
      teams: workspace.teams.map((t) => ({ id: t.team_id, name: t.name })),
      members: workspace.members.map((m) => m.username),
      tags: workspace.tags,
    };
    contexts.set(workspace, context);
  }
  return context;
}

export function taskListQuery(scope: ListScope, filters: ListFilters, sort: ListSort): TaskListQueryInput {
  const filter: TaskListQueryInput['filter'] = searchFilterOf(filters);
  if (filter.search !== undefined && filters.searchFields === 'title') filter.search_fields = 'title';
  switch (scope.kind) {
    case 'my-tasks':
      filter.assignee = ['me'];
      break;
    case 'project':
      filter.project = [scope.projectId];
      break;
    case 'team':
      filter.team = [scope.teamId];
      break;
    case 'all':
    case 'sub-tasks':
      break;
  }
  return { filter, sort_by: sort.by, sort_order: sort.order };
}

/** The parent a scope narrows the list to, beside its query (see ListScope's `sub-tasks`). */
export function scopeParent(scope: ListScope): string | undefined {
  return scope.kind === 'sub-tasks' ? scope.parentId : undefined;
}
