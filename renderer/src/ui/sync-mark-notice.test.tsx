// @vitest-environment happy-dom
// A goal's or milestone's note on a change of it that waits for the person:
// the words of its state for its kind, and the way to the pending changes.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { useTrust } from '../store/trust-store';
import { markWords } from '../vocabulary/sync-mark-words';
import { PendingChangeNote } from './sync-mark-notice';

afterEach(() => {
  cleanup();
  useTrust.setState({ inspectorOpen: false, conflict: null });
});

test("says the state's hint in the kind's words and opens the pending changes", async () => {
  const user = userEvent.setup();
  const { container } = render(<PendingChangeNote state="blocked" kinds="goals" className="goal-problem" />);
  const note = container.querySelector('p.goal-problem');
  expect(note?.textContent).toBe(`${markWords('blocked', 'goals').hint} See pending changes`);
  expect(note?.textContent).toContain('goals');
  await user.click(screen.getByRole('button', { name: 'See pending changes' }));
  expect(useTrust.getState().inspectorOpen).toBe(true);
});
