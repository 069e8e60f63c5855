// Where the OS offers no real keychain (Linux without a secret service), a
// sign-in is kept for this session only unless the person chooses otherwise:
// say so before they sign in, and let them choose.
import { useId } from 'react';
import { setKeepSignIns, useSession } from '../store/session-store';
import './sign-in.css';

export function KeychainNotice() {
  const persistence = useSession((state) => state.secretStorage);
  const id = useId();
  if (persistence === null || persistence === 'encrypted') return null;
  const keep = persistence === 'unencrypted-by-choice';
  return (
    <section className="keychain-notice" aria-label="Staying signed in" data-persistence={persistence}>
      <p id={id}>
        {keep
          ? 'You stay signed in after quitting. This computer has no keychain, so your sign-in is stored in your user folder without its protection.'
          : 'This computer has no keychain to protect your sign-in, so you will sign in again each time you start the app.'}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={keep}
          aria-describedby={id}
          onChange={(event) => void setKeepSignIns(event.target.checked)}
        />
        Stay signed in without a keychain
      </label>
    </section>
  );
}
