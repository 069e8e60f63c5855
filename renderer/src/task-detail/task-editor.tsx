// The task editor: every editable field as a labelled control. Each change is
// saved at once (choices on change, texts on leaving the field or Enter) and
// the field shows how its change stands (not sent yet, conflict, …) until the server has it. Comments and history
// below come from the local cache, refreshed when online.
import { KindConsentNotice, useKindReadOnly } from '../ui/kind-consent';
import { noticeRefusals, useFileDrop } from '../ui/file-drop';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type {
  SprintSummary,
  SyncMark,
  TaskDetail,
  TaskPatchInput,
  Workspace,
} from '../../../ipc/screen-schemas';
import type { WaitsOnView } from '../../../ipc/outbox-schemas';
import { DeleteQuestion } from '../ui/question';
import { invoke } from '../bridge/svc';
import { copyTaskLink } from '../store/link-requests';
import { describeProblem } from '../problems/describe-problem';
import { showProblem, useSession } from '../store/session-store';
import { openTask } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { PRIORITIES, REVIEWS, STATUSES, TASK_TYPES, valueWord } from '../vocabulary/task-words';
import { markOfState, markWords, unsentWords } from '../vocabulary/sync-mark-words';
import { ChoiceField, type ChoiceOption, type ProjectItemChoiceProps } from '../ui/choice-field';
import { GoalChoice } from '../ui/goal-choice';
import { MilestoneChoice } from '../ui/milestone-choice';
import { ActivityPanel } from './activity-panel';
import { SyncMarkNotice } from '../ui/sync-mark-notice';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { TagEditor } from './tag-editor';
import { useTask } from './use-task';
import { openSubTasks, ParentLink, SubTasks } from './task-family';
import { completeTask, subTaskCountWords } from '../ui/completion-question';
import { DraftMark } from '../ui/draft-mark';
import { CloseButton } from '../ui/close-button';
import './task-detail.css';

export const EDITOR_TITLE_ID = 'task-editor-title';

/** Which fields show an edit the server does not have yet, and how the task's change stands. */
export interface WaitingFields {
  fields: readonly string[];
  mark: SyncMark;
  /** The stopped change the task's edit is held behind, when one is. */
  waitsOn?: WaitsOnView | undefined;
}

/** A waiting field's label: its change's state in the words of the task's mark and the inspector. */
export function FieldMark({ mark, waitsOn }: { mark: SyncMark; waitsOn?: WaitsOnView | undefined }) {
  const words = markWords(mark ?? 'pending', 'tasks', waitsOn);
  return (
    <span className={`field-pending sync-mark-${words.mark}`} title={words.hint}>
      {words.label}
    </span>
  );
}

function Field({
  label,
  field,
  pending,
  htmlFor,
  children,
}: {
  label: string;
  field: string;
  pending: WaitingFields;
  htmlFor: string;
  children: ReactNode;
}) {
  const isPending = pending.fields.includes(field);
  return (
    <div className={`field${isPending ? ' is-pending' : ''}`} data-field={field}>
      <label htmlFor={htmlFor}>
        {label}
        {isPending ? <FieldMark mark={pending.mark} waitsOn={pending.waitsOn} /> : null}
      </label>
      {children}
    </div>
  );
}

/** A text input that saves when it loses focus or on Enter, and follows the task while not being edited. */
function TextField({
  id,
  value,
  onSave,
  disabled,
  multiline = false,
  required = false,
}: {
  id: string;
  value: string;
  onSave: (value: string) => void;
  disabled: boolean;
  multiline?: boolean;
  required?: boolean;
}) {
  const [draft, setDraft] = useState(value);
  const editing = useRef(false);
  useEffect(() => {
    if (!editing.current) setDraft(value);
  }, [value]);
  const commit = () => {
    editing.current = false;
    const next = multiline ? draft : draft.trim();
    if (required && next === '') {
      setDraft(value);
      return;
    }
    if (next !== value) onSave(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // The first Escape drops the typing; the next one (nothing typed) closes the task.
      if (draft !== value) event.stopPropagation();
      setDraft(value);
      editing.current = false;
    } else if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      commit();
    }
  };
  const common = {
    id,
    value: draft,
    disabled,
    onFocus: () => {
      editing.current = true;
    },
    onBlur: commit,
    onKeyDown,
  };
  return multiline ? (
    <textarea {...common} rows={6} onChange={(event) => setDraft(event.target.value)} />
  ) : (
    <input {...common} type="text" required={required} onChange={(event) => setDraft(event.target.value)} />
  );
}

/** A sprint as the Sprint field offers it: current, not sent yet or completed said after its name. */
function sprintChoiceWords(sprint: SprintSummary): string {
  const notSent = markOfState(sprint.pending) === 'pending';
  return `${sprint.name}${sprint.current ? ' (current)' : ''}${unsentWords(notSent)}${sprint.status === 'completed' ? ' (completed)' : ''}`;
}

const enumOptions = (values: readonly string[]) =>
  values.map((value) => ({ value, label: valueWord(value) }));

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Sections of the task's project, team and the person's own, for the section choice. */
function sectionOptions(workspace: Workspace | null, task: TaskDetail['task']) {
  const scopes = new Set([str(task.project_id), str(task.team_id), workspace?.me?.username ?? null]);
  return (workspace?.sections ?? [])
    .filter((section) => scopes.has(section.scope_id))
    .map((section) => ({ value: section.section_id, label: section.name }));
}

export function TaskEditor({ taskId }: { taskId: string }) {
  const { detail, problem, save } = useTask(taskId);
  const workspace = useWorkspace((state) => state.workspace);
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  // A read-only account, or a sign-in not allowed tasks:write: the fields are turned off either way.
  const tasksLocked = useKindReadOnly('task');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const base = useId();
  const id = (field: string) => `${base}-${field}`;
  // A file dropped anywhere on the editor is attached to its task (its attachments list shows it).
  const drop = useFileDrop(taskId, noticeRefusals);

  if (problem !== null) {
    const words = describeProblem(problem);
    return (
      <aside className="editor" aria-label="Task">
        <div className="problem" role="alert">
          <strong>{words.title}</strong>
          <p>{words.detail}</p>
          <button type="button" className="button" onClick={() => openTask(null)}>
            Close
          </button>
        </div>
      </aside>
    );
  }
  if (detail === null) {
    return (
      <aside className="editor" aria-label="Task" aria-busy="true">
        <p className="muted">Loading…</p>
      </aside>
    );
  }

  const { task } = detail;
  const pending: WaitingFields = {
    fields: detail.pending_fields,
    mark: detail.sync_mark,
    waitsOn: detail.waits_on,
  };
  const patch = (change: TaskPatchInput) => void save(change);
  const disabled = tasksLocked;
  const projects = (workspace?.projects ?? []).map((p) => ({ value: p.project_id, label: p.name }));
  const teams = (workspace?.teams ?? []).map((t) => ({ value: t.team_id, label: t.name }));
  const members = (workspace?.members ?? [])
    .filter((m) => m.active || m.username === task.assignee)
    .map((m) => ({ value: m.username, label: m.username }));
  const sprints = (workspace?.teams ?? [])
    .filter((t) => task.team_id == null || t.team_id === task.team_id)
    // A sprint still waiting to be sent can be chosen: the task's push waits for it and gets its server id.
    .flatMap((t) => t.sprints.map((s) => ({ value: s.sprint_id, label: sprintChoiceWords(s) })));

  /** A field chosen from `options` or left empty (`emptyLabel`), saved as it is chosen. */
  const optionalChoice = (
    field: 'priority' | 'assignee' | 'project_id' | 'team_id' | 'section_id' | 'sprint_id' | 'review',
    label: string,
    options: readonly ChoiceOption[],
    emptyLabel: string,
  ) => (
    <Field label={label} field={field} pending={pending} htmlFor={id(field)}>
      <ChoiceField
        id={id(field)}
        value={task[field] ?? null}
        options={options}
        emptyLabel={emptyLabel}
        disabled={disabled}
        onSave={(value) => patch({ [field]: value })}
      />
    </Field>
  );
  /** A day, or none when the person empties it. */
  const dateField = (field: 'due_date' | 'start_date', label: string) => (
    <Field label={label} field={field} pending={pending} htmlFor={id(field)}>
      <input
        id={id(field)}
        type="date"
        value={task[field] ?? ''}
        disabled={disabled}
        onChange={(event) => patch({ [field]: event.target.value === '' ? null : event.target.value })}
      />
    </Field>
  );
  /** A record of the task's project (a goal, a milestone), chosen among that project's. */
  const projectItemChoice = (
    field: 'goal_id' | 'milestone_id',
    label: string,
    Choice: (props: ProjectItemChoiceProps) => ReactNode,
  ) => (
    <Field label={label} field={field} pending={pending} htmlFor={id(field)}>
      <Choice
        id={id(field)}
        projectId={str(task.project_id)}
        value={str(task[field])}
        disabled={disabled}
        onSave={(value) => patch({ [field]: value })}
      />
    </Field>
  );
  const stillOpen = openSubTasks(detail.family);
  const subTaskCount = detail.family.sub_tasks.length;

  const remove = async () => {
    try {
      await invoke('task:delete', { task_id: taskId });
      openTask(null);
    } catch (error) {
      showProblem(error, 'Deleting the task');
    }
  };

  return (
    <aside
      className={`editor${drop.over ? ' is-file-target' : ''}`}
      aria-labelledby={EDITOR_TITLE_ID}
      data-testid="task-editor"
      {...drop.handlers}
    >
      <header className="editor-header">
        <h2 id={EDITOR_TITLE_ID} ref={titleRef} tabIndex={-1} className="visually-hidden">
          Task: {task.title}
        </h2>
        <span className="task-id" title="Task id">
          {task.task_id.startsWith('local-') ? 'New (not yet on the server)' : task.task_id}
        </span>
        <SyncMarkBadge mark={detail.sync_mark} waitsOn={detail.waits_on} />
        {detail.server_gone ? <span className="sync-mark sync-mark-failed">Gone from the server</span> : null}
        <DraftMark taskId={taskId} />
        <span className="spacer" />
        {/* A task not yet on the server has no lasting id to link to: it changes once the server has it. */}
        {task.task_id.startsWith('local-') ? null : (
          <button type="button" className="button" onClick={() => void copyTaskLink(task.task_id)}>
            Copy link
          </button>
        )}
        <CloseButton label="Close task" onClick={() => openTask(null)} />
      </header>
      {readOnly ? (
        <p className="read-only-note">This account can only read: changes are turned off.</p>
      ) : (
        <KindConsentNotice kind="task" plural="tasks" id="consent-task-editor" />
      )}
      <SyncMarkNotice
        taskId={taskId}
        mark={detail.sync_mark}
        gone={detail.server_gone}
        waitsOn={detail.waits_on}
      />

      {/* With every field turned off nothing inside takes focus: the region itself does, so keys can scroll it. */}
      <div
        className="editor-body"
        {...(disabled ? { tabIndex: 0, role: 'region', 'aria-label': 'Task details' } : {})}
      >
        <ParentLink parent={detail.family.parent} />
        <Field label="Title" field="title" pending={pending} htmlFor={id('title')}>
          <TextField
            id={id('title')}
            value={task.title}
            required
            disabled={disabled}
            onSave={(title) => patch({ title })}
          />
        </Field>

        <div className="field-grid">
          <Field label="Status" field="status" pending={pending} htmlFor={id('status')}>
            <ChoiceField
              id={id('status')}
              value={task.status}
              options={enumOptions(STATUSES)}
              disabled={disabled}
              onSave={(status) => {
                // Completing a task whose sub-tasks are not all done asks first: they are not completed with it.
                if (status === 'completed' && task.status !== 'completed' && stillOpen > 0)
                  void completeTask(taskId, { title: task.title, open: stillOpen });
                else if (status !== null) patch({ status });
              }}
            />
          </Field>
          {optionalChoice('priority', 'Priority', enumOptions(PRIORITIES), 'No priority')}
          {optionalChoice('assignee', 'Assignee', members, 'Unassigned')}
          <Field label="Type" field="task_type" pending={pending} htmlFor={id('task_type')}>
            <ChoiceField
              id={id('task_type')}
              value={task.task_type ?? 'task'}
              options={enumOptions(TASK_TYPES)}
              disabled={disabled}
              onSave={(taskType) => {
                if (taskType !== null) patch({ task_type: taskType });
              }}
            />
          </Field>
          {dateField('due_date', 'Due')}
          {dateField('start_date', 'Start')}
          {optionalChoice('project_id', 'Project', projects, 'No project')}
          {optionalChoice('team_id', 'Team', teams, 'No team')}
          {optionalChoice('section_id', 'Section', sectionOptions(workspace, task), 'No section')}
          {optionalChoice('sprint_id', 'Sprint', sprints, 'No sprint')}
          {projectItemChoice('goal_id', 'Goal', GoalChoice)}
          {projectItemChoice('milestone_id', 'Milestone', MilestoneChoice)}
          {optionalChoice('review', 'Review', enumOptions(REVIEWS), 'No review')}
        </div>

        <Field label="Tags" field="tags" pending={pending} htmlFor={id('tags')}>
          <TagEditor
            id={id('tags')}
            tags={task.tags ?? []}
            suggestions={workspace?.tags ?? []}
            disabled={disabled}
            onSave={(tags) => patch({ tags })}
          />
        </Field>

        <Field label="Description" field="description" pending={pending} htmlFor={id('description')}>
          <TextField
            id={id('description')}
            value={task.description ?? ''}
            multiline
            disabled={disabled}
            onSave={(description) => patch({ description: description === '' ? null : description })}
          />
        </Field>

        <SubTasks task={task} family={detail.family} disabled={disabled} />

        <div className="editor-actions">
          <button
            type="button"
            className="button danger-ghost"
            disabled={disabled}
            onClick={() => setConfirmDelete(true)}
          >
            Delete task
          </button>
          {confirmDelete ? (
            <DeleteQuestion
              label="Delete this task?"
              confirmLabel="Delete"
              onConfirm={() => void remove()}
              onCancel={() => setConfirmDelete(false)}
            >
              Delete this task? This cannot be undone once synced.
              {/* What the service does (the emulator's reading; the contract is silent): its sub-tasks stay, parentless. */}
              {subTaskCount > 0
                ? ` Its ${subTaskCountWords(subTaskCount, '')} stay, as tasks of their own.`
                : null}
            </DeleteQuestion>
          ) : null}
        </div>

        <ActivityPanel taskId={taskId} />
      </div>
    </aside>
  );
}
