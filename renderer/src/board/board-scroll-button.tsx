// The board's "‹ 3 more" buttons: where columns are scrolled out of view
// (columns-out-of-view.ts), a button on that side names them and scrolls to
// them. Apart from the board because it is a control of its own, drawn the
// same on either side.

/** Scrolls the board by most of its width, keeping a column's edge in view as the place one came from. */
export function scrollBoard(board: HTMLElement | null, direction: -1 | 1): void {
  if (board === null) return;
  board.scrollBy({ left: direction * Math.max(board.clientWidth - 80, 120) });
}

/** "‹ 3 more": columns out of view on one side, named in its tooltip; a press scrolls to them. */
export function ScrollButton({
  side,
  names,
  onClick,
}: {
  side: 'left' | 'right';
  names: readonly string[];
  onClick: () => void;
}) {
  if (names.length === 0) return null;
  const count = names.length;
  return (
    <button
      type="button"
      className={`button board-scroll ${side}`}
      aria-label={`Show ${count} ${count === 1 ? 'section' : 'sections'} to the ${side}`}
      title={names.join(', ')}
      onClick={onClick}
    >
      {side === 'left' ? `‹ ${count} more` : `${count} more ›`}
    </button>
  );
}
