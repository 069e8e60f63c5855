// A change a screen asks about first (ui/question.tsx) as a person answers it:
// the question says what will happen, Cancel (or its like) sends nothing, and
// asked again and confirmed, it goes. Tests only: product code never imports testing/.
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { InvokeChannel } from '../../../ipc/contract';
import type { FakeBridge } from './fake-bridge';

export interface AskedFirst {
  /** The button that asks. */
  open: () => HTMLElement;
  /** The question's accessible name. */
  question: string;
  /** Words the question must say (what happens to what it holds). */
  says: string;
  /** The button that goes on, inside the question. */
  confirm: string;
  /** The button that backs out; `Cancel` unless given. */
  cancel?: string;
  /** Where the change would be sent: nothing is, until confirmed. */
  channel: InvokeChannel;
}

/** Asks, checks the words, backs out (nothing sent), asks again and confirms: the caller asserts what was sent. */
export async function confirmAfterCancel(
  user: UserEvent,
  bridge: FakeBridge,
  ask: AskedFirst,
): Promise<void> {
  await user.click(ask.open());
  const question = screen.getByRole('alertdialog', { name: ask.question });
  expect(question.textContent).toContain(ask.says);
  await user.click(within(question).getByRole('button', { name: ask.cancel ?? 'Cancel' }));
  expect(bridge.callsOf(ask.channel)).toEqual([]);

  await user.click(ask.open());
  const again = screen.getByRole('alertdialog', { name: ask.question });
  await user.click(within(again).getByRole('button', { name: ask.confirm }));
}
