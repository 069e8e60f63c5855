// The sync status's counts as the one tally of waiting changes
// (protocol/change-state-words), so that the status bar, its "Review changes"
// and the sign-out question count what the inspector lists.
import type { SyncStatus } from '../../../ipc/screen-schemas';
import { type ChangeCounts, countChanges } from '../../../protocol/change-state-words';

export function statusCounts(status: SyncStatus): ChangeCounts {
  return countChanges([
    { state: 'queued', n: status.pending_count },
    { state: 'conflict', n: status.conflict_count },
    { state: 'failed', n: status.failed_count },
    { state: 'blocked', n: status.blocked_count },
  ]);
}
