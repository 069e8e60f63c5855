// The ✕ that closes a panel or dismisses a notice: the mark alone is shown, so
// its label says to a screen reader what it closes.
export function CloseButton({
  label,
  title,
  onClick,
}: {
  /** What it closes ("Close task", "Dismiss"). */
  label: string;
  /** A longer word on hover, where closing keeps something (a draft). */
  title?: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className="button icon-button" aria-label={label} title={title} onClick={onClick}>
      ✕
    </button>
  );
}
