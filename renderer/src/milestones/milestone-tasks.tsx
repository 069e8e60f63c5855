// The tasks filed under one milestone, shown when the person opens its list:
// each with its status and sync mark, opened in the editor on click, and an
// Unfile action (a task edit of milestone_id null, through the outbox like
// any other). Read from the mirror (`tasks:filed`), so a milestone not yet
// sent lists the tasks filed under its temporary id too.
import { useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { useFiledTasks } from '../data/use-filed-tasks';
import { TaskLineButton } from '../ui/task-lines';
import { showProblem } from '../store/session-store';
import { announce, useView } from '../store/view-store';
import { valueWord } from '../vocabulary/task-words';

export function MilestoneTasks({
  milestoneId,
  milestoneName,
  readOnly,
}: {
  milestoneId: string;
  milestoneName: string;
  readOnly: boolean;
}) {
  const { rows, truncated } = useFiledTasks('milestone_id', [milestoneId], 'Loading the milestone’s tasks');
  const openTaskId = useView((state) => state.openTaskId);
  /** Tasks whose unfiling was asked and not yet answered: their button waits. */
  const [unfiling, setUnfiling] = useState<ReadonlySet<string>>(new Set());

  const unfile = async (row: TaskRow) => {
    setUnfiling((now) => new Set(now).add(row.task_id));
    try {
      await invoke('task:edit', { task_id: row.task_id, patch: { milestone_id: null } });
      announce(`Unfiled ‘${row.title}’ from ‘${milestoneName}’`);
    } catch (error) {
      showProblem(error, 'Unfiling the task');
    } finally {
      setUnfiling((now) => {
        const next = new Set(now);
        next.delete(row.task_id);
        return next;
      });
    }
  };

  if (rows === null) return <p className="muted milestone-tasks-note">Loading…</p>;
  if (rows.length === 0) return <p className="muted milestone-tasks-note">No tasks under this milestone.</p>;
  return (
    <>
      <ul className="milestone-tasks" aria-label={`Tasks of ${milestoneName}`}>
        {rows.map((row) => (
          <li
            key={row.task_id}
            className={`milestone-task${row.task_id === openTaskId ? ' is-open' : ''}`}
            data-task-id={row.task_id}
          >
            <TaskLineButton row={row} openTaskId={openTaskId} dueDate={false}>
              <span className={`status-pill status-${row.status}`}>{valueWord(row.status)}</span>
            </TaskLineButton>
            <button
              type="button"
              className="button milestone-unfile"
              disabled={readOnly || unfiling.has(row.task_id)}
              title={readOnly ? 'This account can only read' : `File ‘${row.title}’ under no milestone`}
              aria-label={`Unfile ${row.title}`}
              onClick={() => void unfile(row)}
            >
              Unfile
            </button>
          </li>
        ))}
      </ul>
      {truncated ? (
        <p className="muted milestone-tasks-note">Showing the first {rows.length} tasks.</p>
      ) : null}
    </>
  );
}
