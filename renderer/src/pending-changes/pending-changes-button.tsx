// The status bar's way into the pending-changes inspector, shown while any
// change waits (queued, in conflict, refused or blocked).
import type { SyncStatus } from '../../../main/ipc/screen-schemas';
import { openPendingChanges } from './trust-store';

export function PendingChangesButton({ status }: { status: SyncStatus }) {
  if (status.pending_count === 0 && status.conflict_count === 0 && status.failed_count === 0) return null;
  return (
    <button
      type="button"
      className="link-button"
      onClick={openPendingChanges}
      aria-haspopup="dialog"
      data-testid="review-changes"
    >
      Review changes
    </button>
  );
}
