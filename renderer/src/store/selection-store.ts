// The tasks a person picked to change at once, in the list or on the board:
// click, Shift+click for a range, Ctrl/Cmd+click to toggle, Shift+J/K to
// extend, Ctrl/Cmd+A for everything the list's query matches. "Everything" is
// the query and the tasks taken out of it, never its ids: main resolves it
// (tasks:bulk-edit), so 100 000 tasks are never loaded into the page.
import { create } from 'zustand';
import type { BulkTargetInput } from '../../../ipc/bulk-schemas';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';

/** The id of the row at an index of the list on screen, or undefined while its page is not loaded. */
export type IdAt = (index: number) => string | undefined;

export type Selection =
  | {
      kind: 'ids';
      ids: ReadonlySet<string>;
      /** Where a range starts (Shift+click, Shift+J/K): the row last clicked or toggled. */
      anchor: number | null;
    }
  | {
      kind: 'all';
      /** The list's query when everything was selected: a new query is a new list. */
      query: TaskListQueryInput;
      /** The parent whose sub-tasks the list showed (the list filtered by parent). */
      parent: string | undefined;
      /** Tasks toggled out since. */
      except: ReadonlySet<string>;
      anchor: number | null;
    };

export const NOTHING_SELECTED: Selection = { kind: 'ids', ids: new Set(), anchor: null };

export function isSelected(selection: Selection, taskId: string): boolean {
  return selection.kind === 'ids' ? selection.ids.has(taskId) : !selection.except.has(taskId);
}

/** How many tasks are selected; `total` is what the list's query matches (null while it is counted). */
export function selectedCount(selection: Selection, total: number | null): number | null {
  if (selection.kind === 'ids') return selection.ids.size;
  return total === null ? null : Math.max(0, total - selection.except.size);
}

export function isEmpty(selection: Selection): boolean {
  return selection.kind === 'ids' && selection.ids.size === 0;
}

/** The rows from `from` to `to` (either order) whose ids are loaded. */
function rangeIds(from: number, to: number, idAt: IdAt): Set<string> {
  const ids = new Set<string>();
  for (let index = Math.min(from, to); index <= Math.max(from, to); index++) {
    const id = idAt(index);
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

/** Ctrl/Cmd+click: the row joins the selection or leaves it; it becomes the anchor. */
export function toggled(selection: Selection, index: number, taskId: string): Selection {
  if (selection.kind === 'all') {
    const except = new Set(selection.except);
    if (except.has(taskId)) except.delete(taskId);
    else except.add(taskId);
    return { ...selection, except, anchor: index };
  }
  const ids = new Set(selection.ids);
  if (ids.has(taskId)) ids.delete(taskId);
  else ids.add(taskId);
  return { kind: 'ids', ids, anchor: index };
}

/**
 * Shift+click, Shift+J/K: the rows from the anchor (else `from`, the active
 * row) to `index` are the selection; the anchor stays where it was, so the
 * range grows and shrinks as the person moves on.
 */
export function extendedTo(selection: Selection, from: number, index: number, idAt: IdAt): Selection {
  const anchor = selection.anchor ?? from;
  return { kind: 'ids', ids: rangeIds(anchor, index, idAt), anchor };
}

/** Ctrl/Cmd+A: everything the list's query matches. */
export function everything(query: TaskListQueryInput, parent?: string): Selection {
  return { kind: 'all', query, parent, except: new Set(), anchor: null };
}

/** What tasks:bulk-edit is asked to change. */
export function bulkTarget(selection: Selection): BulkTargetInput {
  return selection.kind === 'ids'
    ? { task_ids: [...selection.ids] }
    : {
        query: selection.query,
        except: [...selection.except],
        ...(selection.parent === undefined ? {} : { parent: selection.parent }),
      };
}

/** A bulk change sent from the bar: its id and how many tasks it took, while its progress is followed. */
export interface RunningChange {
  batchId: string;
  /** "Set status to Completed", for the bar's line. */
  label: string;
  queued: number;
}

interface SelectionState {
  selection: Selection;
  /** Where the selection was made: the list and the board each keep their own. */
  surface: 'list' | 'board' | null;
  running: RunningChange | null;
}

export const useSelection = create<SelectionState>(() => ({
  selection: NOTHING_SELECTED,
  surface: null,
  running: null,
}));

export function setSelection(surface: 'list' | 'board', selection: Selection): void {
  useSelection.setState({ selection, surface });
}

export function clearSelection(): void {
  useSelection.setState({ selection: NOTHING_SELECTED, surface: null });
}

export function setRunningChange(running: RunningChange | null): void {
  useSelection.setState({ running });
}
