// The status bar's way into the pending-changes inspector, shown while any
// change waits (queued, in conflict, refused or blocked).
import type { SyncStatus } from '../../../ipc/screen-schemas';
import { statusCounts } from '../vocabulary/status-counts';
import { openPendingChanges } from '../store/trust-store';

export function PendingChangesButton({ status }: { status: SyncStatus }) {
  if (statusCounts(status).unsettled === 0) return null;
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
