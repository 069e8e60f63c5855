// One sprint: its dates, length, goal and progress (`task_count`,
// `completed_count`), its tasks grouped by status, and what a person does with
// it: edit, complete or reopen it, and fix a change the server refused.
import { KindConsentNotice, useKindReadOnly } from '../ui/kind-consent';
import { useRef, useState } from 'react';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import type { SprintSummary } from '../../../ipc/screen-schemas';
import { useFiledTasks } from '../data/use-filed-tasks';
import { queueStatus } from '../data/queue-status';
import { useWorkspace } from '../store/workspace-store';
import { Question } from '../ui/question';
import { TaskLines } from '../ui/task-lines';
import { groupRows } from '../ui/row-groups';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { markOfState } from '../vocabulary/sync-mark-words';
import { dayWords, valueWord } from '../vocabulary/task-words';
import { ProgressMeter } from '../ui/progress-meter';
import { SprintFormDialog } from './sprint-form';
import { SprintRefusal, useSprintChanges } from './sprint-refusal';
import { ResolveButton } from '../ui/resolve-button';
import './sprints.css';

/** The length in weeks a waiting create carries (the server sets the end date from it). */
function waitingWeeks(changes: readonly PendingChange[]): number | null {
  const weeks = changes
    .filter((c) => c.kind === 'create')
    .flatMap((c) => c.changes)
    .find((c) => c.field === 'duration_weeks')?.after;
  return typeof weeks === 'number' ? weeks : null;
}

function weeksWords(weeks: number | null): string {
  return weeks === null ? '—' : `${weeks} week${weeks === 1 ? '' : 's'}`;
}

/**
 * Complete (after a question: its open tasks stay filed in it) or reopen; queued like any edit. A sprint
 * not sent yet is completed too: the outbox sends the status right after its create (db/outbox/queue.ts).
 */
function CompleteButton({ sprint, open }: { sprint: SprintSummary; open: number }) {
  const [asking, setAsking] = useState(false);
  const completed = sprint.status === 'completed';
  const setStatus = async (status: 'completed' | 'active') => {
    setAsking(false);
    await queueStatus('sprint', sprint.sprint_id, status, {
      done:
        status === 'completed' ? `Sprint ‘${sprint.name}’ completed.` : `Sprint ‘${sprint.name}’ reopened.`,
      doing: status === 'completed' ? 'Completing the sprint' : 'Reopening the sprint',
    });
  };
  if (completed)
    return (
      <button type="button" className="button" onClick={() => void setStatus('active')}>
        Reopen sprint
      </button>
    );
  return (
    <>
      <button type="button" className="button" onClick={() => setAsking(true)}>
        Complete sprint
      </button>
      {asking ? (
        <Question
          className="sprint-confirm"
          label={`Complete ${sprint.name}?`}
          confirmLabel="Complete sprint"
          onConfirm={() => void setStatus('completed')}
          onCancel={() => setAsking(false)}
        >
          Complete ‘{sprint.name}’?{' '}
          {open === 0
            ? 'Every task in it is done.'
            : `${open === 1 ? '1 task is' : `${open} tasks are`} not done; ${open === 1 ? 'it stays' : 'they stay'} filed in this sprint.`}
        </Question>
      ) : null}
    </>
  );
}

export function SprintView({ sprintId }: { sprintId: string }) {
  const sprint = useWorkspace((state) => state.sprints.get(sprintId));
  const teamName = useWorkspace((state) => (sprint ? state.teamNames.get(sprint.team_id) : undefined));
  const readOnly = useKindReadOnly('sprint');
  const { rows, truncated } = useFiledTasks('sprint_id', [sprintId]);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // A sprint not yet created, or refused, says what it waits with (its length in weeks, the server's answer).
  const waiting = useSprintChanges(sprintId, sprint?.pending !== undefined);
  if (sprint === undefined) return <p className="empty-state">This sprint is not in your workspace.</p>;
  const mark = markOfState(sprint.pending);
  // By status as work flows; a status no task has is left out.
  const groups = groupRows(rows ?? [], 'status').filter((group) => group.rows.length > 0);
  return (
    <section className="sprint-view" aria-labelledby="sprint-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="sprint-title">{sprint.name}</h1>
          {sprint.current ? <span className="nav-badge">current</span> : null}
          <SyncMarkBadge mark={mark} kinds="sprints" />
          <span className="list-count">{teamName}</span>
          <span className="spacer" />
          {readOnly ? null : (
            <div className="sprint-actions">
              <button ref={editButton} type="button" className="button" onClick={() => setEditing(true)}>
                Edit sprint
              </button>
              <CompleteButton sprint={sprint} open={sprint.task_count - sprint.completed_count} />
            </div>
          )}
        </div>
        {/* Its own id: the sidebar shows the sprints' notice too, and its New sprint buttons name that one. */}
        <KindConsentNotice kind="sprint" plural="sprints" id="consent-sprint-view" />
        {editing ? (
          <SprintFormDialog
            target={{ mode: 'edit', sprint, waitingWeeks: waitingWeeks(waiting) }}
            onClose={() => setEditing(false)}
            returnFocus={editButton}
          />
        ) : null}
        {sprint.pending === 'failed' ? <SprintRefusal changes={waiting} sprintName={sprint.name} /> : null}
        {sprint.pending === 'conflict' ? (
          <div className="refused-changes sprint-refusal is-conflict" role="status">
            <p>
              <strong>Changed here and on the server.</strong> Choose what to keep where both sides changed
              the same field.
            </p>
            <ResolveButton
              className="button primary"
              target={{ entity_type: 'sprint', entity_id: sprint.sprint_id }}
            />
          </div>
        ) : null}
        {sprint.goal ? (
          <p className="sprint-goal">
            <span className="muted">Goal</span> {sprint.goal}
          </p>
        ) : null}
        {sprint.description ? <p className="sprint-description">{sprint.description}</p> : null}
        <dl className="sprint-facts">
          <div>
            <dt>Dates</dt>
            <dd>
              {dayWords(sprint.start_date)} –{' '}
              {sprint.end_date === '' ? 'set when sent' : dayWords(sprint.end_date)}
            </dd>
          </div>
          <div>
            <dt>Length</dt>
            <dd>{sprint.duration_label || weeksWords(waitingWeeks(waiting))}</dd>
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
        {groups.map((group) => (
          <section key={group.key} className="line-group">
            <h2>
              {group.name} <span className="muted">{group.rows.length}</span>
            </h2>
            <TaskLines rows={group.rows} label={group.name} />
          </section>
        ))}
      </div>
    </section>
  );
}
