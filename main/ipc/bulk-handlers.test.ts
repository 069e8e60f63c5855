// The bulk-change calls through the real gate over a mirror the real pusher
// sends to the emulator: a query's tasks (less those taken out) queued as one
// batch and announced, its progress as the push goes, a stop of what is not
// sent, and refusals before anything is queued.
import { expect, test } from 'vitest';
import { SHOWN_FIRST } from '../../db/tasks/bulk-change';
import { loadTasks, taskJson } from '../../db/test-mirror';
import { bulkHandlers } from './bulk-handlers';
import { wiredHandlersPerTest } from './testing/wired-handlers';

const wire = wiredHandlersPerTest(bulkHandlers);

/** The list's query for every task, title order (as the renderer sends it). */
const EVERY_TASK = { filter: {}, sort_by: 'title', sort_order: 'asc' } as const;

test('everything a query matches but the exceptions is queued as one batch, announced, and sent as its progress counts', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(4);
  const [kept, ...changed] = ids as [string, ...string[]];

  const queued = await w.value('tasks:bulk-edit', {
    target: { query: EVERY_TASK, except: [kept] },
    change: { set: {}, tags_add: ['bulk'] },
  });

  expect(queued).toMatchObject({ matched: 3, queued: 3, unchanged: 0 });
  expect(w.edits).toBe(1);
  expect(w.events).toEqual([
    {
      name: 'mirror:changed',
      payload: expect.objectContaining({ collections: ['tasks'], task_ids: null }) as unknown,
    },
  ]);
  expect(await w.value('tasks:bulk-progress', { batch_id: queued.batch_id })).toEqual({
    total: 3,
    sent: 0,
    waiting: 3,
    stopped: 0,
  });
  await w.f.pusher.pushAll();
  expect(await w.value('tasks:bulk-progress', { batch_id: queued.batch_id })).toMatchObject({
    sent: 3,
    waiting: 0,
  });
  for (const id of changed) expect(w.f.emulator.control.task(id)?.tags).toContain('bulk');
  expect(w.f.emulator.control.task(kept)?.tags ?? []).not.toContain('bulk');
});

test("a change of more tasks than one write takes tells the list's first rows changed before it ends", async () => {
  const w = await wire();
  // More than one write takes (1000): the change is queued in several steps.
  const tasks = Array.from({ length: 1100 }, (_, i) =>
    taskJson({ title: `Bulk ${String(i).padStart(4, '0')}` }),
  );
  loadTasks(w.f.mirror, tasks);

  const queued = await w.value('tasks:bulk-edit', {
    target: { query: EVERY_TASK, except: [] },
    change: { set: { status: 'blocked' } },
  });

  expect(queued).toMatchObject({ queued: 1100 });
  const told = w.events.map((event) => (event.payload as { task_ids: string[] | null }).task_ids);
  expect(told).toHaveLength(2);
  // First the tasks queued so far, the list's first rows among them; then the whole change.
  const listed = tasks.map((task) => task.task_id as string).slice(0, SHOWN_FIRST);
  expect(told[0]).toEqual(expect.arrayContaining(listed));
  expect(told[0]?.length).toBeLessThan(1100);
  expect(told[1]).toBeNull();
});

test('stop gives up what was not sent and says how many', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(3);
  const queued = await w.value('tasks:bulk-edit', {
    target: { task_ids: ids },
    change: { set: {}, tags_add: ['to-stop'] },
  });

  const stopped = await w.value('tasks:bulk-stop', { batch_id: queued.batch_id });

  expect(stopped).toEqual({ given_up: 3, progress: { total: 0, sent: 0, waiting: 0, stopped: 0 } });
  expect(ids.map((id) => w.f.mirror.tasks.get(id)?.pending)).toEqual([false, false, false]);
});

test('a value the contract refuses is refused whole, nothing queued; a read-only account may not change any', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(2);
  const refused = await w.call('tasks:bulk-edit', {
    target: { task_ids: ids },
    change: { set: { status: '' } },
  });
  expect(refused).toMatchObject({ ok: false, error: { type: 'invalid-input' } });
  expect(w.f.mirror.outbox.list()).toEqual([]);

  const readOnly = await wire({ readOnly: true });
  const locked = await readOnly.call('tasks:bulk-edit', {
    target: { task_ids: ids },
    change: { delete: true },
  });
  expect(locked).toMatchObject({ ok: false, error: { type: 'read-only' } });
});

test('a tag taken back off drops the changes that waited, and the sync side is told (its count drops)', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(2);
  for (const id of ids) {
    const tags = (w.f.mirror.tasks.get(id)?.task.tags ?? []) as string[];
    w.f.mirror.tasks.edit(id, { tags: [...tags, 'for-now'] });
  }
  expect(w.f.mirror.outbox.counts().pending).toBe(2);

  const outcome = await w.value('tasks:bulk-edit', {
    target: { task_ids: ids },
    change: { set: {}, tags_remove: ['for-now'] },
  });

  // Changed all the same (the tag they showed is gone), though nothing is queued.
  expect(outcome).toMatchObject({ matched: 2, queued: 0, set_back: 2, unchanged: 0 });
  expect(w.f.mirror.outbox.counts().pending).toBe(0);
  // The status bar's count is read again when the sync side is told: without it, "2 changes waiting" stayed.
  expect(w.edits).toBe(1);
});
