// The task editor's Goal choice: the goals of the task's project (goal-words'
// goalOptions), or none. A task without a project has none to choose, and the
// choice says why, as the Milestone choice does.
import { valueWord } from '../vocabulary/task-words';
import { useWorkspace } from '../store/workspace-store';
import { goalOptions } from '../vocabulary/goal-words';

export function GoalChoice({
  id,
  projectId,
  value,
  disabled,
  onSave,
}: {
  id: string;
  projectId: string | null;
  value: string | null;
  disabled: boolean;
  onSave: (goalId: string | null) => void;
}) {
  const goals = useWorkspace((state) => state.workspace?.goals);
  const goalNames = useWorkspace((state) => state.goalNames);
  const options = goalOptions(goals ?? [], projectId);
  const known = value === null || options.some((option) => option.value === value);
  return (
    <select
      id={id}
      value={value ?? ''}
      // A goal left from before the project changed can still be taken off.
      disabled={disabled || (projectId === null && value === null)}
      title={projectId === null ? 'Goals belong to a project: choose the project first' : undefined}
      onChange={(event) => onSave(event.target.value === '' ? null : event.target.value)}
    >
      <option value="">No goal</option>
      {/* Another project's goal, or gone from the mirror: the task's value is kept visible, never silently changed. */}
      {!known && value !== null ? (
        <option value={value}>{goalNames.get(value) ?? valueWord(value)}</option>
      ) : null}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
