// The inbox as the sync fills it, against the emulator over HTTP into a real
// mirror file: a peer's assignment, status change, comment and mention become
// entries for me; polling again, or after a restart, adds none of them twice.
import { expect, test } from 'vitest';
import { peerAssignsMeATask } from '../../emulator/testing/peer-assignment';
import { sectionOperations, taskCommentOperations } from '../api/operations';
import { type PullFixture, pullFixturePerTest } from './testing/pull-fixture';

const setUp = pullFixturePerTest({ seedTasks: 300 });

function inbox(f: PullFixture) {
  return f.mirror.feed
    .list(f.emulator.me.username)
    .map((n) => [n.kind, n.entityId] as const)
    .sort();
}

test('a peer’s assignment, status change, comment and mention arrive as entries, and polling again adds nothing', async () => {
  const f = await setUp();
  await f.engine.pullOnce();
  const me = f.emulator.me.username;
  const theirs = f.emulator.control.tasks().find((t) => t.assignee !== me && t.created_by !== me);
  const mine = f.emulator.control.tasks().find((t) => t.assignee === me && t.status !== 'completed');
  if (!theirs || !mine) throw new Error('the seed lacks tasks for this test');
  f.engine.openTask(mine.task_id);
  // The first look at a task's comments fills the cache quietly.
  await f.engine.pullOnce({ tier: 'hot' });
  f.emulator.control.peerEdit(theirs.task_id, { assignee: me });
  f.emulator.control.peerEdit(mine.task_id, { status: 'blocked' });
  await f
    .apiWith(f.emulator.tokens.peer)
    .create(
      taskCommentOperations.create,
      {},
      { task_id: mine.task_id, content: `@${me} can you look at this?` },
      { idempotencyKey: 'mention-1' },
    );
  await f.engine.pullOnce();
  await f.engine.pullOnce({ tier: 'hot' });
  expect(inbox(f)).toEqual(
    [
      ['task-assigned', theirs.task_id],
      ['task-status-changed', mine.task_id],
      ['task-commented', mine.task_id],
      ['task-mentioned', mine.task_id],
    ].sort(),
  );
  const mention = f.mirror.feed.list(me).find((n) => n.kind === 'task-mentioned');
  expect(mention?.summary).toMatchObject({ by: f.emulator.peer.username, title: mine.title });
  const before = f.mirror.feed.list(me);
  await f.engine.pullOnce();
  await f.engine.pullOnce({ tier: 'hot' });
  await f.engine.pullOnce({ tier: 'new' });
  expect(f.mirror.feed.list(me)).toEqual(before);
});

test('a restart between polls lists each change once and announces nothing again', async () => {
  const f = await setUp();
  await f.engine.pullOnce();
  const me = f.emulator.me.username;
  const theirs = peerAssignsMeATask(f.emulator);
  await f.engine.pullOnce();
  expect(inbox(f)).toEqual([['task-assigned', theirs.task_id]]);
  const [entry] = f.mirror.feed.list(me);
  await f.reopen();
  await f.engine.pullOnce();
  await f.engine.pullOnce({ tier: 'hot' });
  // The same entry, still unread: a restart neither repeats nor loses it.
  expect(f.mirror.feed.list(me)).toEqual([entry]);
  expect(f.mirror.feed.unseenCount(me)).toBe(1);
});

test('my edit that meets a conflict, and one the service refuses, are kept in the inbox once', async () => {
  const f = await setUp();
  await f.engine.pullOnce();
  const me = f.emulator.me.username;
  const [clash, refused] = f.emulator.control.tasks().filter((t) => t.status !== 'completed');
  if (!clash || !refused) throw new Error('the seed lacks open tasks');
  f.mirror.tasks.edit(clash.task_id, { title: 'mine' });
  f.emulator.control.peerEdit(clash.task_id, { title: 'theirs' });
  // No member of that name: the service refuses it (422), it waits editable.
  f.mirror.tasks.edit(refused.task_id, { assignee: 'nobody-by-that-name' });
  await f.engine.pushOnce();
  await f.engine.pushOnce();
  const entries = f.mirror.feed.list(me);
  expect(entries.map((n) => [n.kind, n.entityId]).sort()).toEqual(
    [
      ['task-conflict', clash.task_id],
      ['task-refused', refused.task_id],
    ].sort(),
  );
  expect(entries.find((n) => n.kind === 'task-conflict')?.summary).toMatchObject({ fields: ['title'] });
  await f.reopen();
  await f.engine.pushOnce();
  expect(f.mirror.feed.list(me)).toEqual(entries);
});

test("my rename of a section that met another device's rename is kept in the inbox once, naming the section and its board", async () => {
  const f = await setUp();
  await f.engine.pullOnce();
  const me = f.emulator.me.username;
  f.mirror.sections.create({ scope_type: 'user', scope_id: me, name: 'Later on' });
  await f.engine.pushOnce();
  const id = f.mirror.sections.list().find((s) => s.name === 'Later on')?.section_id;
  if (typeof id !== 'string') throw new Error('the section did not land');
  const other = f.apiWith(f.emulator.control.mintToken({ scopes: ['tasks:read', 'tasks:write'] }).token);
  const served = await other.read(sectionOperations.get, { sectionId: id });
  await other.update(sectionOperations.update, { sectionId: id }, { name: 'Soon' }, { ifMatch: served.etag });

  f.mirror.sections.edit(id, { name: 'Next week' });
  await f.engine.pushOnce();
  await f.engine.pushOnce();
  const entries = f.mirror.feed.list(me).filter((n) => n.entityType === 'section');
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({
    kind: 'section-conflict',
    entityId: id,
    summary: { title: 'Next week', of: 'section', fields: ['name'], scope_type: 'user', scope_id: me },
  });
  await f.reopen();
  await f.engine.pushOnce();
  expect(f.mirror.feed.list(me).filter((n) => n.entityType === 'section')).toEqual(entries);
});

test('a reply in a thread I wrote in, on a task not mine, arrives as a comment I follow', async () => {
  const f = await setUp();
  await f.engine.pullOnce();
  const me = f.emulator.me.username;
  const theirs = f.emulator.control
    .tasks()
    .find((t) => t.assignee !== me && t.created_by !== me && t.status !== 'completed');
  if (!theirs) throw new Error('the seed lacks a task of someone else');
  f.engine.openTask(theirs.task_id);
  await f.engine.pullOnce({ tier: 'hot' });
  const peer = f.apiWith(f.emulator.tokens.peer);
  const root = await peer.create(
    taskCommentOperations.create,
    {},
    { task_id: theirs.task_id, content: 'Anyone?' },
    { idempotencyKey: 'root-1' },
  );
  await f
    .apiWith(f.emulator.tokens.live)
    .create(
      taskCommentOperations.reply,
      {},
      { parent_comment_id: root.body.comment_id, content: 'Me' },
      { idempotencyKey: 'mine-1' },
    );
  await f.engine.pullOnce({ tier: 'hot' });
  // A comment on someone else's task, and my own reply, are not news to me.
  expect(inbox(f)).toEqual([]);
  await peer.create(
    taskCommentOperations.reply,
    {},
    { parent_comment_id: root.body.comment_id, content: 'Thanks' },
    { idempotencyKey: 'reply-2' },
  );
  await f.engine.pullOnce({ tier: 'hot' });
  expect(inbox(f)).toEqual([['task-commented', theirs.task_id]]);
  await f.engine.pullOnce({ tier: 'hot' });
  expect(inbox(f)).toEqual([['task-commented', theirs.task_id]]);
});
