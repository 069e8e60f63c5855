import { describe, expect, test } from 'vitest';
import { parseSetValues, SetValueError } from './set-values';

describe('parseSetValues', () => {
  test.each([
    [['title=Ship it'], { title: 'Ship it' }],
    [['title=a=b'], { title: 'a=b' }],
    [['assignee=null'], { assignee: null }],
    [['title="null"'], { title: 'null' }],
    [['description="  spaced  "'], { description: '  spaced  ' }],
    [['description='], { description: '' }],
    [['tags=a, b ,,c'], { tags: ['a', 'b', 'c'] }],
    [['tags='], { tags: [] }],
    [['tags=["a","b,c"]'], { tags: ['a', 'b,c'] }],
    [['tags=null'], { tags: null }],
    [['position=2048.5'], { position: 2048.5 }],
    [['status=in_progress', 'status=completed'], { status: 'completed' }],
    [['due_date=2026-12-01', 'priority=high'], { due_date: '2026-12-01', priority: 'high' }],
  ])('%j gives %j', (assignments, patch) => {
    expect(parseSetValues(assignments)).toEqual(patch);
  });

  test.each([
    ['title', 'field=value'],
    ['=x', 'field=value'],
    ['task_id=x', 'not a field you can change'],
    ['created_at=2026-01-01', 'not a field you can change'],
    ['position=soon', 'must be a number'],
    ['position=', 'must be a number'],
    ['tags=[1,2]', 'array of strings'],
    ['tags=[a', 'array of strings'],
    ['title="open', 'one JSON string'],
    ['title="a" "b"', 'one JSON string'],
  ])('%s is refused, saying how to write it', (assignment, hint) => {
    let error: unknown;
    try {
      parseSetValues([assignment]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SetValueError);
    expect((error as SetValueError).message).toContain(hint);
  });
});
