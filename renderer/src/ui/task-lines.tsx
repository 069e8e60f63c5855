// The tasks filed under a sprint or a goal, one line each (title, priority,
// assignee, due date, sync mark), a task opened in the editor on click.
import type { ReactNode } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { SyncMarkBadge } from './sync-mark-badge';
import { openTask, useView } from '../store/view-store';
import { dayWords, valueWord } from '../vocabulary/task-words';
import './task-lines.css';

/**
 * One task as a line that opens it in the editor: its title (struck through
 * when done), what the list shows of it (`children`), its assignee, due date
 * when `dueDate`, and its sync mark. Sprints and goals list these; a
 * milestone's list puts an Unfile button beside each.
 */
export function TaskLineButton({
  row,
  openTaskId,
  dueDate,
  children,
}: {
  row: TaskRow;
  openTaskId: string | null;
  dueDate: boolean;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`task-line${row.task_id === openTaskId ? ' is-open' : ''}`}
      onClick={() => openTask(row.task_id)}
    >
      <span className={`title-text${row.status === 'completed' ? ' is-done' : ''}`}>{row.title}</span>
      <span className="spacer" />
      {children}
      <span className="muted">{row.assignee ?? 'Unassigned'}</span>
      {dueDate && row.due_date ? <span className="muted">{dayWords(row.due_date)}</span> : null}
      <SyncMarkBadge mark={row.sync_mark} waitsOn={row.waits_on} compact />
    </button>
  );
}

export function TaskLines({ rows, label }: { rows: readonly TaskRow[]; label: string }) {
  const openTaskId = useView((state) => state.openTaskId);
  return (
    <ul className="task-lines" aria-label={label}>
      {rows.map((row) => (
        <li key={row.task_id} data-task-id={row.task_id}>
          <TaskLineButton row={row} openTaskId={openTaskId} dueDate>
            {row.priority ? (
              <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
            ) : null}
          </TaskLineButton>
        </li>
      ))}
    </ul>
  );
}
