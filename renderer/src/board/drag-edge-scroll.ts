// While a card or a column is dragged, the board scrolls sideways when the
// pointer is held near its left or right edge, so a column scrolled out of view
// can be reached in the same drag: Chromium's native drag scrolls an inner
// scrolling box only in a sliver at its very edge, if at all.
import { type RefObject, useEffect } from 'react';

/** How near an edge (px) the pointer scrolls the board. */
const EDGE_BAND = 56;
/** How fast the board scrolls (px a second) with the pointer at the very edge; slower further in. */
const MAX_SPEED = 1000;
/** The longest frame counted: after a stall the board goes on from where it was, it does not leap. */
const LONGEST_FRAME_MS = 100;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * How fast to scroll the board (px a second) for the pointer at (x, y): negative towards the left,
 * faster nearer the edge, 0 with the pointer outside the board or away from its edges.
 */
export function edgeScrollSpeed(pointer: { x: number; y: number }, box: Box): number {
  if (pointer.x < box.left || pointer.x > box.right || pointer.y < box.top || pointer.y > box.bottom)
    return 0;
  // A narrow board keeps a middle where the pointer drops without scrolling.
  const band = Math.min(EDGE_BAND, (box.right - box.left) / 4);
  if (band <= 0) return 0;
  const speed = (depth: number) => (MAX_SPEED * Math.min(depth, band)) / band;
  if (pointer.x < box.left + band) return -speed(box.left + band - pointer.x);
  if (pointer.x > box.right - band) return speed(pointer.x - (box.right - band));
  return 0;
}

/**
 * Scrolls `ref`'s element while `dragging`, each frame, at `edgeScrollSpeed` of where the drag was last
 * over (a drag held still sends no more events, and the board must go on scrolling). Counted in time,
 * not frames: a busy machine draws fewer frames, and the board keeps its pace.
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
    let last: number | null = null;
    /** Part of a pixel owed from earlier frames (scrollLeft keeps whole pixels). */
    let owed = 0;
    const tick = (now: number) => {
      const speed = pointer === null ? 0 : edgeScrollSpeed(pointer, element.getBoundingClientRect());
      if (speed === 0 || last === null) owed = 0;
      else {
        owed += (speed * Math.min(now - last, LONGEST_FRAME_MS)) / 1000;
        const whole = Math.trunc(owed);
        if (whole !== 0) {
          element.scrollLeft += whole;
          owed -= whole;
        }
      }
      last = now;
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
