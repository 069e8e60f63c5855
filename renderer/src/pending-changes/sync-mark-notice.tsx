// What the task editor says under its header when the task's change waits for
// the person (conflict, refused, blocked), with the way to deal with it.
import type { SyncMark } from '../../../main/ipc/screen-schemas';
import { openConflict, openPendingChanges } from './trust-store';

export function SyncMarkNotice({ taskId, mark, gone }: { taskId: string; mark: SyncMark; gone: boolean }) {
  if (mark === null || mark === 'pending') return null;
  const words =
    mark === 'conflict' && gone
      ? 'This task is gone from the server; your edit is kept as a draft.'
      : mark === 'conflict'
        ? 'Changed here and on the server: choose what to keep.'
        : mark === 'failed'
          ? 'The server refused a change to this task: edit it and retry, or discard it.'
          : 'A change to this task was not sent: this account may not change tasks.';
  return (
    <div className={`trust-notice is-${mark}`} role="note" data-testid="sync-mark-notice">
      <span>{words}</span>
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
