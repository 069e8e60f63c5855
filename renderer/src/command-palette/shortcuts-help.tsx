// The list of keyboard shortcuts (?), as a modal dialog.
import { useRef } from 'react';
import { ModalDialog } from '../ui/modal-dialog';
import { setShortcutsOpen, useView } from '../store/view-store';
import { SHORTCUTS } from './shortcuts';
import './command-palette.css';

function HelpDialog() {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      className="palette shortcuts-help"
      labelledBy="shortcuts-title"
      initialFocus={closeRef}
      onClose={() => setShortcutsOpen(false)}
    >
      <header className="editor-header">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <span className="spacer" />
        <button ref={closeRef} type="button" className="button" onClick={() => setShortcutsOpen(false)}>
          Close
        </button>
      </header>
      {/* Longer than a small window: a tab stop of its own, so that the arrow keys scroll it too. */}
      <div className="shortcut-scroll" role="region" aria-labelledby="shortcuts-title" tabIndex={0}>
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
    </ModalDialog>
  );
}

export function ShortcutsHelp() {
  const open = useView((state) => state.shortcutsOpen);
  return open ? <HelpDialog /> : null;
}
