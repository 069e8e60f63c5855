// A task's place among others in its editor: the task it is a sub-task of
// (a link that opens it) and its own sub-tasks with how many are done, each
// opening, and a box that adds one (queued like any new task, so offline too;
// a sub-task of a task not yet on the server follows it to its server id).
import { type FormEvent, useId, useState } from 'react';
import type { TaskDetail } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce, navigate, openTask } from '../store/view-store';
import { valueWord } from '../vocabulary/task-words';
import { ProgressMeter } from '../ui/progress-meter';

type Family = TaskDetail['family'];

/** How many sub-tasks are not completed: completing the parent asks first when there are some. */
export function openSubTasks(family: Family): number {
  return family.sub_tasks.length - family.sub_tasks_done;
}

export function ParentLink({ parent }: { parent: Family['parent'] }) {
  if (parent === null) return null;
  return (
    <p className="task-parent" data-testid="task-parent">
      Sub-task of{' '}
      {parent.title === null ? (
        // Deleted, or not readable by this account: there is nothing to open.
        <span title="Not in this copy: deleted, or not shared with you">{parent.task_id}</span>
      ) : (
        <button type="button" className="link-button" onClick={() => openTask(parent.task_id)}>
          ‘{parent.title}’
        </button>
      )}
    </p>
  );
}

export function SubTasks({
  task,
  family,
  disabled,
}: {
  task: TaskDetail['task'];
  family: Family;
  disabled: boolean;
}) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const headingId = useId();
  const total = family.sub_tasks.length;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (trimmed === '' || busy) return;
    setBusy(true);
    try {
      // A sub-task starts in its parent's project and team, as it would be filed by hand.
      await invoke('task:create', {
        fields: {
          title: trimmed,
          parent_task_id: task.task_id,
          ...(typeof task.project_id === 'string' ? { project_id: task.project_id } : {}),
          ...(typeof task.team_id === 'string' ? { team_id: task.team_id } : {}),
        },
      });
      setTitle('');
      announce(`Sub-task “${trimmed}” added.`);
    } catch (error) {
      showProblem(error, 'Adding the sub-task');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sub-tasks" aria-labelledby={headingId} data-testid="sub-tasks">
      <h3 id={headingId}>Sub-tasks</h3>
      {total > 0 ? (
        <>
          <div data-testid="sub-task-progress">
            <ProgressMeter done={family.sub_tasks_done} total={total} label="Sub-tasks done" />
          </div>
          <ul className="sub-task-list">
            {family.sub_tasks.map((sub) => (
              <li key={sub.task_id} data-task-id={sub.task_id} data-status={sub.status}>
                <button type="button" className="link-button" onClick={() => openTask(sub.task_id)}>
                  {sub.title}
                </button>
                <span className="muted"> · {valueWord(sub.status)}</span>
                {sub.pending ? <span className="muted"> · not sent yet</span> : null}
              </li>
            ))}
          </ul>
          <p className="hint">Moving, completing or deleting this task leaves its sub-tasks as they are.</p>
          <button
            type="button"
            className="button"
            onClick={() =>
              navigate({
                kind: 'list',
                scope: { kind: 'sub-tasks', parentId: task.task_id, parentTitle: task.title },
              })
            }
          >
            Show in the list
          </button>
        </>
      ) : null}
      {disabled ? null : (
        <form className="sub-task-add" onSubmit={(event) => void add(event)}>
          {/* Not "…title": the editor's own Title field keeps the only label with that word. */}
          <label htmlFor={inputId} className="visually-hidden">
            New sub-task
          </label>
          <input
            id={inputId}
            type="text"
            maxLength={500}
            placeholder="Add a sub-task…"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          <button type="submit" className="button" disabled={busy || title.trim() === ''}>
            Add sub-task
          </button>
        </form>
      )}
    </section>
  );
}
