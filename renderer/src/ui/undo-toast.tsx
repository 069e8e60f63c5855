// The toast after a one-key or bulk change: what was done and a button that
// undoes it (main's label says what that does: a sent delete comes back as a
// new task). It goes after a while, when dismissed, or replaced by the next change.
import { useEffect } from 'react';
import { dismissUndo, undoOrRedo, useUndo } from '../store/undo-store';
import './undo-toast.css';

/** How long the toast stays. */
const TOAST_MS = 10_000;

export function UndoToast() {
  const offer = useUndo((state) => state.offer);
  useEffect(() => {
    if (offer === null) return;
    // Out of the way after a while, as toasts go; Ctrl/Cmd+Z still undoes.
    const timer = setTimeout(dismissUndo, TOAST_MS);
    return () => clearTimeout(timer);
  }, [offer]);
  if (offer === null) return null;
  return (
    <div className="change-bar undo-toast" role="group" aria-label="Last change" data-testid="undo-toast">
      <span>{offer.text}</span>
      <button type="button" onClick={() => void undoOrRedo('undo')} title={offer.label}>
        {offer.label.includes(':') ? offer.label : 'Undo'}
      </button>
      <button type="button" aria-label="Dismiss" onClick={dismissUndo}>
        ×
      </button>
    </div>
  );
}
