import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
} from '@tanstack/react-virtual';
import { describe, expect, test } from 'vitest';
import { gridVirtualizerOptions, ROW_SLOTS } from './grid-virtualizer';
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

  test('rows share a slot key only when they are ROW_SLOTS apart', () => {
    const { getItemKey } = gridVirtualizerOptions(1000);
    expect(getItemKey(3)).toBe(getItemKey(3 + ROW_SLOTS));
    expect(getItemKey(3)).not.toBe(getItemKey(4));
  });
});
