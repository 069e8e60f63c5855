// Clicks with a modifier held, as a person extends a selection (Shift) or
// toggles items in and out of it (Ctrl/Cmd) in the list and on the board.
import type { UserEvent } from '@testing-library/user-event';

/** A click on `first`, then Shift+click on `last`: selects the range between them. */
export async function selectRange(user: UserEvent, first: Element, last: Element): Promise<void> {
  await user.click(first);
  await user.keyboard('{Shift>}');
  await user.click(last);
  await user.keyboard('{/Shift}');
}

/** Ctrl+click on each target in turn: each is toggled in or out of the selection. */
export async function controlClick(user: UserEvent, ...targets: Element[]): Promise<void> {
  await user.keyboard('{Control>}');
  for (const target of targets) await user.click(target);
  await user.keyboard('{/Control}');
}
