// A section change the server refused, shown in its column: the answer in
// words, and for a name another section of the scope took meanwhile (409, a
// peer's while we were offline) an inline "Rename and retry" that resends the
// same create or rename under the new name (outbox:retry with a patch).
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { PendingChange } from '../../../main/ipc/outbox-schemas';
import { SECTION_NAME_MAX } from '../../../protocol/section';
import { errorMessage, invoke, subscribe } from '../bridge/svc';
import { answerWords } from '../pending-changes/describe-operation';
import { openPendingChanges } from '../pending-changes/trust-store';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';
import { sectionNameProblem } from './section-words';

/**
 * The refused section changes by section id, read while any section of the board is marked failed
 * (`active`), kept fresh while the outbox moves; nothing is read while none is.
 */
export function useSectionRefusals(active: boolean): ReadonlyMap<string, PendingChange[]> {
  const [refused, setRefused] = useState<ReadonlyMap<string, PendingChange[]>>(new Map());
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const load = () => {
      invoke('outbox:list')
        .then((list) => {
          if (cancelled) return;
          const bySection = new Map<string, PendingChange[]>();
          for (const change of list.changes) {
            if (change.entity_type !== 'section' || change.state !== 'failed' || !change.entity_id) continue;
            bySection.set(change.entity_id, [...(bySection.get(change.entity_id) ?? []), change]);
          }
          setRefused(bySection);
        })
        .catch((error: unknown) => {
          if (!cancelled) showProblem(error, 'Reading the sections’ refused changes');
        });
    };
    load();
    const stops = [subscribe('mirror:changed', load), subscribe('sync:status-changed', load)];
    return () => {
      cancelled = true;
      for (const stop of stops) stop();
    };
  }, [active]);
  return active ? refused : new Map();
}

/** The name a refused create or rename carries, else the section's. */
function nameOf(change: PendingChange, fallback: string): string {
  const named = change.changes.find((c) => c.field === 'name')?.after;
  return typeof named === 'string' ? named : fallback;
}

/** The column's refused changes, each with what can be done about it in place. */
export function SectionRefusal({
  changes,
  sectionName,
  otherNames,
}: {
  changes: readonly PendingChange[];
  sectionName: string;
  /** The scope's other sections' names, the taker's among them once it is pulled. */
  otherNames: readonly string[];
}) {
  if (changes.length === 0) return null;
  return (
    <div className="section-refusal" role="alert" data-testid="section-refusal">
      {changes.map((change) => (
        <div key={change.op_id} className="section-refusal-item">
          <p>
            <strong>
              {change.kind === 'create'
                ? 'This section was not created.'
                : change.kind === 'delete'
                  ? 'This section was not deleted.'
                  : 'This change was not saved.'}
            </strong>{' '}
            {answerWords(change.last_answer) ?? 'The server refused it.'}
          </p>
          {change.last_answer?.status === 409 && change.kind !== 'delete' ? (
            <SectionRenameAndRetry
              change={change}
              taken={nameOf(change, sectionName)}
              otherNames={otherNames}
            />
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

/** The new name, checked as any section name of the scope is, then the same change sent again. */
function SectionRenameAndRetry({
  change,
  taken,
  otherNames,
}: {
  change: PendingChange;
  taken: string;
  otherNames: readonly string[];
}) {
  const [name, setName] = useState(taken);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    // The refused name itself is taken even before the taker's section reaches the mirror.
    const refusal =
      sectionNameProblem(next, otherNames) ??
      (next.toLowerCase() === taken.trim().toLowerCase()
        ? `“${taken}” is taken on the server; choose another name.`
        : null);
    if (refusal !== null) {
      setProblem(refusal);
      return;
    }
    setBusy(true);
    try {
      await invoke('outbox:retry', { op_id: change.op_id, patch: { name: next } });
      announce(`Section renamed to “${next}” and sent again.`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="section-rename-retry"
      aria-label="Rename and retry"
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${base}-name`}>New name</label>
      <input
        id={`${base}-name`}
        type="text"
        className="column-name-input"
        value={name}
        maxLength={SECTION_NAME_MAX}
        aria-invalid={problem !== null}
        {...(problem !== null ? { 'aria-describedby': `${base}-problem` } : {})}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
        }}
      />
      {problem !== null ? (
        <p className="column-problem" id={`${base}-problem`}>
          {problem}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        Rename and retry
      </button>
    </form>
  );
}
