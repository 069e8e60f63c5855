// "Rename and retry": the inline fix of a create or rename the server refused
// because another of its kind has the name (409): a new name, checked by the
// kind's own rules, then the same change sent again under it (outbox:retry
// with a patch). Shown on the resource and in the pending-changes inspector.
import { type FormEvent, useId, useState } from 'react';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { errorMessage, invoke } from '../bridge/svc';
import { announce } from '../store/view-store';
import type { NameRules } from '../vocabulary/name-rules';
import './rename-and-retry.css';

/** The name a refused create or rename carries, else the resource's. */
export function refusedName(change: PendingChange, fallback: string): string {
  const named = change.changes.find((c) => c.field === 'name')?.after;
  return typeof named === 'string' ? named : fallback;
}

/** Whether a refused change is one "Rename and retry" fixes: a create or rename answered 409. */
export function offersRename(change: PendingChange): boolean {
  return change.state === 'failed' && change.last_answer?.status === 409 && change.kind !== 'delete';
}

export function RenameAndRetry({
  change,
  currentName,
  rules,
  stacked = false,
}: {
  change: PendingChange;
  /** The resource's name as shown, used when the change carries none. */
  currentName: string;
  rules: NameRules;
  /** Label, input, problem and button one under another (a narrow board column). */
  stacked?: boolean;
}) {
  const taken = refusedName(change, currentName);
  const [name, setName] = useState(taken);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    const refusal =
      rules.problem(next) ??
      (next.toLowerCase() === taken.trim().toLowerCase() ? rules.takenWords(taken) : null);
    if (refusal !== null) {
      setProblem(refusal);
      return;
    }
    setBusy(true);
    try {
      await invoke('outbox:retry', { op_id: change.op_id, patch: { name: next } });
      announce(rules.sentWords(next));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className={`rename-retry${stacked ? ' is-stacked' : ''}`}
      aria-label="Rename and retry"
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${base}-name`}>New name</label>
      <input
        id={`${base}-name`}
        type="text"
        value={name}
        {...(rules.maxLength !== undefined ? { maxLength: rules.maxLength } : {})}
        aria-invalid={problem !== null}
        {...(problem !== null ? { 'aria-describedby': `${base}-problem` } : {})}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(null);
        }}
      />
      {problem !== null ? (
        <small className="field-problem" id={`${base}-problem`}>
          {problem}
        </small>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        Rename and retry
      </button>
    </form>
  );
}
