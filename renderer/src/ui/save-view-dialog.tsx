// "Save view": the task list's current filters and sort kept under a name, as
// a new view (private unless shared), or saved into one of the person's views
// in place of its filters. Queued through the outbox, so it works offline; a
// name the person already used is said here, and the service's own 409 or 403
// is shown on the view when the change is sent.
import { type FormEvent, useId, useState } from 'react';
import type { ViewSummary } from '../../../ipc/view-schemas';
import type { ViewFilters } from '../../../protocol/view';
import { VIEW_NAME_MAX } from '../../../protocol/view-filters';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';
import { FormActions } from './form-actions';
import { ModalDialog } from './modal-dialog';
import { ProblemLine } from './problem-line';

export interface SavedQuery {
  filters: ViewFilters;
  sort_by: string;
  sort_order: string;
}

/** The filters of `query` that the view does not have any more, set to null: a merge-patch replaces them whole. */
function filtersPatch(view: ViewSummary, filters: ViewFilters): Record<string, string[] | null> {
  const patch: Record<string, string[] | null> = { ...filters };
  for (const key of Object.keys(view.filters)) if (!(key in filters)) patch[key] = null;
  return patch;
}

export function SaveViewDialog({
  query,
  views,
  onDone,
}: {
  query: SavedQuery;
  /** The views the person may save into (their own). */
  views: readonly ViewSummary[];
  /** Called with the saved view's id, or null when cancelled. */
  onDone: (viewId: string | null) => void;
}) {
  const [target, setTarget] = useState<string>('new');
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ids = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const into = views.find((view) => view.view_id === target) ?? null;
    if (into === null) {
      if (trimmed === '' || trimmed.length > VIEW_NAME_MAX) {
        setProblem(`A view's name is 1 to ${VIEW_NAME_MAX} characters.`);
        return;
      }
      if (views.some((view) => view.name === trimmed)) {
        setProblem(`You already have a view named ‘${trimmed}’: choose another name, or save into it.`);
        return;
      }
    }
    setSaving(true);
    try {
      if (into === null) {
        const created = await invoke('collection:create', {
          kind: 'view',
          fields: {
            name: trimmed,
            visibility: shared ? 'shared' : 'private',
            filters: query.filters,
            sort_by: query.sort_by,
            sort_order: query.sort_order,
            layout: 'list',
          },
        });
        announce(`Saved the view ‘${trimmed}’.`);
        onDone(created.id);
      } else {
        await invoke('collection:edit', {
          kind: 'view',
          id: into.view_id,
          patch: {
            filters: filtersPatch(into, query.filters),
            sort_by: query.sort_by,
            sort_order: query.sort_order,
          },
        });
        announce(`Saved these filters into ‘${into.name}’.`);
        onDone(into.view_id);
      }
    } catch (error) {
      showProblem(error, 'Saving the view');
      setSaving(false);
    }
  };

  return (
    <ModalDialog className="form-dialog" label="Save view" onClose={() => onDone(null)}>
      <form onSubmit={(event) => void submit(event)}>
        <h2>Save view</h2>
        {views.length > 0 ? (
          <p>
            <label htmlFor={`${ids}-target`}>Save as</label>
            <select id={`${ids}-target`} value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="new">A new view</option>
              {views.map((view) => (
                <option key={view.view_id} value={view.view_id}>
                  Into ‘{view.name}’ (its filters replaced)
                </option>
              ))}
            </select>
          </p>
        ) : null}
        {target === 'new' ? (
          <>
            <p>
              <label htmlFor={`${ids}-name`}>Name</label>
              <input
                id={`${ids}-name`}
                value={name}
                maxLength={VIEW_NAME_MAX}
                autoFocus
                aria-invalid={problem !== null}
                aria-describedby={problem === null ? undefined : `${ids}-problem`}
                onChange={(event) => {
                  setName(event.target.value);
                  setProblem(null);
                }}
              />
            </p>
            <p>
              <label>
                <input
                  type="checkbox"
                  checked={shared}
                  onChange={(event) => setShared(event.target.checked)}
                />{' '}
                Share with the organization
              </label>
            </p>
          </>
        ) : null}
        <ProblemLine id={`${ids}-problem`} className="form-problem" problem={problem} />
        <FormActions submit="Save view" disabled={saving} onCancel={() => onDone(null)} />
      </form>
    </ModalDialog>
  );
}
