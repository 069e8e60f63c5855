// The status bar: online or offline (and why), syncing, when the mirror last
// synced, how many changes wait and in what state (the inspector's count and
// words), read-only accounts, a progress bar while the first sync runs, and
// which collections the last sync could not sync, and a downloaded update.
import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../../ipc/screen-schemas';
import { syncNow, useSession } from '../store/session-store';
import { navigate } from '../store/view-store';
import { leftOutWords, problemWords, unsyncedWords } from '../vocabulary/sync-words';
import { agoWords, timeWords } from '../vocabulary/task-words';
import { changeCountWords } from '../../../protocol/change-state-words';
import { markOfState } from '../vocabulary/sync-mark-words';
import { statusCounts } from '../vocabulary/status-counts';
import { PendingChangesButton } from '../ui/pending-changes-button';
import { FirstSyncProgress } from '../ui/first-sync-progress';
import { UpdateNotice } from './update-notice';
import './status-bar.css';

function connectionWords(status: SyncStatus): { label: string; tone: string; why: string | null } {
  if (status.signed_out) return { label: 'Offline', tone: 'offline', why: 'signed out' };
  if (status.paused) return { label: 'Sync paused', tone: 'paused', why: null };
  if (status.connection === 'offline') {
    return { label: 'Offline', tone: 'offline', why: problemWords(status.problem, false) };
  }
  if (status.connection === 'online') return { label: 'Online', tone: 'online', why: null };
  return { label: 'Connecting…', tone: 'unknown', why: null };
}

/**
 * How many changes wait, all of them counted (the inspector lists as many),
 * then by state in the inspector's and the marks' words (protocol/change-state-words).
 */
export function WaitingChanges({ status }: { status: SyncStatus }) {
  const counts = statusCounts(status);
  const words = changeCountWords(counts);
  return (
    <>
      <span
        className={`pending-count${counts.unsettled > 0 ? ' has-pending' : ''}`}
        data-testid="pending-count"
      >
        {words.headline}
      </span>
      {words.parts.map((part) => (
        <span
          key={part.group}
          className={`sync-mark sync-mark-${markOfState(part.state) ?? 'pending'}`}
          data-testid={`waiting-${part.group}`}
        >
          {part.text}
        </span>
      ))}
    </>
  );
}

/** The first collection the last sync could not sync (the others in its tooltip); opens the Sync screen. */
function UnsyncedNotice({ unsynced }: { unsynced: SyncStatus['unsynced'] }) {
  const [first] = unsynced;
  if (first === undefined) return null;
  return (
    <button
      type="button"
      className="link-button sync-mark sync-mark-failed"
      data-testid="unsynced"
      title={unsynced.map(unsyncedWords).join('\n')}
      onClick={() => navigate({ kind: 'sync', tab: 'status' })}
    >
      {unsyncedWords(first)}
      {unsynced.length > 1 ? ` (and ${unsynced.length - 1} more)` : ''}
    </button>
  );
}

/** How many items the last sync left out (which, in its tooltip); opens the Sync screen, which lists them. */
export function LeftOutNotice({ leftOut }: { leftOut: SyncStatus['left_out'] }) {
  const count = leftOut.items.length + leftOut.more;
  if (count === 0) return null;
  const more = leftOut.more > 0 ? [`and ${leftOut.more.toLocaleString()} more`] : [];
  return (
    <button
      type="button"
      className="link-button sync-mark sync-mark-failed"
      data-testid="left-out"
      title={[...leftOut.items.map(leftOutWords), ...more].join('\n')}
      onClick={() => navigate({ kind: 'sync', tab: 'status' })}
    >
      {count.toLocaleString()} {count === 1 ? 'item' : 'items'} left out
    </button>
  );
}

export function StatusBar() {
  const status = useSession((state) => state.status);
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (status === null) {
    return (
      <footer className="status-bar" aria-label="Sync status">
        <span className="muted">…</span>
      </footer>
    );
  }
  const connection = connectionWords(status);
  return (
    <footer className="status-bar" aria-label="Sync status" data-connection={status.connection}>
      <span className={`connection connection-${connection.tone}`} role="status" data-testid="connection">
        <span className="connection-dot" aria-hidden="true" />
        {connection.label}
        {connection.why ? <span className="muted"> · {connection.why}</span> : null}
      </span>
      <button
        type="button"
        className="link-button"
        onClick={() => navigate({ kind: 'sync', tab: 'status' })}
        aria-label="Sync details"
      >
        Details
      </button>
      {status.syncing && status.first_sync === null ? <span className="syncing">Syncing…</span> : null}
      {status.first_sync !== null ? <FirstSyncProgress progress={status.first_sync} /> : null}
      <span className="last-synced" title={timeWords(status.last_synced_at)}>
        Last synced {agoWords(status.last_synced_at)}
      </span>
      <WaitingChanges status={status} />
      {status.read_only ? <span className="read-only-chip">Read-only</span> : null}
      {status.unsynced.length > 0 ? <UnsyncedNotice unsynced={status.unsynced} /> : null}
      <LeftOutNotice leftOut={status.left_out} />
      <PendingChangesButton status={status} />
      <span className="spacer" />
      <UpdateNotice />
      <button
        type="button"
        className="link-button"
        onClick={() => void syncNow()}
        disabled={status.syncing || status.paused}
      >
        Sync now
      </button>
    </footer>
  );
}
