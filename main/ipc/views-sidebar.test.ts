// `views:sidebar` and `views:rows` through the real gate, over a mirror the
// sync engine filled from the emulator: the person's views and pins in pin
// order (a move queued offline counts at once), a view's rows as the service
// answers them, and a view with a filter this version does not know said to
// be unavailable rather than answered without it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../../sync/api/api-client';
import { onlyPage } from '../../db/test-mirror';
import { callApi } from '../../emulator/emulator-http';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { viewOperations } from '../../sync/api/operations';
import { collectionHandlers } from './collection-handlers';
import { taskHandlers } from './task-handlers';
import { type GateHarness, gateHarness } from './testing/gate-harness';
import { closePulledMirror, pulledMirror, testAccount } from './testing/test-account';

let emulator: RunningEmulator;
let dir: string;
let mirror: Mirror;
let api: ApiClient;
let harness: GateHarness;
/** Whether the account is online: a view only the service can answer is read from it then. */
let online = true;
const value: GateHarness['value'] = (channel, input) => harness.value(channel, input);
const ids: Record<string, string> = {};

async function post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await callApi(emulator, 'POST', path, { body: { org_id: emulator.orgId, ...body } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

beforeAll(async () => {
  emulator = await startEmulator({ seedTasks: 300 });
  const blocked = await post('/v1/views', {
    name: 'Blocked, newest due',
    filters: { status: ['blocked'] },
    sort_by: 'due_date',
    sort_order: 'desc',
  });
  const mine = await post('/v1/views', { name: 'Mine', filters: { assignee: ['me'] }, visibility: 'shared' });
  const open = await post('/v1/views', { name: 'Open, by title', filters: { status: ['not_started'] } });
  ids.open = String(open.view_id);
  ids.blocked = String(blocked.view_id);
  ids.mine = String(mine.view_id);
  ids.newer = 'view_newer';
  ids.pinMine = String((await post('/v1/view-pins', { view_id: ids.mine, position: 1 })).pin_id);
  ids.pinBlocked = String((await post('/v1/view-pins', { view_id: ids.blocked, position: 2 })).pin_id);

  ({ dir, mirror, api } = await pulledMirror(emulator, 'views-sidebar-'));
  // A view from a newer service, whose filter this version does not know (the emulator refuses to save one).
  mirror.passes.begin('views');
  mirror.passes.applyPage(
    onlyPage('views', [
      { view_id: ids.newer, name: 'From a newer service', filters: { mood: ['sunny'] } },
      // The service's own view as a newer service would send it: with a filter this version does not know.
      {
        view_id: ids.blocked,
        name: 'Blocked, newest due',
        filters: { status: ['blocked'], mood: ['sunny'] },
        sort_by: 'due_date',
        sort_order: 'desc',
      },
    ]),
  );

  harness = gateHarness();
  const active = testAccount(mirror, emulator.me, {
    serviceViewRows: async (viewId, page) => {
      if (!online) return null;
      const answer = await api.listPage(
        viewOperations.rows,
        { viewId },
        { cursor: page.after, limit: page.limit },
      );
      return answer.status === 200 ? { items: answer.body.data, next: answer.body.next_cursor } : null;
    },
  });
  harness.gate.register(taskHandlers({ active: () => active, emit: () => undefined }));
  harness.gate.register(collectionHandlers({ active: () => active, emit: () => undefined }));
});

afterAll(() => closePulledMirror(emulator, { dir, mirror, api }));

describe('views:sidebar', () => {
  test('lists the views by name and the pins in pin order; a move queued offline reorders them at once', async () => {
    const sidebar = await value('views:sidebar', undefined);
    expect(sidebar.views.map((view) => view.name)).toEqual([
      'Blocked, newest due',
      'From a newer service',
      'Mine',
      'Open, by title',
    ]);
    expect(sidebar.views.find((view) => view.view_id === ids.newer)?.unknown_filters).toMatch(/mood/);
    expect(sidebar.views.find((view) => view.view_id === ids.mine)?.unknown_filters).toBeNull();
    expect(sidebar.pins.map((pin) => pin.view_id)).toEqual([ids.mine, ids.blocked]);

    await value('collection:edit', { kind: 'view_pin', id: ids.pinBlocked!, patch: { position: 0.5 } });
    const moved = await value('views:sidebar', undefined);
    expect(moved.pins.map((pin) => [pin.view_id, pin.pending ?? null])).toEqual([
      [ids.blocked, 'queued'],
      [ids.mine, null],
    ]);
  });

  test('a view deleted offline leaves the sidebar with its pin', async () => {
    await value('collection:delete', { kind: 'view', id: ids.mine! });
    const after = await value('views:sidebar', undefined);
    expect(after.views.map((view) => view.view_id)).not.toContain(ids.mine);
    expect(after.pins.map((pin) => pin.view_id)).toEqual([ids.blocked]);
  });
});

describe('views:rows', () => {
  test("answers a view's rows from the mirror in the service's order", async () => {
    const served = await callApi(emulator, 'GET', `/v1/views/${ids.open}/rows?limit=500`);
    expect(served.status, served.text).toBe(200);
    const expected = (served.body as { data: { task_id: string }[] }).data.map((task) => task.task_id);
    expect(expected.length).toBeGreaterThan(1);
    const answer = await value('views:rows', { view_id: ids.open!, limit: 500 });
    expect(answer).toMatchObject({ available: true, source: 'mirror' });
    if (answer.available) expect(answer.rows.map((row) => row.task_id)).toEqual(expected);
  });

  test('a view with a filter this version does not know is read from the service online, unavailable offline', async () => {
    const served = await callApi(emulator, 'GET', `/v1/views/${ids.blocked}/rows?limit=500`);
    const expected = (served.body as { data: { task_id: string }[] }).data.map((task) => task.task_id);
    expect(expected.length).toBeGreaterThan(1);
    const answer = await value('views:rows', { view_id: ids.blocked!, limit: 500 });
    expect(answer).toMatchObject({ available: true, source: 'service' });
    if (answer.available) expect(answer.rows.map((row) => row.task_id)).toEqual(expected);

    online = false;
    try {
      expect(await value('views:rows', { view_id: ids.blocked! })).toMatchObject({
        available: false,
        reason: 'unknown-filters',
      });
      expect(await value('views:rows', { view_id: ids.newer! })).toMatchObject({
        available: false,
        reason: 'unknown-filters',
      });
    } finally {
      online = true;
    }
  });
});
