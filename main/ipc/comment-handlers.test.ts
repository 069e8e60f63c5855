// The comment calls through the real gate over a mirror pushed by the real
// pusher to the emulator: a comment and a reply queued (shown at once, marked
// pending), refused input told as a validation error with nothing queued, a
// read-only account refused, edits and deletes queued for the next push.
import { describe, expect, test } from 'vitest';
import { taskCommentOperations } from '../../sync/api/operations';
import { commentHandlers } from './comment-handlers';
import { wiredHandlersPerTest } from './testing/wired-handlers';

let readOnly = false;
const wireHandlers = wiredHandlersPerTest(commentHandlers);
const wire = () => wireHandlers({ readOnly: () => readOnly });

describe('comment calls', () => {
  test('a comment and a reply to it are queued and shown at once; once pushed they are on the server, then edited and deleted', async () => {
    readOnly = false;
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    const first = await w.value('comment:create', { task_id: taskId, content: 'Written in the app' });
    expect(first.comment_id).toMatch(/^local-/);
    const reply = await w.value('comment:create', {
      task_id: taskId,
      content: 'A reply',
      parent_comment_id: first.comment_id,
    });
    expect(w.f.mirror.comments.threads(taskId).find((c) => c.comment_id === first.comment_id)).toMatchObject({
      content: 'Written in the app',
      pending: 'queued',
      replies: [{ comment_id: reply.comment_id, pending: 'queued' }],
    });
    expect(w.events.map((e) => e.name)).toEqual(['mirror:changed', 'mirror:changed']);
    expect(w.edits).toBe(2);

    await w.f.pusher.pushAll();
    const page = await w.f.api.listPage(taskCommentOperations.list, { taskId }, { limit: 100 });
    const mine = page.status === 200 ? page.body.data.filter((c) => c.content === 'Written in the app') : [];
    expect(mine).toHaveLength(1);
    const serverId = mine[0]?.comment_id as string;

    expect(
      await w.value('comment:edit', { comment_id: serverId, content: 'Edited in the app' }),
    ).toMatchObject({
      comment_id: serverId,
      op_id: expect.any(String) as unknown,
    });
    await w.f.pusher.pushAll();
    const edited = await w.f.api.read(taskCommentOperations.get, { commentId: serverId });
    expect(edited.status === 200 && edited.body.content).toBe('Edited in the app');

    await w.value('comment:delete', { comment_id: serverId });
    expect(w.f.mirror.comments.threads(taskId).map((c) => c.comment_id)).not.toContain(serverId);
    await w.f.pusher.pushAll();
    const gone = await w.f.api.listPage(taskCommentOperations.list, { taskId }, { limit: 100 });
    expect(gone.status === 200 && gone.body.data.map((c) => c.comment_id)).not.toContain(serverId);
  });

  test('an empty comment, or one over the bound, is a validation error and nothing is queued', async () => {
    readOnly = false;
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    const empty = await w.call('comment:create', { task_id: taskId, content: '' });
    expect(empty.ok).toBe(false);
    const long = await w.call('comment:create', { task_id: taskId, content: 'x'.repeat(100_001) });
    expect(long).toMatchObject({ ok: false, error: { type: 'validation' } });
    const unknown = await w.call('comment:edit', { comment_id: 'cmt_nowhere', content: 'x' });
    expect(unknown).toMatchObject({ ok: false, error: { type: 'not-found' } });
    expect(w.f.mirror.outbox.list()).toEqual([]);
  });

  test('a read-only account is refused before anything is queued', async () => {
    readOnly = true;
    const w = await wire();
    const [taskId] = w.f.taskIds(1) as [string];
    const refused = await w.call('comment:create', { task_id: taskId, content: 'not allowed' });
    expect(refused).toMatchObject({ ok: false, error: { type: 'read-only' } });
    expect(w.f.mirror.outbox.list()).toEqual([]);
    readOnly = false;
  });
});
