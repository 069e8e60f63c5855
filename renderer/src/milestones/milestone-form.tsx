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
  return (
    <DatedItemForm
      noun="milestone"
      dateField="due_date"
      dateLabel="Due date"
      nameMax={NAME_MAX}
      opening={props.mode === 'create' ? props : { ...props, id: props.milestoneId }}
    />
  );
}
