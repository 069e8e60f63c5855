// The form that creates a goal in a project or edits one: name, description
// and target date. What the app refuses before queuing (a name too long, a bad
// date) is said beside the form and the typed values stay.
import { useId, useState } from 'react';
import { invoke } from '../bridge/svc';
import { changedFields, DatedItemForm, type DatedItemValues } from '../ui/dated-item-form';

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
export const goalPatch = changedFields<GoalFormValues>;

export function GoalForm(props: GoalFormProps) {
  const base = useId();
  const initial = props.mode === 'edit' ? props.initial : null;
  const [projectId, setProjectId] = useState(
    props.mode === 'create' ? (props.projectId ?? props.projects[0]?.project_id ?? '') : '',
  );
  const cancel = () => (props.mode === 'create' ? props.onDone(null) : props.onDone());

  const submit = async ({ name, description, date }: DatedItemValues) => {
    if (props.mode === 'create') {
      const created = await invoke('collection:create', {
        kind: 'goal',
        parent_id: projectId,
        fields: {
          name,
          ...(description === null ? {} : { description }),
          ...(date === null ? {} : { target_date: date }),
        },
      });
      props.onDone({ id: created.id, name });
    } else {
      const patch = goalPatch(props.initial, { name, description, target_date: date });
      if (Object.keys(patch).length > 0) {
        await invoke('collection:edit', { kind: 'goal', id: props.goalId, patch });
      }
      props.onDone();
    }
  };

  return (
    <DatedItemForm
      kind="goal-form"
      title={props.mode === 'create' ? 'New goal' : 'Edit goal'}
      submitLabel={props.mode === 'create' ? 'Create goal' : 'Save goal'}
      nameMax={NAME_MAX}
      dateLabel="Target date"
      initial={
        initial === null
          ? null
          : { name: initial.name, date: initial.target_date, description: initial.description }
      }
      before={
        props.mode === 'create' ? (
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
        ) : null
      }
      blocked={props.mode === 'create' && projectId === ''}
      doing={props.mode === 'create' ? 'Creating the goal' : 'Saving the goal'}
      onSubmit={submit}
      onCancel={cancel}
    />
  );
}
