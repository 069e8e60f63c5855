// The search box: the search language (protocol/task-search.ts) typed with a
// list of the keys and values that fit where the caret is (arrows to choose,
// Enter or Tab to take one, Escape to close it), where to search, and (under
// the filter bar) what could not be applied, with its reason.
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { completeTaskSearch, type TaskSearchSuggestion } from '../../../protocol/task-search';
import { useWorkspace } from '../store/workspace-store';
import { searchContextOf } from './list-query';
import { focusList, SEARCH_INPUT_ID } from './list-focus';
import { setQuery, setSearchFields, useList } from './list-store';

/** The list of what the search could not apply: the box names it as its description. */
const PROBLEMS_ID = `${SEARCH_INPUT_ID}-problems`;

export function SearchBox() {
  const query = useList((state) => state.query);
  const problems = useList((state) => state.problems);
  const searchFields = useList((state) => state.filters.searchFields);
  const workspace = useWorkspace((state) => state.workspace);
  const input = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(0);
  const [closed, setClosed] = useState(true);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const completion = useMemo(
    () => (closed ? null : completeTaskSearch(query, caret, searchContextOf(workspace))),
    [closed, query, caret, workspace],
  );
  const suggestions = completion?.suggestions ?? [];
  const open = suggestions.length > 0;
  const optionId = (index: number) => `${listId}-${index}`;

  // While a term is being completed, its problem (a value half typed) is not said yet.
  useEffect(() => {
    useList.setState({ completingAt: open ? caret : null });
  }, [open, caret]);

  const follow = (element: HTMLInputElement) => {
    setCaret(element.selectionStart ?? element.value.length);
  };

  const take = (suggestion: TaskSearchSuggestion) => {
    if (!completion) return;
    const next = query.slice(0, completion.from) + suggestion.insert + query.slice(completion.to);
    const at = completion.from + suggestion.insert.length;
    setQuery(next);
    setCaret(at);
    setActive(-1);
    // The box takes the new value on the next render; the caret goes after what was taken then.
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (index + step + suggestions.length + 1) % (suggestions.length + 1));
        return;
      }
      const chosen = suggestions[active];
      if ((event.key === 'Enter' || event.key === 'Tab') && chosen !== undefined) {
        event.preventDefault();
        take(chosen);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the list only; a second Escape empties the box.
        event.preventDefault();
        event.stopPropagation();
        setClosed(true);
        return;
      }
    }
    if (event.key === 'Escape' && query !== '') {
      event.stopPropagation();
      setQuery('');
    } else if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === 'Escape') {
      // From the search straight into the results.
      event.preventDefault();
      focusList();
    }
  };

  const activeIndex = active < suggestions.length ? active : -1;

  return (
    <div className="search-box">
      <div className="search-query">
        <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
          Search tasks
        </label>
        <input
          ref={input}
          id={SEARCH_INPUT_ID}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && activeIndex >= 0 ? optionId(activeIndex) : undefined}
          aria-invalid={problems.length > 0}
          aria-describedby={problems.length > 0 ? PROBLEMS_ID : undefined}
          placeholder="Search or filter: status:blocked  /"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            follow(event.target);
            setClosed(false);
            setActive(-1);
          }}
          onSelect={(event) => follow(event.currentTarget)}
          onBlur={() => setClosed(true)}
          onKeyDown={onKeyDown}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label="Search suggestions"
          className="search-suggestions"
          hidden={!open}
        >
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.label}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? 'is-active' : undefined}
              // Taken on mouse down, before the box loses the focus and closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                take(suggestion);
              }}
            >
              <span className="suggestion-label">{suggestion.label}</span>
              <span className="suggestion-detail">{suggestion.detail}</span>
            </li>
          ))}
        </ul>
      </div>
      <label className="visually-hidden" htmlFor={`${SEARCH_INPUT_ID}-fields`}>
        Search in
      </label>
      <select
        id={`${SEARCH_INPUT_ID}-fields`}
        value={searchFields}
        onChange={(event) => setSearchFields(event.target.value === 'title' ? 'title' : 'all')}
      >
        <option value="all">All fields</option>
        <option value="title">Title only</option>
      </select>
    </div>
  );
}

/** What the search box's text could not apply, each with its reason; and a term for the key the list's scope fixes. */
export function SearchProblems({ fixedKeyNote }: { fixedKeyNote: string | null }) {
  const problems = useList((state) => state.problems);
  const completingAt = useList((state) => state.completingAt);
  const said = problems.filter(
    (problem) => completingAt === null || completingAt < problem.from || completingAt > problem.to,
  );
  return (
    // Always there, so that a screen reader hears what appears in it.
    <ul id={PROBLEMS_ID} className="search-problems" aria-live="polite" data-testid="search-problems">
      {said.map((problem) => (
        <li key={`${problem.from}`}>
          <code>{problem.text}</code> not applied: {problem.message}
        </li>
      ))}
      {fixedKeyNote !== null ? <li>{fixedKeyNote}</li> : null}
    </ul>
  );
}
