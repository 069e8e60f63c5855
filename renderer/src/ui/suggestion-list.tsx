// A list of suggestions under a text field (a comment's @mentions, the task
// search's keys and values), driven from the field's keyboard with the focus
// kept in the field (aria-activedescendant): arrows choose, Enter or Tab takes
// the chosen one, Escape closes the list only.
import { type KeyboardEvent, type ReactNode, type Ref, useState } from 'react';
import './suggestion-list.css';

export interface SuggestionKeys<T> {
  /** The chosen suggestion's index; -1 for none. */
  active: number;
  setActive: (index: number) => void;
  /** Takes a suggestion (a key or a click), the choice starting over for the next list. */
  take: (item: T) => void;
  /** Handles a key of the field that is the list's (and stops it there); false for any other key. */
  onKey: (event: KeyboardEvent<HTMLElement>) => boolean;
}

/**
 * The list's keys over `items`. `firstChosen`: the mentions choose their first
 * at once (Enter takes it); the search chooses none until an arrow does, so
 * that Enter keeps taking the person to the results.
 */
export function useSuggestionKeys<T>(
  items: readonly T[],
  take: (item: T) => void,
  close: () => void,
  firstChosen: boolean,
): SuggestionKeys<T> {
  const start = firstChosen ? 0 : -1;
  const [active, setActive] = useState(start);
  const chosen = firstChosen ? Math.min(active, items.length - 1) : active < items.length ? active : -1;
  const takeAndStartOver = (item: T) => {
    setActive(start);
    take(item);
  };
  const onKey = (event: KeyboardEvent<HTMLElement>): boolean => {
    if (items.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Without a first choice, "none" is a stop in the cycle too.
      const stops = items.length + (firstChosen ? 0 : 1);
      const from = firstChosen ? chosen : chosen + 1;
      const next = (from + step + stops) % stops;
      setActive(firstChosen ? next : next - 1);
      return true;
    }
    const item = items[chosen];
    if ((event.key === 'Enter' || event.key === 'Tab') && item !== undefined) {
      event.preventDefault();
      takeAndStartOver(item);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
      return true;
    }
    return false;
  };
  return { active: chosen, setActive, take: takeAndStartOver, onKey };
}

/** The listbox itself; each option is taken on mouse down, before the field loses the focus and closes it. */
export function SuggestionList<T>({
  id,
  label,
  items,
  active,
  optionId,
  keyOf,
  render,
  onTake,
  opensUp = false,
  listRef,
}: {
  id: string;
  label: string;
  items: readonly T[];
  active: number;
  optionId: (index: number) => string;
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
  onTake: (item: T) => void;
  opensUp?: boolean;
  listRef?: Ref<HTMLUListElement>;
}) {
  return (
    <ul
      ref={listRef}
      id={id}
      role="listbox"
      aria-label={label}
      className={opensUp ? 'suggestion-list opens-up' : 'suggestion-list'}
      hidden={items.length === 0}
    >
      {items.map((item, index) => (
        <li
          key={keyOf(item)}
          id={optionId(index)}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'is-active' : undefined}
          onMouseDown={(event) => {
            event.preventDefault();
            onTake(item);
          }}
        >
          {render(item)}
        </li>
      ))}
    </ul>
  );
}
