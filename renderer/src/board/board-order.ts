// Where a card or a column lands on the board, as the `position` the service
// orders by (gaps.md: a task's "order inside its section", a section's order
// in its scope): a number between its new neighbours, so one move is one edit.
// When the neighbours leave no room (equal, out of order, or unnumbered), the
// whole list is numbered afresh and every item whose number changes is edited.

/** Gap between items numbered afresh (the service's own step for new sections and tasks). */
export const POSITION_STEP = 1024;

export interface Placed {
  id: string;
  position: number | null;
}

/** The edits that put `id` at `index` of `list` (`list` in board order, `id` in it or not); empty when it is there already. */
export function placeAt(
  list: readonly Placed[],
  id: string,
  index: number,
): { id: string; position: number }[] {
  const others = list.filter((item) => item.id !== id);
  const at = Math.max(0, Math.min(index, others.length));
  const current = list.find((item) => item.id === id);
  const before = others[at - 1];
  const after = others[at];
  // Already there: same neighbours, and its own number still between them.
  if (current !== undefined && current.position !== null && list.indexOf(current) === at) {
    const fits =
      (before === undefined || (before.position !== null && before.position < current.position)) &&
      (after === undefined || (after.position !== null && current.position < after.position));
    if (fits) return [];
  }
  const between = positionBetween(before?.position, after?.position);
  if (between !== null) return [{ id, position: between }];
  // No room: number the list afresh in its new order, editing only what changes.
  const order = [...others.slice(0, at), { id, position: current?.position ?? null }, ...others.slice(at)];
  return order
    .map((item, n) => ({ id: item.id, position: (n + 1) * POSITION_STEP, was: item.position }))
    .filter((item) => item.id === id || item.was !== item.position)
    .map(({ id: itemId, position }) => ({ id: itemId, position }));
}

/**
 * A number strictly between `before` and `after` (undefined: no neighbour on
 * that side), or null when there is none to be had: a neighbour without a
 * number, or two too close for a midpoint.
 */
function positionBetween(before: number | null | undefined, after: number | null | undefined): number | null {
  if (before === null || after === null) return null;
  if (before === undefined) return after === undefined ? POSITION_STEP : after - POSITION_STEP;
  if (after === undefined) return before + POSITION_STEP;
  const middle = before + (after - before) / 2;
  return middle > before && middle < after ? middle : null;
}

/** Board order: numbered first by number, unnumbered after them; ties keep the order given (the mirror's: title). */
export function inBoardOrder<T extends { position: number | null }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => {
    if (a.position === null || b.position === null)
      return (a.position === null ? 1 : 0) - (b.position === null ? 1 : 0);
    return a.position - b.position;
  });
}
