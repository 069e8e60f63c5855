import { describe, expect, test } from 'vitest';
import { deletedWords, deleteQuestion } from './goal-words';

describe('what a goal delete says about its tasks', () => {
  test.each([
    [0, false, 'Deleted ‘Q3 launch’; no tasks were filed under it.'],
    [1, false, 'Deleted ‘Q3 launch’; 1 task no longer has a goal.'],
    [4, false, 'Deleted ‘Q3 launch’; 4 tasks no longer have a goal.'],
    [2000, true, 'Deleted ‘Q3 launch’; more than 2000 tasks no longer have a goal.'],
  ])('%i tasks (more: %s), once deleted', (count, more, words) => {
    expect(deletedWords('Q3 launch', { count, more })).toBe(words);
  });

  test.each([
    [0, false, 'Delete the goal ‘Q3 launch’? No tasks are filed under it.'],
    [
      1,
      false,
      'Delete the goal ‘Q3 launch’? 1 task is filed under it; it stays in the project without a goal.',
    ],
    [
      4,
      false,
      'Delete the goal ‘Q3 launch’? 4 tasks are filed under it; they stay in the project without a goal.',
    ],
    [
      2000,
      true,
      'Delete the goal ‘Q3 launch’? More than 2000 tasks are filed under it; they stay in the project without a goal.',
    ],
  ])('%i tasks (more: %s), asked before', (count, more, words) => {
    expect(deleteQuestion('Q3 launch', { count, more })).toBe(words);
  });
});
