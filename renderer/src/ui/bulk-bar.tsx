// The bar over a selection of tasks (the list's or the board's): how many,
// one field and its value to set on all of them (status, priority, assignee,
// sprint, goal, milestone, section, due date, a tag added or removed), or a
// delete asked first with the count. Once sent, it follows the change: "N of M
// sent", with Stop to give up what is not sent yet.
import { useEffect, useId, useState } from 'react';
import type { BulkChangeInput, BulkProgress } from '../../../ipc/bulk-schemas';
import { invoke } from '../bridge/svc';
import { useProjectMilestones } from '../data/use-milestones';
import { showProblem } from '../store/session-store';
import { offerUndo } from '../store/undo-store';
import {
  bulkTarget,
  clearSelection,
  type RunningChange,
  type Selection,
  setRunningChange,
  useSelection,
} from '../store/selection-store';
import { useWorkspace } from '../store/workspace-store';
import { countWords, PRIORITIES, STATUSES, valueWord } from '../vocabulary/task-words';
import { DeleteQuestion } from './question';
import './bulk-bar.css';

type BulkField =
  | 'status'
  | 'priority'
  | 'assignee'
  | 'sprint_id'
  | 'goal_id'
  | 'milestone_id'
  | 'section_id'
  | 'due_date'
  | 'tags_add'
  | 'tags_remove';

const FIELDS: readonly { field: BulkField; label: string }[] = [
  { field: 'status', label: 'Status' },
  { field: 'priority', label: 'Priority' },
  { field: 'assignee', label: 'Assignee' },
  { field: 'sprint_id', label: 'Sprint' },
  { field: 'goal_id', label: 'Goal' },
  { field: 'milestone_id', label: 'Milestone' },
  { field: 'section_id', label: 'Section' },
  { field: 'due_date', label: 'Due date' },
  { field: 'tags_add', label: 'Add tag' },
  { field: 'tags_remove', label: 'Remove tag' },
];

/** The value an option stands for when it clears the field. */
const NONE = '';

/** The bulk change one field and its chosen value make. */
export function bulkChangeOf(field: BulkField, value: string): BulkChangeInput {
  if (field === 'tags_add') return { set: {}, tags_add: [value.trim()] };
  if (field === 'tags_remove') return { set: {}, tags_remove: [value.trim()] };
  if (field === 'status') return { set: { status: value } };
  return { set: { [field]: value === NONE ? null : value } };
}

function changeLabel(field: BulkField, valueLabel: string): string {
  if (field === 'tags_add') return `Add tag ${valueLabel}`;
  if (field === 'tags_remove') return `Remove tag ${valueLabel}`;
  const name = FIELDS.find((f) => f.field === field)?.label ?? field;
  return `Set ${name.toLowerCase()} to ${valueLabel}`;
}

export function BulkBar({
  selection,
  count,
  disabled,
}: {
  selection: Selection;
  /** How many tasks are selected (null while "everything" is counted). */
  count: number | null;
  /** The account may not change tasks. */
  disabled: boolean;
}) {
  const running = useSelection((state) => state.running);
  const [field, setField] = useState<BulkField>('status');
  const [value, setValue] = useState<string>('');
  const [valueLabel, setValueLabel] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const base = useId();
  const countText = count === null ? 'Counting…' : `${countWords(count, 'task', 'tasks')} selected`;
  const many = count === null ? 'the selected tasks' : countWords(count, 'task', 'tasks');

  const send = async (change: BulkChangeInput, label: string) => {
    setBusy(true);
    try {
      const queued = await invoke('tasks:bulk-edit', { target: bulkTarget(selection), change });
      setRunningChange({ batchId: queued.batch_id, label, queued: queued.queued });
      // Tasks set back to the service's values changed too (their waiting change dropped): undone with the rest.
      const changed = queued.queued + queued.set_back;
      if (changed > 0) void offerUndo(`${label}: ${countWords(changed, 'task', 'tasks')}.`);
      if ('delete' in change) clearSelection();
    } catch (error) {
      showProblem(error, 'Changing the selected tasks');
    } finally {
      setBusy(false);
    }
  };

  const apply = () => {
    if (value === '' && (field === 'status' || field === 'tags_add' || field === 'tags_remove')) return;
    void send(bulkChangeOf(field, value), changeLabel(field, valueLabel || 'none'));
  };

  return (
    <div className="change-bar bulk-bar" role="region" aria-label="Selected tasks" data-testid="bulk-bar">
      <strong className="bulk-count" aria-live="polite">
        {countText}
      </strong>
      <label htmlFor={`${base}-field`} className="visually-hidden">
        Change
      </label>
      <select
        id={`${base}-field`}
        value={field}
        disabled={disabled || busy}
        onChange={(event) => {
          setField(event.target.value as BulkField);
          setValue('');
          setValueLabel('');
        }}
      >
        {FIELDS.map((f) => (
          <option key={f.field} value={f.field}>
            {f.label}
          </option>
        ))}
      </select>
      <ValueChoice
        id={`${base}-value`}
        field={field}
        value={value}
        disabled={disabled || busy}
        onChange={(next, label) => {
          setValue(next);
          setValueLabel(label);
        }}
      />
      <button type="button" className="button primary" disabled={disabled || busy} onClick={apply}>
        Apply
      </button>
      <button
        type="button"
        className="button danger"
        disabled={disabled || busy}
        onClick={() => setConfirmDelete(true)}
      >
        Delete…
      </button>
      <button type="button" className="button" onClick={clearSelection}>
        Clear selection
      </button>
      {busy ? (
        <span className="bulk-running" role="status">
          Queueing the change…
        </span>
      ) : running ? (
        <RunningLine key={running.batchId} running={running} />
      ) : null}
      {confirmDelete ? (
        <DeleteQuestion
          label={`Delete ${many}?`}
          confirmLabel={`Delete ${many}`}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void send({ delete: true }, `Delete ${many}`);
          }}
        >
          {`${count === null ? 'The selected tasks' : countWords(count, 'task', 'tasks')} will be deleted here at once and on the server with the next sync.`}
        </DeleteQuestion>
      ) : null}
    </div>
  );
}

/** The change sent last: "N of M sent" while it goes out, with Stop for the rest. */
export function RunningLine({ running }: { running: RunningChange }) {
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [stopping, setStopping] = useState(false);

  // Read every second while something of it is still to send; once all of it went (or stopped), no more.
  const settled = progress !== null && progress.waiting === 0;
  useEffect(() => {
    if (settled) return;
    let live = true;
    const read = async () => {
      try {
        const next = await invoke('tasks:bulk-progress', { batch_id: running.batchId });
        if (live) setProgress(next);
      } catch {
        // Signed out or switched accounts: the line stays as it was.
      }
    };
    void read();
    const timer = setInterval(() => void read(), 1000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [running.batchId, settled]);

  const stop = async () => {
    setStopping(true);
    try {
      const stopped = await invoke('tasks:bulk-stop', { batch_id: running.batchId });
      setProgress(stopped.progress);
    } catch (error) {
      showProblem(error, 'Stopping the change');
    } finally {
      setStopping(false);
    }
  };

  const sending = progress !== null && progress.waiting > 0;
  return (
    <span className="bulk-running" role="status" data-testid="bulk-progress">
      {running.label}:{' '}
      {progress === null
        ? `${countWords(running.queued, 'change', 'changes')} queued`
        : `${progress.sent} of ${progress.total} sent`}
      {progress !== null && progress.stopped > 0
        ? `, ${progress.stopped} need you (see pending changes)`
        : ''}
      {sending ? (
        <button type="button" className="link-button" disabled={stopping} onClick={() => void stop()}>
          Stop
        </button>
      ) : (
        <button type="button" className="link-button" onClick={() => setRunningChange(null)}>
          Dismiss
        </button>
      )}
    </span>
  );
}

/** The value for the chosen field: a list of what it may hold, a day, or a tag. */
function ValueChoice({
  id,
  field,
  value,
  disabled,
  onChange,
}: {
  id: string;
  field: BulkField;
  value: string;
  disabled: boolean;
  onChange: (value: string, label: string) => void;
}) {
  const workspace = useWorkspace((state) => state.workspace);
  const [milestoneProject, setMilestoneProject] = useState<string | null>(null);
  const milestones = useProjectMilestones(field === 'milestone_id' ? milestoneProject : null);
  const label = <label htmlFor={id} className="visually-hidden">{`New value`}</label>;

  if (field === 'due_date') {
    return (
      <>
        {label}
        <input
          id={id}
          type="date"
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value, event.target.value || 'none')}
        />
      </>
    );
  }
  if (field === 'tags_add' || field === 'tags_remove') {
    return (
      <>
        {label}
        <input
          id={id}
          type="text"
          list={field === 'tags_add' ? `${id}-tags` : undefined}
          placeholder="Tag"
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value, event.target.value)}
        />
        <datalist id={`${id}-tags`}>
          {(workspace?.tags ?? []).map((tag) => (
            <option key={tag} value={tag} />
          ))}
        </datalist>
      </>
    );
  }

  const options: { value: string; label: string }[] =
    field === 'status'
      ? STATUSES.map((s) => ({ value: s, label: valueWord(s) }))
      : field === 'priority'
        ? PRIORITIES.map((p) => ({ value: p, label: valueWord(p) }))
        : field === 'assignee'
          ? (workspace?.members ?? [])
              .filter((m) => m.active)
              .map((m) => ({ value: m.username, label: m.username }))
          : field === 'sprint_id'
            ? (workspace?.teams ?? []).flatMap((t) =>
                t.sprints.map((s) => ({ value: s.sprint_id, label: `${t.name}: ${s.name}` })),
              )
            : field === 'goal_id'
              ? (workspace?.goals ?? []).map((g) => ({ value: g.goal_id, label: g.name }))
              : field === 'section_id'
                ? (workspace?.sections ?? []).map((s) => ({ value: s.section_id, label: s.name }))
                : (milestones ?? []).map((m) => ({ value: m.milestone_id, label: m.name }));
  const noneLabel = field === 'assignee' ? 'Unassigned' : 'None';

  return (
    <>
      {field === 'milestone_id' ? (
        <select
          aria-label="Project of the milestone"
          value={milestoneProject ?? ''}
          disabled={disabled}
          onChange={(event) => {
            setMilestoneProject(event.target.value || null);
            onChange(NONE, noneLabel);
          }}
        >
          <option value="">Project…</option>
          {(workspace?.projects ?? []).map((p) => (
            <option key={p.project_id} value={p.project_id}>
              {p.name}
            </option>
          ))}
        </select>
      ) : null}
      {label}
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) =>
          onChange(event.target.value, event.target.selectedOptions[0]?.textContent ?? event.target.value)
        }
      >
        {field === 'status' ? <option value="">Choose…</option> : <option value={NONE}>{noneLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}
