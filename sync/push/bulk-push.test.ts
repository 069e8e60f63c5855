// A bulk change is sent as the edits it is made of: one PATCH per task, each
// merged per field on 412 as any edit is, its progress counted over its batch.
import { expect, test } from 'vitest';
import { queueBulkChange } from '../../db/tasks/bulk-change';
import { pushFixturePerTest } from './testing/push-fixture';

const start = pushFixturePerTest();

test('a bulk change sends one edit per task; a 412 merges per field, a clash waits as a conflict; progress counts them', async () => {
  const f = await start();
  const ids = await f.loadedTaskIds(3);
  const [quiet, renamed, clashed] = ids as [string, string, string];
  const status = ['in_progress', 'completed', 'blocked'].find((value) =>
    ids.every((id) => f.emulator.control.task(id)?.status !== value),
  ) as string;
  const outcome = await queueBulkChange(
    f.mirror,
    { taskIds: ids },
    { kind: 'edit', set: { status, priority: 'urgent' }, addTags: [], removeTags: [] },
    { me: f.emulator.me.username, today: '2026-03-10' },
  );
  // Others changed two of the tasks meanwhile: one in a field the change leaves alone, one in a field it sets.
  f.emulator.control.peerEdit(renamed, { title: 'Renamed by the peer' });
  const theirs = status === 'blocked' ? 'in_progress' : 'blocked';
  f.emulator.control.peerEdit(clashed, { status: theirs });

  const summary = await f.pusher.pushAll();

  expect(summary).toMatchObject({ pushed: 2, conflicts: 1 });
  expect(f.emulator.control.task(quiet)).toMatchObject({ status, priority: 'urgent' });
  expect(f.emulator.control.task(renamed)).toMatchObject({
    title: 'Renamed by the peer',
    status,
    priority: 'urgent',
  });
  // The clash waits for the person; nothing of theirs is overwritten.
  expect(f.emulator.control.task(clashed)).toMatchObject({ status: theirs });
  expect(f.mirror.outbox.conflicts('open')).toEqual([
    expect.objectContaining({ entityId: clashed, field: 'status', mine: status, theirs }),
  ]);
  expect(f.mirror.outbox.batchProgress(outcome.batchId)).toEqual({
    total: 3,
    sent: 2,
    waiting: 0,
    stopped: 1,
  });
});
