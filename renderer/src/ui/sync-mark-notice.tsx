// What the task editor says under its header when the task's change waits for
// the person (conflict, refused, blocked, or held behind another change that
// stopped), in the words of its mark, with the way to deal with it; and the
// shorter note a goal or milestone gives in its details.
import type { WaitsOnView } from '../../../ipc/outbox-schemas';
import type { SyncMark } from '../../../ipc/screen-schemas';
import { markWords } from '../vocabulary/sync-mark-words';
import { openConflict, openPendingChanges } from '../store/trust-store';

export function SyncMarkNotice({
  taskId,
  mark,
  gone,
  waitsOn,
}: {
  taskId: string;
  mark: SyncMark;
  gone: boolean;
  waitsOn?: WaitsOnView | undefined;
}) {
  if (mark === null || (mark === 'pending' && waitsOn === undefined)) return null;
  const { label, hint } = markWords(mark, 'tasks', waitsOn);
  const words =
    mark === 'conflict' && gone ? 'This task is gone from the server; your edit is kept as a draft.' : hint;
  return (
    <div className={`trust-notice is-${mark}`} role="note" data-testid="sync-mark-notice">
      <span>
        <strong>{label}.</strong> {words}
      </span>
      {mark === 'conflict' ? (
        <button type="button" className="button primary" onClick={() => openConflict(taskId)}>
          Resolve conflict…
        </button>
      ) : (
        <button type="button" className="button" onClick={openPendingChanges}>
          See pending changes
        </button>
      )}
    </div>
  );
}

/** A record's change that waits for the person (its `state`), said in the words of its kind (`kinds`, "goals"), with the way to the pending changes. */
export function PendingChangeNote({
  state,
  kinds,
  className,
}: {
  state: string;
  kinds: string;
  className: string;
}) {
  return (
    <p className={className}>
      {markWords(state, kinds).hint}{' '}
      <button type="button" className="link-button" onClick={openPendingChanges}>
        See pending changes
      </button>
    </p>
  );
}
