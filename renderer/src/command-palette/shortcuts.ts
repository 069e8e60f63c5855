// The keyboard shortcuts: Ctrl/Cmd+K anywhere; the rest only when the person
// is not typing in a field. "G then a letter" moves between screens, 1–4 set
// the status of the selected task, C creates, / searches, ? lists them all.
import { useEffect } from 'react';
import {
  navigate,
  openTask,
  setPaletteOpen,
  setShortcutsOpen,
  startCreating,
  useView,
} from '../store/view-store';
import { openPendingChanges } from '../store/trust-store';
import { undoOrRedo } from '../store/undo-store';
import { focusList, stepListFromPage } from '../task-list/list-focus';
import { currentSprintId, focusEditor, focusSearch, setTaskStatus, STATUS_KEYS } from './commands';

export interface ShortcutHelp {
  keys: string;
  does: string;
}

export const SHORTCUTS: readonly ShortcutHelp[] = [
  { keys: 'Ctrl/⌘ K', does: 'Command palette' },
  { keys: '/', does: 'Search tasks' },
  { keys: 'C', does: 'New task' },
  { keys: '↑ ↓ or J K', does: 'Move in the list' },
  { keys: 'Page Up / Page Down, Home / End', does: 'Jump in the list' },
  { keys: 'Enter or O', does: 'Open the selected task' },
  { keys: 'E', does: 'Edit the open task (focus its title)' },
  { keys: 'Esc', does: 'Close the task, back to the list' },
  { keys: 'Shift click', does: 'Select the tasks from the one clicked last (list or board)' },
  { keys: 'Ctrl/⌘ click', does: 'Add a task to the selection, or take it out' },
  { keys: 'Shift J / Shift K', does: 'Extend the selection down or up' },
  { keys: 'Ctrl/⌘ A', does: 'Select every task the search and filters match' },
  { keys: '1 2 3 4', does: 'Status: Not started, In progress, Blocked, Done' },
  { keys: '1 2 3 in a team’s triage', does: 'Accept, decline, duplicate of…' },
  { keys: 'Ctrl/⌘ Z', does: 'Undo your last change' },
  { keys: 'Shift Ctrl/⌘ Z or Ctrl Y', does: 'Redo what was undone' },
  { keys: 'G M', does: 'Go to My tasks' },
  { keys: 'G A', does: 'Go to All tasks' },
  { keys: 'G O', does: 'Go to Goals' },
  { keys: 'G S', does: 'Go to the current sprint' },
  { keys: 'G L', does: 'Focus the task list' },
  { keys: 'G P', does: 'Pending changes (what is not yet saved on the server)' },
  { keys: 'Alt ← / Alt →', does: 'Move a board card to the previous or next section' },
  { keys: 'Alt ↑ / Alt ↓', does: 'Move a board card up or down in its section' },
  { keys: 'Alt ← / Alt → on a column header', does: 'Move the section left or right' },
  { keys: '?', does: 'This list' },
];

/** Typing in a field: single-letter shortcuts must not steal the keys. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

const GO_KEYS: Readonly<Record<string, () => void>> = {
  m: () => navigate({ kind: 'list', scope: { kind: 'my-tasks' } }),
  a: () => navigate({ kind: 'list', scope: { kind: 'all' } }),
  o: () => navigate({ kind: 'goals', goalId: null }),
  i: () => navigate({ kind: 'inbox' }),
  s: () => {
    const sprintId = currentSprintId();
    if (sprintId !== null) navigate({ kind: 'sprint', sprintId });
  },
  l: focusList,
  p: openPendingChanges,
};

export function useGlobalShortcuts(): void {
  useEffect(() => {
    let goPending = false;
    let goTimer: ReturnType<typeof setTimeout> | null = null;

    const onKeyDown = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen(!useView.getState().paletteOpen);
        return;
      }
      const state = useView.getState();
      if (state.paletteOpen) return;
      // In a field the field's own undo runs; elsewhere the person's last change is undone.
      const key = event.key.toLowerCase();
      if (
        mod &&
        !event.altKey &&
        (key === 'z' || (key === 'y' && event.ctrlKey)) &&
        !isTyping(event.target)
      ) {
        event.preventDefault();
        void undoOrRedo(key === 'z' && !event.shiftKey ? 'undo' : 'redo');
        return;
      }
      if (event.key === 'Escape') {
        if (state.shortcutsOpen) {
          setShortcutsOpen(false);
          event.preventDefault();
        } else if (state.openTaskId !== null || state.creating) {
          openTask(null);
          event.preventDefault();
          requestAnimationFrame(focusList);
        }
        return;
      }
      if (mod || event.altKey || event.defaultPrevented || isTyping(event.target)) return;

      if (goPending) {
        goPending = false;
        if (goTimer !== null) clearTimeout(goTimer);
        const go = GO_KEYS[event.key.toLowerCase()];
        if (go) {
          event.preventDefault();
          go();
        }
        return;
      }
      const status = STATUS_KEYS[event.key];
      if (status !== undefined) {
        event.preventDefault();
        void setTaskStatus(status);
        return;
      }
      switch (event.key) {
        case 'g':
          goPending = true;
          goTimer = setTimeout(() => {
            goPending = false;
          }, 1500);
          event.preventDefault();
          break;
        case '/':
          event.preventDefault();
          focusSearch();
          break;
        case 'c':
          event.preventDefault();
          startCreating();
          break;
        case 'e':
          event.preventDefault();
          focusEditor();
          break;
        case '?':
          event.preventDefault();
          setShortcutsOpen(true);
          break;
        case 'j':
        case 'k':
          // Pressed on the list, the list moved already (and took the key); elsewhere it moves from
          // here, but not from inside a dialog, which keeps the focus while it is up.
          if (event.target instanceof Element && event.target.closest('dialog') !== null) break;
          if (stepListFromPage(event.key === 'j' ? 1 : -1)) event.preventDefault();
          break;
        default:
          break;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (goTimer !== null) clearTimeout(goTimer);
    };
  }, []);
}
