// The task editor's Milestone choice: the milestones of the task's project
// (one still waiting to be sent included: the task's push waits for it and
// gets its server id), or none. A task without a project has none to choose.
import { markOfState, unsentWords } from '../vocabulary/sync-mark-words';
import { useProjectMilestones } from '../data/use-milestones';
import { ChoiceField, type ProjectItemChoiceProps } from './choice-field';

export function MilestoneChoice({ id, projectId, value, disabled, onSave }: ProjectItemChoiceProps) {
  const milestones = useProjectMilestones(projectId);
  return (
    <ChoiceField
      id={id}
      value={value}
      disabled={disabled || projectId === null}
      title={projectId === null ? 'Milestones belong to a project: choose the project first' : undefined}
      emptyLabel="No milestone"
      options={(milestones ?? []).map((m) => ({
        value: m.milestone_id,
        label: `${m.name}${unsentWords(markOfState(m.pending) === 'pending')}${m.status === 'completed' ? ' (completed)' : ''}`,
      }))}
      // Still loading, or gone from the mirror.
      keptLabel={(kept) => (milestones === null ? 'Loading…' : kept)}
      onSave={onSave}
    />
  );
}
