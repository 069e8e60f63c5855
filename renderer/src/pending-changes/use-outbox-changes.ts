// Every waiting change (outbox:list), read while a screen needs them and kept
// fresh while the outbox moves; nothing is read while it does not.
import { useEffect, useState } from 'react';
import type { PendingChange } from '../../../main/ipc/outbox-schemas';
import { invoke, subscribe } from '../bridge/svc';
import { showProblem } from '../store/session-store';

const NONE: readonly PendingChange[] = [];

/** The waiting changes while `active` (none otherwise); `doing` names the read in a notice if it fails. */
export function useOutboxChanges(active: boolean, doing: string): readonly PendingChange[] {
  const [changes, setChanges] = useState<readonly PendingChange[]>(NONE);
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const load = () => {
      invoke('outbox:list')
        .then((list) => {
          if (!cancelled) setChanges(list.changes);
        })
        .catch((error: unknown) => {
          if (!cancelled) showProblem(error, doing);
        });
    };
    load();
    const stops = [subscribe('mirror:changed', load), subscribe('sync:status-changed', load)];
    return () => {
      cancelled = true;
      for (const stop of stops) stop();
    };
  }, [active, doing]);
  // What was last read is not shown once nothing needs it.
  return active ? changes : NONE;
}
