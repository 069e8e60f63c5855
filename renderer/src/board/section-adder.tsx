// The board's last column: "Add section", then a name field (Enter adds the
// section at the end, Escape cancels), refused in place when the name is empty
// or already used in this scope.
import { useRef, useState } from 'react';
import { SECTION_NAME_MAX } from '../../../protocol/section';
import { sectionNameProblem } from '../vocabulary/section-words';

export function SectionAdder({
  names,
  onCreate,
}: {
  names: readonly string[];
  onCreate: (name: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const problem = draft === null ? null : sectionNameProblem(draft, names);
  const close = () => {
    setDraft(null);
    setTried(false);
    setTimeout(() => addButton.current?.focus(), 0);
  };
  if (draft === null) {
    return (
      <div className="board-adder">
        <button ref={addButton} type="button" className="button ghost wide" onClick={() => setDraft('')}>
          + Add section
        </button>
      </div>
    );
  }
  // An empty field is not an error until the person tries to add it.
  const shown = problem !== null && (tried || draft.trim() !== '') ? problem : null;
  return (
    <form
      className="board-adder"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problem !== null) return;
        onCreate(draft.trim());
        close();
      }}
    >
      <input
        autoFocus
        className="column-name-input"
        aria-label="New section name"
        aria-invalid={shown !== null}
        aria-describedby={shown !== null ? 'new-section-problem' : undefined}
        placeholder="Section name"
        value={draft}
        maxLength={SECTION_NAME_MAX}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            close();
          }
        }}
      />
      {shown !== null ? (
        <p className="column-problem" id="new-section-problem" role="alert">
          {shown}
        </p>
      ) : null}
      <div className="confirm-actions">
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
        <button type="submit" className="button primary">
          Add section
        </button>
      </div>
    </form>
  );
}
