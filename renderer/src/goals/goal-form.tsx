// The form that creates a goal in a project or edits one: name, description
// and target date. What the app refuses before queuing (a name too long, a bad
// date) is said beside the form and the typed values stay.
import { useId, useState } from 'react';
import { changedFields, DatedItemForm } from '../ui/dated-item-form';

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
  const [projectId, setProjectId] = useState(
    props.mode === 'create' ? (props.projectId ?? props.projects[0]?.project_id ?? '') : '',
  );

  return (
    <DatedItemForm
      noun="goal"
      dateField="target_date"
      dateLabel="Target date"
      nameMax={NAME_MAX}
      opening={props.mode === 'create' ? { ...props, projectId } : { ...props, id: props.goalId }}
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
    />
  );
}
