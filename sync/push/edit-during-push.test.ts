import { afterEach, expect, test } from 'vitest';
import { discardOperation } from '../../db/outbox/outbox-review';
import { TASK_PRIORITIES } from '../../protocol/task';
import { type PushFixture, startPushFixture } from './testing/push-fixture';

// A person keeps editing while the pusher works: an edit made while the pusher reads the
// task (it had no ETag to send) is pushed, merged or shown as waiting, never lost.

let fixture: PushFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** A task known from a list page (no ETag: the pusher reads it before its PATCH), with one edit queued. */
async function listedTaskWithEdit(): Promise<{ f: PushFixture; taskId: string }> {
  const f = await startPushFixture();
  fixture = f;
  await f.loadListed();
  const [taskId] = f.taskIds(1) as [string];
  expect(f.mirror.tasks.get(taskId)?.etag).toBeNull();
  f.mirror.tasks.edit(taskId, { title: 'First edit' });
  return { f, taskId };
}

const otherPriority = (f: PushFixture, taskId: string) =>
  TASK_PRIORITIES.find((p) => p !== f.emulator.control.task(taskId)?.priority) as string;

test('an edit made while the pusher reads the task goes to the server with the one before it', async () => {
  const { f, taskId } = await listedTaskWithEdit();
  const priority = otherPriority(f, taskId);
  const read = f.emulator.control.faults.hold({ method: 'GET', pathPrefix: `/v1/tasks/${taskId}` });
  const pushing = f.pusher.pushAll();
  await read.arrived;
  // The first edit waits in the outbox, never sent: this one folds into it.
  f.mirror.tasks.edit(taskId, { title: 'Second edit', priority });
  read.release();
  await pushing;
  await f.pusher.pushAll();

  expect(f.emulator.control.task(taskId)).toMatchObject({ title: 'Second edit', priority });
  expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
  expect(f.mirror.tasks.get(taskId)).toMatchObject({ pending: false });
  expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({ title: 'Second edit', priority });
});

test('an edit made while the pusher reads a task that meets a conflict waits with the conflict', async () => {
  const { f, taskId } = await listedTaskWithEdit();
  f.emulator.control.peerEdit(taskId, { title: 'Renamed by the peer' });
  const priority = otherPriority(f, taskId);
  const read = f.emulator.control.faults.hold({ method: 'GET', pathPrefix: `/v1/tasks/${taskId}` });
  const pushing = f.pusher.pushAll();
  await read.arrived;
  f.mirror.tasks.edit(taskId, { priority });
  read.release();
  await pushing;

  expect(f.mirror.outbox.conflicts('open')).toEqual([
    expect.objectContaining({
      entityId: taskId,
      field: 'title',
      mine: 'First edit',
      theirs: 'Renamed by the peer',
    }),
  ]);
  const [waiting] = f.mirror.outbox.list(['conflict']);
  expect(waiting?.patch).toEqual({ title: 'First edit', priority });
  expect(f.mirror.tasks.get(taskId)).toMatchObject({ pending: true });
  expect(f.mirror.tasks.get(taskId)?.task).toMatchObject({ title: 'First edit', priority });
  // Kept mine: both of the person's edits reach the server.
  const [conflict] = f.mirror.outbox.conflicts('open');
  f.mirror.outbox.resolve(conflict?.conflictId as string, { take: 'mine' });
  await f.pusher.pushAll();
  expect(f.emulator.control.task(taskId)).toMatchObject({ title: 'First edit', priority });
});

test('an edit made while the one before it is merged after a 412 goes after it, not against it', async () => {
  const f = await startPushFixture();
  fixture = f;
  const [taskId] = await f.loadedTaskIds(1);
  const id = taskId as string;
  const [first, next] = TASK_PRIORITIES.filter((p) => p !== f.emulator.control.task(id)?.priority);
  // Someone renames it: the first edit's PATCH meets a 412 and the pusher reads the task to merge.
  f.emulator.control.peerEdit(id, { title: 'Renamed by the peer' });
  f.mirror.tasks.edit(id, { priority: first });
  const read = f.emulator.control.faults.hold({ method: 'GET', pathPrefix: `/v1/tasks/${id}` });
  const pushing = f.pusher.pushAll();
  await read.arrived;
  // The first is on its way (sent once): this one queues behind it, against the version both were made on.
  f.mirror.tasks.edit(id, { priority: next });
  read.release();
  await pushing;
  await f.pusher.pushAll();

  expect(f.mirror.outbox.conflicts('open')).toEqual([]);
  expect(f.emulator.control.task(id)).toMatchObject({ title: 'Renamed by the peer', priority: next });
  expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
});

test.each(['edit', 'delete'] as const)(
  'a discarded %s: the person drops it while the pusher reads the task; it is not sent, and the pass goes on',
  async (kind) => {
    const f = await startPushFixture();
    fixture = f;
    await f.loadListed();
    const [taskId, otherId] = f.taskIds(2) as [string, string];
    const before = f.emulator.control.task(taskId);
    const queued =
      kind === 'edit' ? f.mirror.tasks.edit(taskId, { title: 'Discarded' }) : f.mirror.tasks.delete(taskId);
    f.mirror.tasks.edit(otherId, { title: 'Sent all the same' });
    const read = f.emulator.control.faults.hold({ method: 'GET', pathPrefix: `/v1/tasks/${taskId}` });
    const pushing = f.pusher.pushAll();
    await read.arrived;
    discardOperation(f.mirror, queued?.opId as string);
    read.release();

    await expect(pushing).resolves.toMatchObject({ pushed: 1 });
    expect(f.emulator.control.task(taskId)).toEqual(before);
    expect(f.emulator.control.task(otherId)?.title).toBe('Sent all the same');
    expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
  },
);
