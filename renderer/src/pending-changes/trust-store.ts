// Which of the sync-trust dialogs is up: the pending-changes inspector, or the
// conflict view of one task. Kept apart from the view store so that these
// screens come and go without touching navigation.
import { create } from 'zustand';

export interface TrustState {
  inspectorOpen: boolean;
  /** The task whose conflicts are shown (null: none). */
  conflictTaskId: string | null;
}

export const useTrust = create<TrustState>(() => ({ inspectorOpen: false, conflictTaskId: null }));

export function openPendingChanges(): void {
  useTrust.setState({ inspectorOpen: true, conflictTaskId: null });
}

export function closePendingChanges(): void {
  useTrust.setState({ inspectorOpen: false });
}

export function openConflict(taskId: string): void {
  useTrust.setState({ conflictTaskId: taskId, inspectorOpen: false });
}

export function closeConflict(): void {
  useTrust.setState({ conflictTaskId: null });
}
