// The sign-in screen: sign in through the browser (OAuth), paste an access
// token, adjust the server settings, or try the demo (a local server with
// sample data). Problems are told by their type, with the action that helps.
import { type FormEvent, useId, useRef, useState } from 'react';
import type { AccountSummary, ServerSettings } from '../../../ipc/screen-schemas';
import { errorType, invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { describeProblem, type ProblemAction } from '../problems/describe-problem';
import { enterAccount, useSession } from '../store/session-store';
import { KeychainNotice } from './keychain-notice';
import './sign-in.css';

type Busy = null | 'oauth' | 'token' | 'demo';

const EMPTY_SERVER: ServerSettings = { base_url: '', auth_url: '', client_id: '' };

/** The server settings' fields; the service address takes the focus when a problem opens them. */
const SERVER_FIELDS: { key: keyof ServerSettings; label: string; type: 'url' | 'text' }[] = [
  { key: 'base_url', label: 'Service address (base URL)', type: 'url' },
  { key: 'auth_url', label: 'Sign-in address (auth URL)', type: 'url' },
  { key: 'client_id', label: 'App id (OAuth client id)', type: 'text' },
];

export function SignInScreen() {
  const addingAccount = useSession((state) => state.addingAccount);
  const accounts = useSession((state) => state.accounts);
  const signedOut = accounts.filter((account) => account.state === 'signed-out');
  const [server, setServer] = useState<ServerSettings>(EMPTY_SERVER);
  const [token, setToken] = useState('');
  const [showToken, setShowToken] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<{ type: string; during: Busy } | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  /** A signed-out account being signed in to again (its queued edits wait for it). */
  const [again, setAgain] = useState<AccountSummary | null>(null);
  const againId = again === null ? {} : { account_id: again.account_id };
  const tokenRef = useRef<HTMLInputElement>(null);
  const baseUrlRef = useRef<HTMLInputElement>(null);
  const ids = { token: useId(), server: useId(), problem: useId() };

  // The settings the app was built with fill the form once, unless the person has typed a server meanwhile.
  const defaults = useBridgeRead('accounts:server-defaults', undefined, {
    onError: () => setSettingsOpen(true),
  });
  const [filledFrom, setFilledFrom] = useState<ServerSettings | null>(null);
  if (defaults.data !== null && defaults.data !== filledFrom) {
    const found = defaults.data;
    setFilledFrom(found);
    setServer((current) => (current.base_url === '' ? found : current));
  }

  const run = async (kind: Exclude<Busy, null>, work: () => Promise<Parameters<typeof enterAccount>[0]>) => {
    setBusy(kind);
    setProblem(null);
    try {
      const account = await work();
      await enterAccount(account);
    } catch (error) {
      setProblem({ type: errorType(error), during: kind });
    } finally {
      setBusy(null);
    }
  };

  /** Each way in, as its button starts it and as "Try again" starts it again after a problem. */
  const signIns: Record<Exclude<Busy, null>, () => Promise<AccountSummary>> = {
    oauth: () => invoke('accounts:start-oauth', { server, ...againId }),
    token: () => invoke('accounts:sign-in-token', { server, token: token.trim(), ...againId }),
    demo: () => invoke('demo:start'),
  };

  const signInWithToken = (event: FormEvent) => {
    event.preventDefault();
    void run('token', signIns.token);
  };

  const act = (action: ProblemAction) => {
    setProblem(null);
    if (action === 'check-server-settings') {
      setSettingsOpen(true);
      requestAnimationFrame(() => baseUrlRef.current?.focus());
    } else if (action === 'use-another-token' || action === 'sign-in-again') {
      setToken('');
      tokenRef.current?.focus();
    } else if (action === 'retry' && problem !== null && problem.during !== null) {
      void run(problem.during, signIns[problem.during]);
    }
  };

  const words = problem === null ? null : describeProblem(problem.type);
  const serverIncomplete = server.base_url === '' || server.auth_url === '' || server.client_id === '';

  return (
    <main className="sign-in" aria-labelledby="sign-in-title">
      <div className="sign-in-card">
        <div className="brand" aria-hidden="true">
          ◆
        </div>
        <h1 id="sign-in-title">
          {again !== null ? 'Sign in again' : addingAccount ? 'Add an account' : 'Sign in'}
        </h1>
        {again !== null ? (
          <p className="lead again" data-testid="signing-in-again">
            As {again.username} in {again.org_name ?? again.org_id}: changes waiting for this account are sent
            once you are in.{' '}
            <button type="button" className="link-button" onClick={() => setAgain(null)}>
              Use another account
            </button>
          </p>
        ) : (
          <p className="lead">Your tasks, on this computer, online or not.</p>
        )}

        {words ? (
          <div className="problem" role="alert" id={ids.problem} data-problem-type={problem?.type}>
            <strong>{words.title}</strong>
            <p>{words.detail}</p>
            {words.actionLabel ? (
              <button type="button" className="button" onClick={() => act(words.action)}>
                {words.actionLabel}
              </button>
            ) : null}
          </div>
        ) : null}

        <section className="sign-in-option" aria-label="Browser sign-in">
          {busy === 'oauth' ? (
            <div className="waiting" role="status">
              <span className="spinner" aria-hidden="true" />
              <span>Finish signing in in your browser…</span>
              <button
                type="button"
                className="link-button"
                onClick={() => void invoke('accounts:cancel-oauth')}
              >
                Cancel
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="button primary wide"
              disabled={busy !== null || serverIncomplete}
              onClick={() => void run('oauth', signIns.oauth)}
            >
              Sign in with your browser
            </button>
          )}
        </section>

        <div className="divider" role="separator">
          <span>or</span>
        </div>

        <form className="sign-in-option" onSubmit={signInWithToken} aria-label="Token sign-in">
          <label htmlFor={ids.token}>Access token</label>
          <div className="token-row">
            <input
              ref={tokenRef}
              id={ids.token}
              type={showToken ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              placeholder="svc_live_…"
              value={token}
              onChange={(event) => setToken(event.target.value)}
              aria-describedby={problem?.during === 'token' ? ids.problem : undefined}
              aria-invalid={problem?.during === 'token' ? true : undefined}
            />
            <button
              type="button"
              className="button icon-button"
              aria-pressed={showToken}
              aria-label="Show token"
              onClick={() => setShowToken(!showToken)}
            >
              {showToken ? 'Hide' : 'Show'}
            </button>
          </div>
          <p className="hint">A test token (svc_test_…) signs in read-only.</p>
          <button
            type="submit"
            className="button wide"
            disabled={busy !== null || token.trim() === '' || serverIncomplete}
          >
            {busy === 'token' ? 'Checking the token…' : 'Sign in with token'}
          </button>
        </form>

        <details
          className="server-settings"
          open={settingsOpen}
          onToggle={(event) => setSettingsOpen((event.target as HTMLDetailsElement).open)}
        >
          <summary>Server settings</summary>
          {SERVER_FIELDS.map(({ key, label, type }) => (
            <div key={key} className="field">
              <label htmlFor={`${ids.server}-${key}`}>{label}</label>
              <input
                ref={key === 'base_url' ? baseUrlRef : undefined}
                id={`${ids.server}-${key}`}
                type={type}
                value={server[key]}
                onChange={(event) => setServer({ ...server, [key]: event.target.value })}
              />
            </div>
          ))}
          <p className="hint">
            Your sign-in is sent to the service address, so it must be on the sign-in address&apos;s server
            (same origin) unless this build of the app names the pair.
          </p>
        </details>

        {signedOut.length > 0 ? (
          <section className="signed-out-accounts" aria-label="Signed-out accounts">
            <h2>Signed out</h2>
            <ul>
              {signedOut.map((account) => (
                <li key={account.account_id}>
                  <span>
                    {account.username} · {account.org_name ?? account.org_id}
                  </span>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      setServer(account.server);
                      setAgain(account);
                      setProblem(null);
                    }}
                  >
                    Sign in again
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <KeychainNotice />

        <div className="demo">
          <button
            type="button"
            className="button ghost wide"
            disabled={busy !== null}
            onClick={() => void run('demo', signIns.demo)}
          >
            {busy === 'demo' ? 'Starting the demo…' : 'Try the demo'}
          </button>
          <p className="hint">A local server with sample data: nothing leaves this computer.</p>
        </div>

        {addingAccount ? (
          <button
            type="button"
            className="link-button back"
            onClick={() => useSession.setState({ addingAccount: false })}
          >
            Back to your tasks
          </button>
        ) : null}
      </div>
    </main>
  );
}
