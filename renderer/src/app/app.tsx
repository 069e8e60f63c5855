// The page: the sign-in screen until an account is signed in, then the
// workspace. The session (accounts, status, theme) starts before the first
// render, as the page's modules evaluate (start-app.ts).
import { useEffect } from 'react';
import { LinkAccountChooser } from '../links/link-account-chooser';
import { followLinks } from '../store/link-requests';
import { SignInScreen } from '../sign-in/sign-in-screen';
import { useSession } from '../store/session-store';
import { NoticeBanner } from './notice-banner';
import { OpeningSplash } from './opening-splash';
import { WorkspaceScreen } from './workspace-screen';

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
