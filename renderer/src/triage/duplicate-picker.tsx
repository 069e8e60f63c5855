// "Duplicate of…": the person types part of the original's title and picks it
// from the mirror's matches (any task but this one, offline too); ↑/↓ move,
// Enter chooses, Escape leaves the task pending.
import { type KeyboardEvent, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { useBridgeRead } from '../data/use-bridge-read';
import { ModalDialog } from '../ui/modal-dialog';

/** How many matches are offered: enough to pick from, few enough to read. */
const MATCHES = 20;

export function DuplicatePicker({
  row,
  onChoose,
  onClose,
}: {
  row: TaskRow;
  onChoose: (original: TaskRow) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const words = text.trim();
  const read = useBridgeRead(
    'tasks:query',
    words === ''
      ? null
      : {
          query: {
            filter: { search: words, search_fields: 'title' },
            sort_by: 'title',
            sort_order: 'asc',
          },
          limit: MATCHES + 1,
          list: 'triage-duplicate',
        },
    { keepPrevious: true },
  );
  const matches = words === '' ? [] : (read.data?.rows ?? []).filter((r) => r.task_id !== row.task_id);
  const shown = matches.slice(0, MATCHES);
  const current = Math.min(active, shown.length - 1);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(Math.max(0, Math.min(shown.length - 1, current + step)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = shown[current];
      if (chosen !== undefined) onChoose(chosen);
    }
  };
  const optionId = (taskId: string) => `triage-original-${taskId}`;
  const activeRow = shown[current];
  return (
    <ModalDialog className="triage-duplicate" label={`Duplicate of… (${row.title})`} onClose={onClose}>
      <h2>‘{row.title}’ is a duplicate of…</h2>
      <label htmlFor="triage-original">Original task</label>
      <input
        id="triage-original"
        type="text"
        role="combobox"
        aria-expanded={shown.length > 0}
        aria-controls="triage-originals"
        aria-activedescendant={activeRow ? optionId(activeRow.task_id) : undefined}
        autoComplete="off"
        autoFocus
        value={text}
        placeholder="Type part of its title"
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id="triage-originals" role="listbox" aria-label="Matching tasks" className="triage-originals">
        {shown.map((match, index) => (
          <li
            key={match.task_id}
            id={optionId(match.task_id)}
            role="option"
            aria-selected={index === current}
            className={index === current ? 'is-active' : undefined}
            onClick={() => onChoose(match)}
          >
            <span className="title-text">{match.title}</span>
            <span className="muted">{match.task_id}</span>
          </li>
        ))}
      </ul>
      {words !== '' && !read.loading && shown.length === 0 ? (
        <p className="muted">No other task has that in its title.</p>
      ) : null}
      <div className="confirm-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
