// @vitest-environment happy-dom
// A kind this sign-in may not change, as a person meets it: the notice names
// the scope the sign-in was not allowed and offers signing in again through
// the browser for this account's server, waiting while the browser has it; a
// kind it may change shows no notice; a refused sign-in is said on the app's
// notice; a read-only account or a missing scope makes the kind read-only.
import { render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { useSession } from '../store/session-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account } from '../testing/screen-fixtures';
import { KindConsentNotice, useKindReadOnly } from './kind-consent';

const bridge = fakeBridgeEachTest();

const lacksSprints = account({ read_only_kinds: [{ kind: 'sprint', scope: 'sprints:write' }] });

test('a kind the sign-in was not allowed: the notice names the scope and signs in again for this account', async () => {
  const user = userEvent.setup();
  useSession.setState({ current: lacksSprints });
  let finish: () => void = () => {};
  bridge.answer(
    'accounts:start-oauth',
    () => new Promise<never>((resolve) => (finish = resolve as () => void)),
  );
  render(<KindConsentNotice kind="sprint" plural="sprints" />);

  const notice = screen.getByTestId('consent-sprint');
  expect(notice.id).toBe('consent-sprint');
  expect(notice.textContent).toContain(
    'This sign-in may not change sprints: it was not allowed sprints:write.',
  );
  await user.click(screen.getByRole('button', { name: 'Sign in again to allow changing sprints' }));

  expect(bridge.callsOf('accounts:start-oauth')).toEqual([
    { server: lacksSprints.server, account_id: lacksSprints.account_id },
  ]);
  // While the browser has it, the button says so and takes no second press.
  const waiting = screen.getByRole('button', { name: 'Finish signing in in your browser…' });
  expect(waiting).toHaveProperty('disabled', true);
  finish();
  expect(await screen.findByRole('button', { name: 'Sign in again to allow changing sprints' })).toBeTruthy();
});

test('a kind the sign-in may change shows no notice', () => {
  useSession.setState({ current: lacksSprints });
  render(<KindConsentNotice kind="goal" plural="goals" />);
  expect(screen.queryByRole('note')).toBeNull();
});

test('a sign-in again refused is said on the app notice, and the button is offered again', async () => {
  const user = userEvent.setup();
  useSession.setState({ current: lacksSprints });
  bridge.refuse('accounts:start-oauth', 'network', 'offline');
  render(<KindConsentNotice kind="sprint" plural="sprints" id="consent-sprint-panel" />);
  expect(screen.getByTestId('consent-sprint-panel').id).toBe('consent-sprint-panel');
  await user.click(screen.getByRole('button', { name: 'Sign in again to allow changing sprints' }));

  expect(useSession.getState().notice).toMatchObject({
    type: 'network',
    context: 'Signing in again to allow changing sprints',
  });
  expect(
    await screen.findByRole('button', { name: 'Sign in again to allow changing sprints' }),
  ).toHaveProperty('disabled', false);
});

test.each([
  {
    who: 'an account that can only read',
    current: account({ read_only: true }),
    kind: 'goal',
    readOnly: true,
  },
  { who: 'a sign-in lacking the kind’s scope', current: lacksSprints, kind: 'sprint', readOnly: true },
  { who: 'a sign-in lacking another kind’s scope', current: lacksSprints, kind: 'goal', readOnly: false },
])('$who: read-only is $readOnly', ({ current, kind, readOnly }) => {
  useSession.setState({ current });
  expect(renderHook(() => useKindReadOnly(kind)).result.current).toBe(readOnly);
});
