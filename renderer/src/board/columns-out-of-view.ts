// Which of the board's columns are scrolled out of its view, to the left and
// to the right: the row scrolls sideways and, where scroll bars are hidden until
// used (macOS, a headless browser), nothing else says that columns are there.
import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';

export interface OutOfView {
  /** Names of the columns mostly out of view on each side, in board order. */
  left: string[];
  right: string[];
}

const NONE: OutOfView = { left: [], right: [] };

/**
 * A column counts as out of view on a side when any of it is past that edge of the scrolling box
 * (a pixel of slack for rounding): a column cut in half is as easy to miss as one not shown at all.
 */
export function columnsOutOfView(
  box: { left: number; right: number },
  columns: readonly { name: string; left: number; right: number }[],
): OutOfView {
  const left: string[] = [];
  const right: string[] = [];
  const middle = (box.left + box.right) / 2;
  for (const column of columns) {
    const centre = (column.left + column.right) / 2;
    if (column.left < box.left - 1 && centre < middle) left.push(column.name);
    else if (column.right > box.right + 1 && centre > middle) right.push(column.name);
  }
  return { left, right };
}

function same(a: OutOfView, b: OutOfView): boolean {
  return a.left.join('\u0000') === b.left.join('\u0000') && a.right.join('\u0000') === b.right.join('\u0000');
}

/** Measures the columns (`[data-column-name]` children of `ref`) after each render, scroll and resize. */
export function useColumnsOutOfView(ref: RefObject<HTMLElement | null>): OutOfView {
  const [outOfView, setOutOfView] = useState<OutOfView>(NONE);
  const measure = () => {
    const element = ref.current;
    if (element === null) return;
    const box = element.getBoundingClientRect();
    const columns = [...element.querySelectorAll<HTMLElement>('[data-column-name]')].map((column) => {
      const rect = column.getBoundingClientRect();
      return { name: column.dataset.columnName ?? '', left: rect.left, right: rect.right };
    });
    const next = columnsOutOfView(box, columns);
    setOutOfView((current) => (same(current, next) ? current : next));
  };
  // Columns added, removed, renamed or moved: measured before the paint that shows them.
  useLayoutEffect(measure);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    element.addEventListener('scroll', measure, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resized.disconnect();
    };
    // `measure` reads only the ref; subscribing once per element is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ref]);
  return outOfView;
}
