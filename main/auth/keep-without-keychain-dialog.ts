// Main's own question before sign-ins are kept without a keychain. On Linux
// without one, Electron protects secrets with a fixed key that any program
// running as the person can undo; the renderer may ask for that, but only the
// person, answering a dialog the page cannot draw or click, decides.
import { type BrowserWindow, dialog, type MessageBoxOptions } from 'electron';

const QUESTION: MessageBoxOptions = {
  type: 'warning',
  buttons: ['Keep me signed in', 'Cancel'],
  defaultId: 1,
  cancelId: 1,
  noLink: true,
  message: 'Keep your sign-ins on this computer without a keychain?',
  detail:
    'No keychain (GNOME Keyring, KWallet) was found. Your sign-ins would be stored with a key every program ' +
    'running as you can read. Cancel keeps them for this session only: you sign in again after a restart.',
};

/** True when the person chose to keep sign-ins without a keychain. */
export async function confirmKeepWithoutKeychain(parent: BrowserWindow | undefined): Promise<boolean> {
  const { response } =
    parent !== undefined && !parent.isDestroyed()
      ? await dialog.showMessageBox(parent, QUESTION)
      : await dialog.showMessageBox(QUESTION);
  return response === 0;
}
