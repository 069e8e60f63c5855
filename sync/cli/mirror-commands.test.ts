import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sectionOperations } from '../api/operations';
import { mirrorPushStore } from '../push/mirror-push-store';
import { Pusher } from '../push/pusher';
import { type PushFixture, pushFixturePerTest } from '../push/testing/push-fixture';
import { runCliForRecords, sets, syncBench } from './testing/in-process-cli';
import { peerClient } from '../push/testing/resource-push';
import { onlyPage } from '../../db/test-mirror';

const start = pushFixturePerTest();

const cli = (...argv: string[]) => runCliForRecords(argv);

/** A mirror file holding a few tasks read from the emulator; closed so the command opens it itself. */
async function preparedMirror(): Promise<{ f: PushFixture; ids: string[] }> {
  const f = await start();
  const ids = await f.loadedTaskIds(3);
  return { f, ids };
}

describe('bad usage exits 2 and says what to do', () => {
  test.each([
    [[], 'usage: svc-desktop'],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['export'], '--db is required'],
    [['export', '--db', '/nonexistent/mirror.db'], 'run with --help'],
    [['edit', '--db', 'x.db', '--task', 't', '--set', 'nonsense'], 'field=value'],
    [['edit', '--db', 'x.db', '--task', 't', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['create', '--db', 'x.db', '--set', 'priority=high'], 'title=TEXT is required'],
    [['delete', '--db', 'x.db'], '--task is required'],
    [['resolve', '--db', 'x.db', '--conflict', 'c', '--take', 'both'], 'mine or theirs'],
    [
      ['sync', '--db', 'x.db', '--base-url', 'http://127.0.0.1:9', '--token', 't', '--once', '--watch'],
      'not both',
    ],
    [['sync', '--db', 'x.db', '--base-url', 'http://127.0.0.1:9'], 'SVC_TOKEN'],
    [['sync', '--db', 'x.db', '--base-url', 'ftp://example.com', '--token', 't'], 'http or https'],
    [['sync', '--db', 'x.db', '--token', 't'], '--base-url is required'],
  ])('%j', async (argv, hint) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(hint);
    expect(run.stdout).toBe('');
  });

  test('a mirror file that does not exist is named, with how to create it', async () => {
    const run = await cli('outbox', '--db', join('/tmp', 'svc-no-such-dir', 'm.db'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no mirror at .*m\.db.*sync --base-url URL --token TOKEN --db/);
  });

  test('--help prints the usage and succeeds', async () => {
    const run = await cli('sync', '--help');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('exit codes: 0 success');
  });
});

describe('offline commands on a mirror file', () => {
  test('edit queues a change as the app does; export shows it applied; outbox lists it', async () => {
    const { f, ids } = await preparedMirror();
    const taskId = ids[0] as string;
    f.mirror.close();

    const edit = await cli(
      'edit',
      '--db',
      f.file,
      '--task',
      taskId,
      ...sets('title=From the CLI', 'tags=x, y', 'description=null'),
    );
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.lines).toEqual([{ task_id: taskId, op_id: expect.any(String) as unknown, queued: true }]);

    const exported = await cli('export', '--db', f.file);
    expect(exported.code).toBe(0);
    expect(exported.lines).toHaveLength(3);
    const row = exported.lines.find((task) => task.task_id === taskId);
    expect(row).toMatchObject({ title: 'From the CLI', tags: ['x', 'y'], description: null });
    // Raw resources: every field the server sent is still there.
    expect(Object.keys(row ?? {})).toEqual(expect.arrayContaining(['org_id', 'created_at', 'updated_by']));

    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines).toEqual([
      expect.objectContaining({
        op_id: edit.lines[0]?.op_id,
        entity_id: taskId,
        kind: 'update',
        state: 'queued',
        patch: { title: 'From the CLI', tags: ['x', 'y'], description: null },
      }),
    ]);
    // Nothing was sent.
    expect(f.emulator.control.requests().filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('an edit that changes nothing queues nothing', async () => {
    const { f, ids } = await preparedMirror();
    const title = f.mirror.tasks.get(ids[0] as string)?.task.title as string;
    f.mirror.close();
    const edit = await cli('edit', '--db', f.file, '--task', ids[0] as string, '--set', `title=${title}`);
    expect(edit.lines).toEqual([{ task_id: ids[0], op_id: null, queued: false }]);
  });

  test('create queues a task under a temporary id', async () => {
    const { f } = await preparedMirror();
    f.mirror.close();
    const created = await cli('create', '--db', f.file, ...sets('title=Born in a terminal', 'priority=high'));
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines[0]).toMatchObject({
      task_id: expect.stringMatching(/^local-/) as unknown,
      queued: true,
    });
    const exported = await cli('export', '--db', f.file);
    expect(exported.lines.find((t) => t.title === 'Born in a terminal')).toMatchObject({ priority: 'high' });
  });

  test('delete queues a task delete as the app does; export no longer lists it; the next sync deletes it (issue 22)', async () => {
    const { f, ids } = await preparedMirror();
    const taskId = ids[0] as string;
    f.mirror.close();

    const deleted = await cli('delete', '--db', f.file, '--task', taskId);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.lines).toEqual([{ task_id: taskId, op_id: expect.any(String) as unknown, queued: true }]);
    expect((await cli('export', '--db', f.file)).lines.map((t) => t.task_id)).not.toContain(taskId);
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([
      expect.objectContaining({ op_id: deleted.lines[0]?.op_id, entity_id: taskId, kind: 'delete' }),
    ]);
    expect(f.emulator.control.requests().filter((r) => r.method !== 'GET')).toEqual([]);

    const sync = await syncBench(f);
    expect(sync.code, sync.stderr).toBe(0);
    expect(f.emulator.control.task(taskId)).toBeUndefined();
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([]);
  });

  test('delete of a task never sent cancels its create; of an unknown task exits 2 with what to do', async () => {
    const { f } = await preparedMirror();
    f.mirror.close();
    const created = await cli('create', '--db', f.file, '--set', 'title=Not meant');
    const localId = created.lines[0]?.task_id as string;
    const cancelled = await cli('delete', '--db', f.file, '--task', localId);
    expect(cancelled.lines).toEqual([{ task_id: localId, op_id: null, queued: false }]);
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([]);

    const unknown = await cli('delete', '--db', f.file, '--task', 'tsk_nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('export --db');
    const withSet = await cli('delete', '--db', f.file, '--task', localId, '--set', 'title=x');
    expect(withSet.code).toBe(2);
    expect(withSet.stderr).toContain("Unknown option '--set'");
  });

  test('an unknown task or a refused value exits 2 with what to do', async () => {
    const { f, ids } = await preparedMirror();
    f.mirror.close();
    const unknown = await cli('edit', '--db', f.file, '--task', 'tsk_nope', '--set', 'title=x');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('export --db');
    const refused = await cli(
      'edit',
      '--db',
      f.file,
      '--task',
      ids[0] as string,
      ...sets('due_date=tomorrow'),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cannot set 'due_date'");
  });

  test('conflicts lists open conflicts; resolve settles one and the change re-enters the outbox', async () => {
    const { f, ids } = await preparedMirror();
    const taskId = ids[0] as string;
    f.mirror.tasks.edit(taskId, { title: 'Mine' });
    f.emulator.control.peerEdit(taskId, { title: 'Theirs' });
    await f.pusher.pushAll();
    f.mirror.close();

    const conflicts = await cli('conflicts', '--db', f.file);
    expect(conflicts.code).toBe(0);
    expect(conflicts.lines).toEqual([
      expect.objectContaining({
        entity_id: taskId,
        field: 'title',
        mine: 'Mine',
        theirs: 'Theirs',
        state: 'open',
      }),
    ]);
    const conflictId = conflicts.lines[0]?.conflict_id as string;

    const resolved = await cli('resolve', '--db', f.file, '--conflict', conflictId, '--take', 'mine');
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.lines[0]).toMatchObject({
      conflict_id: conflictId,
      state: 'resolved',
      resolution: { take: 'mine' },
    });
    expect((await cli('conflicts', '--db', f.file)).lines).toEqual([]);
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([
      expect.objectContaining({ entity_id: taskId, state: 'queued', patch: { title: 'Mine' } }),
    ]);

    const again = await cli('resolve', '--db', f.file, '--conflict', conflictId, '--take', 'theirs');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already resolved');
    const missing = await cli('resolve', '--db', f.file, '--conflict', 'nope', '--take', 'theirs');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('conflicts --db');
  });

  test('retry sends a refused operation again with a corrected value; drop gives one up', async () => {
    const { f, ids } = await preparedMirror();
    const refused = f.mirror.tasks.edit(ids[0] as string, { assignee: 'nobody-by-that-name' });
    const given = f.mirror.tasks.edit(ids[1] as string, { assignee: 'nobody-either' });
    await f.pusher.pushAll();
    f.mirror.close();

    const retried = await cli(
      'retry',
      '--db',
      f.file,
      '--op',
      refused?.opId as string,
      ...sets(`assignee=${f.emulator.peer.username}`),
    );
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.lines[0]).toMatchObject({
      state: 'queued',
      patch: { assignee: f.emulator.peer.username },
    });
    const dropped = await cli('drop', '--db', f.file, '--op', given?.opId as string);
    expect(dropped.code, dropped.stderr).toBe(0);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines.map((op) => op.entity_id)).toEqual([ids[0]]);
    const notFailed = await cli('retry', '--db', f.file, '--op', outbox.lines[0]?.op_id as string);
    expect(notFailed.code).toBe(2);
    expect(notFailed.stderr).toContain('only failed or blocked');
  });

  test('export of another collection gives its raw rows', async () => {
    const { f } = await preparedMirror();
    f.mirror.passes.applyPage(
      onlyPage('projects', [
        { project_id: 'prj_b', org_id: f.emulator.orgId, name: 'B', extra_field: { kept: true } },
        { project_id: 'prj_a', org_id: f.emulator.orgId, name: 'A' },
      ]),
    );
    f.mirror.close();
    const exported = await cli('export', '--db', f.file, '--collection', 'projects');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.lines.map((p) => p.project_id)).toEqual(['prj_a', 'prj_b']);
    expect(exported.lines[1]).toMatchObject({ extra_field: { kept: true } });
    const bad = await cli('export', '--db', f.file, '--collection', 'widgets');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('use one of organizations, projects');
  });

  test('export of task_comments gives the mirrored threads, one a line with replies nested, as stored', async () => {
    const { f, ids } = await preparedMirror();
    const [first = '', second = ''] = ids;
    const page = (taskId: string, items: Record<string, unknown>[]) => {
      f.mirror.passes.begin('task_comments', taskId);
      f.mirror.passes.applyPage(onlyPage('task_comments', items, { scope: taskId }));
    };
    const reply = { comment_id: 'cmt_3', task_id: second, parent_comment_id: 'cmt_2', content: 'an answer' };
    page(second, [
      { comment_id: 'cmt_2', task_id: second, content: 'second task', replies: [reply], extra: 1 },
    ]);
    page(first, [{ comment_id: 'cmt_1', task_id: first, content: 'first task', replies: [] }]);
    // A comment still waiting is the outbox's, not a stored thread (as for sections and the rest).
    f.mirror.comments.create({ taskId: first, content: 'not sent yet' });
    f.mirror.close();
    const exported = await cli('export', '--db', f.file, '--collection', 'task_comments');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.lines).toEqual([
      { comment_id: 'cmt_1', task_id: first, content: 'first task', replies: [] },
      { comment_id: 'cmt_2', task_id: second, content: 'second task', replies: [reply], extra: 1 },
    ]);
    const history = await cli('export', '--db', f.file, '--collection', 'task_history');
    expect(history.code).toBe(2);
    expect(history.stderr).toContain('view_pins, task_attachments, task_comments');
  });
});

describe('taking mine on a task a teammate deleted (issue 22)', () => {
  test('a reference the person cannot see is left out of the re-create and said in the conflict; the re-create goes through', async () => {
    const f = await start();
    const [taskId] = f.taskIds(1) as [string];
    const peer = peerClient(f, ['tasks:read', 'tasks:write']);
    const focus = await peer.create(
      sectionOperations.create,
      {},
      { org_id: f.emulator.orgId, scope_type: 'user', scope_id: f.emulator.peer.username, name: 'Deep work' },
      { idempotencyKey: 'peer-focus' },
    );
    const sectionId = focus.body.section_id;
    f.emulator.control.peerEdit(taskId, { section_id: sectionId });
    f.mirror.close();
    const sync = () => syncBench(f);
    expect((await sync()).code).toBe(0);

    expect((await cli('edit', '--db', f.file, '--task', taskId, '--set', 'title=Mine to keep')).code).toBe(0);
    f.emulator.control.peerDelete(taskId);
    expect((await sync()).code).toBe(1);
    const conflicts = await cli('conflicts', '--db', f.file);
    expect(conflicts.lines).toEqual([
      expect.objectContaining({
        entity_id: taskId,
        field: '*',
        left_out: [
          {
            field: 'section_id',
            id: sectionId,
            message: `Section ${sectionId} is not visible to you; the task is re-created without a section`,
          },
        ],
      }),
    ]);

    const conflictId = conflicts.lines[0]?.conflict_id as string;
    expect((await cli('resolve', '--db', f.file, '--conflict', conflictId, '--take', 'mine')).code).toBe(0);
    const again = await sync();
    expect(again.code, again.stderr).toBe(0);
    const recreated = f.emulator.control.tasks().filter((t) => t.title === 'Mine to keep');
    expect(recreated).toEqual([expect.objectContaining({ section_id: null })]);
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([]);
    const exported = await cli('export', '--db', f.file);
    expect(exported.lines.filter((t) => t.title === 'Mine to keep').map((t) => t.task_id)).toEqual([
      recreated[0]?.task_id,
    ]);
  }, 120_000);
  /** A personal section of the peer's, which the mirror (sections never listed) cannot know is out of reach. */
  async function peerPersonalSection(f: PushFixture, name: string): Promise<string> {
    const peer = peerClient(f, ['tasks:read', 'tasks:write']);
    const section = await peer.create(
      sectionOperations.create,
      {},
      { org_id: f.emulator.orgId, scope_type: 'user', scope_id: f.emulator.peer.username, name },
      { idempotencyKey: `peer-${name}` },
    );
    return section.body.section_id;
  }

  test('a re-create the service refuses (422) for a reference is sent again without it, and says so', async () => {
    const f = await start();
    const [taskId] = f.taskIds(1) as [string];
    f.emulator.control.peerEdit(taskId, { section_id: await peerPersonalSection(f, 'Quiet hours') });
    await f.loadTasks([taskId]);
    f.mirror.tasks.edit(taskId, { title: 'Kept anyway' });
    f.emulator.control.peerDelete(taskId);
    await f.pusher.pushAll();
    const [gone] = f.mirror.outbox.conflicts('open');
    f.mirror.outbox.resolve(gone?.conflictId as string, { take: 'mine' });

    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, failed: 0 });
    expect(f.emulator.control.tasks().filter((t) => t.title === 'Kept anyway')).toEqual([
      expect.objectContaining({ section_id: null }),
    ]);
    const leftOut = f.events.find((event) => event.type === 'left-out');
    expect(leftOut).toMatchObject({ fields: ['section_id'] });
    expect(leftOut?.type === 'left-out' && leftOut.reason).toMatch(/section/);
    f.mirror.close();
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([]);
  }, 120_000);

  test('a create the service refuses (422) names the field and is offered to be sent without it', async () => {
    const f = await start();
    const [taskId] = f.taskIds(1) as [string];
    await f.loadTasks([taskId]);
    const sectionId = await peerPersonalSection(f, 'Deep focus');
    // The person's own choice is never dropped on their behalf: it waits, with the way on named.
    f.mirror.tasks.create({ title: 'Filed in a section', section_id: sectionId });
    expect(await f.pusher.pushAll()).toMatchObject({ failed: 1 });
    f.mirror.close();

    const [failed] = (await cli('outbox', '--db', f.file)).lines;
    expect(failed).toMatchObject({ kind: 'create', state: 'failed', retry_without: ['section_id'] });
    const opId = failed?.op_id as string;
    expect(failed?.hint).toBe(
      `the service refused section_id; send it without: retry --db FILE --op ${opId} --set section_id=null`,
    );
    expect((await cli('retry', '--db', f.file, '--op', opId, '--set', 'section_id=null')).code).toBe(0);
    const sync = await syncBench(f);
    expect(sync.code, sync.stderr).toBe(0);
    expect(f.emulator.control.tasks().filter((t) => t.title === 'Filed in a section')).toEqual([
      expect.objectContaining({ section_id: null }),
    ]);
  }, 120_000);
});

describe('outbox and conflicts name what ids point at (issue 13)', () => {
  test('a goal conflict names both goals; a change filing under a queued goal names it', async () => {
    const { f, ids } = await preparedMirror();
    const [taskId, other] = ids as [string, string];
    const projectId = String(f.mirror.tasks.get(taskId)?.task.project_id);
    f.mirror.goals.create({ name: 'Faster login' }, projectId);
    f.mirror.goals.create({ name: 'Fewer pages' }, projectId);
    await f.pusher.pushAll();
    const idOf = (name: string) => f.mirror.goals.list().find((g) => g.name === name)?.goal_id as string;
    const [mine, theirs] = [idOf('Faster login'), idOf('Fewer pages')];
    f.mirror.tasks.edit(taskId, { goal_id: mine });
    f.emulator.control.peerEdit(taskId, { goal_id: theirs });
    await f.pusher.pushAll();
    const queued = f.mirror.goals.create(
      { name: 'Quieter alerts' },
      String(f.mirror.tasks.get(other)?.task.project_id),
    );
    f.mirror.tasks.edit(other, { goal_id: queued.id });
    f.mirror.close();

    const conflicts = await cli('conflicts', '--db', f.file);
    expect(conflicts.lines).toEqual([
      expect.objectContaining({
        field: 'goal_id',
        mine,
        theirs,
        names: { [mine]: 'Faster login', [theirs]: 'Fewer pages' },
      }),
    ]);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines.find((l) => l.entity_id === other)).toMatchObject({
      patch: { goal_id: queued.id },
      names: { [queued.id]: 'Quieter alerts' },
    });
  });
});

describe('outbox says what a change is held behind (issue 21, defect 2)', () => {
  test('a task filed under a milestone whose create is read-only names that create, in the words of the app', async () => {
    const { f, ids } = await preparedMirror();
    const [taskId] = ids as [string];
    const projectId = String(f.mirror.tasks.get(taskId)?.task.project_id);
    const milestone = f.mirror.milestones.create({ name: 'Beta' }, projectId);
    const { token } = f.emulator.control.mintToken({
      scopes: ['tasks:write', 'projects:read', 'teams:read', 'members:read'],
    });
    await new Pusher({ store: mirrorPushStore(f.mirror), api: f.apiWith(token) }).pushAll();
    f.mirror.tasks.edit(taskId, { milestone_id: milestone.id });
    f.mirror.close();

    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.code).toBe(0);
    expect(outbox.lines.find((l) => l.entity_id === milestone.id)).toMatchObject({
      state: 'blocked',
      waits_on: null,
    });
    expect(outbox.lines.find((l) => l.entity_id === taskId)).toMatchObject({
      state: 'queued',
      waits_on: {
        op_id: milestone.opId,
        kind: 'create',
        entity_type: 'milestone',
        entity_id: milestone.id,
        name: 'Beta',
        state: 'blocked',
      },
      state_words: {
        label: 'Waiting for milestone ‘Beta’',
        sentence:
          'Sent once milestone ‘Beta’ is created; that change is read-only: This account cannot change milestones; the change was not sent.',
      },
    });
  });
});
