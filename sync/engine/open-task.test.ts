// Opening a task in the editor, as the app does it through the engine: its
// comments and its history are fetched in the person's lane and land in the
// mirror (where the editor reads them, offline too), through the same pull
// store and page walker as every other pull.
import { afterEach, expect, test } from 'vitest';
import { taskCommentOperations } from '../api/operations';
import { type PullFixture, startPullFixture } from '../pull/testing/pull-fixture';

let fixture: PullFixture | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** A task of the seed with comments and history on the server, and its comments' ids. */
async function taskWithActivity(f: PullFixture): Promise<{ taskId: string; commentIds: string[] }> {
  const api = f.apiWith(f.emulator.tokens.live);
  for (const task of f.emulator.control.tasks()) {
    if (f.emulator.control.history(task.task_id).length === 0) continue;
    const page = await api.listPage(
      taskCommentOperations.list,
      { taskId: task.task_id },
      { limit: 100 },
      { lane: 'user' },
    );
    if (page.status === 200 && page.body.data.length > 0) {
      return { taskId: task.task_id, commentIds: page.body.data.map((c) => c.comment_id).sort() };
    }
  }
  throw new Error('the seed has no task with both comments and history');
}

async function started(f: PullFixture): Promise<void> {
  const first = new Promise<void>((resolve) => {
    const stop = f.engine.subscribe((event) => {
      if (event.type === 'sync-finished') {
        stop();
        resolve();
      }
    });
  });
  f.engine.start();
  await first;
}

test('opening a task brings its comments and its history into the mirror, and says when they landed', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 80 }));
  await started(f);
  const { taskId, commentIds } = await taskWithActivity(f);
  const historyIds = f.emulator.control
    .history(taskId)
    .map((h) => h.history_id)
    .sort();
  f.emulator.control.clearRequests();
  f.events.length = 0;

  const landed = await f.engine.refreshTaskActivity(taskId);

  expect(landed).toBe(true);
  const ids = (collection: 'task_comments' | 'task_history', field: string) =>
    f.mirror.collections
      .list(collection, taskId)
      .map((r) => String(r[field]))
      .sort();
  expect(ids('task_comments', 'comment_id')).toEqual(commentIds);
  expect(ids('task_history', 'history_id')).toEqual(historyIds);
  expect(f.mirror.passes.state('task_history', taskId)).not.toBeNull();
  // Nothing is announced: the person is looking at them.
  expect(f.events.filter((e) => e.type === 'changes')).toEqual([]);
});

test('a task created here and not pushed yet asks the server nothing; a stopped (paused) engine asks nothing', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 20 }));
  await started(f);
  f.emulator.control.clearRequests();

  expect(await f.engine.refreshTaskActivity('local-0001')).toBe(false);
  await f.engine.stop();
  const [taskId] = f.mirroredTaskIds() as [string];
  expect(await f.engine.refreshTaskActivity(taskId)).toBe(false);

  expect(f.emulator.control.requests().filter((r) => r.path.startsWith('/v1/task'))).toEqual([]);
});
