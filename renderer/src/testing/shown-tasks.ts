// What a list of tasks shows, as a test reads it: its rows' task ids in order.
// Tests only: product code never imports testing/.
import { within } from '@testing-library/react';

/** The task ids of `list`'s items (`data-task-id`), top to bottom. */
export function taskIdsIn(list: HTMLElement): (string | undefined)[] {
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.dataset.taskId);
}
