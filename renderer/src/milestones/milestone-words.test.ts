import { describe, expect, test } from 'vitest';
import { milestonePatch } from './milestone-form';
import { deletedWords, deleteQuestion, milestoneStatusWord } from './milestone-words';

describe('what the milestones view says', () => {
  test.each([
    [
      'a milestone with tasks',
      3,
      'Delete milestone ‘Beta’? Its 3 tasks stay in the project, filed under no milestone.',
    ],
    ['one task', 1, 'Delete milestone ‘Beta’? Its one task stays in the project, filed under no milestone.'],
    ['no task', 0, 'Delete milestone ‘Beta’? No task is filed under it.'],
  ])('the delete question for %s', (_case, filed, words) => {
    expect(deleteQuestion('Beta', filed)).toBe(words);
  });

  test('the notice after a delete says how many tasks were unfiled', () => {
    expect(deletedWords('Beta', 2)).toBe('Deleted ‘Beta’; 2 tasks unfiled');
    expect(deletedWords('Beta', 0)).toBe('Deleted ‘Beta’');
  });

  test('statuses read as words; one the contract does not name is shown as sent', () => {
    expect([null, 'open', 'completed', 'archived'].map(milestoneStatusWord)).toEqual([
      'Open',
      'Open',
      'Completed',
      'archived',
    ]);
  });
});

describe('the edit form sends only what changed', () => {
  const initial = { name: 'Beta', description: 'First customers', due_date: '2026-12-18' };

  test('nothing changed: an empty patch (nothing is queued)', () => {
    expect(milestonePatch(initial, { ...initial })).toEqual({});
  });

  test('a rename and a cleared date, as a merge-patch', () => {
    expect(milestonePatch(initial, { ...initial, name: 'GA', due_date: null })).toEqual({
      name: 'GA',
      due_date: null,
    });
  });
});
