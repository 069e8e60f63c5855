// A kind this sign-in may not change (its scope was not granted, or the
// service refused it since): its write controls are disabled with the reason,
// and one action signs in again through the browser, asking for the scope.
import { useState } from 'react';
import { invoke } from '../bridge/svc';
import { showProblem, useSession } from '../store/session-store';
import './kind-consent.css';

/** The scope the current sign-in lacks to change `kind` (`sprint`, `goal`, `milestone`…), or null when it may. */
export function useMissingScope(kind: string): string | null {
  return useSession(
    (state) => state.current?.read_only_kinds.find((entry) => entry.kind === kind)?.scope ?? null,
  );
}

/** Whether the current account may not change `kind`: a read-only account, or one whose sign-in lacks its scope. */
export function useKindReadOnly(kind: string): boolean {
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const missing = useMissingScope(kind);
  return readOnly || missing !== null;
}

/**
 * Why `plural` cannot be changed and the re-consent action; nothing when they
 * can. `id` (default `consent-<kind>`, what write controls name in
 * aria-describedby) tells apart a second notice shown at once, as the inspector's.
 */
export function KindConsentNotice({ kind, plural, id }: { kind: string; plural: string; id?: string }) {
  const scope = useMissingScope(kind);
  const current = useSession((state) => state.current);
  const [waiting, setWaiting] = useState(false);
  if (scope === null || current === null) return null;
  const signInAgain = async () => {
    setWaiting(true);
    try {
      await invoke('accounts:start-oauth', { server: current.server, account_id: current.account_id });
    } catch (error) {
      showProblem(error, `Signing in again to allow changing ${plural}`);
    } finally {
      setWaiting(false);
    }
  };
  return (
    <div
      className="kind-consent"
      role="note"
      data-testid={id ?? `consent-${kind}`}
      id={id ?? `consent-${kind}`}
    >
      <p>
        This sign-in may not change {plural}: it was not allowed <code>{scope}</code>. What you see of them
        stays up to date.
      </p>
      <button type="button" className="button" disabled={waiting} onClick={() => void signInAgain()}>
        {waiting ? 'Finish signing in in your browser…' : `Sign in again to allow changing ${plural}`}
      </button>
    </div>
  );
}
