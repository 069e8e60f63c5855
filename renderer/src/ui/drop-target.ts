// A place a drag may be dropped on (a task for files, a sprint for a task, a
// pin for another pin): it says which drags it takes, shows it would take one
// while the drag is over it, and hears the drop. The highlight and the
// counting of crossed children live here once, for every such place.
import { type DragEvent, useRef, useState } from 'react';

export interface DropTarget<E extends HTMLElement> {
  /** A drag the target takes is over it: it shows it would take it. */
  readonly over: boolean;
  /** Handlers for the target. */
  readonly handlers: {
    onDragEnter: (event: DragEvent<E>) => void;
    onDragOver: (event: DragEvent<E>) => void;
    onDragLeave: (event: DragEvent<E>) => void;
    onDrop: (event: DragEvent<E>) => void;
  };
}

/** Handlers for a drag the target does not take (a task moved on a board, over a card that takes files). */
export interface OtherDrags<E extends HTMLElement> {
  onDragOver?: (event: DragEvent<E>) => void;
  onDrop?: (event: DragEvent<E>) => void;
}

/**
 * A drop target. `takes` says from a drag's types (its data is readable only
 * on drop) whether the target would take it, and so whether it is allowed
 * (`effect` shown) and highlighted; `onDrop` gets a drop it takes, its default
 * already prevented; `otherwise` gets the drags it does not take.
 */
export function useDropTarget<E extends HTMLElement = HTMLElement>(
  takes: (event: DragEvent<E>) => boolean,
  effect: 'copy' | 'move',
  onDrop: (event: DragEvent<E>) => void,
  otherwise?: OtherDrags<E>,
): DropTarget<E> {
  const [over, setOver] = useState(false);
  // dragenter and dragleave fire for each child crossed: the target is left when the count is back to 0.
  const depth = useRef(0);

  return {
    over,
    handlers: {
      onDragEnter: (event) => {
        if (!takes(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = effect;
        depth.current += 1;
        setOver(true);
      },
      onDragOver: (event) => {
        if (!takes(event)) {
          otherwise?.onDragOver?.(event);
          return;
        }
        event.preventDefault();
        event.dataTransfer.dropEffect = effect;
        setOver(true);
      },
      onDragLeave: (event) => {
        if (!takes(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      },
      onDrop: (event) => {
        if (!takes(event)) {
          otherwise?.onDrop?.(event);
          return;
        }
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        onDrop(event);
      },
    },
  };
}
