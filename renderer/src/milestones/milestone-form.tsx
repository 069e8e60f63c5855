// The form that creates a milestone in a project or edits one: name, due date
// and description. What the app refuses before queuing (a name over 120
// characters, a bad date) is said beside the form and the typed values stay.
import { type FormEvent, useId, useState } from 'react';
import { errorMessage, errorType, invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';

export interface MilestoneFormValues {
  name: string;
  description: string | null;
  due_date: string | null;
}

type MilestoneFormProps =
  | { mode: 'create'; projectId: string; onDone: (created: { id: string; name: string } | null) => void }
  | { mode: 'edit'; milestoneId: string; initial: MilestoneFormValues; onDone: () => void };

/** The service's bound on a milestone's name (gaps.md: `name` 1..120). */
const NAME_MAX = 120;

/** The fields that differ from where the edit started, as a merge-patch (an emptied text clears it). */
export function milestonePatch(
  initial: MilestoneFormValues,
  next: MilestoneFormValues,
): Partial<MilestoneFormValues> {
  const patch: Partial<MilestoneFormValues> = {};
  if (next.name !== initial.name) patch.name = next.name;
  if (next.description !== initial.description) patch.description = next.description;
  if (next.due_date !== initial.due_date) patch.due_date = next.due_date;
  return patch;
}

export function MilestoneForm(props: MilestoneFormProps) {
  const base = useId();
  const initial = props.mode === 'edit' ? props.initial : null;
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [dueDate, setDueDate] = useState(initial?.due_date ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cancel = () => (props.mode === 'create' ? props.onDone(null) : props.onDone());

  const values = (): MilestoneFormValues => ({
    name: name.trim(),
    description: description.trim() === '' ? null : description,
    due_date: dueDate === '' ? null : dueDate,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || name.trim() === '') return;
    setBusy(true);
    setProblem(null);
    try {
      const next = values();
      if (props.mode === 'create') {
        const created = await invoke('collection:create', {
          kind: 'milestone',
          parent_id: props.projectId,
          fields: {
            name: next.name,
            ...(next.description === null ? {} : { description: next.description }),
            ...(next.due_date === null ? {} : { due_date: next.due_date }),
          },
        });
        props.onDone({ id: created.id, name: next.name });
      } else {
        const patch = milestonePatch(props.initial, next);
        if (Object.keys(patch).length > 0) {
          await invoke('collection:edit', { kind: 'milestone', id: props.milestoneId, patch });
        }
        props.onDone();
      }
    } catch (error) {
      // A refused field is the person's to fix here, with what they typed kept; anything else is the app's notice.
      if (errorType(error) === 'validation') setProblem(errorMessage(error));
      else showProblem(error, props.mode === 'create' ? 'Creating the milestone' : 'Saving the milestone');
    } finally {
      setBusy(false);
    }
  };

  const title = props.mode === 'create' ? 'New milestone' : 'Edit milestone';
  return (
    <form
      className="milestone-form"
      aria-labelledby={`${base}-title`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape leaves the form, not the screen behind it.
        event.stopPropagation();
        cancel();
      }}
    >
      <h2 id={`${base}-title`}>{title}</h2>
      <div className="milestone-form-fields">
        <div className="field">
          <label htmlFor={`${base}-name`}>Name</label>
          <input
            id={`${base}-name`}
            type="text"
            required
            autoFocus
            maxLength={NAME_MAX}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${base}-due`}>Due date</label>
          <input
            id={`${base}-due`}
            type="date"
            value={dueDate}
            onChange={(event) => setDueDate(event.target.value)}
          />
        </div>
        <div className="field milestone-form-wide">
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
      <div className="milestone-form-actions">
        <button type="submit" className="button primary" disabled={busy || name.trim() === ''}>
          {props.mode === 'create' ? 'Create milestone' : 'Save milestone'}
        </button>
        <button type="button" className="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
