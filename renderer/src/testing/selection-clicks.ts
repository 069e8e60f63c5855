// Clicks with a modifier held, as a person extends a selection (Shift) or
// toggles items in and out of it (Ctrl/Cmd) in the list and on the board.
import type { UserEvent } from '@testing-library/user-event';

/** Shift+click: selects the range from the item clicked last to `target`. */
export async function shiftClick(user: UserEvent, target: Element): Promise<void> {
  await user.keyboard('{Shift>}');
  await user.click(target);
  await user.keyboard('{/Shift}');
}

/** Ctrl+click on each target in turn: each is toggled in or out of the selection. */
export async function controlClick(user: UserEvent, ...targets: Element[]): Promise<void> {
  await user.keyboard('{Control>}');
  for (const target of targets) await user.click(target);
  await user.keyboard('{/Control}');
}
