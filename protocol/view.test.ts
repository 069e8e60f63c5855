// A task-list filter saved as a view's filters means what it meant in the
// list: the view's query, read back by this version, is the list's query.
import { describe, expect, test } from 'vitest';
import { parseTaskSearch, EMPTY_SEARCH_CONTEXT } from './task-search';
import { parseTaskListQuery } from './task-list-query';
import { viewQueryOf } from './view';
import { viewFiltersOf } from './view-filters';

/** The list's own parameters for a filter, as the renderer's query sends them. */
function listParams(
  filter: Record<string, string | readonly string[] | boolean | undefined>,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === false) continue;
    params.set(`filter[${key}]`, Array.isArray(value) ? value.join(',') : String(value));
  }
  params.set('sort_by', 'due_date');
  params.set('sort_order', 'desc');
  return params;
}

describe('viewFiltersOf', () => {
  test.each([
    'status:blocked,in_progress assignee:me',
    '-status:completed due<2026-12-01 overdue',
    'tag:web "release notes"',
  ])('the search %j saved as a view reads back as the same query', (text) => {
    const { filter } = parseTaskSearch(text, { ...EMPTY_SEARCH_CONTEXT, tags: ['web'] });
    const filters = viewFiltersOf(filter);
    for (const values of Object.values(filters)) expect(Array.isArray(values)).toBe(true);
    const read = viewQueryOf({ filters, sort_by: 'due_date', sort_order: 'desc' });
    expect(read).toEqual({ query: parseTaskListQuery(listParams(filter)) });
  });

  test('what filters nothing is left out: no empty lists, no overdue false, search in all fields', () => {
    expect(
      viewFiltersOf({ status: [], overdue: false, search: '', search_fields: 'all', tags: ['a'] }),
    ).toEqual({
      tags: ['a'],
    });
    expect(viewFiltersOf({ search: 'a, b', search_fields: 'title', overdue: true })).toEqual({
      search: ['a, b'],
      search_fields: ['title'],
      overdue: ['true'],
    });
  });
});
