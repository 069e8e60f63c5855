// A task's comments and change history, from the local cache (so they show
// offline); opening a task asks for fresh ones behind when online. Comments
// are written here too (comments-thread.tsx).
import { agoWords, fieldWord, timeWords, valueWord } from '../vocabulary/task-words';
import { AttachmentsPanel } from './attachments-panel';
import { countComments } from './comment-count';
import { CommentsThread } from './comments-thread';
import { useTaskActivity } from './use-task';
import './task-detail.css';

/** Fields whose values are the service's words (shown as words); others are shown as written. */
const WORDED_FIELDS = new Set(['status', 'priority', 'task_type', 'review', 'created_via']);
const SHOWN_TEXT = 80;

function changeWords(change: Record<string, unknown>): string {
  const field = typeof change.field === 'string' ? change.field : 'something';
  const text = (value: string) => (value.length > SHOWN_TEXT ? `${value.slice(0, SHOWN_TEXT)}…` : value);
  const show = (value: unknown) =>
    value === null || value === undefined
      ? 'none'
      : Array.isArray(value)
        ? value.join(', ') || 'none'
        : typeof value === 'string'
          ? WORDED_FIELDS.has(field)
            ? valueWord(value)
            : text(value)
          : JSON.stringify(value);
  return `${fieldWord(field)}: ${show(change.old)} → ${show(change.new)}`;
}

export function ActivityPanel({ taskId }: { taskId: string }) {
  const activity = useTaskActivity(taskId);
  if (activity === null) return <p className="muted">Loading activity…</p>;
  const history = [...activity.history].reverse();
  return (
    <div className="activity">
      <AttachmentsPanel taskId={taskId} />
      <section aria-labelledby={`${taskId}-comments`}>
        <h3 id={`${taskId}-comments`}>Comments ({countComments(activity.comments)})</h3>
        <CommentsThread taskId={taskId} comments={activity.comments} cached={activity.cached} />
      </section>
      <section aria-labelledby={`${taskId}-history`}>
        <h3 id={`${taskId}-history`}>History</h3>
        {history.length === 0 ? (
          <p className="muted">
            {activity.cached ? 'No changes recorded.' : 'History shows once the app has fetched it.'}
          </p>
        ) : (
          <ol className="history">
            {history.map((entry) => (
              <li key={entry.history_id}>
                <span className="history-who">{entry.created_by}</span>{' '}
                <span className="history-what">
                  {entry.action === 'created' || entry.action === 'create'
                    ? 'created the task'
                    : (entry.metadata ?? []).map((change) => changeWords(change)).join('; ') ||
                      valueWord(entry.action)}
                </span>{' '}
                <time dateTime={entry.created_at ?? undefined} title={timeWords(entry.created_at)}>
                  {agoWords(entry.created_at)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
