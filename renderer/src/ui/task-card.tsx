// What a board card shows of its task (title, status, priority, assignee, due
// date, sync mark): the section board's cards and a saved view's board read alike.
import type { TaskRow } from '../../../ipc/screen-schemas';
import { SyncMarkBadge } from './sync-mark-badge';
import { dayWords, valueWord } from '../vocabulary/task-words';
import './task-cards.css';

export function TaskCardFace({ row }: { row: TaskRow }) {
  return (
    <>
      <span className={`card-title${row.status === 'completed' ? ' is-done' : ''}`}>{row.title}</span>
      <span className="card-meta">
        <span className={`status-pill status-${row.status}`}>{valueWord(row.status)}</span>
        {row.priority ? (
          <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
        ) : null}
        {row.assignee ? <span className="muted">{row.assignee}</span> : null}
        {row.due_date ? <span className="muted">{dayWords(row.due_date)}</span> : null}
        <SyncMarkBadge mark={row.sync_mark} waitsOn={row.waits_on} compact />
      </span>
    </>
  );
}
