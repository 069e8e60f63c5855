// The row ids a filter index narrows to, held in JavaScript as a bitmap over
// the row ids and tested in SQL by a function, for a set walk (planner.ts's
// filter-walk): built from the index's entries alone, kept for the next pages
// until a write. SQLite's own `rid IN (SELECT ...)` set was rebuilt by each
// page's statement, ~0.4 µs a member: 9-12 ms of CPU a page for a filter of
// 15 000-23 000 tasks of a million; this one ~0.2 µs a member, once a list.
import type { Database } from 'better-sqlite3';
import type { Narrowing } from './filter-sql';
import type { TaskReads } from './item-rows';

/** The SQL function testing a row id against the set in use (one per connection). */
const FUNCTION = 'mirror_in_row_set';

export class RowSets {
  private bits = new Uint8Array(0);
  private key = '';

  constructor(
    db: Database,
    private readonly reads: TaskReads,
    /** Moves on every task write: the set is built again when it moved. */
    private readonly version: () => string,
  ) {
    // Not deterministic: its answer is the set in use when the statement runs.
    db.function(FUNCTION, { deterministic: false }, (rid: unknown) =>
      typeof rid === 'number' && this.bits[rid] === 1 ? 1 : 0,
    );
  }

  /**
   * Makes the rows `narrowing` selects on `index` the set in use and returns
   * the condition testing a row against it (no parameters): valid until the
   * next call, so the statement must run before another page asks for a set.
   */
  condition(index: string, narrowing: Narrowing): string {
    // A blob parameter (the null key) serializes as its bytes: {"type":"Buffer",...}, unlike any text.
    const key = `${this.version()}\u0000${index}\u0000${narrowing.sql.join(' AND ')}\u0000${JSON.stringify(narrowing.params)}`;
    if (key !== this.key) {
      const rids = this.reads
        .statement(`SELECT t.rid FROM tasks t INDEXED BY ${index} WHERE ${narrowing.sql.join(' AND ')}`)
        .pluck()
        .all(...narrowing.params) as number[];
      const bits = new Uint8Array(this.reads.rowEstimate() + 1);
      for (const rid of rids) bits[rid] = 1;
      this.bits = bits;
      this.key = key;
    }
    return `${FUNCTION}(t.rid)`;
  }
}
