// Undo and redo as the renderer asks them: the stack itself lives in main
// (db/undo/undo-history.ts), so every screen shows the same one; here only the
// toast offered after a one-key or bulk change, with what its Undo would do,
// and an undo of many tasks followed as the bulk change it is.
import { create } from 'zustand';
import { invoke } from '../bridge/svc';
import { setRunningChange } from './selection-store';
import { showProblem } from './session-store';
import { announce } from './view-store';

export interface UndoOffer {
  /** What was just done ("Status set to Blocked"). */
  text: string;
  /** What Undo would do now, as main labels it ("Undo status change"). */
  label: string;
}

export const useUndo = create<{ offer: UndoOffer | null }>(() => ({ offer: null }));

/** After a change of the person's: the toast offers its undo, labelled by main. */
export async function offerUndo(text: string): Promise<void> {
  try {
    const labels = await invoke('undo:labels');
    useUndo.setState({ offer: labels.undo === null ? null : { text, label: labels.undo } });
  } catch {
    // No toast is no loss: Ctrl/Cmd+Z still undoes.
    useUndo.setState({ offer: null });
  }
}

export function dismissUndo(): void {
  useUndo.setState({ offer: null });
}

/** Undoes (or redoes) the last change through main and says what happened. */
export async function undoOrRedo(way: 'undo' | 'redo'): Promise<void> {
  useUndo.setState({ offer: null });
  try {
    const result = await invoke(way === 'undo' ? 'undo:undo' : 'undo:redo');
    announce(result.done === null ? `Nothing to ${way}.` : `${result.done}: done.`);
    // A step of many tasks goes out as a bulk change does: the bar follows it, "N of M sent", with Stop.
    if (result.batch !== null && result.done !== null)
      setRunningChange({ batchId: result.batch.batch_id, label: result.done, queued: result.batch.queued });
  } catch (error) {
    showProblem(error, way === 'undo' ? 'Undoing the change' : 'Redoing the change');
  }
}
