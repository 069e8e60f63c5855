// The Sync screen's account panel: each account's tray line with its problem,
// session end and each collection's freshness from its log, in the IPC shape
// (ipc/visibility-schemas.ts).
import type { TrayAccount } from '../../services/notify/tray-model';
import type { SyncAccountView } from '../../ipc/visibility-schemas';
import { syncProblemView } from '../ipc/sync-status-board';
import type { WatchedAccount } from './watched-account';

export function accountPanelEntry(
  watched: WatchedAccount,
  line: TrayAccount,
  current: boolean,
): SyncAccountView {
  const { runtime, sync } = watched;
  return {
    account_id: line.accountId,
    label: line.label,
    current,
    state: line.state,
    connection: line.connection,
    problem: syncProblemView(sync.problem),
    syncing: line.syncing,
    session_ends_at: runtime.record.session_ends_at ?? null,
    last_synced_at: sync.lastSyncedAt ?? runtime.mirror.passes.state('tasks')?.completedAt ?? null,
    pending: line.pending,
    conflicts: line.conflicts,
    failed: line.failed,
    blocked: line.blocked,
    unseen: line.unseen,
    collections: watched.log.collections().map((c) => ({
      collection: c.collection,
      checked_at: c.checkedAt,
      changed_at: c.changedAt,
    })),
  };
}
