// The headless command's comment verbs: queued offline in the mirror file, sent
// by the next sync, and usage errors that say what to do.
import { describe, expect, test } from 'vitest';
import { sectionOperations, taskCommentOperations } from '../api/operations';
import { pushFixturePerTest } from '../push/testing/push-fixture';
import { runCliForRecords, sets, syncBench } from './testing/in-process-cli';

const start = pushFixturePerTest();

const cli = (...argv: string[]) => runCliForRecords(argv);

describe('comment create|edit|delete', () => {
  test('a comment and a reply to it are queued offline, sent once by the next sync, then edited and deleted', async () => {
    const f = await start();
    const [taskId] = f.taskIds(1) as [string];
    f.mirror.close();
    const created = await cli(
      'comment',
      'create',
      '--db',
      f.file,
      ...sets(`task_id=${taskId}`, 'content=From the CLI'),
    );
    expect(created.code).toBe(0);
    expect(created.lines).toEqual([
      {
        comment_id: expect.stringMatching(/^local-/) as unknown,
        task_id: taskId,
        op_id: expect.any(String) as unknown,
        queued: true,
      },
    ]);
    const parent = created.lines[0]?.comment_id as string;
    const reply = await cli(
      'comment',
      'create',
      '--db',
      f.file,
      ...sets(`task_id=${taskId}`, 'content=A reply', `parent_comment_id=${parent}`),
    );
    expect(reply.code).toBe(0);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines.map((l) => [l.entity_type, l.kind])).toEqual([
      ['comment', 'create'],
      ['comment', 'create'],
    ]);

    const sync = await syncBench(f);
    expect(sync.code, sync.stderr).toBe(0);
    const page = await f.api.listPage(taskCommentOperations.list, { taskId }, { limit: 100 });
    if (page.status !== 200) throw new Error('304');
    // The seeded task may have comments of its own: ours is there once, with its reply.
    const mine = page.body.data.filter((c) => c.content === 'From the CLI');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ replies: [{ content: 'A reply' }] });
    const serverId = mine[0]?.comment_id as string;

    const edit = await cli(
      'comment',
      'edit',
      '--db',
      f.file,
      '--comment',
      serverId,
      ...sets('content=Edited in the CLI'),
    );
    expect(edit.lines).toEqual([
      { comment_id: serverId, op_id: expect.any(String) as unknown, queued: true },
    ]);
    expect((await syncBench(f)).code).toBe(0);
    const edited = await f.api.read(taskCommentOperations.get, { commentId: serverId });
    expect(edited.status === 200 && edited.body.content).toBe('Edited in the CLI');

    const removed = await cli('comment', 'delete', '--db', f.file, '--comment', serverId);
    expect(removed.lines).toEqual([
      { comment_id: serverId, op_id: expect.any(String) as unknown, queued: true },
    ]);
    expect((await syncBench(f)).code).toBe(0);
    const after = await f.api.listPage(taskCommentOperations.list, { taskId }, { limit: 100 });
    expect(after.status === 200 && after.body.data.map((c) => c.comment_id)).not.toContain(serverId);
    expect(after.status === 200 && after.body.data.length).toBe(page.body.data.length - 1);
  });

  test('retry --set corrects a refused operation of another kind with its own fields (a section named twice, 409)', async () => {
    const f = await start();
    const scope = { scope_type: 'user', scope_id: f.emulator.me.username } as const;
    f.mirror.sections.create({ ...scope, name: 'Twice here' });
    f.mirror.sections.create({ ...scope, name: 'Twice here' });
    await f.pusher.pushAll();
    const failed = f.mirror.outbox.list(['failed']);
    expect(failed).toMatchObject([{ entityType: 'section', lastProblem: { status: 409 } }]);
    f.mirror.close();
    const opId = failed[0]?.opId as string;
    const wrong = await cli('retry', '--db', f.file, '--op', opId, '--set', 'title=x');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("'title' is not a field you can set here; use one of name, position");
    const run = await cli('retry', '--db', f.file, '--op', opId, '--set', 'name=Once here');
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines).toMatchObject([
      { entity_type: 'section', state: 'queued', patch: { name: 'Once here' } },
    ]);
    expect((await syncBench(f)).code).toBe(0);
  });

  test.each([
    [['comment'], 'give one of create, edit, delete'],
    [['comment', 'frobnicate'], "not 'frobnicate'"],
    [['comment', 'create', '--db', 'x.db', '--set', 'content=hi'], '--set task_id=TEXT is required'],
    [['comment', 'create', '--db', 'x.db', '--set', 'title=hi'], "'title' is not a field you can set here"],
    [['comment', 'edit', '--db', 'x.db', '--set', 'content=hi'], '--comment is required'],
    [
      ['comment', 'delete', '--db', 'x.db', '--comment', 'c', '--frobnicate'],
      "Unknown option '--frobnicate'",
    ],
  ])('%j exits 2 saying %s', async (argv, message) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('an empty comment or an unknown comment is refused with exit 2, nothing queued', async () => {
    const f = await start();
    const [taskId] = f.taskIds(1) as [string];
    f.mirror.close();
    const empty = await cli('comment', 'create', '--db', f.file, ...sets(`task_id=${taskId}`, 'content='));
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('content');
    const unknown = await cli(
      'comment',
      'edit',
      '--db',
      f.file,
      '--comment',
      'cmt_nope',
      ...sets('content=x'),
    );
    expect(unknown.code).toBe(2);
    expect((await cli('outbox', '--db', f.file)).lines).toEqual([]);
  });
});

describe('section create|edit|delete', () => {
  test('a section is created offline, renamed and moved, then deleted, each sent by the next sync', async () => {
    const f = await start();
    const me = f.emulator.me.username;
    f.mirror.close();
    const sync = () => syncBench(f);
    const created = await cli(
      'section',
      'create',
      '--db',
      f.file,
      ...sets('scope_type=user', `scope_id=${me}`, 'name=Later from the CLI'),
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.lines).toEqual([
      {
        section_id: expect.stringMatching(/^local-/) as unknown,
        op_id: expect.any(String) as unknown,
        queued: true,
      },
    ]);
    expect((await sync()).code).toBe(0);
    const all = await f.api.listPage(sectionOperations.list, { orgId: f.emulator.orgId }, { limit: 1000 });
    const made = all.status === 200 ? all.body.data.find((s) => s.name === 'Later from the CLI') : undefined;
    expect(made).toBeDefined();
    const sectionId = made?.section_id as string;

    const edit = await cli(
      'section',
      'edit',
      '--db',
      f.file,
      '--section',
      sectionId,
      ...sets('name=Next week from the CLI', 'position=7'),
    );
    expect(edit.lines).toEqual([
      { section_id: sectionId, op_id: expect.any(String) as unknown, queued: true },
    ]);
    expect((await sync()).code).toBe(0);
    const edited = await f.api.read(sectionOperations.get, { sectionId });
    expect(edited.status === 200 && edited.body).toMatchObject({
      name: 'Next week from the CLI',
      position: 7,
    });

    expect((await cli('section', 'delete', '--db', f.file, '--section', sectionId)).code).toBe(0);
    expect((await sync()).code).toBe(0);
    const after = await f.api.listPage(sectionOperations.list, { orgId: f.emulator.orgId }, { limit: 1000 });
    expect(after.status === 200 && after.body.data.map((s) => s.section_id)).not.toContain(sectionId);
  });

  test.each([
    [['section', 'create', '--db', 'x.db', '--set', 'name=x'], '--set scope_type=TEXT is required'],
    [['section', 'edit', '--db', 'x.db', '--section', 's'], 'give at least one --set name=TEXT'],
    [['section', 'delete', '--db', 'x.db', '--section', 's', '--set', 'name=x'], 'takes no --set'],
    [['section', 'move'], "not 'move'"],
  ])('%j exits 2 saying %s', async (argv, message) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
