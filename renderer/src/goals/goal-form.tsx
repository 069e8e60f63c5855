// The form that creates a goal in a project or edits one: name, description
// and target date. What the app refuses before queuing (a name too long, a bad
// date) is said beside the form and the typed values stay.
import { type FormEvent, useId, useState } from 'react';
import { errorMessage, errorType, invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';

export interface GoalFormValues {
  name: string;
  description: string | null;
  target_date: string | null;
}

type GoalFormProps =
  | {
      mode: 'create';
      projects: readonly { project_id: string; name: string }[];
      projectId: string | null;
      onDone: (created: { id: string; name: string } | null) => void;
    }
  | {
      mode: 'edit';
      goalId: string;
      initial: GoalFormValues;
      onDone: () => void;
    };

/** The service's bound on a goal's name (gaps.md: `name` 1..200). */
const NAME_MAX = 200;

/** The fields that differ from where the edit started, as a merge-patch (an emptied text clears it). */
export function goalPatch(initial: GoalFormValues, next: GoalFormValues): Partial<GoalFormValues> {
  const patch: Partial<GoalFormValues> = {};
  if (next.name !== initial.name) patch.name = next.name;
  if (next.description !== initial.description) patch.description = next.description;
  if (next.target_date !== initial.target_date) patch.target_date = next.target_date;
  return patch;
}

export function GoalForm(props: GoalFormProps) {
  const base = useId();
  const initial = props.mode === 'edit' ? props.initial : null;
  const [projectId, setProjectId] = useState(
    props.mode === 'create' ? (props.projectId ?? props.projects[0]?.project_id ?? '') : '',
  );
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [targetDate, setTargetDate] = useState(initial?.target_date ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const values = (): GoalFormValues => ({
    name: name.trim(),
    description: description.trim() === '' ? null : description,
    target_date: targetDate === '' ? null : targetDate,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || name.trim() === '') return;
    setBusy(true);
    setProblem(null);
    try {
      if (props.mode === 'create') {
        const { name: goalName, description: text, target_date: target } = values();
        const created = await invoke('collection:create', {
          kind: 'goal',
          parent_id: projectId,
          fields: {
            name: goalName,
            ...(text === null ? {} : { description: text }),
            ...(target === null ? {} : { target_date: target }),
          },
        });
        props.onDone({ id: created.id, name: goalName });
      } else {
        const patch = goalPatch(props.initial, values());
        if (Object.keys(patch).length > 0) {
          await invoke('collection:edit', { kind: 'goal', id: props.goalId, patch });
        }
        props.onDone();
      }
    } catch (error) {
      // A refused field is the person's to fix here, with what they typed kept; anything else is the app's notice.
      if (errorType(error) === 'validation') setProblem(errorMessage(error));
      else showProblem(error, props.mode === 'create' ? 'Creating the goal' : 'Saving the goal');
    } finally {
      setBusy(false);
    }
  };

  const title = props.mode === 'create' ? 'New goal' : 'Edit goal';
  return (
    <form
      className="goal-form"
      aria-labelledby={`${base}-title`}
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // Escape leaves the form, not the screen behind it.
        event.stopPropagation();
        if (props.mode === 'create') props.onDone(null);
        else props.onDone();
      }}
    >
      <h2 id={`${base}-title`}>{title}</h2>
      <div className="goal-form-fields">
        {props.mode === 'create' ? (
          <div className="field">
            <label htmlFor={`${base}-project`}>Project</label>
            <select
              id={`${base}-project`}
              value={projectId}
              required
              onChange={(event) => setProjectId(event.target.value)}
            >
              {props.projects.map((project) => (
                <option key={project.project_id} value={project.project_id}>
                  {project.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
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
          <label htmlFor={`${base}-target`}>Target date</label>
          <input
            id={`${base}-target`}
            type="date"
            value={targetDate}
            onChange={(event) => setTargetDate(event.target.value)}
          />
        </div>
        <div className="field goal-form-wide">
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
      <div className="goal-form-actions">
        <button
          type="submit"
          className="button primary"
          disabled={busy || name.trim() === '' || (props.mode === 'create' && projectId === '')}
        >
          {props.mode === 'create' ? 'Create goal' : 'Save goal'}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => (props.mode === 'create' ? props.onDone(null) : props.onDone())}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
