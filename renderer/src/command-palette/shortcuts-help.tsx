// The list of keyboard shortcuts (?), as a modal dialog.
import { useEffect, useRef } from 'react';
import { setShortcutsOpen, useView } from '../store/view-store';
import { SHORTCUTS } from './shortcuts';

function HelpDialog() {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    closeRef.current?.focus();
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);
  return (
    <div className="overlay" onMouseDown={() => setShortcutsOpen(false)}>
      <div
        className="palette shortcuts-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onMouseDown={(event) => event.stopPropagation()}
      >
        <header className="editor-header">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <span className="spacer" />
          <button ref={closeRef} type="button" className="button" onClick={() => setShortcutsOpen(false)}>
            Close
          </button>
        </header>
        <dl className="shortcut-list">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.keys}>
              <dt>
                <kbd>{shortcut.keys}</kbd>
              </dt>
              <dd>{shortcut.does}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

export function ShortcutsHelp() {
  const open = useView((state) => state.shortcutsOpen);
  return open ? <HelpDialog /> : null;
}
