// Drafts in a real mirror file: kept per kind and task until sent or
// discarded, still there when the file is opened again (a restart), and
// following a new task or comment when the server gives it its id.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror;
beforeEach(async () => {
  handle = await openTestMirror();
});
afterEach(() => handle.cleanup());

const comment = (taskId: string) => ({ kind: 'comment' as const, taskId, replyTo: '' });

describe('drafts', () => {
  test('survive closing and opening the mirror file again, each under its own key', async () => {
    const { mirror } = handle;
    mirror.drafts.save(comment('tsk_1'), { text: 'Half a thought' });
    mirror.drafts.save({ kind: 'reply', taskId: 'tsk_1', replyTo: 'cmt_9' }, { text: 'Agreed, but' });
    mirror.drafts.save({ kind: 'new-task', taskId: '', replyTo: '' }, { title: 'Call the printer' });
    mirror.drafts.save(comment('tsk_1'), { text: 'Half a thought, finished' });

    const reopened = await handle.reopen();
    expect(reopened.drafts.list('tsk_1').map(({ kind, replyTo, body }) => ({ kind, replyTo, body }))).toEqual(
      expect.arrayContaining([
        { kind: 'comment', replyTo: '', body: { text: 'Half a thought, finished' } },
        { kind: 'reply', replyTo: 'cmt_9', body: { text: 'Agreed, but' } },
      ]),
    );
    expect(reopened.drafts.list()).toHaveLength(3);
    expect(reopened.drafts.taskIds()).toEqual(['tsk_1']);
  });

  test('a discarded draft is gone, and the others stay', () => {
    const { mirror } = handle;
    mirror.drafts.save(comment('tsk_1'), { text: 'One' });
    mirror.drafts.save(comment('tsk_2'), { text: 'Two' });
    mirror.drafts.discard(comment('tsk_1'));
    mirror.drafts.discard(comment('tsk_3'));
    expect(mirror.drafts.list('tsk_1')).toEqual([]);
    expect(mirror.drafts.taskIds()).toEqual(['tsk_2']);
  });

  test('a comment drafted on a task not yet on the server stays with it once the server names it', () => {
    const { mirror } = handle;
    const created = mirror.tasks.create({ title: 'New here' });
    mirror.drafts.save(comment(created.taskId), { text: 'Notes for later' });
    mirror.outbox.start(created.opId);
    mirror.outbox.settle(created.opId, {
      task: taskJson({ task_id: 'tsk_server_7', title: 'New here' }),
      etag: '"s1"',
    });
    expect(mirror.drafts.taskIds()).toEqual(['tsk_server_7']);
    expect(mirror.drafts.list('tsk_server_7')[0]?.body).toEqual({ text: 'Notes for later' });
  });
});
