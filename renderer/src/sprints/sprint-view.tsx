// One sprint: its dates, length and progress (`task_count`, `completed_count`)
// and its tasks grouped by status.
import type { TaskRow } from '../../../main/ipc/screen-schemas';
import { useFiledTasks } from '../board/section-board';
import { openTask, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { SyncMarkBadge } from '../task-detail/sync-mark-badge';
import { dayWords, STATUSES, valueWord } from '../vocabulary/task-words';
import { ProgressMeter } from './progress-meter';

export function TaskLines({ rows, label }: { rows: readonly TaskRow[]; label: string }) {
  const openTaskId = useView((state) => state.openTaskId);
  return (
    <ul className="task-lines" aria-label={label}>
      {rows.map((row) => (
        <li key={row.task_id}>
          <button
            type="button"
            className={`task-line${row.task_id === openTaskId ? ' is-open' : ''}`}
            onClick={() => openTask(row.task_id)}
          >
            <span className={`title-text${row.status === 'completed' ? ' is-done' : ''}`}>{row.title}</span>
            <span className="spacer" />
            {row.priority ? (
              <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
            ) : null}
            <span className="muted">{row.assignee ?? 'Unassigned'}</span>
            {row.due_date ? <span className="muted">{dayWords(row.due_date)}</span> : null}
            <SyncMarkBadge mark={row.sync_mark} compact />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function SprintView({ sprintId }: { sprintId: string }) {
  const sprint = useWorkspace((state) => state.sprints.get(sprintId));
  const teamName = useWorkspace((state) => (sprint ? state.teamNames.get(sprint.team_id) : undefined));
  const { rows, truncated } = useFiledTasks('sprint_id', [sprintId]);
  if (sprint === undefined) return <p className="empty-state">This sprint is not in your workspace.</p>;
  const groups = [...STATUSES, ...new Set((rows ?? []).map((row) => row.status))].filter(
    (status, index, all) => all.indexOf(status) === index,
  );
  return (
    <section className="sprint-view" aria-labelledby="sprint-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="sprint-title">{sprint.name}</h1>
          {sprint.current ? <span className="nav-badge">current</span> : null}
          <span className="list-count">{teamName}</span>
        </div>
        <dl className="sprint-facts">
          <div>
            <dt>Dates</dt>
            <dd>
              {dayWords(sprint.start_date)} – {dayWords(sprint.end_date)}
            </dd>
          </div>
          <div>
            <dt>Length</dt>
            <dd>{sprint.duration_label || '—'}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{valueWord(sprint.status ?? 'active')}</dd>
          </div>
          <div className="grow">
            <dt>Progress</dt>
            <dd>
              <ProgressMeter
                done={sprint.completed_count}
                total={sprint.task_count}
                label={`${sprint.name} progress`}
              />
            </dd>
          </div>
        </dl>
      </header>
      <div className="grouped-lines">
        {rows === null ? <p className="muted">Loading…</p> : null}
        {rows !== null && rows.length === 0 ? (
          <p className="empty-state">No tasks in this sprint yet.</p>
        ) : null}
        {truncated ? <p className="muted">Showing the first 2 000 tasks.</p> : null}
        {groups.map((status) => {
          const inGroup = (rows ?? []).filter((row) => row.status === status);
          if (inGroup.length === 0) return null;
          return (
            <section key={status} className="line-group">
              <h2>
                {valueWord(status)} <span className="muted">{inGroup.length}</span>
              </h2>
              <TaskLines rows={inGroup} label={valueWord(status)} />
            </section>
          );
        })}
      </div>
    </section>
  );
}
