// How many of an account's edits wait, by what they wait for: sending (pending),
// the person's decision (conflicts) or a fix (failed: refused or blocked). The
// status bar, the tray and the account's queued-edit count all read this one tally.
import type { OutboxState } from './outbox';
import { UNSETTLED_STATES } from './task-overlay';

export interface OutboxCounts {
  /** Queued or being sent. */
  readonly pending: number;
  readonly conflicts: number;
  /** Refused by the service, or blocked (read-only account). */
  readonly failed: number;
  /** Every edit the server has not accepted yet: the sum of the three. */
  readonly unsettled: number;
}

/** What the tally reads of a mirror (db/'s Mirror has it). */
export interface OutboxCountSource {
  outboxOps(states?: readonly OutboxState[]): readonly { readonly state: OutboxState }[];
}

const GROUP: Readonly<Record<OutboxState, keyof Omit<OutboxCounts, 'unsettled'> | null>> = {
  queued: 'pending',
  in_flight: 'pending',
  conflict: 'conflicts',
  failed: 'failed',
  blocked: 'failed',
  done: null,
};

export function outboxCounts(mirror: OutboxCountSource): OutboxCounts {
  const counts = { pending: 0, conflicts: 0, failed: 0, unsettled: 0 };
  for (const op of mirror.outboxOps(UNSETTLED_STATES)) {
    const group = GROUP[op.state];
    if (group === null) continue;
    counts[group] += 1;
    counts.unsettled += 1;
  }
  return counts;
}
