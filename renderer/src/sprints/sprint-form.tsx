// Creating a sprint under a team, or editing one: name, start date, then a
// choice of an end date or a length in weeks (one or the other, never both),
// an optional goal and description. Queued through the outbox and shown at
// once; a slip is told beside its field and the dialog keeps what was typed.
import { type ChangeEvent, type FormEvent, type ReactNode, type RefObject, useId, useState } from 'react';
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { errorMessage, errorType, invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce, navigate } from '../store/view-store';
import { ModalDialog } from '../ui/modal-dialog';
import { FormActions } from '../ui/form-actions';
import {
  createFields,
  type DraftField,
  draftOf,
  editPatch,
  localDay,
  SPRINT_NAME_MAX,
  type SprintDraft,
  WEEKS_MAX,
} from './sprint-draft';
import './sprints.css';

/** The service's field names, for a refusal from the call (it names the field it refused). */
const DRAFT_FIELD_OF: Record<string, DraftField> = {
  name: 'name',
  start_date: 'startDate',
  end_date: 'endDate',
  duration_weeks: 'weeks',
  goal: 'goal',
  description: 'description',
};

/** The field a refusal names ("cannot set 'end_date': …"); the name when it names none of the form's. */
function refusedField(message: string): DraftField {
  const named = /'([a-z_]+)'/.exec(message)?.[1];
  return (named === undefined ? undefined : DRAFT_FIELD_OF[named]) ?? 'name';
}

export type SprintFormTarget =
  | { mode: 'create'; teamId: string; teamName: string }
  /** `waitingWeeks`: the length its waiting create carries (see sprint-draft's weeksNow). */
  | { mode: 'edit'; sprint: SprintSummary; waitingWeeks: number | null };

export function SprintFormDialog({
  target,
  onClose,
  returnFocus,
}: {
  target: SprintFormTarget;
  onClose: () => void;
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  const [draft, setDraft] = useState<SprintDraft>(() =>
    target.mode === 'edit'
      ? draftOf(target.sprint, localDay(), target.waitingWeeks)
      : draftOf(null, localDay()),
  );
  const [problem, setProblem] = useState<{ field: DraftField; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const id = (field: DraftField) => `${base}-${field}`;
  const set = (change: Partial<SprintDraft>) => {
    setDraft((old) => ({ ...old, ...change }));
    setProblem(null);
  };
  const title = target.mode === 'create' ? `New sprint in ${target.teamName}` : `Edit ${target.sprint.name}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const result =
      target.mode === 'create' ? createFields(draft) : editPatch(draft, target.sprint, target.waitingWeeks);
    if (!result.ok) {
      setProblem({ field: result.field, message: result.message });
      return;
    }
    setBusy(true);
    try {
      if (target.mode === 'create') {
        const created = await invoke('collection:create', {
          kind: 'sprint',
          fields: result.fields,
          parent_id: target.teamId,
        });
        announce(`Sprint ‘${draft.name.trim()}’ created; it is sent when the server can be reached.`);
        onClose();
        navigate({ kind: 'sprint', sprintId: created.id });
      } else {
        if (Object.keys(result.fields).length > 0)
          await invoke('collection:edit', {
            kind: 'sprint',
            id: target.sprint.sprint_id,
            patch: result.fields,
          });
        announce(`Sprint ‘${draft.name.trim()}’ saved.`);
        onClose();
      }
    } catch (error) {
      if (errorType(error) === 'validation') {
        const message = errorMessage(error);
        setProblem({ field: refusedField(message), message });
      } else {
        showProblem(error, target.mode === 'create' ? 'Creating the sprint' : 'Saving the sprint');
      }
    } finally {
      setBusy(false);
    }
  };

  /** A field's refusal, tied to it for screen readers. */
  const fieldProblem = (field: DraftField) =>
    problem?.field === field ? (
      <small className="field-problem" id={`${id(field)}-problem`} role="alert">
        {problem.message}
      </small>
    ) : null;
  const invalid = (field: DraftField) =>
    problem?.field === field
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id(field)}-problem` }
      : {};
  /** The radio that says how the length is given: in weeks or by an end date, one or the other. */
  const lengthRadio = (choice: SprintDraft['length'], label: string) => (
    <label>
      <input
        type="radio"
        name={`${base}-length`}
        checked={draft.length === choice}
        onChange={() => set({ length: choice })}
      />
      {label}
    </label>
  );
  /** A field of one line (or `textarea`) that holds its text as typed: its label, its control and its refusal. */
  const textField = (
    field: 'name' | 'startDate' | 'goal' | 'description',
    label: ReactNode,
    control: { type: 'text' | 'date'; autoFocus?: boolean; maxLength?: number } | 'textarea',
  ) => {
    const shared = {
      id: id(field),
      value: draft[field],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        set({ [field]: event.target.value }),
      ...invalid(field),
    };
    return (
      <div className="field">
        <label htmlFor={id(field)}>{label}</label>
        {control === 'textarea' ? <textarea rows={3} {...shared} /> : <input {...control} {...shared} />}
        {fieldProblem(field)}
      </div>
    );
  };

  return (
    <ModalDialog
      className="sprint-dialog"
      labelledBy={`${base}-title`}
      onClose={onClose}
      testId="sprint-form"
      {...(returnFocus ? { returnFocus } : {})}
    >
      <form className="sprint-form" onSubmit={(event) => void submit(event)} noValidate>
        <h2 id={`${base}-title`}>{title}</h2>
        {textField('name', 'Name', { type: 'text', autoFocus: true, maxLength: SPRINT_NAME_MAX + 20 })}
        {textField('startDate', 'Starts', { type: 'date' })}
        <fieldset className="sprint-length">
          <legend>Length</legend>
          <div className="sprint-length-choice">
            {lengthRadio('weeks', 'Lasts')}
            <input
              id={id('weeks')}
              type="number"
              min={1}
              max={WEEKS_MAX}
              step={1}
              aria-label="Length in weeks"
              disabled={draft.length !== 'weeks'}
              value={draft.weeks}
              onChange={(event) => set({ weeks: event.target.value })}
              {...invalid('weeks')}
            />
            <span aria-hidden="true">weeks</span>
          </div>
          {fieldProblem('weeks')}
          <div className="sprint-length-choice">
            {lengthRadio('end', 'Ends on')}
            <input
              id={id('endDate')}
              type="date"
              aria-label="End date"
              disabled={draft.length !== 'end'}
              min={draft.startDate}
              value={draft.endDate}
              onChange={(event) => set({ endDate: event.target.value })}
              {...invalid('endDate')}
            />
          </div>
          {fieldProblem('endDate')}
        </fieldset>
        {textField(
          'goal',
          <>
            Goal <span className="muted">(optional)</span>
          </>,
          { type: 'text' },
        )}
        {textField(
          'description',
          <>
            Description <span className="muted">(optional)</span>
          </>,
          'textarea',
        )}
        <FormActions
          submit={target.mode === 'create' ? 'Create sprint' : 'Save sprint'}
          disabled={busy}
          onCancel={onClose}
        />
      </form>
    </ModalDialog>
  );
}
