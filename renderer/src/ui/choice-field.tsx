// The task editor's select of one record (project, team, section, sprint,
// goal, milestone): "none" when the field may be empty, the task's current
// value kept visible when it is not among the options (another project's,
// still loading, or gone from the mirror: never silently changed), then the
// options. Apart so that the editor's fields and the Goal and Milestone
// choices keep an unlisted value in one way.
import { valueWord } from '../vocabulary/task-words';

export interface ChoiceOption {
  value: string;
  label: string;
}

/** What the Goal and Milestone choices take from the editor. */
export interface ProjectItemChoiceProps {
  id: string;
  projectId: string | null;
  value: string | null;
  disabled: boolean;
  onSave: (value: string | null) => void;
}

export function ChoiceField({
  id,
  value,
  options,
  onSave,
  disabled,
  emptyLabel,
  title,
  keptLabel = valueWord,
  autoFocus = false,
}: {
  id: string;
  value: string | null;
  options: readonly ChoiceOption[];
  onSave: (value: string | null) => void;
  disabled: boolean;
  /** Offer "none" (null) under this label; absent: a value is required. */
  emptyLabel?: string;
  title?: string | undefined;
  /** The label of a value the options do not hold. */
  keptLabel?: (value: string) => string;
  /** Focused when it appears (the first field of a form). */
  autoFocus?: boolean;
}) {
  const known = value === null || options.some((option) => option.value === value);
  return (
    <select
      id={id}
      value={value ?? ''}
      disabled={disabled}
      title={title}
      autoFocus={autoFocus}
      onChange={(event) => onSave(event.target.value === '' ? null : event.target.value)}
    >
      {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
      {!known && value !== null ? <option value={value}>{keptLabel(value)}</option> : null}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
