// @vitest-environment happy-dom
// The sign-in screen as a person uses it: the browser sign-in with the
// server's settings (waiting, cancelled, tried again), a pasted token
// (trimmed, hidden until shown, a test token said to sign in read-only), a
// problem told in words with the action that helps, a signed-out account
// signed in to again, and the notice where the computer has no keychain.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { AccountSummary, ServerSettings } from '../../../ipc/screen-schemas';
import { useSession } from '../store/session-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account } from '../testing/screen-fixtures';
import { SignInScreen } from './sign-in-screen';

const bridge = fakeBridgeEachTest();

const SERVER: ServerSettings = {
  base_url: 'https://api.example.test',
  auth_url: 'https://auth.example.test',
  client_id: 'desktop',
};

/** Main with the build's server settings; an account signed in to is then listed as the current one. */
function answerSignIns(signedIn: AccountSummary = account()) {
  bridge.answer('accounts:server-defaults', () => SERVER);
  bridge.answer('accounts:list', () => ({ accounts: [signedIn], current: signedIn.account_id }));
}

async function showScreen() {
  render(<SignInScreen />);
  const browser = screen.getByRole('button', { name: 'Sign in with your browser' });
  // The build's settings fill the form: then both ways in can be used.
  await vi.waitFor(() => expect(browser.hasAttribute('disabled')).toBe(false));
}

function problem(): HTMLElement {
  return screen.getByRole('alert');
}

describe('signing in through the browser', () => {
  test('sends the server settings, waits with a way to cancel, and enters the account once the browser is done', async () => {
    const user = userEvent.setup();
    answerSignIns();
    let finish: (signedIn: AccountSummary) => void = () => undefined;
    bridge.answer('accounts:start-oauth', () => new Promise((resolve) => (finish = resolve)));
    bridge.answer('accounts:cancel-oauth', () => null);
    await showScreen();
    await user.click(screen.getByRole('button', { name: 'Sign in with your browser' }));

    expect(bridge.callsOf('accounts:start-oauth')).toEqual([{ server: SERVER }]);
    const waiting = screen.getByRole('status');
    expect(waiting.textContent).toContain('Finish signing in in your browser…');
    // The other ways in wait too.
    expect(screen.getByRole('button', { name: 'Try the demo' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(waiting).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('accounts:cancel-oauth')).toHaveLength(1);

    finish(account());
    await vi.waitFor(() => expect(useSession.getState().phase).toBe('workspace'));
    expect(useSession.getState().current?.account_id).toBe('acct-1');
  });

  test('a sign-in that stopped says so in words and offers to try again, which starts it again', async () => {
    const user = userEvent.setup();
    answerSignIns();
    bridge.refuse('accounts:start-oauth', 'attempt-ended', 'timed out');
    await showScreen();
    await user.click(screen.getByRole('button', { name: 'Sign in with your browser' }));

    expect((await screen.findByRole('alert')).textContent).toContain('Sign-in stopped');
    expect(problem().textContent).toContain(
      'The browser did not come back in time, or sign-in was cancelled.',
    );
    await user.click(within(problem()).getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(bridge.callsOf('accounts:start-oauth')).toHaveLength(2));
  });

  test('a sign-in server that cannot be reached opens the server settings at the address to check', async () => {
    const user = userEvent.setup();
    answerSignIns();
    bridge.refuse('accounts:start-oauth', 'auth-server-unavailable', 'ECONNREFUSED');
    await showScreen();
    const settings = document.querySelector<HTMLDetailsElement>('details.server-settings')!;
    expect(settings.open).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Sign in with your browser' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot reach the sign-in server');
    await user.click(within(problem()).getByRole('button', { name: 'Check server settings' }));
    expect(settings.open).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Sign-in address (auth URL)').value).toBe(SERVER.auth_url);
  });
});

describe('signing in with a pasted token', () => {
  test('hidden until shown, trimmed, sent with the server settings; a test token is said to sign in read-only', async () => {
    const user = userEvent.setup();
    answerSignIns();
    bridge.answer('accounts:sign-in-token', () => account({ read_only: true }));
    await showScreen();
    expect(screen.getByText('A test token (svc_test_…) signs in read-only.')).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Sign in with token' });
    expect(submit.hasAttribute('disabled')).toBe(true);

    const field = screen.getByLabelText<HTMLInputElement>('Access token');
    expect(field.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show token' }));
    expect(field.type).toBe('text');
    await user.type(field, '  svc_test_abc123  ');
    await user.click(submit);

    expect(bridge.callsOf('accounts:sign-in-token')).toEqual([{ server: SERVER, token: 'svc_test_abc123' }]);
    await vi.waitFor(() => expect(useSession.getState().phase).toBe('workspace'));
  });

  test('a token the service does not know is said in words on the field; Use another token empties it to paste again', async () => {
    const user = userEvent.setup();
    answerSignIns();
    bridge.refuse('accounts:sign-in-token', 'token-invalid', '401');
    await showScreen();
    const field = screen.getByLabelText<HTMLInputElement>('Access token');
    await user.type(field, 'svc_live_wrong{Enter}');

    expect((await screen.findByRole('alert')).textContent).toContain('This token is not recognised');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(problem().id);
    await user.click(within(problem()).getByRole('button', { name: 'Use another token' }));
    expect(field.value).toBe('');
    expect(document.activeElement).toBe(field);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(useSession.getState().phase).not.toBe('workspace');
  });

  test('a token sign-in that could not reach the service is tried again with Try again', async () => {
    const user = userEvent.setup();
    answerSignIns();
    bridge.refuse('accounts:sign-in-token', 'network', 'ECONNREFUSED');
    await showScreen();
    await user.type(screen.getByLabelText('Access token'), 'svc_live_abc{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot reach the service');

    bridge.answer('accounts:sign-in-token', () => account());
    await user.click(within(problem()).getByRole('button', { name: 'Try again' }));
    expect(bridge.callsOf('accounts:sign-in-token')).toEqual([
      { server: SERVER, token: 'svc_live_abc' },
      { server: SERVER, token: 'svc_live_abc' },
    ]);
    await vi.waitFor(() => expect(useSession.getState().phase).toBe('workspace'));
  });

  test('without a server address neither way in can be used, and a failed read of the defaults opens the settings', async () => {
    bridge.refuse('accounts:server-defaults', 'internal', 'no defaults');
    render(<SignInScreen />);
    const settings = document.querySelector<HTMLDetailsElement>('details.server-settings')!;
    await vi.waitFor(() => expect(settings.open).toBe(true));
    expect(screen.getByRole('button', { name: 'Sign in with your browser' }).hasAttribute('disabled')).toBe(
      true,
    );
  });
});

test('a signed-out account is signed in to again on its own server, its id sent with the sign-in', async () => {
  const user = userEvent.setup();
  const theirs: ServerSettings = {
    base_url: 'https://other.test',
    auth_url: 'https://other.test/auth',
    client_id: 'x',
  };
  const away = account({
    account_id: 'acct-2',
    username: 'bob',
    org_name: 'Acme',
    state: 'signed-out',
    server: theirs,
  });
  useSession.setState({ accounts: [away] });
  answerSignIns();
  bridge.answer('accounts:start-oauth', () => away);
  await showScreen();
  const list = screen.getByRole('region', { name: 'Signed-out accounts' });
  expect(list.textContent).toContain('bob · Acme');
  await user.click(within(list).getByRole('button', { name: 'Sign in again' }));

  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in again');
  expect(screen.getByTestId('signing-in-again').textContent).toContain('As bob in Acme');
  await user.click(screen.getByRole('button', { name: 'Sign in with your browser' }));
  expect(bridge.callsOf('accounts:start-oauth')).toEqual([{ server: theirs, account_id: 'acct-2' }]);
});

test('where there is no keychain it says sign-ins end with the app, and staying signed in is asked of main', async () => {
  const user = userEvent.setup();
  useSession.setState({ secretStorage: 'session-only' });
  answerSignIns();
  bridge.answer('accounts:keep-sign-ins', ({ keep }) => ({
    persistence: keep ? 'unencrypted-by-choice' : 'session-only',
  }));
  await showScreen();
  const notice = screen.getByRole('region', { name: 'Staying signed in' });
  expect(notice.textContent).toContain('you will sign in again each time you start the app');
  await user.click(within(notice).getByRole('checkbox', { name: 'Stay signed in without a keychain' }));
  expect(bridge.callsOf('accounts:keep-sign-ins')).toEqual([{ keep: true }]);
  await vi.waitFor(() => expect(notice.textContent).toContain('You stay signed in after quitting.'));
});
