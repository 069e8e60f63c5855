// The headless command's saved views and pins: a view created offline with
// filters, its rows computed from the mirror equal to the service's once sent,
// shared, pinned and moved; a second pin of the same view refused by the
// service (409) kept as a failed change; usage errors that say what to do.
import { describe, expect, test } from 'vitest';
import { callApi } from '../../emulator/emulator-http';
import { pushFixturePerTest } from '../push/testing/push-fixture';
import { runCliForRecords, sets, syncBench } from './testing/in-process-cli';

const start = pushFixturePerTest();

const cli = (...argv: string[]) => runCliForRecords(argv);

describe('view and pin', () => {
  test('a view saved, pinned and moved offline; its rows from the mirror are the service’s', async () => {
    const f = await start();
    f.mirror.close();
    expect((await syncBench(f)).code).toBe(0);
    const created = await cli(
      'view',
      'create',
      '--db',
      f.file,
      ...sets(
        'name=Open work',
        'filters={"status":["not_started","in_progress"]}',
        'sort_by=title',
        'sort_order=desc',
      ),
    );
    expect(created.code, created.stderr).toBe(0);
    const localId = created.lines[0]?.view_id as string;
    expect(localId).toMatch(/^local-/);
    // Offline: its rows are computed before the service has it.
    const offline = await cli('view', 'rows', '--db', f.file, '--view', localId);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.lines.length).toBeGreaterThan(0);

    const pinned = await cli('pin', 'add', '--db', f.file, ...sets(`view_id=${localId}`, 'position=3'));
    expect(pinned.code, pinned.stderr).toBe(0);
    expect((await syncBench(f)).code).toBe(0);

    const listed = await cli('view', 'list', '--db', f.file);
    const view = listed.lines.find((v) => v.name === 'Open work');
    expect(view).toMatchObject({ visibility: 'private', pin_position: 3 });
    const viewId = view?.view_id as string;
    expect(viewId).not.toMatch(/^local-/);

    const served = await callApi(f.emulator, 'GET', `/v1/views/${viewId}/rows?limit=1000`);
    const mirrored = await cli('view', 'rows', '--db', f.file, '--view', viewId);
    expect(mirrored.lines.map((row) => row.task_id)).toEqual(
      (served.body as { data: { task_id: string }[] }).data.map((task) => task.task_id),
    );

    const shared = await cli('view', 'edit', '--db', f.file, '--view', viewId, ...sets('visibility=shared'));
    expect(shared.code, shared.stderr).toBe(0);
    const moved = await cli(
      'pin',
      'move',
      '--db',
      f.file,
      '--pin',
      view?.pin_id as string,
      ...sets('position=1'),
    );
    expect(moved.code, moved.stderr).toBe(0);
    expect((await syncBench(f)).code).toBe(0);
    const pins = await callApi(f.emulator, 'GET', `/v1/view-pins?org_id=${f.emulator.orgId}`);
    expect((pins.body as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ view_id: viewId, position: 1 }),
    ]);
    const read = await callApi(f.emulator, 'GET', `/v1/views/${viewId}`);
    expect(read.body).toMatchObject({ visibility: 'shared' });

    // A second pin of the same view: the service refuses it (409), kept as a failed change.
    const again = await cli('pin', 'add', '--db', f.file, ...sets(`view_id=${viewId}`, 'position=2'));
    expect(again.code, again.stderr).toBe(0);
    await syncBench(f);
    const outbox = await cli('outbox', '--db', f.file);
    expect(outbox.lines).toEqual([expect.objectContaining({ entity_type: 'view_pin', state: 'failed' })]);

    const removed = await cli('view', 'delete', '--db', f.file, '--view', viewId);
    expect(removed.code, removed.stderr).toBe(0);
  });

  test.each([
    [['view', 'create', '--db', 'x.db'], '--set name=TEXT is required'],
    [['pin', 'add', '--db', 'x.db', '--set', 'view_id=v'], '--set position=NUMBER is required'],
    [['pin', 'move', '--db', 'x.db', '--pin', 'p'], 'give at least one --set of position'],
    [['pin', 'delete'], "give one of add, move, remove, not 'delete'"],
    [['view', 'create', '--db', 'x.db', '--set', 'filters=[1]'], 'filters must be a JSON object'],
    [['view', 'rows', '--db', 'x.db'], '--view is required'],
    [['view', 'show'], "view: give one of list, rows, create, edit, delete, not 'show'"],
  ])('%j is a usage error that says what to do', async (argv, words) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(words);
  });
});
