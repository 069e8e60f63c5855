// @vitest-environment happy-dom
// The first screen while main opens the accounts: an older version's saved
// tasks being upgraded are said so, step by step, from what main answers and
// then tells; otherwise, and once the upgrade is done, "Opening…".
import { act, render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { OpeningSplash } from './opening-splash';

const bridge = fakeBridgeEachTest();

test('an upgrade under way as the page loads is shown, each step main tells, then the plain splash once done', async () => {
  bridge.answer('app:opening', () => ({ account_id: 'acc_1', applied: 0, total: 2 }));
  render(<OpeningSplash />);
  expect(await screen.findByText(/step 1 of 2/)).toBeTruthy();
  expect(screen.getByRole('status').textContent).toBe(
    'Upgrading your saved tasks for this version of the app (step 1 of 2)…',
  );
  act(() => bridge.emit('app:opening-changed', { account_id: 'acc_1', applied: 1, total: 2 }));
  expect(screen.getByRole('status').textContent).toMatch(/step 2 of 2/);
  act(() => bridge.emit('app:opening-changed', null));
  expect(screen.getByRole('status').textContent).toBe('Opening…');
});

test('with nothing to upgrade, or a host that cannot say, the splash says Opening…', async () => {
  bridge.answer('app:opening', () => null);
  const { unmount } = render(<OpeningSplash />);
  await act(async () => {});
  expect(screen.getByRole('status').textContent).toBe('Opening…');
  unmount();
  bridge.refuse('app:opening', 'unavailable', 'not here');
  render(<OpeningSplash />);
  await act(async () => {});
  expect(screen.getByRole('status').textContent).toBe('Opening…');
});
