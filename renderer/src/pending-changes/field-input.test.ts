import { describe, expect, test } from 'vitest';
import { inputTextOf, valueOfInput } from './field-input';

describe('a field typed in an input', () => {
  test.each([
    ['tags', ' a, b ,, c', ['a', 'b', 'c']],
    ['tags', '', []],
    ['assignee', '  bob ', 'bob'],
    ['assignee', '', null],
    ['title', '', ''],
    ['description', '  kept as typed ', '  kept as typed '],
    ['description', '', null],
    ['position', '12.5', 12.5],
    ['due_date', '2026-04-01', '2026-04-01'],
    ['content', '  two\n lines ', '  two\n lines '],
    ['content', '', ''],
    ['name', ' Next week ', 'Next week'],
    ['name', '', ''],
    // A refused sprint create is corrected here with its length: sent as the whole number the service takes.
    ['duration_weeks', ' 3 ', 3],
    ['duration_weeks', '', null],
  ])('%s typed as %j is %j', (field, text, value) => {
    expect(valueOfInput(field, text)).toEqual(value);
  });

  test('values are shown as the text that gives them back', () => {
    for (const [field, value] of [
      ['tags', ['a', 'b']],
      ['assignee', 'bob'],
      ['position', 3],
      ['duration_weeks', 2],
      ['assignee', null],
    ] as const) {
      expect(valueOfInput(field, inputTextOf(value))).toEqual(value);
    }
  });
});
