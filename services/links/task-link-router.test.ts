import { afterEach, describe, expect, test } from 'vitest';
import { loadTasks, openTestMirror, taskJson, type TestMirror } from '../../db/test-mirror';
import type { LinkAccount } from './task-link-router';
import { mirrorShowsTask, routeTaskLink } from './task-link-router';

const opened: TestMirror[] = [];
afterEach(() => {
  for (const handle of opened.splice(0)) handle.cleanup();
});

/** An account over a real mirror file holding these tasks. */
async function account(
  id: string,
  taskIds: readonly string[],
  state: LinkAccount['state'] = 'signed-in',
): Promise<LinkAccount & { handle: TestMirror }> {
  const handle = await openTestMirror();
  opened.push(handle);
  loadTasks(
    handle.mirror,
    taskIds.map((taskId) => taskJson({ task_id: taskId })),
  );
  return { id, state, showsTask: (taskId) => mirrorShowsTask(handle.mirror, taskId), handle };
}

describe('where a task link leads', () => {
  test('to the one account whose mirror holds the task', async () => {
    const work = await account('acc_work', ['tsk_shared', 'tsk_work']);
    const home = await account('acc_home', ['tsk_home']);
    expect(routeTaskLink('svc-desktop://task/tsk_home', [work, home], 'acc_work')).toEqual({
      kind: 'open-task',
      accountId: 'acc_home',
      taskId: 'tsk_home',
    });
  });

  test('to a choice when several accounts hold it, the account on show first', async () => {
    const work = await account('acc_work', ['tsk_shared']);
    const home = await account('acc_home', ['tsk_shared']);
    const other = await account('acc_other', ['tsk_x']);
    expect(routeTaskLink('svc-desktop://task/tsk_shared', [work, other, home], 'acc_home')).toEqual({
      kind: 'choose-account',
      taskId: 'tsk_shared',
      accountIds: ['acc_home', 'acc_work'],
    });
  });

  test('to a notice when no account holds it', async () => {
    const work = await account('acc_work', ['tsk_work']);
    expect(routeTaskLink('svc-desktop://task/tsk_elsewhere', [work], 'acc_work')).toEqual({
      kind: 'refused',
      problem: 'task-not-found',
      reason: "this task is not in any of your accounts' synced data",
    });
    expect(routeTaskLink('svc-desktop://task/tsk_work', [], null)).toMatchObject({
      kind: 'refused',
      problem: 'task-not-found',
    });
  });

  test('a task created here and not yet sent is held by its account', async () => {
    const work = await account('acc_work', []);
    const { taskId } = work.handle.mirror.tasks.create({ title: 'Draft' });
    expect(routeTaskLink(`svc-desktop://task/${taskId}`, [work], null)).toEqual({
      kind: 'open-task',
      accountId: 'acc_work',
      taskId,
    });
  });

  test('a task deleted here (waiting to be sent) is not held', async () => {
    const work = await account('acc_work', ['tsk_gone']);
    const home = await account('acc_home', ['tsk_gone']);
    work.handle.mirror.tasks.delete('tsk_gone');
    expect(routeTaskLink('svc-desktop://task/tsk_gone', [work, home], 'acc_work')).toEqual({
      kind: 'open-task',
      accountId: 'acc_home',
      taskId: 'tsk_gone',
    });
  });

  test("a signed-out account's kept mirror is not offered", async () => {
    const gone = await account('acc_gone', ['tsk_1'], 'signed-out');
    const readOnly = await account('acc_ro', ['tsk_1'], 'read-only');
    expect(routeTaskLink('svc-desktop://task/tsk_1', [gone, readOnly], 'acc_gone')).toEqual({
      kind: 'open-task',
      accountId: 'acc_ro',
      taskId: 'tsk_1',
    });
  });

  test('an id with escapes is looked up decoded', async () => {
    const work = await account('acc_work', ['odd id ✓']);
    expect(routeTaskLink('svc-desktop://task/odd%20id%20%E2%9C%93', [work], null)).toMatchObject({
      kind: 'open-task',
      taskId: 'odd id ✓',
    });
  });

  test.each([
    ['svc-desktop://task/tsk_1/../tsk_2', 'malformed'],
    ['svc-desktop://task/tsk_1?x=1', 'malformed'],
    ['svc-desktop://project/prj_a', 'unsupported'],
    ['https://example.com/task/tsk_1', 'not-ours'],
  ])('%s is refused (%s) without reading any mirror', (raw, problem) => {
    const untouched: LinkAccount = {
      id: 'acc_x',
      state: 'signed-in',
      showsTask: () => {
        throw new Error('a refused link must not be looked up');
      },
    };
    expect(routeTaskLink(raw, [untouched], null)).toMatchObject({ kind: 'refused', problem });
  });
});
