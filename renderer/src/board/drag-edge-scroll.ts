// While a card or a column is dragged, the board scrolls sideways when the
// pointer is held near its left or right edge, so a column scrolled out of view
// can be reached in the same drag: Chromium's native drag scrolls an inner
// scrolling box only in a sliver at its very edge, if at all.
import { type RefObject, useEffect } from 'react';

/** How near an edge (px) the pointer scrolls the board. */
const EDGE_BAND = 56;
/** How far the board scrolls per frame at most, with the pointer at the very edge. */
const MAX_STEP = 24;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * How far to scroll the board this frame for the pointer at (x, y): negative towards the left, faster
 * nearer the edge, 0 with the pointer outside the board or away from its edges.
 */
export function edgeScrollStep(pointer: { x: number; y: number }, box: Box): number {
  if (pointer.x < box.left || pointer.x > box.right || pointer.y < box.top || pointer.y > box.bottom)
    return 0;
  // A narrow board keeps a middle where the pointer drops without scrolling.
  const band = Math.min(EDGE_BAND, (box.right - box.left) / 4);
  if (band <= 0) return 0;
  const speed = (depth: number) => Math.ceil((MAX_STEP * Math.min(depth, band)) / band);
  if (pointer.x < box.left + band) return -speed(box.left + band - pointer.x);
  if (pointer.x > box.right - band) return speed(pointer.x - (box.right - band));
  return 0;
}

/**
 * Scrolls `ref`'s element while `dragging`, each frame, by `edgeScrollStep` of where the drag was last
 * over (a drag held still sends no more events, and the board must go on scrolling).
 */
export function useDragEdgeScroll(ref: RefObject<HTMLElement | null>, dragging: boolean): void {
  useEffect(() => {
    const element = ref.current;
    if (!dragging || element === null) return;
    let pointer: { x: number; y: number } | null = null;
    // Captured on the window: a card's own dragover stops the event before it bubbles to the board.
    const onDragOver = (event: DragEvent) => {
      pointer = { x: event.clientX, y: event.clientY };
    };
    const tick = () => {
      if (pointer !== null) {
        const step = edgeScrollStep(pointer, element.getBoundingClientRect());
        if (step !== 0) element.scrollLeft += step;
      }
      frame = requestAnimationFrame(tick);
    };
    let frame = requestAnimationFrame(tick);
    window.addEventListener('dragover', onDragOver, true);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('dragover', onDragOver, true);
    };
  }, [ref, dragging]);
}
