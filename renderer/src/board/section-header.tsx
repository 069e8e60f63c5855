// A board column's header: the section's name (renamed in place: Enter saves,
// Escape cancels), its card count and its waiting-change mark, and its moves:
// dragged by the header, Alt+←/→ while focus is in it, or the buttons; and
// delete, which asks first (the owner shows that question).
import { type DragEvent, type KeyboardEvent, type ReactNode, type Ref, useRef, useState } from 'react';
import { SECTION_NAME_MAX } from '../../../protocol/section';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { markOfState } from '../vocabulary/sync-mark-words';
import { type PendingState, sectionNameProblem } from '../vocabulary/section-words';

/** The two moves' buttons: the step, its glyph and the arrow of its Alt shortcut. */
const MOVES = [
  { step: 'left', glyph: '◀', arrow: '←' },
  { step: 'right', glyph: '▶', arrow: '→' },
] as const;

export function SectionHeader({
  name,
  pending,
  count,
  readOnly,
  first,
  last,
  otherNames,
  onRename,
  onMove,
  onDelete,
  onDragStart,
  onDragEnd,
}: {
  name: string;
  pending: PendingState | undefined;
  count: number;
  readOnly: boolean;
  first: boolean;
  last: boolean;
  /** The other sections' names in this scope (a name is unique in its scope: the service answers 409). */
  otherNames: readonly string[];
  onRename: (name: string) => void;
  /** `action`: the control that had the focus (data-action), to give it back after the move. */
  onMove: (step: 'left' | 'right', action: string) => void;
  onDelete: () => void;
  onDragStart: () => void;
  onDragEnd: () => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  // Set while the field is open: Enter or Escape ends it once, and a blur as it goes saves nothing more.
  const editing = useRef(false);
  const renameButton = useRef<HTMLButtonElement>(null);

  const problem = draft === null ? null : sectionNameProblem(draft, otherNames);
  const open = () => {
    editing.current = true;
    setDraft(name);
  };
  const close = () => {
    editing.current = false;
    setDraft(null);
    // Back where the rename began, once the field is gone.
    setTimeout(() => renameButton.current?.focus(), 0);
  };
  const save = () => {
    if (draft === null || !editing.current || problem !== null) return;
    const next = draft.trim();
    if (next !== name) onRename(next);
    close();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (readOnly || draft !== null || !event.altKey || event.shiftKey || event.ctrlKey || event.metaKey)
      return;
    const action = event.target instanceof HTMLElement ? (event.target.dataset.action ?? 'rename') : 'rename';
    if (event.key === 'ArrowLeft' && !first) {
      event.preventDefault();
      onMove('left', action);
    } else if (event.key === 'ArrowRight' && !last) {
      event.preventDefault();
      onMove('right', action);
    }
  };
  const mark = markOfState(pending);

  return (
    <header
      className="column-header"
      draggable={!readOnly && draft === null}
      onDragStart={(event: DragEvent) => {
        event.dataTransfer.setData('text/plain', name);
        event.dataTransfer.effectAllowed = 'move';
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      onKeyDown={onKeyDown}
    >
      {draft === null ? (
        <h2 className="column-title">
          <span className="column-name">{name}</span> <span className="muted">{count}</span>
          {mark !== null ? <SyncMarkBadge mark={mark} kinds="sections" /> : null}
        </h2>
      ) : (
        <div className="column-rename">
          <input
            autoFocus
            onFocus={(event) => event.currentTarget.select()}
            className="column-name-input"
            aria-label={`Rename section ${name}`}
            aria-invalid={problem !== null}
            aria-describedby={problem !== null ? 'section-name-problem' : undefined}
            value={draft}
            maxLength={SECTION_NAME_MAX}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                save();
              } else if (event.key === 'Escape') {
                // The field's own Escape: it must not also close the editor or a dialog behind.
                event.preventDefault();
                event.stopPropagation();
                close();
              }
            }}
            onBlur={() => {
              // Leaving the field keeps what was typed, when it can be kept; an error stays open to fix.
              if (problem === null) save();
            }}
          />
          {problem !== null ? (
            <p className="column-problem" id="section-name-problem" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      )}
      {!readOnly && draft === null ? (
        <span className="column-actions" aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight">
          <ColumnAction
            ref={renameButton}
            action="rename"
            label={`Rename section ${name}`}
            title="Rename"
            onClick={open}
          >
            ✎
          </ColumnAction>
          {MOVES.map(({ step, glyph, arrow }) => (
            <ColumnAction
              key={step}
              action={`move-${step}`}
              label={`Move section ${name} ${step}`}
              title={`Move section ${step} (Alt+${arrow})`}
              disabled={step === 'left' ? first : last}
              onClick={() => onMove(step, `move-${step}`)}
            >
              {glyph}
            </ColumnAction>
          ))}
          <ColumnAction
            action="delete"
            label={`Delete section ${name}`}
            title="Delete section"
            onClick={onDelete}
          >
            ✕
          </ColumnAction>
        </span>
      ) : null}
    </header>
  );
}

/** One of a column's small icon buttons; `action` (data-action) names it so a move can give the focus back. */
function ColumnAction({
  ref,
  action,
  label,
  title,
  disabled,
  onClick,
  children,
}: {
  ref?: Ref<HTMLButtonElement>;
  action: string;
  label: string;
  title: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className="icon-button small"
      data-action={action}
      aria-label={label}
      title={title}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
