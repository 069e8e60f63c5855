// Everything the app can do from the keyboard, as a list of commands: the
// palette offers them, the shortcuts call the same functions.
import { invoke } from '../bridge/svc';
import { offerUndo } from '../store/undo-store';
import { completeTask } from '../ui/completion-question';
import { copyTaskLink } from '../store/link-requests';
import { fileIntoSprint } from '../sprints/file-into-sprint';
import { isUnsent } from '../sprints/sprint-draft';
import { unsentWords } from '../vocabulary/sync-mark-words';
import { openConflict, openPendingChanges } from '../store/trust-store';
import {
  requestSignOut,
  setTheme,
  showProblem,
  switchAccount,
  syncNow,
  useSession,
} from '../store/session-store';
import {
  announce,
  navigate,
  openTask,
  setShortcutsOpen,
  startCreating,
  targetTaskId,
  useView,
  type View,
} from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { focusSearchInput } from '../task-list/list-focus';
import { clearFilters, setFiltersOpen } from '../task-list/list-store';
import { valueWord } from '../vocabulary/task-words';

export interface Command {
  id: string;
  label: string;
  group: string;
  /** The shortcut, as shown. */
  keys?: string;
  run: () => void;
  /** A command that needs a task chosen first: the palette then asks for one by title and hands it over. */
  pick?: TaskPick;
}

/** What a command asks for when it needs a task: the prompt, and what it does with the one chosen. */
export interface TaskPick {
  prompt: string;
  /** A task that cannot be chosen (the selected task itself). */
  exclude: string;
  choose: (task: { task_id: string; title: string }) => void;
}

/** Files the task under `parent` (its sub-tasks and the parent's other fields stay as they are). */
export async function makeSubTaskOf(
  taskId: string,
  parent: { task_id: string; title: string },
): Promise<void> {
  try {
    const detail = await invoke('task:edit', { task_id: taskId, patch: { parent_task_id: parent.task_id } });
    announce(`“${detail.task.title}” is now a sub-task of “${parent.title}”.`);
  } catch (error) {
    showProblem(error, 'Making it a sub-task');
  }
}

/** Status shortcuts 1–4, in workflow order. */
export const STATUS_KEYS: Readonly<Record<string, string>> = {
  '1': 'not_started',
  '2': 'in_progress',
  '3': 'blocked',
  '4': 'completed',
};

/**
 * Status changes in the order the keys were pressed: completing reads the
 * task first (to ask about open sub-tasks), so a key pressed after it must
 * wait for it, or its change would reach main first and be overtaken.
 */
let statusChanges: Promise<void> = Promise.resolve();

export function setTaskStatus(status: string): Promise<void> {
  const taskId = targetTaskId();
  if (taskId === null) {
    announce('No task selected.');
    return Promise.resolve();
  }
  const change = statusChanges.then(() => changeStatus(taskId, status));
  statusChanges = change;
  return change;
}

async function changeStatus(taskId: string, status: string): Promise<void> {
  // Completing asks first when sub-tasks are open (one question for every way of completing).
  if (status === 'completed') return completeTask(taskId);
  try {
    const detail = await invoke('task:edit', { task_id: taskId, patch: { status } });
    const said = `Status of “${detail.task.title}” set to ${valueWord(status)}.`;
    announce(said);
    void offerUndo(said);
  } catch (error) {
    showProblem(error, 'Changing the status');
  }
}

export function focusSearch(): void {
  const view = useView.getState().view;
  if (view.kind === 'list') {
    focusSearchInput();
    return;
  }
  // The search lives on the list screen: go there first, then focus it once it is drawn.
  navigate({ kind: 'list', scope: { kind: 'all' } });
  requestAnimationFrame(focusSearchInput);
}

/** Moves focus into the open editor (its title), or the new-task form. */
export function focusEditor(): void {
  const field = document.querySelector<HTMLElement>(
    '[data-testid="task-editor"] [data-field="title"] input, [data-testid="task-create"] input',
  );
  field?.focus();
}

export function currentSprintId(): string | null {
  const workspace = useWorkspace.getState().workspace;
  for (const team of workspace?.teams ?? []) {
    const current = team.sprints.find((sprint) => sprint.current);
    if (current) return current.sprint_id;
  }
  return null;
}

export function buildCommands(): Command[] {
  const { workspace } = useWorkspace.getState();
  const { accounts, current } = useSession.getState();
  const commands: Command[] = [];
  const goTo = (id: string, label: string, view: View, keys?: string) =>
    commands.push({
      id,
      label,
      group: 'Go to',
      ...(keys === undefined ? {} : { keys }),
      run: () => navigate(view),
    });
  goTo('go-my', 'Go to My tasks', { kind: 'list', scope: { kind: 'my-tasks' } }, 'G M');
  goTo('go-all', 'Go to All tasks', { kind: 'list', scope: { kind: 'all' } }, 'G A');
  goTo('go-goals', 'Go to Goals', { kind: 'goals', goalId: null }, 'G O');
  goTo('go-inbox', 'Go to Inbox', { kind: 'inbox' }, 'G I');
  const sprintId = currentSprintId();
  if (sprintId !== null) goTo('go-sprint', 'Go to the current sprint', { kind: 'sprint', sprintId }, 'G S');
  for (const project of workspace?.projects ?? []) {
    const projectId = project.project_id;
    goTo(`project-${projectId}`, `Project: ${project.name}`, {
      kind: 'list',
      scope: { kind: 'project', projectId },
    });
    goTo(`milestones-${projectId}`, `Milestones: ${project.name}`, { kind: 'milestones', projectId });
  }
  for (const team of workspace?.teams ?? []) {
    const teamId = team.team_id;
    goTo(`team-${teamId}`, `Team: ${team.name}`, { kind: 'list', scope: { kind: 'team', teamId } });
    goTo(`triage-${teamId}`, `Triage: ${team.name}`, { kind: 'triage', teamId });
    for (const sprint of team.sprints) {
      const label = `Sprint: ${sprint.name} (${team.name})`;
      goTo(`sprint-${sprint.sprint_id}`, label, { kind: 'sprint', sprintId: sprint.sprint_id });
    }
  }
  const boardScopes = new Set<string>();
  for (const section of workspace?.sections ?? []) {
    const key = `${section.scope_type}:${section.scope_id}`;
    if (boardScopes.has(key)) continue;
    boardScopes.add(key);
    const name =
      section.scope_type === 'user'
        ? 'My board'
        : (workspace?.projects.find((p) => p.project_id === section.scope_id)?.name ??
          workspace?.teams.find((t) => t.team_id === section.scope_id)?.name ??
          section.scope_id);
    goTo(`board-${key}`, `Board: ${name}`, {
      kind: 'board',
      scopeType: section.scope_type,
      scopeId: section.scope_id,
    });
  }
  // A scope with no section yet has a board too: it is where its first section is added.
  const sectionless = [
    ...(workspace?.me ? [{ type: 'user', id: workspace.me.username, name: 'My board' }] : []),
    ...(workspace?.projects ?? []).map((p) => ({ type: 'project', id: p.project_id, name: p.name })),
    ...(workspace?.teams ?? []).map((t) => ({ type: 'team', id: t.team_id, name: t.name })),
  ].filter((scope) => !boardScopes.has(`${scope.type}:${scope.id}`));
  for (const scope of sectionless) {
    goTo(`board-${scope.type}:${scope.id}`, `Board: ${scope.name}`, {
      kind: 'board',
      scopeType: scope.type,
      scopeId: scope.id,
    });
  }

  commands.push(
    { id: 'new-task', label: 'New task', group: 'Tasks', keys: 'C', run: startCreating },
    { id: 'search', label: 'Search tasks', group: 'Tasks', keys: '/', run: focusSearch },
    {
      id: 'filters',
      label: 'Show all filters',
      group: 'Tasks',
      run: () => {
        setFiltersOpen(true);
        focusSearch();
      },
    },
    { id: 'clear-filters', label: 'Clear filters', group: 'Tasks', run: clearFilters },
  );
  if (targetTaskId() !== null) {
    for (const [key, status] of Object.entries(STATUS_KEYS)) {
      commands.push({
        id: `status-${status}`,
        label: `Set status: ${valueWord(status)}`,
        group: 'Selected task',
        keys: key,
        run: () => void setTaskStatus(status),
      });
    }
    const me = workspace?.me?.username;
    if (me) {
      commands.push({
        id: 'assign-me',
        label: 'Assign to me',
        group: 'Selected task',
        run: () => {
          const taskId = targetTaskId();
          if (taskId === null) return;
          invoke('task:edit', { task_id: taskId, patch: { assignee: me } })
            .then(() => announce('Assigned to you.'))
            .catch((error: unknown) => showProblem(error, 'Assigning the task'));
        },
      });
    }
    // Filing from the keyboard (the sidebar takes drops only): every sprint not completed, one not sent yet too.
    for (const team of workspace?.teams ?? []) {
      for (const sprint of team.sprints) {
        if (sprint.status === 'completed') continue;
        commands.push({
          id: `file-sprint-${sprint.sprint_id}`,
          label: `File into sprint: ${sprint.name} (${team.name})${unsentWords(isUnsent(sprint))}`,
          group: 'Selected task',
          run: () => {
            const taskId = targetTaskId();
            if (taskId !== null) void fileIntoSprint(taskId, '', sprint);
          },
        });
      }
    }
    const selected = targetTaskId();
    if (selected !== null) {
      commands.push({
        id: 'make-sub-task',
        label: 'Make sub-task of…',
        group: 'Selected task',
        run: () => undefined,
        pick: {
          prompt: 'Type the title of its parent…',
          exclude: selected,
          choose: (parent) => void makeSubTaskOf(selected, parent),
        },
      });
    }
    commands.push({
      id: 'resolve-conflict',
      label: 'Resolve the conflict of the selected task',
      group: 'Selected task',
      run: () => {
        const taskId = targetTaskId();
        if (taskId !== null) openConflict(taskId);
      },
    });
    commands.push({
      id: 'copy-link',
      label: 'Copy link to the selected task',
      group: 'Selected task',
      run: () => {
        const taskId = targetTaskId();
        if (taskId === null || taskId.startsWith('local-')) {
          announce('This task has no link until the server has it.');
          return;
        }
        void copyTaskLink(taskId);
      },
    });
    commands.push({
      id: 'open-task',
      label: 'Open the selected task',
      group: 'Selected task',
      keys: 'Enter',
      run: () => openTask(targetTaskId()),
    });
  }
  commands.push(
    { id: 'sync-now', label: 'Sync now', group: 'Sync', run: () => void syncNow() },
    {
      id: 'pending-changes',
      label: 'Show pending changes',
      group: 'Sync',
      keys: 'G P',
      run: openPendingChanges,
    },
    {
      id: 'theme-system',
      label: 'Theme: follow the system',
      group: 'Appearance',
      run: () => void setTheme('system'),
    },
    { id: 'theme-light', label: 'Theme: light', group: 'Appearance', run: () => void setTheme('light') },
    { id: 'theme-dark', label: 'Theme: dark', group: 'Appearance', run: () => void setTheme('dark') },
    {
      id: 'shortcuts',
      label: 'Keyboard shortcuts',
      group: 'Help',
      keys: '?',
      run: () => setShortcutsOpen(true),
    },
  );
  for (const account of accounts) {
    if (account.account_id === current?.account_id) continue;
    commands.push({
      id: `switch-${account.account_id}`,
      label: `Switch to ${account.username} · ${account.org_name ?? account.org_id}`,
      group: 'Accounts',
      run: () => void switchAccount(account.account_id),
    });
  }
  commands.push({
    id: 'add-account',
    label: 'Add an account',
    group: 'Accounts',
    run: () => useSession.setState({ addingAccount: true }),
  });
  if (current !== null) {
    commands.push({
      id: 'sign-out',
      label: `Sign out of ${current.username}`,
      group: 'Accounts',
      run: () => requestSignOut(current.account_id),
    });
  }
  return commands;
}

/** Commands whose label holds every word typed, in any order (case-insensitive). */
export function matchCommands(commands: readonly Command[], text: string): Command[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  return commands.filter((command) => {
    const label = `${command.group} ${command.label}`.toLowerCase();
    return words.every((word) => label.includes(word));
  });
}
