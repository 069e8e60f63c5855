// Tags as removable chips and an input that adds one on Enter or comma, with
// the tags already in use offered as suggestions. Every change saves the whole
// list (a merge-patch replaces arrays whole).
import { useState } from 'react';
import './task-detail.css';

export function TagEditor({
  id,
  tags,
  suggestions,
  disabled,
  onSave,
}: {
  id: string;
  tags: readonly string[];
  suggestions: readonly string[];
  disabled: boolean;
  onSave: (tags: string[]) => void;
}) {
  const [draft, setDraft] = useState('');
  const listId = `${id}-suggestions`;
  const add = () => {
    const tag = draft.trim().replace(/,$/, '').trim();
    setDraft('');
    if (tag !== '' && !tags.includes(tag)) onSave([...tags, tag]);
  };
  return (
    <div className="tag-editor">
      <ul className="tag-list" aria-label="Tags">
        {tags.map((tag) => (
          <li key={tag}>
            <span className="tag">{tag}</span>
            <button
              type="button"
              className="tag-remove"
              disabled={disabled}
              aria-label={`Remove tag ${tag}`}
              onClick={() => onSave(tags.filter((t) => t !== tag))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        type="text"
        list={listId}
        placeholder="Add a tag"
        value={draft}
        disabled={disabled}
        onChange={(event) => {
          if (event.target.value.endsWith(',')) {
            setDraft(event.target.value);
            return;
          }
          setDraft(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ',') {
            event.preventDefault();
            add();
          } else if (event.key === 'Backspace' && draft === '' && tags.length > 0) {
            onSave(tags.slice(0, -1));
          }
        }}
        onBlur={() => {
          if (draft.trim() !== '') add();
        }}
      />
      <datalist id={listId}>
        {suggestions
          .filter((tag) => !tags.includes(tag))
          .slice(0, 50)
          .map((tag) => (
            <option key={tag} value={tag} />
          ))}
      </datalist>
    </div>
  );
}
