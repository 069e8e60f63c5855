// Accepting a task from the intake: where it goes (project, and a section of
// that project or of the team), who takes it and how urgent it is, starting
// from what the task already says. Ctrl/⌘+Enter (or Enter on Accept) accepts,
// Escape leaves it pending.
import { type FormEvent, Fragment, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { useWorkspace } from '../store/workspace-store';
import { ChoiceField } from '../ui/choice-field';
import { FormActions } from '../ui/form-actions';
import { ModalDialog } from '../ui/modal-dialog';
import { PRIORITIES, valueWord } from '../vocabulary/task-words';
import type { AcceptChoices } from './triage-actions';

export function AcceptForm({
  row,
  teamId,
  onAccept,
  onClose,
}: {
  row: TaskRow;
  teamId: string;
  onAccept: (choices: AcceptChoices) => void;
  onClose: () => void;
}) {
  const workspace = useWorkspace((state) => state.workspace);
  const [choices, setChoices] = useState<AcceptChoices>({
    project_id: row.project_id,
    section_id: row.section_id,
    assignee: row.assignee,
    priority: row.priority,
  });
  const projects = (workspace?.projects ?? []).filter(
    (p) => p.status !== 'archived' || p.project_id === row.project_id,
  );
  // A project's sections, or the team's own board's: where a task of this team may be filed.
  // The task's own section stays offered while it is chosen, never silently changed.
  const sections = (workspace?.sections ?? []).filter(
    (s) =>
      (s.scope_type === 'project' && s.scope_id === choices.project_id) ||
      (s.scope_type === 'team' && s.scope_id === teamId) ||
      s.section_id === choices.section_id,
  );
  const members = (workspace?.members ?? []).filter((m) => m.active || m.username === row.assignee);
  const set = (field: keyof AcceptChoices, value: string | null) => {
    setChoices((previous) => {
      const next = { ...previous, [field]: value };
      // Another project's sections are not this one's: a section left behind is none.
      if (field === 'project_id' && !sectionFits(next, teamId, workspace?.sections ?? []))
        next.section_id = null;
      return next;
    });
  };
  /** The choices, in the form's order; each one's id is `triage-` and its label. */
  const fields: {
    field: keyof AcceptChoices;
    label: string;
    emptyLabel: string;
    options: { value: string; label: string }[];
  }[] = [
    {
      field: 'project_id',
      label: 'Project',
      emptyLabel: 'No project',
      options: projects.map((p) => ({ value: p.project_id, label: p.name })),
    },
    {
      field: 'section_id',
      label: 'Section',
      emptyLabel: 'No section',
      options: sections.map((s) => ({ value: s.section_id, label: s.name })),
    },
    {
      field: 'assignee',
      label: 'Assignee',
      emptyLabel: 'Unassigned',
      options: members.map((m) => ({ value: m.username, label: m.username })),
    },
    // A priority the app does not know is kept as the task has it (ChoiceField's kept value).
    {
      field: 'priority',
      label: 'Priority',
      emptyLabel: 'No priority',
      options: PRIORITIES.map((p) => ({ value: p, label: valueWord(p) })),
    },
  ];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAccept(choices);
  };
  return (
    <ModalDialog className="triage-accept" label={`Accept ${row.title}`} onClose={onClose}>
      <form
        onSubmit={submit}
        onKeyDown={(event) => {
          // A select takes a plain Enter for itself: the modified one accepts from any field.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
        }}
      >
        <h2>Accept ‘{row.title}’</h2>
        {fields.map(({ field, label, emptyLabel, options }, index) => (
          <Fragment key={field}>
            <label htmlFor={`triage-${label.toLowerCase()}`}>{label}</label>
            <ChoiceField
              id={`triage-${label.toLowerCase()}`}
              autoFocus={index === 0}
              disabled={false}
              value={choices[field]}
              emptyLabel={emptyLabel}
              options={options}
              onSave={(value) => set(field, value)}
            />
          </Fragment>
        ))}
        <FormActions submit="Accept" title="Ctrl/⌘ Enter" onCancel={onClose} />
      </form>
    </ModalDialog>
  );
}

function sectionFits(
  choices: AcceptChoices,
  teamId: string,
  sections: readonly { section_id: string; scope_type: string; scope_id: string }[],
): boolean {
  if (choices.section_id === null) return true;
  const section = sections.find((s) => s.section_id === choices.section_id);
  if (section === undefined) return false;
  return section.scope_type === 'team'
    ? section.scope_id === teamId
    : section.scope_type === 'project' && section.scope_id === choices.project_id;
}
