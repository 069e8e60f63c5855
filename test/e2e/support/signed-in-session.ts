// The start most end-to-end files share: a session (emulator, proxy, host,
// app), the person signed in with a token and the whole task list shown.
import { type AppSession, type AppSessionOptions, QUICK_RETRY, startAppSession } from './app-session';
import { signInWithToken } from './app-browser';

export interface SignedInSessionOptions extends AppSessionOptions {
  /** Which of the emulator's tokens signs in (the person's live one unless said). */
  token?: 'live' | 'test';
  /** What the server must hold before the app's first sync reads it (sections, tasks made over the API). */
  beforeSignIn?: (session: AppSession) => Promise<void>;
}

/** Starts a session with quick retries (unless `client` says otherwise), signs in and waits for every task in the list. */
export async function startSignedInSession(options: SignedInSessionOptions = {}): Promise<AppSession> {
  const session = await startAppSession({
    emulator: options.emulator ?? {},
    client: options.client ?? { retry: QUICK_RETRY },
  });
  const { emulator, app } = session;
  await options.beforeSignIn?.(session);
  await signInWithToken(app.page, emulator.tokens[options.token ?? 'live']);
  await app.page.getByRole('button', { name: 'All tasks' }).click();
  await app.page
    .getByTestId('list-count')
    .filter({ hasText: `${emulator.control.taskCount()} tasks` })
    .waitFor();
  return session;
}
