// Comments through the one outbox, against the emulator over HTTP with a real
// SQLite mirror: written and replied to offline then sent once each in order
// with their ids remapped, coalesced while unsent, edits merged per field on
// a 412 (a reply changes a comment's ETag, not its content), a real
// disagreement parked as a three-way conflict, deletes with If-Match.
import { describe, expect, test } from 'vitest';
import { organizationMemberOperations, taskCommentOperations, taskOperations } from '../api/operations';
import type { ApiClient } from '../api/api-client';
import type { SyncEvent } from '../events/sync-events';
import { mirrorPushStore } from './mirror-push-store';
import { Pusher } from './pusher';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { commentRewrittenElsewhere } from './testing/resource-push';
import { onlyPage } from '../../db/test-mirror';

const start = pushFixturePerTest();

const WRITE_SCOPES = ['tasks:read', 'tasks:write'];
const commentWrites = (f: PushFixture) =>
  f.emulator.control
    .requests()
    .filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/task-comments'))
    .map((r) => `${r.method} ${r.path.replace(/cmt_[\w-]+|[0-9a-f-]{36}/g, ':id')} ${r.status}`);
const eventsOf = <T extends SyncEvent['type']>(f: PushFixture, type: T) =>
  f.events.filter((e): e is Extract<SyncEvent, { type: T }> => e.type === type);

/** A task both the person and the peer can read, made on the server as a person would. */
async function sharedTask(f: PushFixture): Promise<string> {
  const created = await f.api.create(
    taskOperations.create,
    {},
    { org_id: f.emulator.orgId, title: 'a task to talk about' },
  );
  return created.body.task_id;
}

async function serverThreads(api: ApiClient, taskId: string) {
  const page = await api.listPage(taskCommentOperations.list, { taskId }, { limit: 100 });
  if (page.status !== 200) throw new Error('task-comments.list answered 304');
  return page.body.data;
}

/** Another client of the same person (a second device), or of the peer. */
function clientOf(f: PushFixture, who: 'me' | 'peer'): ApiClient {
  const principalUserId = who === 'me' ? undefined : f.emulator.peer.user_id;
  const { token } = f.emulator.control.mintToken({
    ...(principalUserId === undefined ? {} : { principalUserId }),
    scopes: WRITE_SCOPES,
  });
  return f.apiWith(token);
}

describe('comments written offline', () => {
  test('a comment and a reply to it, written offline, show at once and reach the server once each, in order, under their server ids', async () => {
    const f = await start();
    const taskId = await sharedTask(f);
    const first = f.mirror.comments.create({ taskId, content: 'Written on the plane' });
    const reply = f.mirror.comments.create({
      taskId,
      content: 'And a reply to it',
      parentCommentId: first.commentId,
    });
    expect(first.commentId).toMatch(/^local-/);
    expect(f.mirror.comments.threads(taskId)).toMatchObject([
      {
        comment_id: first.commentId,
        content: 'Written on the plane',
        pending: 'queued',
        replies: [{ comment_id: reply.commentId, content: 'And a reply to it', pending: 'queued' }],
      },
    ]);

    const summary = await f.pusher.pushAll();
    expect(summary).toMatchObject({ pushed: 2, conflicts: 0, failed: 0 });
    expect(commentWrites(f)).toEqual(['POST /v1/task-comments 201', 'POST /v1/task-comments/reply 201']);
    const server = await serverThreads(f.api, taskId);
    expect(server).toHaveLength(1);
    expect(server[0]).toMatchObject({
      content: 'Written on the plane',
      replies: [{ content: 'And a reply to it', parent_comment_id: server[0]?.comment_id }],
    });
    const remapped = eventsOf(f, 'id-remapped');
    expect(remapped.map((e) => [e.entityType, e.from])).toEqual([
      ['comment', first.commentId],
      ['comment', reply.commentId],
    ]);
    // The mirror now holds the thread under the server's ids, nothing pending, in the same place.
    const shown = f.mirror.comments.threads(taskId);
    expect(shown).toEqual([
      expect.objectContaining({
        comment_id: server[0]?.comment_id,
        content: 'Written on the plane',
        replies: [expect.objectContaining({ comment_id: server[0]?.replies?.[0]?.comment_id })],
      }),
    ]);
    expect(JSON.stringify(shown)).not.toContain('local-');
    expect(JSON.stringify(shown)).not.toContain('pending');
    expect(f.mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked'])).toEqual([]);
  });

  test('a comment on a task still queued waits for the task, then goes under its server id', async () => {
    const f = await start();
    const { taskId } = f.mirror.tasks.create({ title: 'new offline' });
    f.mirror.comments.create({ taskId, content: 'about the new task' });
    await f.pusher.pushAll();
    const created = f.emulator.control.tasks().find((t) => t.title === 'new offline');
    expect(created).toBeDefined();
    const server = await serverThreads(f.api, created?.task_id as string);
    expect(server.map((c) => c.content)).toEqual(['about the new task']);
    expect(f.mirror.comments.threads(created?.task_id as string)).toHaveLength(1);
  });

  test('an edit of a comment still queued folds into its create; deleting it cancels both, nothing is sent', async () => {
    const f = await start();
    const taskId = await sharedTask(f);
    const kept = f.mirror.comments.create({ taskId, content: 'draft' });
    expect(f.mirror.comments.edit(kept.commentId, 'final words')).toEqual({ opId: kept.opId });
    const dropped = f.mirror.comments.create({ taskId, content: 'never mind' });
    expect(f.mirror.comments.delete(dropped.commentId)).toBeNull();
    const queued = f.mirror.outbox.list();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'create',
      entityType: 'comment',
      patch: { content: 'final words' },
    });

    await f.pusher.pushAll();
    expect(commentWrites(f)).toEqual(['POST /v1/task-comments 201']);
    expect((await serverThreads(f.api, taskId)).map((c) => c.content)).toEqual(['final words']);
  });

  test('an empty or oversized comment is refused before it is queued, and nothing is lost', () => {
    return (async () => {
      const f = await start();
      const taskId = await sharedTask(f);
      expect(() => f.mirror.comments.create({ taskId, content: '' })).toThrow(/content/);
      expect(() => f.mirror.comments.create({ taskId, content: 'x'.repeat(100_001) })).toThrow(/content/);
      expect(f.mirror.outbox.list()).toEqual([]);
    })();
  });
});

describe('editing and deleting my comments', () => {
  async function postedComment(f: PushFixture, content: string) {
    const taskId = await sharedTask(f);
    f.mirror.comments.create({ taskId, content });
    await f.pusher.pushAll();
    const [thread] = f.mirror.comments.threads(taskId);
    f.emulator.control.clearRequests();
    return { taskId, commentId: thread?.comment_id as string };
  }

  test('an edit is a merge-patch with If-Match; a reply by the peer in between (a 412 without a real conflict) is merged, not a conflict', async () => {
    const f = await start();
    const { taskId, commentId } = await postedComment(f, 'First thought');
    const peer = clientOf(f, 'peer');
    await peer.create(
      taskCommentOperations.reply,
      {},
      { parent_comment_id: commentId, content: 'peer answers' },
    );
    f.emulator.control.clearRequests();

    f.mirror.comments.edit(commentId, 'Second thought');
    const summary = await f.pusher.pushAll();
    expect(summary).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(commentWrites(f)).toEqual(['PATCH /v1/task-comments/:id 412', 'PATCH /v1/task-comments/:id 200']);
    const [thread] = await serverThreads(f.api, taskId);
    expect(thread).toMatchObject({ content: 'Second thought', replies: [{ content: 'peer answers' }] });
    expect(eventsOf(f, 'merged')).toMatchObject([{ entityType: 'comment', rebased: ['content'] }]);
  });

  test('my other device changed the same comment: a three-way conflict, settled by taking mine', async () => {
    const f = await start();
    const { taskId, commentId } = await postedComment(f, 'Original');
    const otherDevice = clientOf(f, 'me');
    await commentRewrittenElsewhere(otherDevice, commentId, 'Theirs');

    f.mirror.comments.edit(commentId, 'Mine');
    expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
    const [conflict] = f.mirror.outbox.conflicts('open');
    expect(conflict).toMatchObject({
      entityType: 'comment',
      entityId: commentId,
      field: 'content',
      base: 'Original',
      mine: 'Mine',
      theirs: 'Theirs',
    });
    expect(f.mirror.comments.threads(taskId)[0]).toMatchObject({ content: 'Mine', pending: 'conflict' });

    f.mirror.outbox.resolve(conflict?.conflictId as string, { take: 'mine' });
    await f.pusher.pushAll();
    expect((await serverThreads(f.api, taskId))[0]).toMatchObject({ content: 'Mine' });
    expect(f.mirror.outbox.conflicts('open')).toEqual([]);
  });

  test('a delete carries If-Match and removes the comment from the mirror; deleted elsewhere first, it is settled as done', async () => {
    const f = await start();
    const { taskId, commentId } = await postedComment(f, 'to be removed');
    f.mirror.comments.delete(commentId);
    expect(f.mirror.comments.threads(taskId)).toEqual([]);
    await f.pusher.pushAll();
    expect(commentWrites(f)).toEqual(['DELETE /v1/task-comments/:id 204']);
    const withIfMatch = f.emulator.control
      .requests()
      .filter((r) => r.method === 'DELETE')
      .map((r) => r.ifMatch);
    expect(withIfMatch).toEqual([expect.stringMatching(/^(W\/)?"/)]);
    expect(await serverThreads(f.api, taskId)).toEqual([]);
    expect(f.mirror.comments.threads(taskId)).toEqual([]);
  });

  test('an edit of a comment deleted on the server waits as a draft (deleted-remotely), never dropped unseen', async () => {
    const f = await start();
    const { commentId } = await postedComment(f, 'soon gone');
    const otherDevice = clientOf(f, 'me');
    await otherDevice.remove(taskCommentOperations.delete, { commentId });
    f.mirror.comments.edit(commentId, 'my late edit');
    expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
    expect(f.mirror.outbox.conflicts('open')).toMatchObject([
      { entityType: 'comment', entityId: commentId, field: '*', mine: { content: 'my late edit' } },
    ]);
  });

  test("an org admin's delete of another member's comment is sent and removes it; a member's is refused (403) and waits as a failed change, the comment shown again", async () => {
    const f = await start();
    const taskId = await sharedTask(f);
    const peer = clientOf(f, 'peer');
    for (const content of ['grace’s first', 'grace’s second']) {
      await peer.create(taskCommentOperations.create, {}, { task_id: taskId, content });
    }
    // The threads as the hot tier stores them: one list page of the task's comments.
    f.mirror.passes.begin('task_comments', taskId);
    f.mirror.passes.applyPage(
      onlyPage('task_comments', await serverThreads(f.api, taskId), { scope: taskId }),
    );
    const [first, second] = f.mirror.comments.threads(taskId).map((c) => c.comment_id);
    const members = await f.api.listPage(
      organizationMemberOperations.list,
      { orgId: f.emulator.orgId },
      { limit: 100 },
    );
    if (members.status !== 200) throw new Error('organization-members.list answered 304');
    const pusherAs = (role: string) => {
      const member = members.body.data.find(
        (m) =>
          m.role === role && m.username !== f.emulator.peer.username && m.username !== f.emulator.me.username,
      );
      if (!member) throw new Error(`the seed has no other ${role}`);
      const { token } = f.emulator.control.mintToken({
        principalUserId: member.user_id,
        scopes: WRITE_SCOPES,
      });
      return new Pusher({
        store: mirrorPushStore(f.mirror),
        api: f.apiWith(token),
        onEvent: (e) => f.events.push(e),
      });
    };
    f.emulator.control.clearRequests();

    f.mirror.comments.delete(first as string);
    expect(await pusherAs('admin').pushAll()).toMatchObject({ pushed: 1, failed: 0 });
    f.mirror.comments.delete(second as string);
    expect(await pusherAs('member').pushAll()).toMatchObject({ pushed: 0, failed: 1 });
    expect(commentWrites(f)).toEqual([
      'DELETE /v1/task-comments/:id 204',
      'DELETE /v1/task-comments/:id 403',
    ]);
    expect((await serverThreads(f.api, taskId)).map((c) => c.comment_id)).toEqual([second]);
    // Refused, the delete is not lost: it waits in the outbox, and the comment shows again with the refusal.
    expect(f.mirror.outbox.list().filter((op) => op.state !== 'done')).toMatchObject([
      { entityType: 'comment', entityId: second, kind: 'delete', state: 'failed' },
    ]);
    expect(eventsOf(f, 'push-failed')).toMatchObject([{ entityId: second, error: { status: 403 } }]);
    expect(f.mirror.comments.threads(taskId)).toMatchObject([
      { comment_id: second, content: 'grace’s second', pending: 'failed', delete_waiting: true },
    ]);
  });
});
