import { describe, expect, test } from 'vitest';
import {
  InvalidParameterError,
  parseTaskListQuery,
  TASK_CHOICE_FILTER_KEYS,
  TASK_DATE_FILTER_KEYS,
  TASK_FILTER_KEYS,
} from './task-list-query';

function parse(query: string) {
  return parseTaskListQuery(new URLSearchParams(query));
}

describe('parseTaskListQuery', () => {
  test('defaults to title ascending with no filter', () => {
    expect(parse('org_id=o1&limit=5')).toEqual({
      filter: { search_fields: 'all' },
      sort_by: 'title',
      sort_order: 'asc',
    });
  });

  test('ORs repeated and comma-separated values of one key', () => {
    const q = parse('filter[status]=blocked,completed&filter[status]=in_progress');
    expect(q.filter.status).toEqual(['blocked', 'completed', 'in_progress']);
  });

  test('keeps a search text whole, commas and all', () => {
    expect(parse('filter[search]=' + encodeURIComponent('a,b (%_*')).filter.search).toBe('a,b (%_*');
  });

  test.each([
    ['filter[colour]=red', 'filter[colour]'],
    ['filter[status]=done', 'filter[status]'],
    ['filter[task_type]=goal', 'filter[task_type]'],
    ['sort_by=nonsense', 'sort_by'],
    ['sort_order=up', 'sort_order'],
    ['filter[due_after]=2026-02-30', 'filter[due_after]'],
  ])('refuses %s naming the parameter', (query, loc) => {
    try {
      parse(query);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidParameterError);
      expect((error as InvalidParameterError).loc).toEqual(['query', loc]);
    }
  });

  test('lists the allowed values of a closed set', () => {
    try {
      parse('filter[review]=maybe');
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidParameterError).allowed).toContain('none');
    }
  });
});

describe('filter key lists', () => {
  const sample: Record<string, string> = {
    status: 'blocked',
    priority: 'low',
    task_type: 'bug',
    created_via: 'api',
    review: 'pending',
    overdue: 'true',
    search_fields: 'title',
    search: 'x',
  };
  const valueOf = (key: string) =>
    sample[key] ?? (key.endsWith('_after') || key.endsWith('_before') ? '2026-03-11' : 'v');

  test('the choice keys and the date keys are the filter keys that take many values and one day', () => {
    expect(TASK_CHOICE_FILTER_KEYS).toEqual(
      TASK_FILTER_KEYS.filter((key) => {
        try {
          parse(`filter[${key}]=${valueOf(key)}&filter[${key}]=${valueOf(key)}`);
          return true;
        } catch {
          return false;
        }
      }),
    );
    expect(TASK_DATE_FILTER_KEYS).toEqual(
      TASK_FILTER_KEYS.filter((key) => {
        try {
          parse(`filter[${key}]=soon`);
          return false;
        } catch (error) {
          return (error as InvalidParameterError).message.includes('must be a date');
        }
      }),
    );
  });
});
