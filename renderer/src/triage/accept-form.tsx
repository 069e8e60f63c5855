// Accepting a task from the intake: where it goes (project, and a section of
// that project or of the team), who takes it and how urgent it is, starting
// from what the task already says. Ctrl/⌘+Enter (or Enter on Accept) accepts,
// Escape leaves it pending.
import { type FormEvent, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { useWorkspace } from '../store/workspace-store';
import { ModalDialog } from '../ui/modal-dialog';
import { PRIORITIES, valueWord } from '../vocabulary/task-words';
import type { AcceptChoices } from './triage-actions';

/** A select's value for "none": option values are strings, a field's none is null. */
const NONE = '';

function chosen(value: string): string | null {
  return value === NONE ? null : value;
}

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
  const set = (field: keyof AcceptChoices, value: string) => {
    setChoices((previous) => {
      const next = { ...previous, [field]: chosen(value) };
      // Another project's sections are not this one's: a section left behind is none.
      if (field === 'project_id' && !sectionFits(next, teamId, workspace?.sections ?? []))
        next.section_id = null;
      return next;
    });
  };
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
        <label htmlFor="triage-project">Project</label>
        <select
          id="triage-project"
          value={choices.project_id ?? NONE}
          onChange={(event) => set('project_id', event.target.value)}
          autoFocus
        >
          <option value={NONE}>No project</option>
          {projects.map((p) => (
            <option key={p.project_id} value={p.project_id}>
              {p.name}
            </option>
          ))}
        </select>
        <label htmlFor="triage-section">Section</label>
        <select
          id="triage-section"
          value={choices.section_id ?? NONE}
          onChange={(event) => set('section_id', event.target.value)}
        >
          <option value={NONE}>No section</option>
          {sections.map((s) => (
            <option key={s.section_id} value={s.section_id}>
              {s.name}
            </option>
          ))}
        </select>
        <label htmlFor="triage-assignee">Assignee</label>
        <select
          id="triage-assignee"
          value={choices.assignee ?? NONE}
          onChange={(event) => set('assignee', event.target.value)}
        >
          <option value={NONE}>Unassigned</option>
          {members.map((m) => (
            <option key={m.user_id} value={m.username}>
              {m.username}
            </option>
          ))}
        </select>
        <label htmlFor="triage-priority">Priority</label>
        <select
          id="triage-priority"
          value={choices.priority ?? NONE}
          onChange={(event) => set('priority', event.target.value)}
        >
          <option value={NONE}>No priority</option>
          {[...PRIORITIES, ...(row.priority && !isKnown(row.priority) ? [row.priority] : [])].map((p) => (
            <option key={p} value={p}>
              {valueWord(p)}
            </option>
          ))}
        </select>
        <div className="confirm-actions">
          <button type="submit" className="button primary" title="Ctrl/⌘ Enter">
            Accept
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function isKnown(priority: string): boolean {
  return (PRIORITIES as readonly string[]).includes(priority);
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
