// The task editor's Goal choice: the goals of the task's project (goal-words'
// goalOptions), or none. A task without a project has none to choose, and the
// choice says why, as the Milestone choice does.
import { valueWord } from '../vocabulary/task-words';
import { useWorkspace } from '../store/workspace-store';
import { goalOptions } from '../vocabulary/goal-words';
import { ChoiceField, type ProjectItemChoiceProps } from './choice-field';

export function GoalChoice({ id, projectId, value, disabled, onSave }: ProjectItemChoiceProps) {
  const goals = useWorkspace((state) => state.workspace?.goals);
  const goalNames = useWorkspace((state) => state.goalNames);
  return (
    <ChoiceField
      id={id}
      value={value}
      // A goal left from before the project changed can still be taken off.
      disabled={disabled || (projectId === null && value === null)}
      title={projectId === null ? 'Goals belong to a project: choose the project first' : undefined}
      emptyLabel="No goal"
      options={goalOptions(goals ?? [], projectId)}
      // Another project's goal, or gone from the mirror.
      keptLabel={(kept) => goalNames.get(kept) ?? valueWord(kept)}
      onSave={onSave}
    />
  );
}
