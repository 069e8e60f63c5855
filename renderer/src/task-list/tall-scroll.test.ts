import { elementScroll, observeElementOffset, Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, test } from 'vitest';
import { gridVirtualizerOptions } from './grid-virtualizer';
import { MAX_SPACER_HEIGHT, spacerCap } from './spacer-cap';
import {
  blockStart,
  drawnAt,
  rowsOffset,
  ScaledScrollElement,
  type ScrollGeometry,
  scrollTopFor,
  spacerHeight,
} from './tall-scroll';
import { ROW_HEIGHT } from './task-row';

const VIEWPORT = 640;
const million: ScrollGeometry = {
  content: 1_000_000 * ROW_HEIGHT,
  viewport: VIEWPORT,
  cap: MAX_SPACER_HEIGHT,
};
const hundredThousand: ScrollGeometry = { ...million, content: 100_000 * ROW_HEIGHT };

describe('the scroll of a list past the cap', () => {
  test('a million rows stop the spacer at the cap; a hundred thousand keep their own height', () => {
    expect(spacerHeight(million)).toBe(MAX_SPACER_HEIGHT);
    expect(spacerHeight(hundredThousand)).toBe(100_000 * ROW_HEIGHT);
  });

  test('the top of the scroll is the first row, its end the last rows, its middle the middle', () => {
    const scrollEnd = MAX_SPACER_HEIGHT - VIEWPORT;
    const rowsEnd = million.content - VIEWPORT;
    expect(rowsOffset(0, million)).toBe(0);
    expect(rowsOffset(scrollEnd, million)).toBe(rowsEnd);
    expect(rowsOffset(scrollEnd / 2, million)).toBe(rowsEnd / 2);
    expect(scrollTopFor(0, million)).toBe(0);
    expect(scrollTopFor(rowsEnd, million)).toBe(scrollEnd);
    expect(scrollTopFor(rowsEnd / 2, million)).toBe(scrollEnd / 2);
    // At the end, the last row's bottom is the viewport's.
    const lastRow = (1_000_000 - 1) * ROW_HEIGHT;
    expect(drawnAt(lastRow, rowsEnd, million) + ROW_HEIGHT).toBe(scrollEnd + VIEWPORT);
  });

  test('a scrollTop and the offset it shows go there and back, and further down is further on', () => {
    let previous = -1;
    for (let scrollTop = 0; scrollTop <= MAX_SPACER_HEIGHT - VIEWPORT; scrollTop += 999_983) {
      const offset = rowsOffset(scrollTop, million);
      expect(offset).toBeGreaterThan(previous);
      expect(scrollTopFor(offset, million)).toBeCloseTo(scrollTop, 6);
      previous = offset;
    }
  });

  test('rows around any position are drawn a row height apart, the one at the offset at the viewport top', () => {
    const scrollTop = 7_654_321;
    const offset = rowsOffset(scrollTop, million);
    const first = Math.floor(offset / ROW_HEIGHT) * ROW_HEIGHT;
    expect(drawnAt(first, offset, million) - scrollTop).toBeCloseTo(first - offset, 6);
    expect(drawnAt(first + ROW_HEIGHT, offset, million) - drawnAt(first, offset, million)).toBeCloseTo(
      ROW_HEIGHT,
      6,
    );
  });

  test('under the cap nothing is scaled', () => {
    for (const at of [0, 1, 123_456, hundredThousand.content - VIEWPORT]) {
      expect(rowsOffset(at, hundredThousand)).toBe(at);
      expect(scrollTopFor(at, hundredThousand)).toBe(at);
      expect(drawnAt(at, 5_000, hundredThousand)).toBe(at);
    }
  });

  test("a block's rows are drawn from its start, which changes every thousand rows", () => {
    expect(blockStart(0, ROW_HEIGHT)).toBe(0);
    expect(blockStart(999, ROW_HEIGHT)).toBe(0);
    expect(blockStart(1_000, ROW_HEIGHT)).toBe(1_000 * ROW_HEIGHT);
    expect(blockStart(999_999, ROW_HEIGHT)).toBe(999_000 * ROW_HEIGHT);
  });

  test('the page may lower the cap, never raise it', () => {
    expect(spacerCap('')).toBe(MAX_SPACER_HEIGHT);
    expect(spacerCap('?grid-max-height=36000')).toBe(36_000);
    expect(spacerCap('?grid-max-height=99999999999')).toBe(MAX_SPACER_HEIGHT);
    expect(spacerCap('?grid-max-height=nope')).toBe(MAX_SPACER_HEIGHT);
    expect(spacerCap('?grid-max-height=-5')).toBe(MAX_SPACER_HEIGHT);
  });
});

/** A grid body's scroll as a browser keeps it: whole pixels, clamped to the spacer. */
class FakeBody {
  scrollTop = 0;
  readonly clientHeight = VIEWPORT;
  readonly clientWidth = 800;
  readonly scrollLeft = 0;
  readonly ownerDocument = { defaultView: null };
  constructor(readonly scrollHeight: number) {}
  scrollTo({ top = 0 }: ScrollToOptions): void {
    this.scrollTop = Math.max(0, Math.min(Math.round(top), this.scrollHeight - this.clientHeight));
  }
  addEventListener(): void {}
  removeEventListener(): void {}
}

/** The grid's virtualizer over a million rows, scrolling a body scaled past the cap. */
function millionGrid(): { grid: Virtualizer<HTMLDivElement, HTMLDivElement>; body: FakeBody } {
  const body = new FakeBody(MAX_SPACER_HEIGHT);
  const scaled = new ScaledScrollElement(body as unknown as HTMLElement, MAX_SPACER_HEIGHT);
  scaled.setContent(1_000_000 * ROW_HEIGHT);
  const grid = new Virtualizer<HTMLDivElement, HTMLDivElement>({
    ...gridVirtualizerOptions(1_000_000),
    initialRect: { width: 800, height: VIEWPORT },
    getScrollElement: () => scaled as unknown as HTMLDivElement,
    scrollToFn: elementScroll,
    observeElementRect: () => undefined,
    observeElementOffset,
  });
  grid._willUpdate();
  return { grid, body };
}

describe('the task grid virtualizer over a scaled body', () => {
  test('the last row (Ctrl+End) is scrolled to the end of the capped spacer, not clamped short of it', () => {
    const { grid, body } = millionGrid();
    grid.scrollToIndex(999_999, { align: 'auto' });
    expect(body.scrollTop).toBe(MAX_SPACER_HEIGHT - VIEWPORT);
  });

  test('a row in the middle is scrolled to the middle of the spacer', () => {
    const { grid, body } = millionGrid();
    grid.scrollToIndex(500_000, { align: 'start' });
    const expected = scrollTopFor(500_000 * ROW_HEIGHT, {
      content: 1_000_000 * ROW_HEIGHT,
      viewport: VIEWPORT,
      cap: MAX_SPACER_HEIGHT,
    });
    expect(Math.abs(body.scrollTop - expected)).toBeLessThanOrEqual(0.5);
  });
});
