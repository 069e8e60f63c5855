// The task grid's virtualizer settings that depend on nothing but the row
// count, kept as stable functions: TanStack Virtual recomputes the offsets of
// EVERY row whenever `getItemKey` changes identity, and at 100 000 rows that
// loop ran on each render (each scroll frame, each keystroke's answer).
import { ROW_HEIGHT } from './task-row';

/**
 * Rows drawn beyond either edge of the visible ones: enough for a wheel step
 * (about 100 px) before the scheduled re-render draws the new ones. Each row
 * more is laid out and painted on every first paint, keystroke and scroll frame.
 */
export const OVERSCAN_ROWS = 4;

const rowIndex = (index: number): number => index;
const rowSize = (): number => ROW_HEIGHT;

export interface GridVirtualizerOptions {
  count: number;
  initialRect: { width: number; height: number };
  estimateSize: (index: number) => number;
  overscan: number;
  getItemKey: (index: number) => number;
  useFlushSync: boolean;
}

/** The page's size (none outside a page, as in a Node test). */
function windowRect(): { width: number; height: number } {
  return typeof window === 'undefined'
    ? { width: 0, height: 0 }
    : { width: window.innerWidth, height: window.innerHeight };
}

/** The options of a grid of `count` rows: the same functions on every call. */
export function gridVirtualizerOptions(count: number): GridVirtualizerOptions {
  return {
    count,
    // Until the grid is measured (in a layout effect, after the first render): the window, which
    // the grid fits in, so the first render already draws every visible row, not the overscan alone.
    initialRect: windowRect(),
    estimateSize: rowSize,
    overscan: OVERSCAN_ROWS,
    getItemKey: rowIndex,
    // Scrolling re-renders in React's scheduler rather than inside the scroll event: no frame waits on it.
    useFlushSync: false,
  };
}

/**
 * React keys for the rows drawn, so that scrolling patches row elements
 * rather than replacing them: a row keeps its key while it stays drawn, and a
 * row coming into view takes a key one leaving gave up (the smallest free).
 * Keys stay below the number of rows drawn at once. A jump (a far scroll, the
 * bench's 100 rows a frame) reuses every element, where keys derived from the
 * index would unmount and rebuild them all.
 */
export class RowSlots {
  private slotOf = new Map<number, number>();

  /** The keys of rows `indexes` (distinct); the same answer when asked again with the same rows. */
  keys(indexes: readonly number[]): number[] {
    const next = new Map<number, number>();
    const taken = new Set<number>();
    for (const index of indexes) {
      const slot = this.slotOf.get(index);
      if (slot !== undefined) {
        next.set(index, slot);
        taken.add(slot);
      }
    }
    let free = 0;
    const keys = indexes.map((index) => {
      const kept = next.get(index);
      if (kept !== undefined) return kept;
      while (taken.has(free)) free++;
      taken.add(free);
      next.set(index, free);
      return free;
    });
    this.slotOf = next;
    return keys;
  }
}
