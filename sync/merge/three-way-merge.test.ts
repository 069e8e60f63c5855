import { describe, expect, test } from 'vitest';
import { canonicalJson, isClean, sameValue, threeWayMerge, type MergeResult } from './three-way-merge';

type Row = Record<string, unknown>;

const cases: {
  name: string;
  base: Row;
  mine: Row;
  theirs: Row;
  expected: Partial<MergeResult>;
}[] = [
  {
    name: 'a field only I changed is rebased',
    base: { title: 'a' },
    mine: { title: 'b' },
    theirs: { title: 'a', status: 'blocked' },
    expected: { rebased: { title: 'b' } },
  },
  {
    name: 'a field only they changed is taken',
    base: { title: 'a' },
    mine: { title: 'a' },
    theirs: { title: 'z' },
    expected: { taken: { title: 'z' } },
  },
  {
    name: 'the same new value on both sides is settled',
    base: { status: 'not_started' },
    mine: { status: 'completed' },
    theirs: { status: 'completed' },
    expected: { settled: { status: 'completed' } },
  },
  {
    name: 'different new values on one field are a conflict with base, mine and theirs',
    base: { priority: 'low' },
    mine: { priority: 'high' },
    theirs: { priority: 'urgent' },
    expected: { conflicts: [{ field: 'priority', base: 'low', mine: 'high', theirs: 'urgent' }] },
  },
  {
    name: 'fields are decided one by one',
    base: { title: 'a', status: 'not_started', priority: 'low', assignee: 'ann' },
    mine: { title: 'b', status: 'completed', priority: 'high', assignee: 'ann' },
    theirs: { title: 'a', status: 'completed', priority: 'urgent', assignee: 'bob' },
    expected: {
      rebased: { title: 'b' },
      settled: { status: 'completed' },
      taken: { assignee: 'bob' },
      conflicts: [{ field: 'priority', base: 'low', mine: 'high', theirs: 'urgent' }],
    },
  },
  {
    name: 'clearing a field (null) against an untouched field is rebased',
    base: { due_date: '2026-11-02' },
    mine: { due_date: null },
    theirs: { due_date: '2026-11-02' },
    expected: { rebased: { due_date: null } },
  },
  {
    name: 'an absent value and null are the same (merge-patch semantics)',
    base: {},
    mine: { description: 'x' },
    theirs: { description: null },
    expected: { rebased: { description: 'x' } },
  },
  {
    name: 'both clearing a field is settled',
    base: { assignee: 'ann' },
    mine: { assignee: null },
    theirs: {},
    expected: { settled: { assignee: null } },
  },
  {
    name: 'clearing against a change is a conflict',
    base: { assignee: 'ann' },
    mine: { assignee: null },
    theirs: { assignee: 'bob' },
    expected: { conflicts: [{ field: 'assignee', base: 'ann', mine: null, theirs: 'bob' }] },
  },
  {
    name: 'tags in another order are the same tags',
    base: { tags: ['a', 'b'] },
    mine: { tags: ['a', 'b', 'c'] },
    theirs: { tags: ['b', 'a'] },
    expected: { rebased: { tags: ['a', 'b', 'c'] } },
  },
  {
    name: 'the same tag set reached in another order is settled',
    base: { tags: ['a'] },
    mine: { tags: ['a', 'c'] },
    theirs: { tags: ['c', 'a'] },
    expected: { settled: { tags: ['c', 'a'] } },
  },
  {
    name: 'different tag changes on both sides are a conflict, not a computed union',
    base: { tags: ['a', 'b'] },
    mine: { tags: ['a', 'b', 'c'] },
    theirs: { tags: ['a'] },
    expected: { conflicts: [{ field: 'tags', base: ['a', 'b'], mine: ['a', 'b', 'c'], theirs: ['a'] }] },
  },
  {
    name: 'a field I set back to its base value while they changed it takes theirs',
    base: { position: 1024 },
    mine: { position: 1024 },
    theirs: { position: 2048 },
    expected: { taken: { position: 2048 } },
  },
  {
    name: 'objects compare by content, whatever the key order',
    base: { meta: { a: 1, b: 2 } },
    mine: { meta: { a: 1, b: 3 } },
    theirs: { meta: { b: 2, a: 1 } },
    expected: { rebased: { meta: { a: 1, b: 3 } } },
  },
  {
    name: 'numbers are not strings',
    base: { position: 1 },
    mine: { position: 2 },
    theirs: { position: '1' },
    expected: { conflicts: [{ field: 'position', base: 1, mine: 2, theirs: '1' }] },
  },
];

describe('threeWayMerge', () => {
  test.each(cases)('$name', ({ base, mine, theirs, expected }) => {
    const result = threeWayMerge({ base, mine, theirs });
    expect(result).toEqual({ rebased: {}, taken: {}, settled: {}, conflicts: [], ...expected });
    expect(isClean(result)).toBe((expected.conflicts ?? []).length === 0);
  });

  test('only the fields of my patch are decided: their other changes are left to the new base', () => {
    const result = threeWayMerge({
      base: { title: 'a' },
      mine: { title: 'b' },
      theirs: { title: 'a', status: 'completed', description: 'new' },
    });
    expect(Object.keys({ ...result.rebased, ...result.taken, ...result.settled })).toEqual(['title']);
  });

  test('tags compare in order when the field is not declared a set', () => {
    const result = threeWayMerge({
      base: { tags: ['a', 'b'] },
      mine: { tags: ['b', 'a'] },
      theirs: { tags: ['a', 'b'] },
      setFields: new Set(),
    });
    expect(result.rebased).toEqual({ tags: ['b', 'a'] });
  });

  test('the inputs are left untouched', () => {
    const base = { tags: ['a'] };
    const mine = { tags: ['a', 'b'] };
    const theirs = { tags: ['c'] };
    const snapshot = JSON.stringify({ base, mine, theirs });
    threeWayMerge({ base, mine, theirs });
    expect(JSON.stringify({ base, mine, theirs })).toBe(snapshot);
  });
});

describe('sameValue', () => {
  test.each([
    [null, null, false, true],
    ['a', 'a', false, true],
    ['a', 'b', false, false],
    [1, 1.0, false, true],
    [[1, 2], [2, 1], false, false],
    [[1, 2], [2, 1], true, true],
    [['a', 'a'], ['a'], true, true],
    [['a'], ['a', 'b'], true, false],
    [{ x: [1] }, { x: [1] }, false, true],
    [null, [], true, false],
  ] as const)('%j vs %j (as set: %s) is %s', (a, b, asSet, same) => {
    expect(sameValue(a as never, b as never, asSet)).toBe(same);
  });

  test('canonical JSON sorts object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 4, e: 5 }] } })).toBe(
      '{"a":{"c":[3,{"e":5,"f":4}],"d":2},"b":1}',
    );
  });
});
