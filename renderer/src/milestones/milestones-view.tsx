// A project's milestones in its order, each with its progress (tasks
// completed of those filed under it), due date, status, the mark of a change
// still waiting and, opened, its tasks; created, edited, completed or reopened
// and deleted here, tasks unfiled, every change through the outbox (shown at
// once, sent when online).
import { KindConsentNotice, useKindReadOnly } from '../ui/kind-consent';
import { useState } from 'react';
import type { MilestoneSummary } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { queueStatus } from '../data/queue-status';
import { useStableKeys } from '../data/use-remaps';
import { ProgressMeter } from '../ui/progress-meter';
import { showProblem } from '../store/session-store';
import { announce, navigate } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { WaitingChangeMark } from '../ui/sync-mark-badge';
import { DeleteQuestion } from '../ui/question';
import { PendingChangeNote } from '../ui/sync-mark-notice';
import { countWords, dayWords } from '../vocabulary/task-words';
import { MilestoneForm } from './milestone-form';
import { MilestoneTasks } from './milestone-tasks';
import { deletedWords, deleteQuestion, milestoneStatusWord } from './milestone-words';
import { useProjectMilestones } from '../data/use-milestones';
import { ResolveButton } from '../ui/resolve-button';
import './milestones.css';

export function MilestonePendingMark({ pending }: { pending: string | null | undefined }) {
  return <WaitingChangeMark state={pending} kinds="milestones" stateAttribute="data-milestone-pending" />;
}

function MilestoneItem({
  milestone,
  readOnly,
  onDeleted,
}: {
  milestone: MilestoneSummary;
  readOnly: boolean;
  onDeleted: (words: string) => void;
}) {
  const [mode, setMode] = useState<'read' | 'edit' | 'delete'>('read');
  const [showTasks, setShowTasks] = useState(false);
  const completed = milestone.status === 'completed';
  const { name } = milestone;

  const setStatus = () =>
    queueStatus('milestone', milestone.milestone_id, completed ? 'open' : 'completed', {
      done: `${completed ? 'Reopened' : 'Completed'} ‘${name}’`,
      doing: completed ? 'Reopening the milestone' : 'Completing the milestone',
    });

  const remove = async () => {
    const filed = milestone.tasks_total;
    try {
      await invoke('collection:delete', { kind: 'milestone', id: milestone.milestone_id });
      setMode('read');
      onDeleted(deletedWords(name, filed));
    } catch (error) {
      setMode('read');
      showProblem(error, 'Deleting the milestone');
    }
  };

  if (mode === 'edit') {
    return (
      <li className="milestone is-editing" data-milestone-id={milestone.milestone_id}>
        <MilestoneForm
          mode="edit"
          milestoneId={milestone.milestone_id}
          initial={{ name, description: milestone.description, due_date: milestone.due_date }}
          onDone={() => setMode('read')}
        />
      </li>
    );
  }
  return (
    <li
      className={`milestone${completed ? ' is-completed' : ''}`}
      data-milestone-id={milestone.milestone_id}
      aria-label={name}
    >
      <div className="milestone-head">
        <h3 className="milestone-name">{name}</h3>
        <span className={`milestone-status${completed ? ' is-completed' : ''}`}>
          {milestoneStatusWord(milestone.status)}
        </span>
        <span className="muted milestone-due">
          {milestone.due_date ? `Due ${dayWords(milestone.due_date)}` : 'No due date'}
        </span>
        <MilestonePendingMark pending={milestone.pending} />
        <span className="spacer" />
        <div className="milestone-actions" role="group" aria-label={`${name} actions`}>
          <button type="button" className="button" disabled={readOnly} onClick={() => setMode('edit')}>
            Edit
          </button>
          <button type="button" className="button" disabled={readOnly} onClick={() => void setStatus()}>
            {completed ? 'Reopen' : 'Complete'}
          </button>
          <button
            type="button"
            className="button danger-ghost"
            disabled={readOnly}
            onClick={() => setMode('delete')}
          >
            Delete…
          </button>
        </div>
      </div>
      <ProgressMeter
        done={milestone.tasks_completed}
        total={milestone.tasks_total}
        label={`${name} progress`}
      />
      {milestone.description ? <p className="milestone-description">{milestone.description}</p> : null}
      <button
        type="button"
        className="link-button milestone-tasks-toggle"
        aria-expanded={showTasks}
        onClick={() => setShowTasks((shown) => !shown)}
      >
        <span className="milestone-tasks-chevron" aria-hidden="true">
          {showTasks ? '▾' : '▸'}
        </span>
        {`Tasks (${milestone.tasks_total})`}
      </button>
      {showTasks ? (
        <MilestoneTasks milestoneId={milestone.milestone_id} milestoneName={name} readOnly={readOnly} />
      ) : null}
      {milestone.pending === 'conflict' ? (
        <p className="milestone-problem">
          Changed here and on the server.{' '}
          <ResolveButton
            className="link-button"
            target={{ entity_type: 'milestone', entity_id: milestone.milestone_id }}
          />
        </p>
      ) : milestone.pending === 'failed' || milestone.pending === 'blocked' ? (
        <PendingChangeNote state={milestone.pending} kinds="milestones" className="milestone-problem" />
      ) : null}
      {mode === 'delete' ? (
        <DeleteQuestion
          label="Delete this milestone?"
          confirmLabel="Delete milestone"
          onConfirm={() => void remove()}
          onCancel={() => setMode('read')}
        >
          {deleteQuestion(name, milestone.tasks_total)}
        </DeleteQuestion>
      ) : null}
    </li>
  );
}

export function MilestonesView({ projectId }: { projectId: string }) {
  const milestones = useProjectMilestones(projectId);
  const projectName = useWorkspace((state) => state.projectNames.get(projectId) ?? 'Project');
  const readOnly = useKindReadOnly('milestone');
  const keyOf = useStableKeys();
  const [creating, setCreating] = useState(false);
  /** What the last create or delete did, said until the next one. */
  const [notice, setNotice] = useState<string | null>(null);
  const tell = (words: string) => {
    setNotice(words);
    announce(words);
  };
  const open = (milestones ?? []).filter((m) => m.status !== 'completed').length;

  return (
    <section className="milestones-view" aria-labelledby="milestones-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="milestones-title" title={`${projectName}: milestones`}>
            {projectName}: milestones
          </h1>
          <span className="list-count">
            {milestones === null
              ? 'Loading…'
              : `${countWords(milestones.length, 'milestone', 'milestones')}, ${open} open`}
          </span>
          <span className="spacer" />
          <button
            type="button"
            className="button"
            onClick={() => navigate({ kind: 'list', scope: { kind: 'project', projectId } })}
          >
            Tasks
          </button>
          <button
            type="button"
            className="button primary"
            disabled={readOnly}
            title={readOnly ? 'This account can only read milestones' : undefined}
            onClick={() => setCreating(true)}
          >
            New milestone
          </button>
        </div>
        <KindConsentNotice kind="milestone" plural="milestones" />
      </header>
      <div className="milestone-body">
        <p className="milestone-notice" role="status">
          {notice}
        </p>
        {creating ? (
          <MilestoneForm
            mode="create"
            projectId={projectId}
            onDone={(created) => {
              setCreating(false);
              if (created !== null) tell(`Created ‘${created.name}’`);
            }}
          />
        ) : null}
        {milestones !== null && milestones.length === 0 ? (
          <p className="empty-state">No milestones in this project yet.</p>
        ) : null}
        {milestones !== null && milestones.length > 0 ? (
          <ul className="milestone-list" aria-label={`Milestones of ${projectName}`}>
            {milestones.map((milestone) => (
              <MilestoneItem
                key={keyOf(milestone.milestone_id)}
                milestone={milestone}
                readOnly={readOnly}
                onDeleted={tell}
              />
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
