// The command palette (Ctrl/Cmd+K): a modal combobox over every command and
// the tasks whose title matches what is typed. Arrow keys choose, Enter runs,
// Escape closes and gives focus back to where it was.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { useBridgeRead } from '../data/use-bridge-read';
import { ModalDialog } from '../ui/modal-dialog';
import { openTask, setPaletteOpen, useView } from '../store/view-store';
import { valueWord } from '../vocabulary/task-words';
import { buildCommands, type Command, matchCommands, type TaskPick } from './commands';
import './command-palette.css';

const TASK_RESULTS = 6;

function useTaskMatches(text: string): readonly TaskRow[] {
  const term = text.trim();
  const read = useBridgeRead(
    'tasks:query',
    term.length < 2
      ? null
      : {
          query: { filter: { search: term, search_fields: 'title' }, sort_by: 'title', sort_order: 'asc' },
          limit: TASK_RESULTS,
        },
  );
  // A failed search finds no task; an answer for what is no longer typed is not shown.
  return read.data?.rows ?? [];
}

function PaletteDialog() {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  // A command that needs a task chosen ("Make sub-task of…"): the palette then offers tasks alone.
  const [picking, setPicking] = useState<TaskPick | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const commands = useMemo(() => buildCommands(), []);
  const matches = picking === null ? matchCommands(commands, text) : [];
  const tasks = useTaskMatches(text);
  const options: Command[] = [
    ...matches,
    ...tasks
      .filter((row) => row.task_id !== picking?.exclude)
      .map((row) => ({
        id: `task-${row.task_id}`,
        label: row.title,
        group:
          picking === null ? `Open task · ${valueWord(row.status)}` : `Choose · ${valueWord(row.status)}`,
        run: () => (picking === null ? openTask(row.task_id) : picking.choose(row)),
      })),
  ];
  const prompt = picking?.prompt ?? 'Type a command or a task title…';
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));

  useEffect(() => {
    document.getElementById(`palette-option-${activeIndex}`)?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex]);

  const runOption = (option: Command | undefined) => {
    if (!option) return;
    if (option.pick) {
      setPicking(option.pick);
      setText('');
      setActive(0);
      return;
    }
    setPaletteOpen(false);
    option.run();
  };

  return (
    <ModalDialog
      className="palette"
      label="Command palette"
      initialFocus={inputRef}
      onClose={() => setPaletteOpen(false)}
    >
      <input
        ref={inputRef}
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-options"
        aria-autocomplete="list"
        aria-activedescendant={options.length > 0 ? `palette-option-${activeIndex}` : undefined}
        aria-label={prompt.replace(/…$/, '')}
        placeholder={prompt}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setActive((activeIndex + 1) % Math.max(options.length, 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((activeIndex - 1 + options.length) % Math.max(options.length, 1));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            runOption(options[activeIndex]);
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            setPaletteOpen(false);
          } else if (event.key === 'Tab') {
            // The dialog holds focus: there is nothing else in it to reach.
            event.preventDefault();
          }
        }}
      />
      <ul id="palette-options" role="listbox" aria-label="Commands" className="palette-options">
        {options.length === 0 ? (
          <li className="muted palette-empty">
            {picking !== null && text.trim().length < 2 ? 'Type two letters or more.' : 'Nothing matches.'}
          </li>
        ) : null}
        {options.map((option, index) => (
          <li
            key={option.id}
            id={`palette-option-${index}`}
            role="option"
            aria-selected={index === activeIndex}
            className={`palette-option${index === activeIndex ? ' is-active' : ''}`}
            onMouseMove={() => setActive(index)}
            onClick={() => runOption(option)}
          >
            <span className="palette-group">{option.group}</span>
            <span className="palette-label">{option.label}</span>
            {option.keys ? <kbd>{option.keys}</kbd> : null}
          </li>
        ))}
      </ul>
    </ModalDialog>
  );
}

export function CommandPalette() {
  const open = useView((state) => state.paletteOpen);
  return open ? <PaletteDialog /> : null;
}
