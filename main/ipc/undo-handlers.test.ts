// Undo and redo through the real gate over a mirror the real pusher sends to
// the emulator: each kind of step (an edit, a create, a delete, a bulk change,
// a comment's create, edit and delete),
// not sent yet (undone in the outbox) and sent (undone by a change the service
// takes), redo after undo, and a new change clearing what could be redone.
import { expect, test } from 'vitest';
import { bulkHandlers } from './bulk-handlers';
import { commentHandlers } from './comment-handlers';
import { taskHandlers } from './task-handlers';
import { undoHandlers } from './undo-handlers';
import { type Wired, wiredHandlersPerTest } from './testing/wired-handlers';

const wire = wiredHandlersPerTest((d) => ({
  ...taskHandlers(d),
  ...bulkHandlers(d),
  ...commentHandlers(d),
  ...undoHandlers(d),
}));

async function oneTask(w: Wired): Promise<string> {
  const [id] = w.f.taskIds(1) as [string];
  await w.f.loadTasks([id]);
  return id;
}

const statusOf = (w: Wired, id: string) => w.f.mirror.tasks.get(id)?.task.status;

test('an edit not sent is undone in the outbox (nothing left to send) and redone', async () => {
  const w = await wire();
  const id = await oneTask(w);
  const was = statusOf(w, id);
  await w.value('task:edit', { task_id: id, patch: { status: 'blocked' } });
  expect(await w.value('undo:labels')).toEqual({ undo: 'Undo status change', redo: null });

  const undone = await w.value('undo:undo');

  expect(undone).toEqual({
    done: 'Undo status change',
    labels: { undo: null, redo: 'Redo status change' },
    batch: null,
  });
  expect(statusOf(w, id)).toBe(was);
  expect(w.f.mirror.outbox.list()).toEqual([]);
  expect(w.events.at(-1)?.payload).toMatchObject({ task_ids: [id] });

  await w.value('undo:redo');
  expect(statusOf(w, id)).toBe('blocked');
  expect(w.f.mirror.outbox.list().map((op) => op.patch)).toEqual([{ status: 'blocked' }]);
});

test('two undos asked at once each undo one step and say which: the last first', async () => {
  const w = await wire();
  const id = await oneTask(w);
  await w.value('task:edit', { task_id: id, patch: { status: 'blocked' } });
  await w.value('task:edit', { task_id: id, patch: { priority: 'urgent' } });

  const [first, second] = await Promise.all([w.value('undo:undo'), w.value('undo:undo')]);

  expect([first.done, second.done]).toEqual(['Undo priority change', 'Undo status change']);
  expect(second.labels).toEqual({ undo: null, redo: 'Redo status change' });
});

test('an edit sent is undone by a reverse edit the service takes, and redone', async () => {
  const w = await wire();
  const id = await oneTask(w);
  const was = w.f.emulator.control.task(id)?.status;
  await w.value('task:edit', { task_id: id, patch: { status: 'blocked' } });
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(id)?.status).toBe('blocked');

  await w.value('undo:undo');
  const [reverse] = w.f.mirror.outbox.list(['queued']);
  expect(reverse).toMatchObject({ patch: { status: was }, baseEtag: w.f.emulator.control.taskEtag(id) });
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(id)?.status).toBe(was);

  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(id)?.status).toBe('blocked');
});

test('an undo of a sent edit that someone changed since meets a 412 and waits as a conflict', async () => {
  const w = await wire();
  const id = await oneTask(w);
  await w.value('task:edit', { task_id: id, patch: { title: 'Mine' } });
  await w.f.pusher.pushAll();
  w.f.emulator.control.peerEdit(id, { title: 'Theirs' });

  await w.value('undo:undo');
  await w.f.pusher.pushAll();

  expect(w.f.mirror.outbox.conflicts('open').map((c) => [c.entityId, c.field, c.theirs])).toEqual([
    [id, 'title', 'Theirs'],
  ]);
});

test('a create not sent is undone by discarding it; redone as a new task', async () => {
  const w = await wire();
  const created = await w.value('task:create', { fields: { title: 'Undo me' } });
  expect((await w.value('undo:labels')).undo).toBe('Undo new task');

  await w.value('undo:undo');
  expect(w.f.mirror.outbox.list()).toEqual([]);
  expect(w.f.mirror.tasks.get(created.task.task_id)).toBeNull();

  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.tasks().filter((t) => t.title === 'Undo me')).toHaveLength(1);
});

test('a create sent is undone by deleting it on the service', async () => {
  const w = await wire();
  await w.value('task:create', { fields: { title: 'Sent then undone' } });
  await w.f.pusher.pushAll();
  const [onServer] = w.f.emulator.control.tasks().filter((t) => t.title === 'Sent then undone');
  expect(onServer).toBeDefined();

  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(onServer?.task_id ?? '')).toBeUndefined();
});

test('a delete not sent is called back: the task shows again with its unsent edits, nothing to send but them', async () => {
  const w = await wire();
  const id = await oneTask(w);
  await w.value('task:edit', { task_id: id, patch: { title: 'Renamed first' } });
  await w.value('task:delete', { task_id: id });
  expect((await w.value('undo:labels')).undo).toBe('Undo delete');

  await w.value('undo:undo');

  expect(w.f.mirror.tasks.get(id)).toMatchObject({ hidden: false, task: { title: 'Renamed first' } });
  expect(w.f.mirror.outbox.list().map((op) => [op.kind, op.patch])).toEqual([
    ['update', { title: 'Renamed first' }],
  ]);
});

test('a delete sent is undone by re-creating the task under a new id, as its label says', async () => {
  const w = await wire();
  const id = await oneTask(w);
  const title = w.f.emulator.control.task(id)?.title;
  await w.value('task:delete', { task_id: id });
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(id)).toBeUndefined();
  expect((await w.value('undo:labels')).undo).toBe('Undo delete: re-creates the task with a new id');

  await w.value('undo:undo');
  await w.f.pusher.pushAll();

  const again = w.f.emulator.control.tasks().filter((t) => t.title === title);
  expect(again).toHaveLength(1);
  expect(again[0]?.task_id).not.toBe(id);
  // Redo deletes the task it came back as.
  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.tasks().filter((t) => t.title === title)).toHaveLength(0);
});

test('a bulk change is one step: not sent, undone in the outbox; sent, undone by reverse edits', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(3);
  const tagsOf = (id: string) => w.f.emulator.control.task(id)?.tags ?? [];
  const before = ids.map(tagsOf);
  const bulk = { target: { task_ids: ids }, change: { set: {}, tags_add: ['undo-bulk'] } };

  await w.value('tasks:bulk-edit', bulk);
  expect((await w.value('undo:labels')).undo).toBe('Undo tags change of 3 tasks');
  // All of it folded back in the outbox: nothing to send, nothing to follow.
  expect((await w.value('undo:undo')).batch).toBeNull();
  expect(w.f.mirror.outbox.list()).toEqual([]);
  expect(ids.map((id) => w.f.mirror.tasks.get(id)?.task.tags ?? [])).toEqual(before);

  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  for (const id of ids) expect(tagsOf(id)).toContain('undo-bulk');
  // Sent: its reverse edits go as a batch of their own, followed and stopped as a bulk change's.
  const { batch } = await w.value('undo:undo');
  expect(batch?.queued).toBe(3);
  const progress = () => w.value('tasks:bulk-progress', { batch_id: batch?.batch_id });
  expect(await progress()).toEqual({ total: 3, sent: 0, waiting: 3, stopped: 0 });
  await w.f.pusher.pushAll();
  expect(ids.map(tagsOf)).toEqual(before);
  expect(await progress()).toEqual({ total: 3, sent: 3, waiting: 0, stopped: 0 });
});

test('a bulk change that sets waiting changes back is undone with them back, to send again', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(2);
  const tagsOf = (id: string) => (w.f.mirror.tasks.get(id)?.task.tags ?? []) as string[];
  for (const id of ids) w.f.mirror.tasks.edit(id, { tags: [...tagsOf(id), 'for-now'] });

  // The tag taken back off: the changes that waited drop, nothing is queued.
  const outcome = await w.value('tasks:bulk-edit', {
    target: { task_ids: ids },
    change: { set: {}, tags_remove: ['for-now'] },
  });
  expect(outcome).toMatchObject({ queued: 0, set_back: 2 });
  expect(w.f.mirror.outbox.list()).toEqual([]);
  expect((await w.value('undo:labels')).undo).toBe('Undo tags change of 2 tasks');

  await w.value('undo:undo');
  for (const id of ids) expect(tagsOf(id)).toContain('for-now');
  await w.f.pusher.pushAll();
  for (const id of ids) expect(w.f.emulator.control.task(id)?.tags).toContain('for-now');
});

test('a bulk delete sent is undone as one step, each task re-created', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(2);
  const titles = ids.map((id) => w.f.emulator.control.task(id)?.title);
  await w.value('tasks:bulk-edit', { target: { task_ids: ids }, change: { delete: true } });
  await w.f.pusher.pushAll();

  expect((await w.value('undo:labels')).undo).toBe(
    'Undo delete of 2 tasks: re-creates the task with a new id',
  );
  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  const back = w.f.emulator.control.tasks().map((t) => t.title);
  for (const title of titles) expect(back).toContain(title);
});

test('a new change after an undo clears what could be redone', async () => {
  const w = await wire();
  const id = await oneTask(w);
  await w.value('task:edit', { task_id: id, patch: { status: 'blocked' } });
  await w.value('undo:undo');
  await w.value('task:edit', { task_id: id, patch: { title: 'Something else' } });

  expect(await w.value('undo:labels')).toEqual({ undo: 'Undo title change', redo: null });
  expect(await w.value('undo:redo')).toEqual({
    done: null,
    labels: { undo: 'Undo title change', redo: null },
    batch: null,
  });
});

const onServer = (w: Wired, content: string) =>
  w.f.emulator.control.comments().filter((c) => c.content === content);

/** A comment on a new task, sent: the task's id and the comment's on the service. */
async function sentComment(w: Wired, content: string): Promise<{ taskId: string; commentId: string }> {
  const taskId = await oneTask(w);
  await w.value('comment:create', { task_id: taskId, content });
  await w.f.pusher.pushAll();
  return { taskId, commentId: onServer(w, content)[0]?.comment_id as string };
}

test('a comment not sent is undone by discarding it; redone, it is queued again', async () => {
  const w = await wire();
  const taskId = await oneTask(w);
  const created = await w.value('comment:create', { task_id: taskId, content: 'Said too soon' });
  expect((await w.value('undo:labels')).undo).toBe('Undo new comment');

  await w.value('undo:undo');
  expect(w.f.mirror.outbox.list()).toEqual([]);
  expect(w.f.mirror.comments.threads(taskId).map((c) => c.comment_id)).not.toContain(created.comment_id);

  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  expect(onServer(w, 'Said too soon')).toHaveLength(1);
});

test('a comment sent is undone by deleting it on the service', async () => {
  const w = await wire();
  await sentComment(w, 'Posted then undone');
  expect(onServer(w, 'Posted then undone')).toHaveLength(1);

  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  expect(onServer(w, 'Posted then undone')).toHaveLength(0);
});

test('a comment edit is undone in the outbox when not sent, by a reverse edit when sent', async () => {
  const w = await wire();
  const { commentId } = await sentComment(w, 'First words');

  await w.value('comment:edit', { comment_id: commentId, content: 'Second words' });
  expect((await w.value('undo:labels')).undo).toBe('Undo comment edit');
  await w.value('undo:undo');
  expect(w.f.mirror.outbox.list(['queued'])).toEqual([]);

  await w.value('undo:redo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.comments().find((c) => c.comment_id === commentId)?.content).toBe(
    'Second words',
  );
  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.comments().find((c) => c.comment_id === commentId)?.content).toBe(
    'First words',
  );
});

test('a comment delete not sent is called back; one sent is posted again under a new id, as its label says', async () => {
  const w = await wire();
  const { taskId, commentId } = await sentComment(w, 'Keep me');

  await w.value('comment:delete', { comment_id: commentId });
  expect((await w.value('undo:labels')).undo).toBe('Undo comment delete');
  await w.value('undo:undo');
  expect(w.f.mirror.outbox.list(['queued'])).toEqual([]);
  expect(w.f.mirror.comments.threads(taskId).map((c) => c.comment_id)).toContain(commentId);

  await w.value('comment:delete', { comment_id: commentId });
  await w.f.pusher.pushAll();
  expect(onServer(w, 'Keep me')).toHaveLength(0);
  expect((await w.value('undo:labels')).undo).toBe('Undo comment delete: posts it again as a new comment');
  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  const again = onServer(w, 'Keep me');
  expect(again).toHaveLength(1);
  expect(again[0]?.comment_id).not.toBe(commentId);
});

test('a move on the board (its section and place) and a filing are steps like an edit, labelled as such', async () => {
  const w = await wire();
  const withSection = w.f.emulator.control.tasks().find((t) => typeof t.section_id === 'string');
  const id = withSection?.task_id as string;
  await w.f.loadTasks([id]);
  const before = { section_id: withSection?.section_id, position: withSection?.position ?? null };

  await w.value('task:edit', { task_id: id, patch: { section_id: null, position: 7.5 } });
  expect((await w.value('undo:labels')).undo).toBe('Undo move');
  await w.f.pusher.pushAll();
  await w.value('undo:undo');
  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.task(id)).toMatchObject(before);

  const inSprint = w.f.emulator.control.tasks().find((t) => typeof t.sprint_id === 'string');
  const sprintTask = inSprint?.task_id as string;
  await w.f.loadTasks([sprintTask]);
  await w.value('task:edit', { task_id: sprintTask, patch: { sprint_id: null } });
  expect((await w.value('undo:labels')).undo).toBe('Undo sprint change');
  await w.value('undo:undo');
  expect(w.f.mirror.tasks.get(sprintTask)?.task.sprint_id).toBe(inSprint?.sprint_id);
});

test('a bulk delete not sent is called back as one step: every task shows again, nothing to send', async () => {
  const w = await wire();
  const ids = await w.f.loadedTaskIds(3);
  await w.value('tasks:bulk-edit', { target: { task_ids: ids }, change: { delete: true } });
  expect((await w.value('undo:labels')).undo).toBe('Undo delete of 3 tasks');

  await w.value('undo:undo');

  expect(ids.map((id) => w.f.mirror.tasks.get(id)?.hidden)).toEqual([false, false, false]);
  expect(w.f.mirror.outbox.list()).toEqual([]);
});

/** Two tasks of one project filed under one of its milestones (by another person), and another project. */
async function filedUnderMilestone(w: Wired): Promise<{ ids: [string, string]; otherProject: string }> {
  const tasks = w.f.emulator.control.tasks();
  const projectId = tasks.find((t) => typeof t.project_id === 'string')?.project_id as string;
  const otherProject = tasks.find((t) => typeof t.project_id === 'string' && t.project_id !== projectId)
    ?.project_id as string;
  const response = await fetch(`${w.f.emulator.baseUrl}/v1/projects/${projectId}/milestones`, {
    headers: { authorization: `Bearer ${w.f.emulator.tokens.live}` },
  });
  const [milestone] = ((await response.json()) as { data: { milestone_id: string }[] }).data;
  const ids = tasks
    .filter((t) => t.project_id === projectId)
    .map((t) => t.task_id)
    .slice(0, 2) as [string, string];
  // No goal or section of the project either: the service would refuse the move for them.
  for (const id of ids)
    w.f.emulator.control.peerEdit(id, {
      milestone_id: milestone?.milestone_id as string,
      goal_id: null,
      section_id: null,
    });
  await w.f.loadTasks(ids);
  return { ids, otherProject };
}

test('a move to another project, which clears the milestone, is undone with the milestone back: not sent and sent, one task and a bulk change', async () => {
  const w = await wire();
  const { ids, otherProject } = await filedUnderMilestone(w);
  const filing = (taskId: string) => {
    const { project_id, milestone_id } = w.f.mirror.tasks.get(taskId)?.task ?? {};
    return { project_id, milestone_id };
  };
  const moves: [string, () => Promise<unknown>][] = [
    [ids[0], () => w.value('task:edit', { task_id: ids[0], patch: { project_id: otherProject } })],
    [
      ids[1],
      () =>
        w.value('tasks:bulk-edit', {
          target: { task_ids: [ids[1]] },
          change: { set: { project_id: otherProject } },
        }),
    ],
  ];

  for (const [taskId, move] of moves) {
    const was = filing(taskId);
    expect(was.milestone_id).toEqual(expect.any(String));
    // Not sent: the undo folds the move back, nothing is left to send.
    await move();
    expect(filing(taskId)).toEqual({ project_id: otherProject, milestone_id: null });
    await w.value('undo:undo');
    expect(filing(taskId)).toEqual(was);
    expect(w.f.mirror.outbox.list(['queued'])).toEqual([]);

    // Sent: the service cleared the milestone; the undo files the task under it again.
    await move();
    await w.f.pusher.pushAll();
    expect(w.f.emulator.control.task(taskId)).toMatchObject({ project_id: otherProject, milestone_id: null });
    await w.value('undo:undo');
    await w.f.pusher.pushAll();
    expect(w.f.emulator.control.task(taskId)).toMatchObject(was);
  }
});
