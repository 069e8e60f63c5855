import { describe, expect, test } from 'vitest';
import { columnsOutOfView } from './columns-out-of-view';

const box = { left: 100, right: 500 };
const column = (name: string, left: number) => ({ name, left, right: left + 200 });

describe('columnsOutOfView', () => {
  test.each([
    ['all inside', [column('A', 110), column('B', 300)], [], []],
    [
      'past the right edge by more than half',
      [column('A', 110), column('B', 300), column('C', 410)],
      [],
      ['C'],
    ],
    ['half or more still inside is in view', [column('A', 0), column('B', 400)], [], []],
    [
      'scrolled: some left, some right',
      [column('A', -300), column('B', -101), column('C', 200), column('D', 650)],
      ['A', 'B'],
      ['D'],
    ],
    ['no columns', [], [], []],
  ])('%s', (_name, columns, left, right) => {
    expect(columnsOutOfView(box, columns)).toEqual({ left, right });
  });
});
