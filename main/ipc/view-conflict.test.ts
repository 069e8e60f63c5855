// A saved view renamed here while another device renamed it too (412): the
// same three-way view as every other kind, found by kind and id, and keeping
// mine renames it on the server.
import { describe, expect, test } from 'vitest';
import { callApi } from '../../emulator/emulator-http';
import { outboxHandlers } from './outbox-handlers';
import { wiredHandlersPerTest } from './testing/wired-handlers';

const wire = wiredHandlersPerTest(outboxHandlers);

describe('the conflict view of a saved view', () => {
  test('shows base, mine and theirs for its name; keeping mine renames it on the server', async () => {
    const w = await wire();
    const { f } = w;
    const views = f.mirror.writesOf('view');
    if (views === null) throw new Error('no view writes in the mirror');
    views.create({ name: 'Parked', filters: { status: ['blocked'] } });
    await f.pusher.pushAll();
    const id = views.list().find((view) => view.name === 'Parked')?.view_id as string;
    expect(id).not.toMatch(/^local-/);

    // My other device renames it over the version it read.
    const read = await callApi(f.emulator, 'GET', `/v1/views/${id}`);
    const renamed = await callApi(f.emulator, 'PATCH', `/v1/views/${id}`, {
      body: { name: 'Soon' },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': read.headers.get('etag') ?? '' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    views.edit(id, { name: 'Next week' });
    expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });

    const view = await w.value('conflicts:get', { entity_type: 'view', entity_id: id });
    expect(view).toMatchObject({ entity_type: 'view', entity_id: id, kind: 'edited' });
    expect(view?.fields.map((c) => [c.field, c.base, c.mine, c.theirs])).toEqual([
      ['name', 'Parked', 'Next week', 'Soon'],
    ]);
    await w.value('conflicts:resolve', {
      op_id: view?.op_id ?? '',
      choices: [{ conflict_id: view?.fields[0]?.conflict_id ?? '', take: 'mine' }],
    });
    await f.pusher.pushAll();
    const after = await callApi(f.emulator, 'GET', `/v1/views/${id}`);
    expect(after.body).toMatchObject({ name: 'Next week', filters: { status: ['blocked'] } });
  });
});
