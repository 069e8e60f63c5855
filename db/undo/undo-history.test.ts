// The undo history's labels for a bulk change: the fields its changes set,
// gathered once per step without holding main for a large one.
import { expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { openTestMirrorPerTest } from '../test-mirror';
import type { BulkTaskChanged } from '../tasks/bulk-task-change';
import { undoHistoryOf } from './undo-history';

let mirror: Mirror;
openTestMirrorPerTest((handle) => {
  mirror = handle.mirror;
});

/** `count` changes of a bulk edit setting status, the last one setting its priority too. */
function bulkEdit(count: number): BulkTaskChanged[] {
  return Array.from({ length: count }, (_, i) => ({
    taskId: `TASK-${i}`,
    before: i === count - 1 ? { status: 'not_started', priority: 'low' } : { status: 'not_started' },
    after: i === count - 1 ? { status: 'blocked', priority: 'high' } : { status: 'blocked' },
    opId: null,
  }));
}

test("a bulk change's label names every field its changes set, in the order first seen", async () => {
  const history = undoHistoryOf(mirror);
  history.bulkChanged(bulkEdit(12_000));

  expect(await history.labels()).toEqual({ undo: 'Undo status, priority change of 12000 tasks', redo: null });
  // Asked again (after each change the app asks): the same, from what was gathered.
  expect(await history.labels()).toEqual({ undo: 'Undo status, priority change of 12000 tasks', redo: null });
});

test("a large bulk change's fields are gathered with the event loop free between reads", async () => {
  // At a million tasks, gathering 50 000 changes' fields in one step held main 80 ms.
  const history = undoHistoryOf(mirror);
  history.bulkChanged(bulkEdit(12_000));
  let turned = false;
  setImmediate(() => {
    turned = true;
  });

  const labels = await history.labels();

  expect(labels.undo).toBe('Undo status, priority change of 12000 tasks');
  expect(turned).toBe(true);
});
