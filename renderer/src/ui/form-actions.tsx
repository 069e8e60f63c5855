// The row that ends a dialog's form: its submit button (the primary one) and
// Cancel, in that order, so every form reads and tabs the same way.

export function FormActions({
  submit,
  disabled = false,
  title,
  onCancel,
}: {
  /** The submit button's words ("Save view"). */
  submit: string;
  /** The submit waits (a save under way, or a value it cannot take). */
  disabled?: boolean;
  /** The submit button's tooltip (its shortcut). */
  title?: string;
  onCancel: () => void;
}) {
  return (
    <div className="confirm-actions">
      <button type="submit" className="button primary" disabled={disabled} title={title}>
        {submit}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
