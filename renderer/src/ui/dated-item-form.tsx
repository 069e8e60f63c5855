// The form shared by a project's dated items (a goal, a milestone), to create
// or edit one: name, a date and a description, what the app refused before
// queuing said beside them with the typed values kept, and its two buttons.
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { errorMessage, errorType, invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { ProblemLine } from './problem-line';
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

/** What a dated item's form saves: a new one under its project, or an edit from where it started. */
export type DatedItemTarget<Fields> =
  { mode: 'create'; projectId: string } | { mode: 'edit'; id: string; initial: Fields };

/** A form's target with who hears it close: a create the new item (null when cancelled), an edit nothing. */
export type DatedItemOpening<Fields> =
  | { mode: 'create'; projectId: string; onDone: (created: { id: string; name: string } | null) => void }
  | { mode: 'edit'; id: string; initial: Fields; onDone: () => void };

/**
 * Queues what the form says: a create under the project (a field left empty is
 * not sent), or the fields changed since the edit started (nothing when none
 * did). Answers the new item's id, or null for an edit.
 */
export async function saveDatedItem<DateField extends string>(
  kind: 'goal' | 'milestone',
  dateField: DateField,
  target: DatedItemTarget<{ name: string; description: string | null } & Record<DateField, string | null>>,
  { name, description, date }: DatedItemValues,
): Promise<string | null> {
  if (target.mode === 'create') {
    const created = await invoke('collection:create', {
      kind,
      parent_id: target.projectId,
      fields: {
        name,
        ...(description === null ? {} : { description }),
        ...(date === null ? {} : { [dateField]: date }),
      },
    });
    return created.id;
  }
  const patch = changedFields(target.initial, { ...target.initial, name, description, [dateField]: date });
  if (Object.keys(patch).length > 0) await invoke('collection:edit', { kind, id: target.id, patch });
  return null;
}

/** A dated item's fields as an edit starts from them: its name, description and its kind's date field. */
type DatedItemFields<DateField extends string> = { name: string; description: string | null } & Record<
  DateField,
  string | null
>;

export function DatedItemForm<DateField extends string>({
  noun,
  dateField,
  dateLabel,
  nameMax,
  opening,
  before,
  blocked = false,
}: {
  /**
   * The kind ("goal"): what the form queues, and the word its title, its
   * button and a failure say ("New goal", "Save goal", "Creating the goal");
   * its class ("goal-form") carries what differs between kinds.
   */
  noun: 'goal' | 'milestone';
  /** The kind's date field (`target_date`, `due_date`) and its label. */
  dateField: DateField;
  dateLabel: string;
  /** The service's bound on the kind's name. */
  nameMax: number;
  /** What it saves, and who hears it close. */
  opening: DatedItemOpening<DatedItemFields<DateField>>;
  /** Fields the kind asks first (a goal's project). */
  before?: ReactNode;
  /** The submit waits for something `before` lacks. */
  blocked?: boolean;
}) {
  const base = useId();
  const creating = opening.mode === 'create';
  const doing = creating ? `Creating the ${noun}` : `Saving the ${noun}`;
  const initial = opening.mode === 'edit' ? opening.initial : null;
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [date, setDate] = useState(initial?.[dateField] ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onCancel = () => (opening.mode === 'create' ? opening.onDone(null) : opening.onDone());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || name.trim() === '') return;
    setBusy(true);
    setProblem(null);
    try {
      const values = {
        name: name.trim(),
        description: description.trim() === '' ? null : description,
        date: date === '' ? null : date,
      };
      const id = await saveDatedItem(noun, dateField, opening, values);
      if (opening.mode === 'create') opening.onDone(id === null ? null : { id, name: values.name });
      else opening.onDone();
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
      className={`dated-item-form ${noun}-form`}
      aria-labelledby={`${base}-title`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape leaves the form, not the screen behind it.
        event.stopPropagation();
        onCancel();
      }}
    >
      <h2 id={`${base}-title`}>{creating ? `New ${noun}` : `Edit ${noun}`}</h2>
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
      <ProblemLine className="form-problem" problem={problem} />
      <div className="dated-item-form-actions">
        <button type="submit" className="button primary" disabled={busy || name.trim() === '' || blocked}>
          {creating ? `Create ${noun}` : `Save ${noun}`}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
