// How many of an account's edits wait, by what they wait for: sending (pending),
// the person's decision (conflicts) or a fix (failed: refused or blocked). The
// status bar, the tray and the account's queued-edit count all read this one tally.
import type { Database } from 'better-sqlite3';
import { UNSETTLED_SQL, type UNSETTLED_STATES } from './task-overlay';

export interface OutboxCounts {
  /** Queued or being sent. */
  readonly pending: number;
  readonly conflicts: number;
  /** Refused by the service, or blocked (read-only account). */
  readonly failed: number;
  /** Every edit the server has not accepted yet: the sum of the three. */
  readonly unsettled: number;
}

/** What the tally reads of a mirror (db/'s Mirror has it as `mirror.outbox`). */
export interface OutboxCountSource {
  readonly outbox: { counts(): OutboxCounts };
}

const GROUP: Readonly<Record<(typeof UNSETTLED_STATES)[number], keyof Omit<OutboxCounts, 'unsettled'>>> = {
  queued: 'pending',
  in_flight: 'pending',
  conflict: 'conflicts',
  failed: 'failed',
  blocked: 'failed',
};

/** The tally in one query: the outbox's unsettled rows counted per state by SQLite, not read row by row. */
export function outboxCountsOf(db: Database): OutboxCounts {
  const rows = db
    .prepare(`SELECT state, count(*) AS n FROM outbox WHERE state IN ${UNSETTLED_SQL} GROUP BY state`)
    .all() as { state: keyof typeof GROUP; n: number }[];
  const counts = { pending: 0, conflicts: 0, failed: 0, unsettled: 0 };
  for (const { state, n } of rows) {
    counts[GROUP[state]] += n;
    counts.unsettled += n;
  }
  return counts;
}
