// What a restart to update waits for, summed over every account's mirror: the
// edits not yet accepted that a push may still send (queued or being sent).
import type { OutboxPending } from './update-policy';

/** What the tally reads of a mirror (db/'s Mirror has it). */
export interface OutboxSource {
  readonly outbox: {
    list(states: readonly ('queued' | 'in_flight')[]): readonly { readonly state: string }[];
  };
}

export function outboxPendingOf(mirrors: Iterable<OutboxSource>): OutboxPending {
  let pending = 0;
  let inFlight = 0;
  for (const mirror of mirrors) {
    let ops: readonly { readonly state: string }[];
    try {
      ops = mirror.outbox.list(['queued', 'in_flight']);
    } catch {
      // Closed since it was listed (its account left, or the app is quitting): its edits stay in its file.
      continue;
    }
    for (const op of ops) {
      pending += 1;
      if (op.state === 'in_flight') inFlight += 1;
    }
  }
  return { pending, inFlight };
}
