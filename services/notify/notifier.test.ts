// The notifier on a real sync: an engine pulling from the emulator over HTTP
// into a real mirror file, peer changes, our own pushed edits and a conflict,
// and what gets displayed and marked seen.
import { afterEach, expect, test } from 'vitest';
import { sectionOperations } from '../../sync/api/operations';
import { type PullFixture, startPullFixture } from '../../sync/pull/testing/pull-fixture';
import type { DesktopNotification } from './notification-decisions';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './notification-settings';
import { Notifier } from './notifier';
import { referenceNames } from '../../db/read-models/referenced-names';
import { commentRewrittenElsewhere, editElsewhere } from '../../sync/push/testing/resource-push';

let fixture: PullFixture | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

async function setUp(settings: NotificationSettings = DEFAULT_NOTIFICATION_SETTINGS) {
  const f = await startPullFixture({ seedTasks: 300 });
  fixture = f;
  const shown: DesktopNotification[][] = [];
  const notifier = new Notifier({
    accountId: 'acc_1',
    me: f.emulator.me,
    mirror: f.mirror,
    settings: () => settings,
    display: (batch) => shown.push([...batch]),
    names: () => referenceNames(f.mirror),
    now: () => Date.parse('2026-03-10T12:00:00.000Z'),
    utcOffsetMinutes: () => 0,
  });
  f.engine.subscribe((event) => notifier.handle(event));
  return { f, notifier, shown };
}

function othersTasks(f: PullFixture) {
  const me = f.emulator.me.username;
  return f.emulator.control.tasks().filter((t) => t.assignee !== me && t.created_by !== me);
}

function openTaskOfMine(f: PullFixture) {
  const me = f.emulator.me.username;
  const mine = f.emulator.control.tasks().find((t) => t.assignee === me && t.status !== 'completed');
  if (!mine) throw new Error('the seed has no open task of mine');
  return mine;
}

test('the first sync shows nothing; a peer assigning me a task and changing my task’s status then notifies, and clicking marks it seen', async () => {
  const { f, notifier, shown } = await setUp();
  await f.engine.syncOnce();
  expect(shown).toEqual([]);

  const [other] = othersTasks(f);
  const mine = openTaskOfMine(f);
  if (!other) throw new Error('the seed has no task of someone else');
  f.emulator.control.peerEdit(other.task_id, { assignee: f.emulator.me.username });
  f.emulator.control.peerEdit(mine.task_id, { status: 'blocked' });
  await f.engine.syncOnce();

  expect(shown).toHaveLength(1);
  const batch = shown[0] ?? [];
  expect(batch.map((n) => [n.kind, n.open.taskId]).sort()).toEqual(
    [
      ['task-assigned', other.task_id],
      ['task-status-changed', mine.task_id],
    ].sort(),
  );
  expect(batch.every((n) => n.open.accountId === 'acc_1' && n.feedIds.length === 1)).toBe(true);
  expect(notifier.unseenCount()).toBe(2);
  for (const n of batch) notifier.opened(n);
  expect(notifier.unseenCount()).toBe(0);

  // Nothing new: the next poll announces nothing again.
  await f.engine.syncOnce();
  expect(shown).toHaveLength(1);
});

test('my own pushed edit coming back is not announced; a conflict with the peer is', async () => {
  const { f, shown } = await setUp();
  await f.engine.syncOnce();
  const mine = openTaskOfMine(f);
  f.mirror.tasks.edit(mine.task_id, { status: 'completed' });
  await f.engine.syncOnce();
  expect(shown).toEqual([]);

  const another = f.emulator.control
    .tasks()
    .find(
      (t) => t.assignee === f.emulator.me.username && t.task_id !== mine.task_id && t.status !== 'completed',
    );
  if (!another) throw new Error('the seed has too few open tasks of mine');
  f.mirror.tasks.edit(another.task_id, { title: 'Mine, locally' });
  f.emulator.control.peerEdit(another.task_id, { title: 'Theirs, remotely' });
  await f.engine.syncOnce();
  expect(shown.flat().map((n) => [n.kind, n.open.taskId])).toEqual([['task-conflict', another.task_id]]);
  expect(shown.flat()[0]?.body).toContain('title changed on both sides');
});

test('a conflict on my comment is announced on its task', async () => {
  const { f, shown } = await setUp();
  await f.engine.syncOnce();
  const mine = openTaskOfMine(f);
  f.mirror.comments.create({ taskId: mine.task_id, content: 'Original words' });
  await f.engine.syncOnce();
  const commentId = f.mirror.comments.threads(mine.task_id).find((c) => c.content === 'Original words')
    ?.comment_id as string;
  const otherDevice = f.apiWith(
    f.emulator.control.mintToken({ scopes: ['tasks:read', 'tasks:write'] }).token,
  );
  await commentRewrittenElsewhere(otherDevice, commentId, 'Theirs');
  f.mirror.comments.edit(commentId, 'Mine');
  await f.engine.syncOnce();
  expect(shown.flat().map((n) => [n.kind, n.open.taskId])).toEqual([['task-conflict', mine.task_id]]);
});

test('a conflict on a section is announced by the section’s name and opens its conflict, never a task of its id', async () => {
  const { f, shown } = await setUp();
  await f.engine.syncOnce();
  f.mirror.sections.create({ scope_type: 'user', scope_id: f.emulator.me.username, name: 'Parked ideas' });
  await f.engine.syncOnce();
  const sectionId = f.mirror.sections.list().find((s) => s.name === 'Parked ideas')?.section_id as string;
  const otherDevice = f.apiWith(
    f.emulator.control.mintToken({ scopes: ['tasks:read', 'tasks:write'] }).token,
  );
  await editElsewhere(
    otherDevice,
    sectionOperations.get,
    sectionOperations.update,
    { sectionId },
    { name: 'Soon' },
  );
  f.mirror.sections.edit(sectionId, { name: 'Next week' });
  await f.engine.syncOnce();
  expect(shown.flat()).toEqual([
    expect.objectContaining({
      kind: 'task-conflict',
      body: 'Section “Soon”: name changed on both sides',
      open: { accountId: 'acc_1', taskId: null, conflict: { entityType: 'section', entityId: sectionId } },
    }),
  ]);
});

test('a conflict on a task’s goal names both goals, mine here and theirs on the server (issue 13)', async () => {
  const { f, shown } = await setUp();
  await f.engine.syncOnce();
  const mine = openTaskOfMine(f);
  const projectId = mine.project_id;
  if (typeof projectId !== 'string') throw new Error('the seed’s task of mine has no project');
  f.mirror.goals.create({ name: 'Faster login' }, projectId);
  f.mirror.goals.create({ name: 'Fewer pages' }, projectId);
  await f.engine.syncOnce();
  const idOf = (name: string) => f.mirror.goals.list().find((g) => g.name === name)?.goal_id as string;
  f.mirror.tasks.edit(mine.task_id, { goal_id: idOf('Faster login') });
  f.emulator.control.peerEdit(mine.task_id, { goal_id: idOf('Fewer pages') });
  await f.engine.syncOnce();
  expect(shown.flat().map((n) => n.body)).toEqual([
    `“${mine.title}”: goal changed on both sides (goal ‘Faster login’ here, ‘Fewer pages’ on the server)`,
  ]);
});

test('with assignments switched off, five assignments show nothing and all five stay unseen', async () => {
  const { f, notifier, shown } = await setUp({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    kinds: { ...DEFAULT_NOTIFICATION_SETTINGS.kinds, 'task-assigned': false },
  });
  await f.engine.syncOnce();
  const others = othersTasks(f).slice(0, 5);
  for (const t of others) f.emulator.control.peerEdit(t.task_id, { assignee: f.emulator.me.username });
  await f.engine.syncOnce();
  expect(shown).toEqual([]);
  expect(notifier.unseenCount()).toBe(5);
});

test('a burst of five assignments is one summary standing for all five feed entries', async () => {
  const { f, notifier, shown } = await setUp();
  await f.engine.syncOnce();
  const others = othersTasks(f).slice(0, 5);
  for (const t of others) f.emulator.control.peerEdit(t.task_id, { assignee: f.emulator.me.username });
  await f.engine.syncOnce();
  expect(shown.flat().map((n) => [n.kind, n.title, n.count, n.feedIds.length])).toEqual([
    ['summary', '5 tasks assigned to you', 5, 5],
  ]);
  const summary = shown.flat()[0];
  if (summary) notifier.opened(summary);
  expect(notifier.unseenCount()).toBe(0);
});
