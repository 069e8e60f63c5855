// The start most end-to-end files share: a session (emulator, proxy, host,
// app), the person signed in and the whole task list shown. A person signs in
// through the browser, so that is the default: the consent page grants the
// scopes the app asks for, and a screen the app offers but did not ask enough
// for fails here as it would for them. A pasted token is a case of its own.
import { type AppSession, type AppSessionOptions, QUICK_RETRY, startAppSession } from './app-session';
import { signInThroughBrowser, signInWithToken } from './app-browser';

/**
 * How the person signs in: `browser` (the consent page, the app's own scopes),
 * or pasting the emulator's `live` token (every scope) or its read-only `test` one.
 */
export type SignInWay = 'browser' | 'pasted-live' | 'pasted-test';

export interface SignedInSessionOptions extends AppSessionOptions {
  /** How the person signs in (through the browser unless said). */
  signIn?: SignInWay;
  /** What the server must hold before the app's first sync reads it (sections, tasks made over the API). */
  beforeSignIn?: (session: AppSession) => Promise<void>;
}

/** Signs the session's page in the given way; resolves when the workspace shows. */
export async function signIn(session: AppSession, way: SignInWay = 'browser'): Promise<void> {
  const { emulator, host, app } = session;
  if (way === 'browser') await signInThroughBrowser(app, host);
  else await signInWithToken(app.page, emulator.tokens[way === 'pasted-live' ? 'live' : 'test']);
}

/** Starts a session with quick retries (unless `client` says otherwise), signs in and waits for every task in the list. */
export async function startSignedInSession(options: SignedInSessionOptions = {}): Promise<AppSession> {
  const session = await startAppSession({
    emulator: options.emulator ?? {},
    client: options.client ?? { retry: QUICK_RETRY },
    ...(options.keychain !== undefined ? { keychain: options.keychain } : {}),
  });
  const { emulator, app } = session;
  await options.beforeSignIn?.(session);
  await signIn(session, options.signIn);
  await app.page.getByRole('button', { name: 'All tasks' }).click();
  await app.page
    .getByTestId('list-count')
    // As the list writes it: 6,500 at more than a thousand.
    .filter({ hasText: `${emulator.control.taskCount().toLocaleString('en-US')} tasks` })
    .waitFor();
  return session;
}

/**
 * Restarts the session's app (a new host on the same data folder, a new page)
 * and signs in again the given way when the page asks (without a keychain
 * the host keeps no sign-in across the restart); resolves when the workspace shows.
 */
export async function restartSignedIn(session: AppSession, way: SignInWay = 'browser'): Promise<void> {
  await session.restart();
  const { page } = session.app;
  const workspace = page.getByRole('navigation', { name: 'Workspace' });
  const signInButton = page.getByRole('button', { name: 'Sign in with your browser' });
  await workspace.or(signInButton).first().waitFor();
  if (await signInButton.isVisible()) await signIn(session, way);
  await workspace.waitFor();
}
