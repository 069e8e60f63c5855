// The board's moves shown before a load of the mirror holds them. A move is
// saved in the mirror a moment after it is made, and a load answered meanwhile
// still has the card or column where it was: the next move, computed from that
// place, would undo the one before (three quick Alt+→ moved a section one
// place). What the board shows, and every move computes from, is the loaded
// state with each move not yet loaded on top.

/** One item's waiting moves: `patch` all of them merged, `last` the latest one's. */
interface WaitingMove<P> {
  patch: P;
  last: P;
  /** The number of loads asked for when the latest move's edit was answered; null while it is not. */
  settledAt: number | null;
}

export class WaitingMoves<P extends object> {
  private readonly moves = new Map<string, WaitingMove<P>>();

  /** A move of `id` made now: shown over the loaded item (with its earlier waiting ones) until settled and loaded. */
  add(id: string, patch: P): void {
    // A card moved across sections then within one stays in its new section until both are loaded.
    const before = this.moves.get(id)?.patch;
    this.moves.set(id, { patch: { ...before, ...patch }, last: patch, settledAt: null });
  }

  /**
   * The edit carrying `patch` was answered (saved or refused) when `asked`
   * loads had been asked for: a load asked for after that reads the mirror
   * with it. An earlier move's answer waits for the later move's own.
   */
  settle(id: string, patch: P, asked: number): void {
    const move = this.moves.get(id);
    if (move?.last === patch && move.settledAt === null) move.settledAt = asked;
  }

  /** Forgets the moves that the load numbered `load` (counted as `settle`'s `asked`) holds. */
  loaded(load: number): void {
    for (const [id, move] of this.moves) {
      if (move.settledAt !== null && load > move.settledAt) this.moves.delete(id);
    }
  }

  /**
   * `item` with the waiting moves of `id` on top, unless the load numbered
   * `load` (when given) holds them; `mark` makes a moved one say it is not sent yet.
   */
  over<T extends object>(id: string, item: T, mark: (item: T) => T, load?: number): T {
    const move = this.moves.get(id);
    if (move === undefined) return item;
    if (load !== undefined && move.settledAt !== null && load > move.settledAt) return item;
    return { ...mark(item), ...move.patch };
  }
}
