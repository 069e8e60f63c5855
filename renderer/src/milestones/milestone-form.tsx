// The form that creates a milestone in a project or edits one: name, due date
// and description. What the app refuses before queuing (a name over 120
// characters, a bad date) is said beside the form and the typed values stay.
import { invoke } from '../bridge/svc';
import { changedFields, DatedItemForm, type DatedItemValues } from '../ui/dated-item-form';

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
  const initial = props.mode === 'edit' ? props.initial : null;
  const cancel = () => (props.mode === 'create' ? props.onDone(null) : props.onDone());

  const submit = async ({ name, description, date }: DatedItemValues) => {
    if (props.mode === 'create') {
      const created = await invoke('collection:create', {
        kind: 'milestone',
        parent_id: props.projectId,
        fields: {
          name,
          ...(description === null ? {} : { description }),
          ...(date === null ? {} : { due_date: date }),
        },
      });
      props.onDone({ id: created.id, name });
    } else {
      const patch = milestonePatch(props.initial, { name, description, due_date: date });
      if (Object.keys(patch).length > 0) {
        await invoke('collection:edit', { kind: 'milestone', id: props.milestoneId, patch });
      }
      props.onDone();
    }
  };

  return (
    <DatedItemForm
      kind="milestone-form"
      title={props.mode === 'create' ? 'New milestone' : 'Edit milestone'}
      submitLabel={props.mode === 'create' ? 'Create milestone' : 'Save milestone'}
      nameMax={NAME_MAX}
      dateLabel="Due date"
      initial={
        initial === null
          ? null
          : { name: initial.name, date: initial.due_date, description: initial.description }
      }
      doing={props.mode === 'create' ? 'Creating the milestone' : 'Saving the milestone'}
      onSubmit={submit}
      onCancel={cancel}
    />
  );
}
