import { describe, expect, test } from 'vitest';
import { sideOf, textDiff } from './text-diff';

describe('text diffs for the conflict view', () => {
  test('a line of text differs word by word, spaces kept', () => {
    expect(textDiff('Fix the login page', 'Fix the signup page now')).toEqual([
      { text: 'Fix the ', change: 'same' },
      { text: 'login', change: 'removed' },
      { text: 'signup', change: 'added' },
      { text: ' page', change: 'same' },
      { text: ' now', change: 'added' },
    ]);
  });

  test('longer text differs line by line', () => {
    const parts = textDiff('Steps:\nopen the app\nsign in\n', 'Steps:\nopen the app\nsign in with SSO\n');
    expect(parts).toEqual([
      { text: 'Steps:\nopen the app\n', change: 'same' },
      { text: 'sign in\n', change: 'removed' },
      { text: 'sign in with SSO\n', change: 'added' },
    ]);
  });

  test.each([
    ['', 'Written from nothing'],
    ['Cleared entirely', ''],
    ['Same text', 'Same text'],
    ['a b c', 'c b a'],
    ['line one\nline two', 'line one\nline 2\nline three'],
  ])('joining the parts gives both texts back (%j → %j)', (from, to) => {
    const parts = textDiff(from, to);
    expect(sideOf(parts, 'from')).toBe(from);
    expect(sideOf(parts, 'to')).toBe(to);
  });

  test('no change is all one kept part; nothing to compare is no part', () => {
    expect(textDiff('Same', 'Same')).toEqual([{ text: 'Same', change: 'same' }]);
    expect(textDiff('', '')).toEqual([]);
  });
});
