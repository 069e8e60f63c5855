// The question asked before a change that cannot be taken back lightly (a
// delete, completing what still has open parts, signing out with changes not
// sent): a modal alert that says what the change does, with the change focused
// first, any other way on beside it, and Cancel (or Escape) leaving all as it was.
import type { ReactNode, RefObject } from 'react';
import { ModalDialog } from './modal-dialog';

export function Question({
  label,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
  tone = 'primary',
  className,
  returnFocus,
  otherChoices,
}: {
  /** The dialog's accessible name ("Delete this goal?"). */
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the change does, in words. */
  children: ReactNode;
  /** `danger` for what removes something. */
  tone?: 'primary' | 'danger';
  /** Added to the dialog's own class. */
  className?: string;
  /** Where focus goes back when it closes, when not to the element that had it. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Buttons between the change and Cancel (another way to go on). */
  otherChoices?: ReactNode;
}) {
  return (
    <ModalDialog
      className={className === undefined ? 'confirm-dialog' : `confirm-dialog ${className}`}
      alert
      label={label}
      onClose={onCancel}
      {...(returnFocus !== undefined ? { returnFocus } : {})}
    >
      <p>{children}</p>
      <div className="confirm-actions">
        <button type="button" className={`button ${tone}`} onClick={onConfirm} autoFocus>
          {confirmLabel}
        </button>
        {otherChoices}
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}

/** The question before a delete: the delete in the danger tone. */
export function DeleteQuestion(props: Omit<Parameters<typeof Question>[0], 'tone'>) {
  return <Question {...props} tone="danger" />;
}
