// Every waiting change (outbox:list), read while a screen needs them and kept
// fresh while the outbox moves; nothing is read while it does not.
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { useBridgeRead } from './use-bridge-read';
import type { ReloadOn } from './follow-changes';
import { showProblem } from '../store/session-store';

const NONE: readonly PendingChange[] = [];

/** The outbox moves with every change of the mirror and every sync status: each is read again at once. */
export const OUTBOX_MOVES: ReloadOn = { syncStatus: true, delayMs: 0 };

/** The waiting changes while `active` (none otherwise); `doing` names the read in a notice if it fails. */
export function useOutboxChanges(active: boolean, doing: string): readonly PendingChange[] {
  const read = useBridgeRead('outbox:list', active ? undefined : null, {
    reloadOn: OUTBOX_MOVES,
    onError: (error) => showProblem(error, doing),
  });
  // What was last read is not shown once nothing needs it.
  return active ? (read.data?.changes ?? NONE) : NONE;
}
