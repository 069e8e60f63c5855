import { describe, expect, test } from 'vitest';
import {
  activeFilterCount,
  DEFAULT_SORT,
  NO_FILTERS,
  scopeKey,
  scopeParent,
  taskListQuery,
} from './list-query';

describe('taskListQuery', () => {
  test('My tasks is the service filter assignee=me', () => {
    expect(taskListQuery({ kind: 'my-tasks' }, NO_FILTERS, DEFAULT_SORT)).toEqual({
      filter: { assignee: ['me'] },
      sort_by: 'title',
      sort_order: 'asc',
    });
  });

  test('a project or team list filters by it; All tasks by nothing', () => {
    expect(taskListQuery({ kind: 'project', projectId: 'prj_1' }, NO_FILTERS, DEFAULT_SORT).filter).toEqual({
      project: ['prj_1'],
    });
    expect(taskListQuery({ kind: 'team', teamId: 'team_1' }, NO_FILTERS, DEFAULT_SORT).filter).toEqual({
      team: ['team_1'],
    });
    expect(taskListQuery({ kind: 'all' }, NO_FILTERS, DEFAULT_SORT).filter).toEqual({});
  });

  test("a parent's sub-tasks are no service filter: the parent goes beside the query, which keeps the bar's filters", () => {
    const scope = { kind: 'sub-tasks', parentId: 'tsk_p', parentTitle: 'Launch' } as const;
    const filters = { ...NO_FILTERS, choices: { ...NO_FILTERS.choices, status: ['blocked'] } };
    expect(taskListQuery(scope, filters, DEFAULT_SORT).filter).toEqual({ status: ['blocked'] });
    expect(scopeParent(scope)).toBe('tsk_p');
    expect(scopeParent({ kind: 'all' })).toBeUndefined();
    expect(scopeKey(scope)).toBeNull();
  });

  test('every filter of the bar maps to its service key; empty choices restrict nothing', () => {
    const query = taskListQuery(
      { kind: 'all' },
      {
        search: 'login',
        searchFields: 'title',
        choices: { ...NO_FILTERS.choices, status: ['blocked', 'in_progress'], tags: [], review: ['none'] },
        dates: { ...NO_FILTERS.dates, due_before: '2026-03-31' },
        overdue: true,
      },
      { by: 'priority_rank', order: 'desc' },
    );
    expect(query).toEqual({
      filter: {
        status: ['blocked', 'in_progress'],
        review: ['none'],
        due_before: '2026-03-31',
        overdue: true,
        search: 'login',
        search_fields: 'title',
      },
      sort_by: 'priority_rank',
      sort_order: 'desc',
    });
  });

  test('the scope key is not offered again by the filter bar, and counts as no filter', () => {
    expect(scopeKey({ kind: 'my-tasks' })).toBe('assignee');
    expect(scopeKey({ kind: 'all' })).toBeNull();
    expect(activeFilterCount(NO_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...NO_FILTERS, search: '  ', overdue: true })).toBe(1);
  });
});
