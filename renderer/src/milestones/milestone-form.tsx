// The form that creates a milestone in a project or edits one: name, due date
// and description. What the app refuses before queuing (a name over 120
// characters, a bad date) is said beside the form and the typed values stay.
import { changedFields, DatedItemForm } from '../ui/dated-item-form';

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
export const milestonePatch = changedFields<MilestoneFormValues>;

export function MilestoneForm(props: MilestoneFormProps) {
  const cancel = () => (props.mode === 'create' ? props.onDone(null) : props.onDone());
  return (
    <DatedItemForm
      noun="milestone"
      dateField="due_date"
      dateLabel="Due date"
      nameMax={NAME_MAX}
      target={
        props.mode === 'create'
          ? { mode: 'create', projectId: props.projectId }
          : { mode: 'edit', id: props.milestoneId, initial: props.initial }
      }
      onSaved={(created) => (props.mode === 'create' ? props.onDone(created) : props.onDone())}
      onCancel={cancel}
    />
  );
}
