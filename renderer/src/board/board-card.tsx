// One card of the board: opens its task; dragged to a place in any column, or
// moved with Alt+arrows while focused (up/down in its section, left/right to
// the next section) and with the same four moves as buttons. Shift+click,
// Ctrl/Cmd+click and Shift+J/K select it with others for a bulk change.
import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { selectTask } from '../store/view-store';
import { carryTask } from '../ui/task-drag';
import { TaskCardFace } from '../ui/task-card';
import { noticeRefusals, useFileDrop } from '../ui/file-drop';

/** Where a card goes by keyboard or button. */
export type CardStep = 'up' | 'down' | 'left' | 'right';

const STEP_KEYS: Readonly<Record<string, CardStep>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

export function BoardCard({
  row,
  open,
  selected,
  onPick,
  onExtend,
  readOnly,
  previousName,
  nextName,
  first,
  last,
  dropMark,
  onStep,
  onDragStart,
  onDragEnd,
  onDragOver,
}: {
  row: TaskRow;
  open: boolean;
  /** Part of the board's selection, for a bulk change. */
  selected: boolean;
  /** A click, with its modifiers: plain opens the task, Shift selects a range, Ctrl/Cmd toggles it. */
  onPick: (event: MouseEvent) => void;
  /** Shift+J/K: the selection runs on to the next or previous card. */
  onExtend: (by: 1 | -1) => void;
  readOnly: boolean;
  /** The neighbouring sections' names (null at the board's edges). */
  previousName: string | null;
  nextName: string | null;
  first: boolean;
  last: boolean;
  /** A card dragged over the board would land just before or after this one. */
  dropMark: 'before' | 'after' | null;
  onStep: (step: CardStep) => void;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDragOver: (event: DragEvent<HTMLLIElement>) => void;
}) {
  // Files dropped on a card are attached to its task; a card dragged over it still finds its place.
  const drop = useFileDrop(row.task_id, noticeRefusals, { onDragOver });
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && /^[jk]$/i.test(event.key)) {
      event.preventDefault();
      onExtend(event.key.toLowerCase() === 'j' ? 1 : -1);
      return;
    }
    if (!event.altKey || event.shiftKey || event.ctrlKey || event.metaKey || readOnly) return;
    const step = STEP_KEYS[event.key];
    if (step === undefined) return;
    event.preventDefault();
    onStep(step);
  };
  const moves: { step: CardStep; label: string; glyph: string; shown: boolean }[] = [
    { step: 'left', label: `Move to ${previousName ?? ''}`, glyph: '◀', shown: previousName !== null },
    { step: 'up', label: 'Move up', glyph: '▲', shown: !first },
    { step: 'down', label: 'Move down', glyph: '▼', shown: !last },
    { step: 'right', label: `Move to ${nextName ?? ''}`, glyph: '▶', shown: nextName !== null },
  ];
  return (
    <li
      className={`card${open ? ' is-open' : ''}${selected ? ' is-selected' : ''}${dropMark ? ` drop-${dropMark}` : ''}${drop.over ? ' is-file-target' : ''}`}
      draggable={!readOnly}
      onDragStart={(event) => {
        // The task's id rides along too: dropped on a sprint in the sidebar, the card files its task there.
        carryTask(event, row.task_id, row.title);
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      {...drop.handlers}
      data-task-id={row.task_id}
    >
      <button
        type="button"
        className="card-open"
        onClick={onPick}
        // The focused card is the selected task, as the list's active row is: the palette's
        // "Selected task" commands ("File into sprint: …", a drop on the sidebar's sprint from
        // the keyboard) act on it, not on the active row of a list no longer shown.
        onFocus={() => selectTask(row.task_id)}
        onKeyDown={onKeyDown}
        {...(readOnly
          ? {}
          : { 'aria-keyshortcuts': 'Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight' })}
      >
        {selected ? <span className="visually-hidden">Selected: </span> : null}
        <TaskCardFace row={row} />
      </button>
      {!readOnly ? (
        <span className="card-moves">
          {moves
            .filter((move) => move.shown)
            .map((move) => (
              <button
                key={move.step}
                type="button"
                className="icon-button small"
                aria-label={move.label}
                onClick={() => onStep(move.step)}
              >
                {move.glyph}
              </button>
            ))}
        </span>
      ) : null}
    </li>
  );
}
