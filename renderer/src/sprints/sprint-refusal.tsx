// A sprint change the server refused, shown on the sprint as a fixable error:
// its answer in words, and for a name taken by another active sprint of the
// team (409) an inline "Rename and retry" that resends the same change with
// the new name (outbox:retry with a patch). Nothing the person wrote is lost.
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { PendingChange } from '../../../main/ipc/outbox-schemas';
import { errorMessage, invoke, subscribe } from '../bridge/svc';
import { answerWords } from '../pending-changes/describe-operation';
import { openPendingChanges } from '../pending-changes/trust-store';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';
import { SPRINT_NAME_MAX } from './sprint-draft';
import './sprints.css';

/** The name a refused change carries (a create's or a rename's), else the sprint's. */
function nameOf(change: PendingChange, fallback: string): string {
  const named = change.changes.find((c) => c.field === 'name')?.after;
  return typeof named === 'string' ? named : fallback;
}

/** The waiting changes of one sprint (all of them while `active`), kept fresh while the outbox moves. */
export function useSprintChanges(sprintId: string, active: boolean): PendingChange[] {
  const [changes, setChanges] = useState<PendingChange[]>([]);
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const load = () => {
      invoke('outbox:list')
        .then((list) => {
          if (cancelled) return;
          setChanges(list.changes.filter((c) => c.entity_type === 'sprint' && c.entity_id === sprintId));
        })
        .catch((error: unknown) => {
          if (!cancelled) showProblem(error, 'Reading the sprint’s waiting changes');
        });
    };
    load();
    const stops = [subscribe('mirror:changed', load), subscribe('sync:status-changed', load)];
    return () => {
      cancelled = true;
      for (const stop of stops) stop();
    };
  }, [sprintId, active]);
  // Nothing waits once the sprint has no mark; what was last read is not shown then.
  return active ? changes : [];
}

/** The inline fix of a name already taken: the new name, sent again with the same change. */
export function RenameAndRetry({ change, currentName }: { change: PendingChange; currentName: string }) {
  const taken = nameOf(change, currentName);
  const [name, setName] = useState(taken);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (next === '' || next.length > SPRINT_NAME_MAX) {
      setProblem(`A sprint name is 1 to ${SPRINT_NAME_MAX} characters.`);
      return;
    }
    if (next.toLowerCase() === taken.trim().toLowerCase()) {
      setProblem('Choose a name no active sprint of the team has.');
      return;
    }
    setBusy(true);
    try {
      await invoke('outbox:retry', { op_id: change.op_id, patch: { name: next } });
      announce(`Renamed to ‘${next}’ and sent again.`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="rename-retry" aria-label="Rename and retry" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${base}-name`}>New name</label>
      <input
        id={`${base}-name`}
        type="text"
        value={name}
        aria-invalid={problem !== null}
        {...(problem !== null ? { 'aria-describedby': `${base}-problem` } : {})}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
        }}
      />
      <button type="submit" className="button primary" disabled={busy}>
        Rename and retry
      </button>
      {problem !== null ? (
        <small className="field-problem" id={`${base}-problem`}>
          {problem}
        </small>
      ) : null}
    </form>
  );
}

/** The sprint's refused changes, each with what can be done about it here. */
export function SprintRefusal({
  changes,
  sprintName,
}: {
  changes: readonly PendingChange[];
  sprintName: string;
}) {
  const refused = changes.filter((c) => c.state === 'failed');
  if (refused.length === 0) return null;
  return (
    <div className="sprint-refusal" role="alert" data-testid="sprint-refusal">
      {refused.map((change) => (
        <div key={change.op_id} className="sprint-refusal-item">
          <p>
            <strong>
              {change.kind === 'create' ? 'This sprint was not created.' : 'This change was not saved.'}
            </strong>{' '}
            {answerWords(change.last_answer) ?? 'The server refused it.'}
          </p>
          {change.last_answer?.status === 409 ? (
            <RenameAndRetry change={change} currentName={sprintName} />
          ) : (
            <button type="button" className="button" onClick={openPendingChanges}>
              Review in pending changes
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
