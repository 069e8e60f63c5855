// The task grid's virtualizer settings that depend on nothing but the row
// count, kept as stable functions: TanStack Virtual recomputes the offsets of
// EVERY row whenever `getItemKey` changes identity, and at 100 000 rows that
// loop ran on each render (each scroll frame, each keystroke's answer).
import { ROW_HEIGHT } from './task-row';

/** More than the rows ever drawn at once (a screenful and the overscan), so slot keys never collide. */
export const ROW_SLOTS = 256;

/** Rows drawn beyond either edge of the visible ones. */
export const OVERSCAN_ROWS = 8;

/** Rows keep their element as they scroll by: a slot's DOM is patched with the next task rather than rebuilt. */
const slotKey = (index: number): number => index % ROW_SLOTS;
const rowSize = (): number => ROW_HEIGHT;

export interface GridVirtualizerOptions {
  count: number;
  estimateSize: (index: number) => number;
  overscan: number;
  getItemKey: (index: number) => number;
  useFlushSync: boolean;
}

/** The options of a grid of `count` rows: the same functions on every call. */
export function gridVirtualizerOptions(count: number): GridVirtualizerOptions {
  return {
    count,
    estimateSize: rowSize,
    overscan: OVERSCAN_ROWS,
    getItemKey: slotKey,
    // Scrolling re-renders in React's scheduler rather than inside the scroll event: no frame waits on it.
    useFlushSync: false,
  };
}
