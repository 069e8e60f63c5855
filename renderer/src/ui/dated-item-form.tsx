// The form shared by a project's dated items (a goal, a milestone), to create
// or edit one: name, a date and a description, what the app refused before
// queuing said beside them with the typed values kept, and its two buttons.
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { errorMessage, errorType } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import './dated-item-form.css';

export interface DatedItemValues {
  name: string;
  /** YYYY-MM-DD, or null for none. */
  date: string | null;
  description: string | null;
}

/** The fields that differ from where an edit started, as a merge-patch (an emptied text clears it). */
export function changedFields<T extends object>(initial: T, next: T): Partial<T> {
  const patch: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (next[key] !== initial[key]) patch[key] = next[key];
  }
  return patch;
}

export function DatedItemForm({
  kind,
  title,
  submitLabel,
  nameMax,
  dateLabel,
  initial,
  before,
  blocked = false,
  doing,
  onSubmit,
  onCancel,
}: {
  /** The kind's class on the form ("goal-form") for what differs between kinds. */
  kind: string;
  title: string;
  submitLabel: string;
  /** The service's bound on the kind's name. */
  nameMax: number;
  dateLabel: string;
  initial: DatedItemValues | null;
  /** Fields the kind asks first (a goal's project). */
  before?: ReactNode;
  /** The submit waits for something `before` lacks. */
  blocked?: boolean;
  /** What a failure other than a refused field is said to be doing ("Creating the goal"). */
  doing: string;
  onSubmit: (values: DatedItemValues) => Promise<void>;
  onCancel: () => void;
}) {
  const base = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [date, setDate] = useState(initial?.date ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || name.trim() === '') return;
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit({
        name: name.trim(),
        description: description.trim() === '' ? null : description,
        date: date === '' ? null : date,
      });
    } catch (error) {
      // A refused field is the person's to fix here, with what they typed kept; anything else is the app's notice.
      if (errorType(error) === 'validation') setProblem(errorMessage(error));
      else showProblem(error, doing);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={`dated-item-form ${kind}`}
      aria-labelledby={`${base}-title`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape leaves the form, not the screen behind it.
        event.stopPropagation();
        onCancel();
      }}
    >
      <h2 id={`${base}-title`}>{title}</h2>
      <div className="dated-item-form-fields">
        {before}
        <div className="field">
          <label htmlFor={`${base}-name`}>Name</label>
          <input
            id={`${base}-name`}
            type="text"
            required
            autoFocus
            maxLength={nameMax}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${base}-date`}>{dateLabel}</label>
          <input
            id={`${base}-date`}
            type="date"
            value={date}
            onChange={(event) => setDate(event.target.value)}
          />
        </div>
        <div className="field dated-item-form-wide">
          <label htmlFor={`${base}-description`}>Description</label>
          <textarea
            id={`${base}-description`}
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
      </div>
      {problem === null ? null : (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="dated-item-form-actions">
        <button type="submit" className="button primary" disabled={busy || name.trim() === '' || blocked}>
          {submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
