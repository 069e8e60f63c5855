import { describe, expect, test } from 'vitest';
import { markOfState } from './sync-mark-words';
import { deleteSectionWords, scopeNeighbours, sectionNameProblem, sectionNameRules } from './section-words';

describe('sectionNameProblem', () => {
  test.each([
    ['Next week', null],
    ['  Next week  ', null],
    ['', 'A section needs a name.'],
    ['   ', 'A section needs a name.'],
    ['doing', 'There is already a section called “Doing” here.'],
    ['x'.repeat(121), "A section's name has at most 120 characters."],
  ])('%j → %j', (draft, problem) => {
    expect(sectionNameProblem(draft, ['Todo', 'Doing'])).toBe(problem);
  });
});

describe('deleteSectionWords', () => {
  test.each([
    [0, 'It has no tasks.'],
    [1, 'Its task is not deleted: it stays in its project, in no section.'],
    [4, 'Its 4 tasks are not deleted: they stay in their project, in no section.'],
  ])('%i tasks: %s', (tasks, detail) => {
    expect(deleteSectionWords('Review', tasks)).toEqual({ title: 'Delete section “Review”?', detail });
  });
});

test('a waiting section is marked as a waiting task is', () => {
  expect(
    [undefined, 'queued', 'in_flight', 'conflict', 'failed', 'blocked'].map((s) => markOfState(s as never)),
  ).toEqual([null, 'pending', 'pending', 'conflict', 'failed', 'blocked']);
});

test("a section's new name is checked against the other sections of its own scope only", () => {
  const sections = [
    { section_id: 'a', name: 'Todo', scope_type: 'project', scope_id: 'p1' },
    { section_id: 'b', name: 'Doing', scope_type: 'project', scope_id: 'p1' },
    { section_id: 'c', name: 'Later', scope_type: 'project', scope_id: 'p2' },
    { section_id: 'd', name: 'Done', scope_type: 'team', scope_id: 'p1' },
  ];
  expect(scopeNeighbours(sections, 'a')).toEqual(['Doing']);
  expect(scopeNeighbours(sections, 'gone')).toEqual([]);
  const rules = sectionNameRules(scopeNeighbours(sections, 'a'));
  expect(rules.problem('doing')).toBe('There is already a section called “Doing” here.');
  expect(rules.problem('Later')).toBeNull();
});
