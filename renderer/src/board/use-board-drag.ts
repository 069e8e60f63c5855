// Drag and drop on the board: what is being dragged, the gap a card or column
// would land in (shown while dragging), and the drop turned into a move. Apart
// from the board because it is pointer handling only; the move itself is
// computed and sent by use-board-moves.ts, as a keyboard move is.
import { type DragEvent, useState } from 'react';
import type { BoardSection } from './use-board-columns';
import type { BoardColumn } from './use-board-moves';

type Dragging = { kind: 'card'; taskId: string } | { kind: 'section'; sectionId: string } | null;
/** Where a card dragged over the board would land: a gap of a column's shown cards (0 = before the first). */
type CardDrop = { sectionId: string; gap: number } | null;

/** The place in the list without the moved item that a gap of the shown list names. */
function gapToIndex(gap: number, movedAt: number): number {
  return movedAt !== -1 && movedAt < gap ? gap - 1 : gap;
}

export function useBoardDrag({
  readOnly,
  sections,
  columns,
  moveCard,
  moveSection,
}: {
  readOnly: boolean;
  sections: readonly BoardSection[];
  columns: readonly BoardColumn[];
  moveCard: (taskId: string, toSectionId: string, index: number) => Promise<void>;
  moveSection: (sectionId: string, index: number) => Promise<void>;
}) {
  const [dragging, setDragging] = useState<Dragging>(null);
  const [cardDrop, setCardDrop] = useState<CardDrop>(null);
  const [sectionDrop, setSectionDrop] = useState<number | null>(null);

  const endDrag = () => {
    setDragging(null);
    setCardDrop(null);
    setSectionDrop(null);
  };

  /** The drag left a column for outside it: it marks no gap there any more. */
  const onColumnDragLeave = (event: DragEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
      setCardDrop(null);
      setSectionDrop(null);
    }
  };

  const onColumnDragOver = (event: DragEvent<HTMLElement>, columnIndex: number, cardCount: number) => {
    if (readOnly || dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (dragging.kind === 'card') {
      const sectionId = columns[columnIndex]?.section.section_id ?? '';
      setCardDrop((current) =>
        current?.sectionId === sectionId && current.gap === cardCount
          ? current
          : { sectionId, gap: cardCount },
      );
      return;
    }
    const rect = event.currentTarget.getBoundingClientRect();
    setSectionDrop(columnIndex + (event.clientX > rect.left + rect.width / 2 ? 1 : 0));
  };

  const onCardDragOver = (event: DragEvent<HTMLLIElement>, sectionId: string, cardIndex: number) => {
    // A section dragged over a card is over its column: let the column take it.
    if (readOnly || dragging?.kind !== 'card') return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'move';
    const rect = event.currentTarget.getBoundingClientRect();
    const gap = cardIndex + (event.clientY > rect.top + rect.height / 2 ? 1 : 0);
    setCardDrop((current) =>
      current?.sectionId === sectionId && current.gap === gap ? current : { sectionId, gap },
    );
  };

  const onDrop = (event: DragEvent, sectionId: string) => {
    event.preventDefault();
    const drag = dragging;
    const cardGap = cardDrop;
    const sectionGap = sectionDrop;
    endDrag();
    if (readOnly || drag === null) return;
    if (drag.kind === 'card') {
      const column = columns.find((c) => c.section.section_id === sectionId);
      if (column === undefined) return;
      const gap = cardGap?.sectionId === sectionId ? cardGap.gap : column.cards.length;
      const movedAt = column.cards.findIndex((card) => card.task_id === drag.taskId);
      void moveCard(drag.taskId, sectionId, gapToIndex(gap, movedAt));
    } else if (sectionGap !== null) {
      const movedAt = sections.findIndex((s) => s.section_id === drag.sectionId);
      void moveSection(drag.sectionId, gapToIndex(sectionGap, movedAt));
    }
  };

  /** The marks a column carries while something is dragged: a card's target, a column's gap. */
  const columnMarks = (sectionId: string, index: number): string =>
    [
      dragging?.kind === 'card' && cardDrop?.sectionId === sectionId ? ' is-drop-target' : '',
      sectionDrop === index ? ' drop-section-before' : '',
      sectionDrop === sections.length && index === sections.length - 1 ? ' drop-section-after' : '',
    ].join('');

  /** Where a card dragged over `sectionId` would land relative to the card at `cardIndex` of `cardCount`. */
  const cardMark = (sectionId: string, cardIndex: number, cardCount: number): 'before' | 'after' | null =>
    cardDrop?.sectionId !== sectionId
      ? null
      : cardDrop.gap === cardIndex
        ? 'before'
        : cardDrop.gap === cardCount && cardIndex === cardCount - 1
          ? 'after'
          : null;

  return {
    dragging: dragging !== null,
    dragCard: (taskId: string) => setDragging({ kind: 'card', taskId }),
    dragSection: (sectionId: string) => setDragging({ kind: 'section', sectionId }),
    endDrag,
    onColumnDragOver,
    onColumnDragLeave,
    onCardDragOver,
    onDrop,
    columnMarks,
    cardMark,
  };
}
