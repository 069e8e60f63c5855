// One saved view: its rows from the mirror with its filters and sort (offline
// too), as a list or as a board by its grouping, as saved; and what a person
// does with it: pin or unpin, rename, share or make private, delete (asked first). Each is queued through the outbox; a refusal
// (403 for another's view, 409 for a name or pin already there) is shown here
// in the outbox's words, and a 412 sends the person to the three-way view.
// A view whose filters this version does not know is never answered without
// them: it says so instead.
import { useMemo, useRef, useState } from 'react';
import type { ViewSummary } from '../../../ipc/view-schemas';
import { invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { useOutboxChanges } from '../data/use-outbox-changes';
import { useViewSidebar } from '../data/use-view-sidebar';
import { showProblem, useSession } from '../store/session-store';
import { openPendingChanges } from '../store/trust-store';
import { announce, navigate } from '../store/view-store';
import { DeleteQuestion } from '../ui/question';
import { FormActions } from '../ui/form-actions';
import { ModalDialog } from '../ui/modal-dialog';
import { nextPosition } from '../ui/pin-order';
import { RefusedChanges } from '../ui/refused-changes';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { TaskLines } from '../ui/task-lines';
import { VIEW_NAME_RULES } from '../vocabulary/name-rules';
import { markOfState } from '../vocabulary/sync-mark-words';
import { ViewBoard } from './view-board';
import './saved-views.css';

async function queued(doing: string, done: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
    announce(done);
  } catch (error) {
    showProblem(error, doing);
  }
}

function ViewRows({ view }: { view: ViewSummary }) {
  const read = useBridgeRead(
    'views:rows',
    { view_id: view.view_id, limit: 500 },
    {
      // A view answered by the service only is read again as the connection comes and goes.
      reloadOn: { collections: ['tasks', 'views'], syncStatus: view.unknown_filters !== null },
      onError: (error) => showProblem(error, 'Loading the view’s rows'),
    },
  );
  const answer = read.data;
  if (answer === null) return <p className="muted">Loading…</p>;
  if (!answer.available)
    return (
      <p className="saved-view-unavailable" role="note">
        {answer.reason === 'unknown-filters'
          ? `This view uses a filter this version of the app does not know (${answer.detail}): it is shown from the service while online, and is not available offline. It is kept as it is.`
          : 'This view is not here any more.'}
      </p>
    );
  const served =
    answer.source === 'service' ? (
      <p className="muted" role="note">
        Shown from the service: this view uses a filter this version of the app does not know, so it is not
        available offline.
      </p>
    ) : null;
  if (answer.rows.length === 0)
    return (
      <>
        {served}
        <p className="muted">No tasks match this view.</p>
      </>
    );
  return (
    <>
      {served}
      {view.layout === 'board' ? (
        <ViewBoard view={view} rows={answer.rows} />
      ) : (
        <TaskLines rows={answer.rows} label={`Tasks of ${view.name}`} />
      )}
      {answer.next !== null ? <p className="muted">Showing the first {answer.rows.length} tasks.</p> : null}
    </>
  );
}

function RenameDialog({ view, onClose }: { view: ViewSummary; onClose: () => void }) {
  const [name, setName] = useState(view.name);
  const problem = VIEW_NAME_RULES.problem(name.trim());
  return (
    <ModalDialog className="form-dialog" label="Rename view" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (problem !== null) return;
          onClose();
          void queued('Renaming the view', `Renamed to ‘${name.trim()}’.`, () =>
            invoke('collection:edit', { kind: 'view', id: view.view_id, patch: { name: name.trim() } }),
          );
        }}
      >
        <h2>Rename view</h2>
        <p>
          <label htmlFor="saved-view-name">Name</label>
          <input
            id="saved-view-name"
            value={name}
            maxLength={VIEW_NAME_RULES.maxLength}
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
        </p>
        {problem !== null && name !== '' ? <p className="form-problem">{problem}</p> : null}
        <FormActions submit="Rename" disabled={problem !== null} onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}

export function SavedViewScreen({ viewId }: { viewId: string }) {
  const sidebar = useViewSidebar();
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const changes = useOutboxChanges(true, 'Reading the view’s waiting changes');
  const view = sidebar?.views.find((v) => v.view_id === viewId) ?? null;
  const pin = sidebar?.pins.find((p) => p.view_id === viewId) ?? null;
  // A pin refused (already pinned elsewhere: 409) stands beside the service's until given up: both count.
  const pinIds = useMemo(
    () => new Set(sidebar?.pins.filter((p) => p.view_id === viewId).map((p) => p.pin_id) ?? []),
    [sidebar, viewId],
  );
  const mine = useMemo(
    () =>
      changes.filter(
        (c) =>
          (c.entity_type === 'view' && c.entity_id === viewId) ||
          (c.entity_type === 'view_pin' && c.entity_id !== undefined && pinIds.has(c.entity_id)),
      ),
    [changes, viewId, pinIds],
  );
  if (sidebar === null) return <p className="muted">Loading…</p>;
  if (view === null)
    return (
      <section className="saved-view">
        <h1>View</h1>
        <p>This view is not here any more: it was deleted, or is no longer shared with you.</p>
      </section>
    );
  const shared = view.visibility === 'shared';
  return (
    <section className="saved-view" aria-labelledby="saved-view-title">
      <header className="saved-view-header">
        <h1 id="saved-view-title">{view.name}</h1>
        <span className="nav-badge">{shared ? 'shared' : 'private'}</span>
        <SyncMarkBadge mark={markOfState(view.pending)} compact kinds="views" />
        <span className="spacer" />
        <div className="saved-view-actions" role="group" aria-label="View actions">
          <button
            type="button"
            className="button"
            disabled={readOnly}
            onClick={() =>
              void (pin === null
                ? queued('Pinning the view', `Pinned ‘${view.name}’.`, () =>
                    invoke('collection:create', {
                      kind: 'view_pin',
                      fields: { view_id: view.view_id, position: nextPosition(sidebar.pins) },
                    }),
                  )
                : queued('Unpinning the view', `Unpinned ‘${view.name}’.`, () =>
                    invoke('collection:delete', { kind: 'view_pin', id: pin.pin_id }),
                  ))
            }
          >
            {pin === null ? 'Pin' : 'Unpin'}
          </button>
          <button type="button" className="button" disabled={readOnly} onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button
            type="button"
            className="button"
            disabled={readOnly}
            onClick={() =>
              void queued(
                'Changing who sees the view',
                shared ? `‘${view.name}’ is private.` : `‘${view.name}’ is shared with the organization.`,
                () =>
                  invoke('collection:edit', {
                    kind: 'view',
                    id: view.view_id,
                    patch: { visibility: shared ? 'private' : 'shared' },
                  }),
              )
            }
          >
            {shared ? 'Make private' : 'Share'}
          </button>
          <button
            ref={deleteButton}
            type="button"
            className="button danger-ghost"
            disabled={readOnly}
            onClick={() => setDeleting(true)}
          >
            Delete
          </button>
        </div>
      </header>
      <RefusedChanges
        changes={mine.filter((c) => c.state === 'failed' && c.entity_type === 'view')}
        kind="view"
        currentName={view.name}
        rules={VIEW_NAME_RULES}
      />
      <RefusedChanges
        changes={mine.filter((c) => c.state === 'failed' && c.entity_type === 'view_pin')}
        kind="pin"
        currentName={view.name}
        rules={null}
      />
      {mine.some((c) => c.state === 'conflict') ? (
        <p className="view-conflict" role="alert">
          This view was changed elsewhere too.{' '}
          <button type="button" className="button" onClick={openPendingChanges}>
            Compare and choose
          </button>
        </p>
      ) : null}
      <ViewRows view={view} />
      {renaming ? <RenameDialog view={view} onClose={() => setRenaming(false)} /> : null}
      {deleting ? (
        <DeleteQuestion
          label="Delete this view?"
          confirmLabel="Delete view"
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            navigate({ kind: 'list', scope: { kind: 'all' } });
            void queued('Deleting the view', `Deleted ‘${view.name}’.`, () =>
              invoke('collection:delete', { kind: 'view', id: view.view_id }),
            );
          }}
        >
          ‘{view.name}’ is deleted for everyone it is shared with, and its pins go with it. Its tasks stay.
        </DeleteQuestion>
      ) : null}
    </section>
  );
}
