// The question asked before a delete: a modal alert that says what the delete
// does, with the delete focused first and Cancel (or Escape) leaving all as it was.
import type { ReactNode } from 'react';
import { ModalDialog } from './modal-dialog';

export function DeleteQuestion({
  label,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
}: {
  /** The dialog's accessible name ("Delete this goal?"). */
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the delete does, in words. */
  children: ReactNode;
}) {
  return (
    <ModalDialog className="confirm-dialog" alert label={label} onClose={onCancel}>
      <p>{children}</p>
      <div className="confirm-actions">
        <button type="button" className="button danger" onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
