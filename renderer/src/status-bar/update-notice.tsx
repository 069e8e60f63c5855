// The status bar's update line: the download's progress, "Restart to update to
// 0.3.0" as a button once it is ready, the edits a restart waits for, or that
// updating failed (why, in its tooltip). Nothing while there is no update.
import { useEffect, useState } from 'react';
import type { UpdateStatusView } from '../../../ipc/update-schemas';
import { invoke, subscribe } from '../bridge/svc';

/**
 * The bar's short word for a failure whose cause a person acts on differently:
 * updates turned off, or a feed whose signature did not verify (refused on
 * purpose, not a glitch: nothing was downloaded, and retrying will not help).
 */
const FAILURE_LABELS: Readonly<Record<string, string>> = {
  'feed-refused': 'Updates are off',
  'unsigned-feed': 'Update not trusted',
};

export function UpdateLine({
  status,
  onRestart,
}: {
  status: UpdateStatusView | null;
  onRestart: () => void;
}) {
  if (status === null || status.message === null) return null;
  if (status.can_restart) {
    return (
      <button type="button" className="link-button update-ready" data-testid="update" onClick={onRestart}>
        {status.message}
      </button>
    );
  }
  if (status.state === 'failed') {
    // The reason is long (the server's address, the checksum): the bar says little, the tooltip all.
    return (
      <span className="sync-mark sync-mark-failed" data-testid="update" title={status.message}>
        {FAILURE_LABELS[status.reason ?? ''] ?? 'Update failed'}
      </span>
    );
  }
  return (
    <span className="muted" data-testid="update">
      {status.message}
    </span>
  );
}

export function UpdateNotice() {
  const [status, setStatus] = useState<UpdateStatusView | null>(null);
  useEffect(() => {
    const unsubscribe = subscribe('updates:status-changed', setStatus);
    // A host without updates (the browser demo) may not answer: then there is nothing to show.
    invoke('updates:status').then(setStatus, () => undefined);
    return unsubscribe;
  }, []);
  const restart = () => {
    invoke('updates:restart').then(setStatus, () => undefined);
  };
  return <UpdateLine status={status} onRestart={restart} />;
}
