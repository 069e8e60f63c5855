// Saved views and view pins (gaps.md "Saved views and view pins"): who reads a
// view (its creator; everyone once shared), who changes it (its creator, an
// owner or an admin: 403 otherwise), a creator's names unique (409), filters
// merged key by key, rows equal to the task list's answer to the view's
// filters and sort, pins the caller's own, pinned once (409), removed with
// their view. Answers are read with the protocol's schemas, as the client does.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listPageSchema } from '../protocol/list-page';
import { taskSchema } from '../protocol/task';
import { type View, viewSchema } from '../protocol/view';
import { viewPinSchema } from '../protocol/view-pin';
import { ManualClock } from './clock';
import { callApi, walkList } from './emulator-http';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const mergePatch = 'application/merge-patch+json';
let serial = 0;

beforeAll(async () => {
  emulator = await startEmulator({ clock: new ManualClock(), seedTasks: 300 });
});
afterAll(async () => {
  await emulator.stop();
});

async function createView(body: Record<string, unknown>, token?: string) {
  const answer = await callApi(emulator, 'POST', '/v1/views', {
    body: { org_id: emulator.orgId, name: `View ${++serial}`, ...body },
    ...(token !== undefined ? { token } : {}),
  });
  expect(answer.status, answer.text).toBe(201);
  return { view: viewSchema.parse(answer.body), etag: answer.headers.get('etag') ?? '' };
}

const viewIds = async (token?: string) =>
  (
    await walkList<View>(emulator, `/v1/views?org_id=${emulator.orgId}`, token !== undefined ? { token } : {})
  ).map((view) => view.view_id);

describe('views', () => {
  test('a private view is listed for its creator only; shared, for everyone in the organization', async () => {
    const { view, etag } = await createView({});
    expect(view.visibility).toBe('private');
    expect(await viewIds()).toContain(view.view_id);
    expect(await viewIds(emulator.tokens.peer)).not.toContain(view.view_id);
    expect(
      (await callApi(emulator, 'GET', `/v1/views/${view.view_id}`, { token: emulator.tokens.peer })).status,
    ).toBe(404);

    const shared = await callApi(emulator, 'PATCH', `/v1/views/${view.view_id}`, {
      body: { visibility: 'shared' },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(shared.status, shared.text).toBe(200);
    expect(await viewIds(emulator.tokens.peer)).toContain(view.view_id);
  });

  test('only its creator or an owner or admin changes or deletes a view: 403 for another member', async () => {
    const { view, etag } = await createView({ visibility: 'shared' });
    for (const [method, body] of [
      ['PATCH', { name: 'taken over' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await callApi(emulator, method, `/v1/views/${view.view_id}`, {
        token: emulator.tokens.peer,
        headers: { 'if-match': etag },
        ...(body ? { body, contentType: mergePatch } : {}),
      });
      expect(answer.status, answer.text).toBe(403);
    }
    // The peer's own shared view: the organization's owner (the main member) may change it.
    const peers = await createView({ visibility: 'shared' }, emulator.tokens.peer);
    const renamed = await callApi(emulator, 'PATCH', `/v1/views/${peers.view.view_id}`, {
      body: { name: `Renamed by the owner ${serial}` },
      contentType: mergePatch,
      headers: { 'if-match': peers.etag },
    });
    expect(renamed.status, renamed.text).toBe(200);
  });

  test('a name the creator already uses is 409; another member may use it', async () => {
    const { view } = await createView({});
    const again = await callApi(emulator, 'POST', '/v1/views', {
      body: { org_id: emulator.orgId, name: view.name },
    });
    expect(again.status, again.text).toBe(409);
    await createView({ name: view.name }, emulator.tokens.peer);
  });

  test('filters merge key by key: a key set replaces, a key set to null goes, the others stay', async () => {
    const { view, etag } = await createView({ filters: { status: ['blocked'], priority: ['high'] } });
    const answer = await callApi(emulator, 'PATCH', `/v1/views/${view.view_id}`, {
      body: { filters: { priority: ['urgent', 'high'], status: null, tags: ['billing'] } },
      contentType: mergePatch,
      headers: { 'if-match': etag },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(viewSchema.parse(answer.body).filters).toEqual({
      priority: ['urgent', 'high'],
      tags: ['billing'],
    });
  });

  test('a filter or value the task list refuses is 422, and nothing is stored', async () => {
    const answer = await callApi(emulator, 'POST', '/v1/views', {
      body: { org_id: emulator.orgId, name: `Bad ${++serial}`, filters: { status: ['someday'] } },
    });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.text).toContain('someday');
  });

  test('its rows are the task list with its filters and sort, in the same order, page by page', async () => {
    const { view } = await createView({
      filters: { status: ['not_started', 'blocked'], assignee: ['me'] },
      sort_by: 'priority_rank',
      sort_order: 'desc',
    });
    const rows = await walkList<{ task_id: string }>(emulator, `/v1/views/${view.view_id}/rows`, {
      limit: 7,
    });
    const listed = await walkList<{ task_id: string }>(
      emulator,
      `/v1/tasks?org_id=${emulator.orgId}&filter[status]=not_started,blocked&filter[assignee]=me&sort_by=priority_rank&sort_order=desc`,
      { limit: 50 },
    );
    expect(rows.length).toBeGreaterThan(7);
    expect(rows.map((task) => task.task_id)).toEqual(listed.map((task) => task.task_id));
    const first = await callApi(emulator, 'GET', `/v1/views/${view.view_id}/rows?limit=5`);
    listPageSchema(taskSchema).parse(first.body);
  });
});

describe('pins', () => {
  test('the caller pins a view once (409 the second time), lists their own pins by position, and moves them', async () => {
    const a = (await createView({})).view;
    const b = (await createView({ visibility: 'shared' })).view;
    const pin = async (viewId: string, position: number, token?: string) =>
      callApi(emulator, 'POST', '/v1/view-pins', {
        body: { org_id: emulator.orgId, view_id: viewId, position },
        ...(token !== undefined ? { token } : {}),
      });
    const pinA = viewPinSchema.parse((await pin(a.view_id, 100)).body);
    const pinB = viewPinSchema.parse((await pin(b.view_id, 50)).body);
    expect((await pin(a.view_id, 300)).status).toBe(409);
    // Another member's pin of the same shared view is theirs: no conflict, and not in my list.
    expect((await pin(b.view_id, 1, emulator.tokens.peer)).status).toBe(201);

    const mine = async () =>
      (await walkList<{ pin_id: string }>(emulator, `/v1/view-pins?org_id=${emulator.orgId}`)).map(
        (p) => p.pin_id,
      );
    const before = await mine();
    expect(before.indexOf(pinB.pin_id)).toBeLessThan(before.indexOf(pinA.pin_id));

    const read = await callApi(emulator, 'GET', `/v1/view-pins/${pinB.pin_id}`);
    const moved = await callApi(emulator, 'PATCH', `/v1/view-pins/${pinB.pin_id}`, {
      body: { position: 200 },
      contentType: mergePatch,
      headers: { 'if-match': read.headers.get('etag') ?? '' },
    });
    expect(moved.status, moved.text).toBe(200);
    const after = await mine();
    expect(after.indexOf(pinB.pin_id)).toBeGreaterThan(after.indexOf(pinA.pin_id));
  });

  test("a view's delete removes its pins", async () => {
    const { view, etag } = await createView({});
    const pinned = await callApi(emulator, 'POST', '/v1/view-pins', {
      body: { org_id: emulator.orgId, view_id: view.view_id, position: 1 },
    });
    const pinId = String(pinned.body.pin_id);
    const deleted = await callApi(emulator, 'DELETE', `/v1/views/${view.view_id}`, {
      headers: { 'if-match': etag },
    });
    expect(deleted.status).toBe(204);
    expect((await callApi(emulator, 'GET', `/v1/view-pins/${pinId}`)).status).toBe(404);
  });
});
