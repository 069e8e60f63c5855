// The task editor's Milestone choice: the milestones of the task's project
// (one still waiting to be sent included: the task's push waits for it and
// gets its server id), or none. A task without a project has none to choose.
import { markOfState, unsentWords } from '../vocabulary/sync-mark-words';
import { useProjectMilestones } from '../data/use-milestones';

export function MilestoneChoice({
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
  onSave: (milestoneId: string | null) => void;
}) {
  const milestones = useProjectMilestones(projectId);
  const known = value === null || (milestones ?? []).some((m) => m.milestone_id === value);
  return (
    <select
      id={id}
      value={value ?? ''}
      disabled={disabled || projectId === null}
      title={projectId === null ? 'Milestones belong to a project: choose the project first' : undefined}
      onChange={(event) => onSave(event.target.value === '' ? null : event.target.value)}
    >
      <option value="">No milestone</option>
      {/* Still loading, or gone from the mirror: the task's value is kept visible, never silently changed. */}
      {!known && value !== null ? (
        <option value={value}>{milestones === null ? 'Loading…' : value}</option>
      ) : null}
      {(milestones ?? []).map((m) => (
        <option key={m.milestone_id} value={m.milestone_id}>
          {`${m.name}${unsentWords(markOfState(m.pending) === 'pending')}${m.status === 'completed' ? ' (completed)' : ''}`}
        </option>
      ))}
    </select>
  );
}
