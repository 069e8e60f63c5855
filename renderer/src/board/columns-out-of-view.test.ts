import { describe, expect, test } from 'vitest';
import { columnsOutOfView } from './columns-out-of-view';

const box = { left: 100, right: 500 };
const column = (name: string, left: number) => ({ name, left, right: left + 200 });

describe('columnsOutOfView', () => {
  test.each([
    ['all inside', [column('A', 110), column('B', 300)], [], []],
    ['cut by the right edge', [column('A', 110), column('B', 310)], [], ['B']],
    ['a pixel past an edge is rounding', [column('A', 99), column('B', 301)], [], []],
    ['cut by the left edge', [column('A', 50), column('B', 260)], ['A'], []],
    [
      'scrolled: some each side',
      [column('A', -300), column('B', -50), column('C', 200), column('D', 650)],
      ['A', 'B'],
      ['D'],
    ],
    ['no columns', [], [], []],
  ])('%s', (_name, columns, left, right) => {
    expect(columnsOutOfView(box, columns)).toEqual({ left, right });
  });
});
