// Where the person is: which screen the main area shows, which task is open in
// the editor, and whether the command palette is up. Navigation is data, so
// the sidebar, shortcuts and the palette all move through the same calls.
import { create } from 'zustand';

/** What a task list shows before the person's own filters: the sidebar entry it came from. */
export type ListScope =
  | { kind: 'my-tasks' }
  | { kind: 'all' }
  | { kind: 'project'; projectId: string }
  | { kind: 'team'; teamId: string }
  /**
   * The list filtered by parent: one task's sub-tasks, with the list's own
   * filters and sort. The mirror answers it (the service's list has no parent
   * filter), so it cannot be saved as a view.
   */
  | { kind: 'sub-tasks'; parentId: string; parentTitle: string };

/** The sync screen's tabs. */
export type SyncTab = 'status' | 'log' | 'notifications';

export type View =
  | { kind: 'list'; scope: ListScope }
  /** Sections of one scope as columns. */
  | { kind: 'board'; scopeType: string; scopeId: string }
  | { kind: 'sprint'; sprintId: string }
  /** A team's tasks waiting for review. */
  | { kind: 'triage'; teamId: string }
  | { kind: 'goals'; goalId: string | null }
  /** One project's milestones with their progress. */
  | { kind: 'milestones'; projectId: string }
  /** A saved view's rows, as it was saved. */
  | { kind: 'saved-view'; viewId: string }
  | { kind: 'sync'; tab: SyncTab }
  /** What happened to the person's work (issue 25). */
  | { kind: 'inbox' };

export interface ViewState {
  view: View;
  /** The task open in the editor (null: none). */
  openTaskId: string | null;
  /** The list's active row (keyboard focus): what status shortcuts change when no task is open. */
  selectedTaskId: string | null;
  /** The editor opened to create a task. */
  creating: boolean;
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  /** Said by the polite live region (what a shortcut just did). */
  announcement: string;
}

export const useView = create<ViewState>(() => ({
  view: { kind: 'list', scope: { kind: 'my-tasks' } },
  openTaskId: null,
  selectedTaskId: null,
  creating: false,
  paletteOpen: false,
  shortcutsOpen: false,
  announcement: '',
}));

export function announce(text: string): void {
  useView.setState({ announcement: text });
}

/**
 * Which screen a view is on: a goal chosen on the goals screen, or a tab of the sync screen, is the
 * same screen; another list, board, sprint or project's milestones is another.
 */
function screenOf(view: View): string {
  if (view.kind === 'goals' || view.kind === 'sync') return view.kind;
  return JSON.stringify(view);
}

/** Shows another view; the open task closes when the screen changes, as it belongs to the one left. */
export function navigate(view: View): void {
  const leaving = screenOf(useView.getState().view) !== screenOf(view);
  useView.setState(leaving ? { view, creating: false, openTaskId: null } : { view, creating: false });
}

/** The view on show under the id the server gave what it shows: nothing else changes. */
export function followViewRemap(view: View): void {
  useView.setState({ view });
}

/**
 * Temporary ids the server replaced lately, each with the server's: a task created here is opened
 * under the id task:create answered, and its push may have been answered (and its id replaced)
 * before that answer reached the page, so opening it looks here first.
 */
const replacedIds = new Map<string, string>();
/** Replaced ids remembered: far more than a person creates between two answers. */
const REPLACED_IDS_KEPT = 200;

/**
 * A sprint, goal or saved view created here is shown under its temporary id until the server
 * names it; the view on show follows each id replaced, and so do the open and the selected task.
 * Followed here, for whatever is on show, not by the screen: a screen's code loads when it is
 * first drawn (the task editor subscribes after it is drawn), and a change sent at once can be
 * answered before that screen listens: the editor of a task just created read its temporary id
 * after the push had replaced it and said "This task is no longer here".
 */
export function followRemapsOfView(remaps: readonly { from: string; to: string }[]): void {
  for (const { from, to } of remaps) {
    replacedIds.set(from, to);
    followRemap(from, to);
  }
  for (const oldest of replacedIds.keys()) {
    if (replacedIds.size <= REPLACED_IDS_KEPT) break;
    replacedIds.delete(oldest);
  }
  const { view } = useView.getState();
  const renamed = (id: string | null) => remaps.find((r) => r.from === id)?.to;
  let to: string | undefined;
  if (view.kind === 'sprint' && (to = renamed(view.sprintId)) !== undefined)
    followViewRemap({ kind: 'sprint', sprintId: to });
  else if (view.kind === 'goals' && (to = renamed(view.goalId)) !== undefined)
    followViewRemap({ kind: 'goals', goalId: to });
  else if (view.kind === 'saved-view' && (to = renamed(view.viewId)) !== undefined)
    followViewRemap({ kind: 'saved-view', viewId: to });
}

export function openTask(taskId: string | null): void {
  useView.setState({
    openTaskId: taskId === null ? null : (replacedIds.get(taskId) ?? taskId),
    creating: false,
  });
}

export function selectTask(taskId: string | null): void {
  if (useView.getState().selectedTaskId !== taskId) useView.setState({ selectedTaskId: taskId });
}

/** The task a shortcut acts on: the open one, else the list's active row. */
export function targetTaskId(): string | null {
  const { openTaskId, selectedTaskId } = useView.getState();
  return openTaskId ?? selectedTaskId;
}

export function startCreating(): void {
  useView.setState({ creating: true, openTaskId: null });
}

export function setPaletteOpen(open: boolean): void {
  useView.setState({ paletteOpen: open });
}

export function setShortcutsOpen(open: boolean): void {
  useView.setState({ shortcutsOpen: open });
}

/** Follows a task whose temporary id the server replaced. */
export function followRemap(from: string, to: string): void {
  const { openTaskId, selectedTaskId } = useView.getState();
  if (openTaskId === from) useView.setState({ openTaskId: to });
  if (selectedTaskId === from) useView.setState({ selectedTaskId: to });
}

export function sameView(a: View, b: View): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
