// A page with the global shortcuts on and a text field, Notes, to type in:
// where the shortcut tests press keys, in a field and outside one; `children`
// adds what a test needs beside them (a checkbox, the undo toast).
import type { ReactNode } from 'react';
import { useGlobalShortcuts } from '../shortcuts';

export function ShortcutsPage({ children }: { children?: ReactNode }) {
  useGlobalShortcuts();
  return (
    <>
      <label>
        Notes <input type="text" />
      </label>
      {children}
    </>
  );
}
