// The first sync's progress (how many of which collection), shown in the status
// bar and in the sync center's account panel: apart so neither imports the other.
import type { SyncStatus } from '../../../ipc/screen-schemas';
import { valueWord } from '../vocabulary/task-words';
import './progress-bars.css';

export function FirstSyncProgress({ progress }: { progress: NonNullable<SyncStatus['first_sync']> }) {
  const what = valueWord(progress.collection).toLowerCase();
  const total = progress.estimated_total;
  return (
    <span className="first-sync" data-testid="first-sync">
      <span>
        First sync: {what} {progress.items_done.toLocaleString()}
        {total !== null ? ` of ${total.toLocaleString()}` : ''}
      </span>
      <progress
        aria-label="First sync progress"
        {...(total !== null && total > 0 ? { max: total, value: Math.min(progress.items_done, total) } : {})}
      />
    </span>
  );
}
