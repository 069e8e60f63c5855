// Which of the sync-trust dialogs is up: the pending-changes inspector, or the
// conflict view of one resource (a task, a comment, a section, ...). Kept apart
// from the view store so that these screens come and go without touching navigation.
import { create } from 'zustand';
import type { ConflictTarget } from '../../../ipc/outbox-schemas';

export interface TrustState {
  inspectorOpen: boolean;
  /** Whose conflicts are shown: a task's, or another kind's resource by kind and id (null: none). */
  conflict: ConflictTarget | null;
}

export const useTrust = create<TrustState>(() => ({ inspectorOpen: false, conflict: null }));

export function openPendingChanges(): void {
  useTrust.setState({ inspectorOpen: true, conflict: null });
}

export function closePendingChanges(): void {
  useTrust.setState({ inspectorOpen: false });
}

/** The conflict view of a task. */
export function openConflict(taskId: string): void {
  openConflictOf({ task_id: taskId });
}

/** The conflict view of any kind's resource (a task's as `{task_id}` or `{entity_type: 'task', …}`). */
export function openConflictOf(target: ConflictTarget): void {
  const conflict =
    'entity_type' in target && target.entity_type === 'task' ? { task_id: target.entity_id } : target;
  useTrust.setState({ conflict, inspectorOpen: false });
}

/** A stable key of a target, for a dialog that must start afresh when it changes. */
export function conflictKey(target: ConflictTarget): string {
  return 'task_id' in target ? `task:${target.task_id}` : `${target.entity_type}:${target.entity_id}`;
}

export function closeConflict(): void {
  useTrust.setState({ conflict: null });
}
