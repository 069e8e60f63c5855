// A comment's text box that completes members' usernames after `@`: a small
// listbox under it (over it when the editor has no room below), driven from the
// keyboard (arrows, Enter or Tab to take one, Escape to close) with the focus
// kept in the text box (aria-activedescendant).
import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { SuggestionList, useSuggestionKeys } from '../ui/suggestion-list';
import { mentionBeforeCaret, mentionMatches } from './comment-text';

export function MentionTextarea({
  label,
  value,
  onChange,
  onSubmit,
  onCancel,
  usernames,
  disabled = false,
  autoFocus = false,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter. */
  onSubmit: () => void;
  /** Escape with no list open (a reply or edit box closes). */
  onCancel?: () => void;
  usernames: readonly string[];
  disabled?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
}) {
  const base = useId();
  const listId = `${base}-mentions`;
  const box = useRef<HTMLTextAreaElement>(null);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const matches = mention === null ? [] : mentionMatches(usernames, mention.query);
  const open = matches.length > 0;
  const optionId = (index: number) => `${base}-mention-${index}`;
  const list = useRef<HTMLUListElement>(null);
  const [upward, setUpward] = useState(false);

  // A reply box at the foot of the editor would show its list cut off by the
  // editor's edge: measured as it opens, it goes above when there is more room.
  useLayoutEffect(() => {
    if (!open || !box.current || !list.current) return;
    const field = box.current.getBoundingClientRect();
    const edge = visibleArea(box.current);
    const below = edge.bottom - field.bottom;
    setUpward(below < list.current.offsetHeight + 4 && field.top - edge.top > below);
  }, [open, matches.length]);

  const take = (username: string) => {
    if (mention === null) return;
    const caret = box.current?.selectionStart ?? value.length;
    const inserted = `@${username} `;
    const next = value.slice(0, mention.start) + inserted + value.slice(caret);
    onChange(next);
    setMention(null);
    const at = mention.start + inserted.length;
    // The text box takes the new value on the next render; the caret goes after the name then.
    requestAnimationFrame(() => box.current?.setSelectionRange(at, at));
  };

  // Escape closes the list only, not the reply box or the task.
  const keys = useSuggestionKeys(matches, take, () => setMention(null), true);

  const follow = (text: string, caret: number) => {
    const found = mentionBeforeCaret(text, caret);
    setMention(found);
    if (found?.query !== mention?.query) keys.setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (keys.onKey(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSubmit();
    } else if (event.key === 'Escape' && onCancel) {
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="mention-box">
      <textarea
        ref={box}
        aria-label={label}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? optionId(keys.active) : undefined}
        value={value}
        rows={3}
        disabled={disabled}
        autoFocus={autoFocus}
        placeholder={placeholder}
        onChange={(event) => {
          onChange(event.target.value);
          follow(event.target.value, event.target.selectionStart);
        }}
        onSelect={(event) => follow(event.currentTarget.value, event.currentTarget.selectionStart)}
        onBlur={() => setMention(null)}
        onKeyDown={onKeyDown}
      />
      <SuggestionList
        listRef={list}
        id={listId}
        label="Members"
        items={matches}
        active={keys.active}
        optionId={optionId}
        keyOf={(username) => username}
        render={(username) => `@${username}`}
        onTake={keys.take}
        opensUp={upward}
      />
    </div>
  );
}

/** The part of the window the element can be seen in: its nearest scrolling ancestor's box, or the window. */
function visibleArea(element: HTMLElement): { top: number; bottom: number } {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const { overflowY } = getComputedStyle(parent);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'hidden') {
      const { top, bottom } = parent.getBoundingClientRect();
      return { top, bottom };
    }
  }
  return { top: 0, bottom: window.innerHeight };
}
