// How many of an account's edits wait, by what they wait for: sending (pending),
// the person's decision (conflicts), a fix (failed: refused) or an account that
// may write (blocked). The status bar, the tray and the account's queued-edit
// count all read this one tally, grouped as protocol/change-state-words groups
// the inspector's list, so that every view's totals agree (issue 21).
import type { Database } from 'better-sqlite3';
import { type ChangeCounts, countChanges } from '../../protocol/change-state-words';
import { UNSETTLED_SQL, type UNSETTLED_STATES } from '../tasks/task-overlay';

export type OutboxCounts = ChangeCounts;

/** What the tally reads of a mirror (db/'s Mirror has it as `mirror.outbox`). */
export interface OutboxCountSource {
  readonly outbox: { counts(): OutboxCounts };
}

/** The tally in one query: the outbox's unsettled rows counted per state by SQLite, not read row by row. */
export function outboxCountsOf(db: Database): OutboxCounts {
  const rows = db
    .prepare(`SELECT state, count(*) AS n FROM outbox WHERE state IN ${UNSETTLED_SQL} GROUP BY state`)
    .all() as { state: (typeof UNSETTLED_STATES)[number]; n: number }[];
  return countChanges(rows);
}
