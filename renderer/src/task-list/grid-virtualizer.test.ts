import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from '@tanstack/react-virtual';
import { describe, expect, test } from 'vitest';
import { gridVirtualizerOptions, RowSlots } from './grid-virtualizer';
import { ROW_HEIGHT } from './task-row';

/** A virtualizer over `count` rows with no element, as the grid's first render has it. */
function virtualizer(count: number): Virtualizer<HTMLDivElement, HTMLDivElement> {
  return new Virtualizer<HTMLDivElement, HTMLDivElement>({
    ...gridVirtualizerOptions(count),
    getScrollElement: () => null,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
  });
}

describe('the task grid virtualizer', () => {
  test('a re-render with the same row count keeps the offsets of 100 000 rows instead of walking them again', () => {
    const grid = virtualizer(100_000);
    expect(grid.getTotalSize()).toBe(100_000 * ROW_HEIGHT);
    const offsets = grid.measurementsCache;
    // What each render of TaskGrid does: the options built again, the count unchanged.
    grid.setOptions({ ...grid.options, ...gridVirtualizerOptions(100_000) });
    expect(grid.getTotalSize()).toBe(100_000 * ROW_HEIGHT);
    expect(grid.measurementsCache).toBe(offsets);
  });

  test('a new row count is laid out again, every row one row height below the previous', () => {
    const grid = virtualizer(100_000);
    grid.getTotalSize();
    const offsets = grid.measurementsCache;
    grid.setOptions({ ...grid.options, ...gridVirtualizerOptions(41) });
    expect(grid.getTotalSize()).toBe(41 * ROW_HEIGHT);
    const fewer = grid.measurementsCache;
    expect(fewer).not.toBe(offsets);
    expect(fewer).toHaveLength(41);
    expect(fewer[40]).toMatchObject({ index: 40, start: 40 * ROW_HEIGHT, size: ROW_HEIGHT, key: 40 });
  });
});

describe('the task grid row keys', () => {
  const range = (first: number, last: number) =>
    Array.from({ length: last - first + 1 }, (_, i) => first + i);

  test('a row keeps its key while it stays drawn; the row scrolled into view takes the one that left', () => {
    const slots = new RowSlots();
    expect(slots.keys(range(0, 4))).toEqual([0, 1, 2, 3, 4]);
    expect(slots.keys(range(1, 5))).toEqual([1, 2, 3, 4, 0]);
    expect(slots.keys(range(1, 5))).toEqual([1, 2, 3, 4, 0]);
  });

  test('a jump far down reuses every key instead of making new ones', () => {
    const slots = new RowSlots();
    slots.keys(range(0, 29));
    const far = slots.keys(range(3600, 3629));
    expect(new Set(far)).toEqual(new Set(range(0, 29)));
  });

  test('keys stay distinct as the window grows and shrinks', () => {
    const slots = new RowSlots();
    slots.keys(range(10, 19));
    const grown = slots.keys(range(5, 30));
    expect(new Set(grown).size).toBe(grown.length);
    expect(Math.max(...grown)).toBe(grown.length - 1);
    const shrunk = slots.keys(range(28, 33));
    expect(new Set(shrunk).size).toBe(shrunk.length);
  });
});
