// The page: the sign-in screen until an account is signed in, then the
// workspace. The session (accounts, status, theme) starts here, before the
// first render (startApp).
import { useEffect } from 'react';
import { LinkAccountChooser } from '../links/link-account-chooser';
import { followLinks } from '../store/link-requests';
import { SignInScreen } from '../sign-in/sign-in-screen';
import { startSession, useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { taskListQuery } from '../task-list/list-query';
import { useList } from '../task-list/list-store';
import { prefetchFirstPage } from '../task-list/use-row-window';
import { loadDateFormats, loadLocaleDataAside } from '../vocabulary/date-formats';
import { ROW_DATE_FORMATS } from '../vocabulary/task-words';
import { NoticeBanner } from './notice-banner';
import { OpeningSplash } from './opening-splash';
import { WorkspaceScreen } from './workspace-screen';

/**
 * Asks for the session and the first rows of the list the app opens on, at
 * once and side by side: called before React draws anything, so the answers
 * no longer wait for the splash to be rendered, laid out and painted (a
 * component's effects run only after that). Meanwhile a worker loads the
 * locale's data, which the rows' first date formatter would otherwise load on
 * the page's thread, and the formatters are built once it has.
 * Returns what stops the session.
 */
export function startApp(): () => void {
  const { view } = useView.getState();
  if (view.kind === 'list') {
    const { filters, sort } = useList.getState();
    prefetchFirstPage(taskListQuery(view.scope, filters, sort));
  }
  const stop = startSession();
  let stopped = false;
  void loadLocaleDataAside().then(() => {
    if (!stopped) loadDateFormats(ROW_DATE_FORMATS);
  });
  return () => {
    stopped = true;
    stop();
  };
}

export function App() {
  const phase = useSession((state) => state.phase);
  const addingAccount = useSession((state) => state.addingAccount);
  // Links wait for the session's first account list, which would close a task opened before it.
  const started = phase !== 'starting';
  useEffect(() => (started ? followLinks() : undefined), [started]);

  if (phase === 'starting') return <OpeningSplash />;
  if (phase === 'sign-in' || addingAccount) {
    return (
      <>
        <NoticeBanner />
        <SignInScreen />
        <LinkAccountChooser />
      </>
    );
  }
  return (
    <>
      <WorkspaceScreen />
      <LinkAccountChooser />
    </>
  );
}
