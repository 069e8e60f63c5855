// The task list's "Save view": what the list shows now (its scope, the filter
// bar's and the search text's filters, its sort) saved as a view, or into one
// of the person's own views.
import { useRef, useState } from 'react';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { viewFiltersOf } from '../../../protocol/view-filters';
import { useViewSidebar } from '../data/use-view-sidebar';
import { useKindReadOnly } from '../ui/kind-consent';
import { SaveViewDialog } from '../ui/save-view-dialog';
import { navigate } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';

export function SaveViewButton({ query }: { query: TaskListQueryInput }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const locked = useKindReadOnly('view');
  const me = useWorkspace((state) => state.workspace?.me?.user_id ?? null);
  const sidebar = useViewSidebar();
  // One's own views, and those saved here and not yet sent (the service names their creator when it has them).
  const own = (sidebar?.views ?? []).filter(
    (view) => view.created_by === me || (view.created_by === null && view.pending !== undefined),
  );
  return (
    <>
      <button
        ref={button}
        type="button"
        className="button"
        disabled={locked}
        title={locked ? 'This sign-in may not save views' : 'Save these filters as a view'}
        onClick={() => setOpen(true)}
      >
        Save view
      </button>
      {open ? (
        <SaveViewDialog
          query={{
            filters: viewFiltersOf(query.filter),
            sort_by: query.sort_by,
            sort_order: query.sort_order,
          }}
          views={own}
          onDone={(viewId) => {
            setOpen(false);
            if (viewId !== null) navigate({ kind: 'saved-view', viewId });
            else button.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}
