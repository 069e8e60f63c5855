// Creating a task: a title (required) and the first few fields, prefilled from
// where the person is (their own list assigns it to them, a project list files
// it there). It shows at once under a temporary id and syncs behind. What is
// typed is kept as a draft when the form closes, until created or discarded.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { NewTaskDraftFields } from '../../../ipc/draft-schemas';
import type { TaskPatchInput } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { discardDraft, flushDrafts, keepDraft, readDrafts } from '../store/draft-store';
import { showProblem, useSession } from '../store/session-store';
import { openTask, useView, type View } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { PRIORITIES, STATUSES, valueWord } from '../vocabulary/task-words';
import { CloseButton } from '../ui/close-button';
import './task-detail.css';

export const CREATE_TITLE_INPUT_ID = 'create-task-title';

/**
 * Fields a new task takes from the screen it is created on. A goal's page files
 * it under the goal and in the goal's project (the service refuses a goal of
 * another project, and a task without one).
 */
export function defaultsFor(
  view: View,
  me: string | null,
  goals: readonly { goal_id: string; project_id: string }[] = [],
): TaskPatchInput {
  if (view.kind === 'list') {
    if (view.scope.kind === 'my-tasks' && me !== null) return { assignee: me };
    if (view.scope.kind === 'project') return { project_id: view.scope.projectId };
    if (view.scope.kind === 'team') return { team_id: view.scope.teamId };
    // A task made in the list of a parent's sub-tasks is one more of them.
    if (view.scope.kind === 'sub-tasks') return { parent_task_id: view.scope.parentId };
  }
  if (view.kind === 'goals' && view.goalId !== null) {
    const goal = goals.find((g) => g.goal_id === view.goalId);
    return goal === undefined ? {} : { goal_id: goal.goal_id, project_id: goal.project_id };
  }
  return {};
}

export function TaskCreateForm() {
  const view = useView((state) => state.view);
  const me = useWorkspace((state) => state.workspace?.me?.username ?? null);
  const projects = useWorkspace((state) => state.workspace?.projects ?? null);
  const goals = useWorkspace((state) => state.workspace?.goals);
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const defaults = defaultsFor(view, me, goals);
  const blank: NewTaskDraftFields = {
    title: '',
    status: 'not_started',
    priority: '',
    project_id: defaults.project_id ?? '',
  };
  const [fields, setFields] = useState(blank);
  const { title, status, priority, project_id: projectId } = fields;
  const typed = useRef(false);
  const [busy, setBusy] = useState(false);
  const base = useId();

  // A new task drafted before (the form closed, the app restarted) comes back, unless typing began.
  useEffect(() => {
    let live = true;
    void readDrafts().then((drafts) => {
      const kept = drafts.find((draft) => draft.kind === 'new-task');
      if (live && !typed.current && kept?.kind === 'new-task') setFields(kept.fields);
    });
    return () => {
      live = false;
      void flushDrafts();
    };
  }, []);

  const change = (field: keyof NewTaskDraftFields) => (value: string) => {
    typed.current = true;
    const next = { ...fields, [field]: value };
    setFields(next);
    // Only a title makes something worth keeping: choices alone are a click away.
    keepDraft({ kind: 'new-task' }, next.title.trim() === '' ? null : { kind: 'new-task', fields: next });
  };
  const setTitle = change('title');
  const setStatus = change('status');
  const setPriority = change('priority');
  const setProjectId = change('project_id');

  const discard = () => {
    void discardDraft({ kind: 'new-task' });
    openTask(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '' || busy) return;
    setBusy(true);
    try {
      const created = await invoke('task:create', {
        fields: {
          ...defaults,
          // Put in another project, it is not filed under the goal (the service refuses another project's goal).
          ...(defaults.goal_id !== undefined && projectId !== defaults.project_id ? { goal_id: null } : {}),
          title: title.trim(),
          status,
          ...(priority === '' ? {} : { priority }),
          project_id: projectId === '' ? null : projectId,
        },
      });
      await discardDraft({ kind: 'new-task' });
      openTask(created.task.task_id);
    } catch (error) {
      showProblem(error, 'Creating the task');
    } finally {
      setBusy(false);
    }
  };

  return (
    <aside className="editor" aria-labelledby={`${base}-heading`} data-testid="task-create">
      <header className="editor-header">
        <h2 id={`${base}-heading`}>New task</h2>
        <span className="spacer" />
        <CloseButton
          label="Close new task"
          title="Close (what is typed is kept as a draft)"
          onClick={() => openTask(null)}
        />
      </header>
      <form className="editor-body" onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label htmlFor={CREATE_TITLE_INPUT_ID}>Title</label>
          <input
            id={CREATE_TITLE_INPUT_ID}
            type="text"
            autoFocus
            required
            maxLength={500}
            value={title}
            disabled={readOnly}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className="field-grid">
          <WordField
            id={`${base}-status`}
            label="Status"
            value={status}
            values={STATUSES}
            onChange={setStatus}
          />
          <WordField
            id={`${base}-priority`}
            label="Priority"
            value={priority}
            values={PRIORITIES}
            noneLabel="No priority"
            onChange={setPriority}
          />
          <div className="field">
            <label htmlFor={`${base}-project`}>Project</label>
            <select
              id={`${base}-project`}
              value={projectId}
              onChange={(event) => setProjectId(event.target.value)}
            >
              <option value="">No project</option>
              {(projects ?? []).map((project) => (
                <option key={project.project_id} value={project.project_id}>
                  {project.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        {title.trim() !== '' ? (
          <p className="hint">Draft: kept until you create the task or discard it.</p>
        ) : null}
        {defaults.assignee ? <p className="hint">Assigned to you.</p> : null}
        {defaults.goal_id && projectId === defaults.project_id ? (
          <p className="hint">Under the goal ‘{goals?.find((g) => g.goal_id === defaults.goal_id)?.name}’.</p>
        ) : null}
        <div className="editor-actions">
          <button type="submit" className="button primary" disabled={busy || readOnly || title.trim() === ''}>
            Create task
          </button>
          <button type="button" className="button" onClick={discard}>
            Discard
          </button>
        </div>
      </form>
    </aside>
  );
}

/** A labelled select of vocabulary values, each shown in its words; `noneLabel` adds the empty choice first. */
function WordField({
  id,
  label,
  value,
  values,
  noneLabel,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  values: readonly string[];
  noneLabel?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {noneLabel !== undefined ? <option value="">{noneLabel}</option> : null}
        {values.map((word) => (
          <option key={word} value={word}>
            {valueWord(word)}
          </option>
        ))}
      </select>
    </div>
  );
}
