// One goal in the goals view: its name, status, target date, progress and the
// mark of a change still waiting; opened, its description, its tasks and what
// a person does with it (edit, close or reopen, delete, a new task under it).
// Every change goes through the outbox (collection:edit / collection:delete).
import { useEffect, useRef, useState } from 'react';
import { useFiledTasks } from '../data/use-filed-tasks';
import { invoke } from '../bridge/svc';
import { queueStatus } from '../data/queue-status';
import { ProgressMeter } from '../ui/progress-meter';
import { TaskLines } from '../ui/task-lines';
import { showProblem } from '../store/session-store';
import { navigate, startCreating } from '../store/view-store';
import { WaitingChangeMark } from '../ui/sync-mark-badge';
import { DeleteQuestion } from '../ui/question';
import { PendingChangeNote } from '../ui/sync-mark-notice';
import { dayWords, valueWord } from '../vocabulary/task-words';
import { GoalForm } from './goal-form';
import { GoalTaskFiler } from './goal-task-filer';
import { deletedWords, deleteQuestion, type FiledCount, type GoalSummary } from '../vocabulary/goal-words';

export function GoalPendingMark({ pending }: { pending: string | null | undefined }) {
  return <WaitingChangeMark state={pending} kinds="goals" stateAttribute="data-goal-pending" />;
}

function GoalDetails({
  goal,
  readOnly,
  archived,
  onDeleted,
}: {
  goal: GoalSummary;
  readOnly: boolean;
  /** Its project is archived: no new task goes under it (the service refuses tasks there). */
  archived: boolean;
  onDeleted: (words: string) => void;
}) {
  const { rows, truncated } = useFiledTasks('goal_id', [goal.goal_id]);
  const [mode, setMode] = useState<'read' | 'edit' | 'delete'>('read');
  const closed = goal.status === 'closed';
  const filed: FiledCount = { count: rows?.length ?? 0, more: truncated };

  const setStatus = () =>
    queueStatus('goal', goal.goal_id, closed ? 'open' : 'closed', {
      done: `${closed ? 'Reopened' : 'Closed'} ‘${goal.name}’`,
      doing: closed ? 'Reopening the goal' : 'Closing the goal',
    });

  const remove = async () => {
    try {
      await invoke('collection:delete', { kind: 'goal', id: goal.goal_id });
      setMode('read');
      navigate({ kind: 'goals', goalId: null });
      onDeleted(deletedWords(goal.name, filed));
    } catch (error) {
      setMode('read');
      showProblem(error, 'Deleting the goal');
    }
  };

  if (mode === 'edit') {
    return (
      <GoalForm
        mode="edit"
        goalId={goal.goal_id}
        initial={{ name: goal.name, description: goal.description, target_date: goal.target_date }}
        onDone={() => setMode('read')}
      />
    );
  }
  return (
    <div className="goal-details">
      {goal.description ? (
        <p className="goal-description">{goal.description}</p>
      ) : (
        <p className="muted">No description.</p>
      )}
      {goal.pending === 'failed' || goal.pending === 'conflict' || goal.pending === 'blocked' ? (
        <PendingChangeNote state={goal.pending} kinds="goals" className="goal-problem" />
      ) : null}
      <div className="goal-actions" role="group" aria-label={`${goal.name} actions`}>
        <button type="button" className="button" disabled={readOnly} onClick={() => setMode('edit')}>
          Edit
        </button>
        <button type="button" className="button" disabled={readOnly} onClick={() => void setStatus()}>
          {closed ? 'Reopen goal' : 'Close goal'}
        </button>
        <button type="button" className="button" disabled={readOnly || archived} onClick={startCreating}>
          New task under this goal
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="button danger-ghost"
          disabled={readOnly || rows === null}
          onClick={() => setMode('delete')}
        >
          Delete…
        </button>
      </div>
      {archived ? (
        <p className="muted goal-archived-note">
          Its project is archived: new tasks cannot be created in it.
        </p>
      ) : null}
      {rows === null ? <p className="muted">Loading…</p> : null}
      {rows !== null && rows.length === 0 ? <p className="muted">No tasks under this goal.</p> : null}
      {rows !== null && rows.length > 0 ? <TaskLines rows={rows} label="Tasks under this goal" /> : null}
      {truncated ? <p className="muted">Showing the first {rows?.length ?? 0} tasks.</p> : null}
      <GoalTaskFiler goal={goal} disabled={readOnly} />
      {mode === 'delete' ? (
        <DeleteQuestion
          label="Delete this goal?"
          confirmLabel="Delete goal"
          onConfirm={() => void remove()}
          onCancel={() => setMode('read')}
        >
          {deleteQuestion(goal.name, filed)}
        </DeleteQuestion>
      ) : null}
    </div>
  );
}

export function GoalItem({
  goal,
  selected,
  readOnly,
  archived,
  onDeleted,
}: {
  goal: GoalSummary;
  selected: boolean;
  readOnly: boolean;
  archived: boolean;
  onDeleted: (words: string) => void;
}) {
  const closed = goal.status === 'closed';
  const item = useRef<HTMLLIElement>(null);
  // Opened from elsewhere (just created, or followed to its new id), it is brought into view.
  useEffect(() => {
    if (selected) item.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <li
      ref={item}
      className={`goal${selected ? ' is-selected' : ''}${closed ? ' is-closed' : ''}`}
      data-goal-id={goal.goal_id}
    >
      <button
        type="button"
        className="goal-head"
        aria-expanded={selected}
        onClick={() => navigate({ kind: 'goals', goalId: selected ? null : goal.goal_id })}
      >
        <span className="goal-name">{goal.name}</span>
        <span className="muted goal-facts">
          {valueWord(goal.status ?? 'open')}
          {goal.target_date ? ` · target ${dayWords(goal.target_date)}` : ''}
        </span>
        <GoalPendingMark pending={goal.pending} />
      </button>
      <ProgressMeter done={goal.tasks_completed} total={goal.tasks_total} label={`${goal.name} progress`} />
      {selected ? (
        <GoalDetails goal={goal} readOnly={readOnly} archived={archived} onDeleted={onDeleted} />
      ) : null}
    </li>
  );
}
