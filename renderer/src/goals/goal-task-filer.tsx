// Filing an existing task under a goal from the goal's page: the tasks of the
// goal's project whose title matches what is typed, each filed with one click
// (a task edit of `goal_id`, queued like any other; a goal still waiting to be
// sent is fine, the task's push waits for it).
import { useId, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import type { GoalSummary } from '../vocabulary/goal-words';
import '../ui/task-lines.css';

/** Enough to find a task by a word or two of its title; more is typing on. */
const RESULTS = 8;

export function GoalTaskFiler({ goal, disabled }: { goal: GoalSummary; disabled: boolean }) {
  const base = useId();
  const goalNames = useWorkspace((state) => state.goalNames);
  const [term, setTerm] = useState('');
  const search = term.trim();
  const found = useBridgeRead(
    'tasks:query',
    search === ''
      ? null
      : {
          query: {
            filter: { project: [goal.project_id], search, search_fields: 'title' },
            sort_by: 'title',
            sort_order: 'asc',
          },
          limit: RESULTS + 1,
        },
    { onError: (error) => showProblem(error, 'Finding tasks') },
  );

  const file = async (row: TaskRow) => {
    try {
      await invoke('task:edit', { task_id: row.task_id, patch: { goal_id: goal.goal_id } });
      announce(`Filed ‘${row.title}’ under ‘${goal.name}’`);
      setTerm('');
    } catch (error) {
      showProblem(error, 'Filing the task');
    }
  };

  // An answer for what is no longer typed (or for an emptied box) is not shown.
  const rows = (found.data?.rows ?? []).filter((row) => row.goal_id !== goal.goal_id).slice(0, RESULTS);
  return (
    <div className="goal-filer">
      <label htmlFor={`${base}-search`}>File a task under this goal</label>
      <input
        id={`${base}-search`}
        type="search"
        placeholder="Find a task of this project by its title"
        value={term}
        disabled={disabled}
        onChange={(event) => setTerm(event.target.value)}
      />
      {found.data !== null && rows.length === 0 ? (
        <p className="muted">No other task of this project matches ‘{search}’.</p>
      ) : null}
      {rows.length > 0 ? (
        <ul className="goal-filer-results" aria-label="Tasks to file">
          {rows.map((row) => (
            <li key={row.task_id}>
              <button type="button" className="task-line" onClick={() => void file(row)}>
                <span className="title-text">{row.title}</span>
                <span className="spacer" />
                {row.goal_id ? (
                  <span className="muted">now under ‘{goalNames.get(row.goal_id) ?? row.goal_id}’</span>
                ) : null}
                <span className="goal-filer-action">File</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
