// The search box: the search language (protocol/task-search.ts) typed with a
// list of the keys and values that fit where the caret is (arrows to choose,
// Enter or Tab to take one, Escape to close it), where to search, and (under
// the filter bar) what could not be applied, with its reason.
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { completeTaskSearch, type TaskSearchSuggestion } from '../../../protocol/task-search-completion';
import { useWorkspace } from '../store/workspace-store';
import { SuggestionList, useSuggestionKeys } from '../ui/suggestion-list';
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
    const completingAt = open ? caret : null;
    if (useList.getState().completingAt !== completingAt) useList.setState({ completingAt });
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
    // The box takes the new value on the next render; the caret goes after what was taken then.
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };

  // A first Escape closes the list only; a second one empties the box.
  const keys = useSuggestionKeys(suggestions, take, () => setClosed(true), false);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (keys.onKey(event)) return;
    if (event.key === 'Escape' && query !== '') {
      event.stopPropagation();
      setQuery('');
    } else if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === 'Escape') {
      // From the search straight into the results.
      event.preventDefault();
      focusList();
    }
  };

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
          aria-activedescendant={open && keys.active >= 0 ? optionId(keys.active) : undefined}
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
            keys.setActive(-1);
          }}
          onSelect={(event) => follow(event.currentTarget)}
          onBlur={() => setClosed(true)}
          onKeyDown={onKeyDown}
        />
        <SuggestionList
          id={listId}
          label="Search suggestions"
          items={suggestions}
          active={keys.active}
          optionId={optionId}
          keyOf={(suggestion) => suggestion.label}
          render={(suggestion) => (
            <>
              <span className="suggestion-label">{suggestion.label}</span>
              <span className="suggestion-detail">{suggestion.detail}</span>
            </>
          )}
          onTake={keys.take}
        />
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
