// Sections, the second kind through the one outbox, against the emulator with a
// real mirror: created and renamed offline (folded into one create), a rename
// racing my other device's rename settled in the three-way structure, a move
// racing a rename merged per field, a duplicate name (409) kept as a fixable
// failure, deletes with If-Match.
import { describe, expect, test } from 'vitest';
import { sectionOperations } from '../api/operations';
import type { ApiClient } from '../api/api-client';
import { type PushFixture, pushFixturePerTest } from './testing/push-fixture';
import { writesTo } from './testing/resource-push';

const start = pushFixturePerTest();

const sectionWrites = (f: PushFixture) => writesTo(f, (path) => path.startsWith('/v1/sections'));

function otherDevice(f: PushFixture): ApiClient {
  return f.apiWith(f.emulator.control.mintToken({ scopes: ['tasks:read', 'tasks:write'] }).token);
}

async function serverSection(api: ApiClient, sectionId: string) {
  const answer = await api.read(sectionOperations.get, { sectionId });
  if (answer.status !== 200) throw new Error('sections.get answered 304');
  return { section: answer.body, etag: answer.etag };
}

/** A section of my own scope, created through the outbox and pushed. */
async function pushedSection(f: PushFixture, name: string): Promise<string> {
  f.mirror.sections.create({ scope_type: 'user', scope_id: f.emulator.me.username, name });
  await f.pusher.pushAll();
  const id = f.mirror.sections.list().find((s) => s.name === name)?.section_id;
  if (typeof id !== 'string') throw new Error('the section did not land');
  f.emulator.control.clearRequests();
  return id;
}

/** A section pushed as `name`, which my other device then renames to `theirs` on the service. */
async function renamedOnMyOtherDevice(f: PushFixture, name: string, theirs: string): Promise<string> {
  const id = await pushedSection(f, name);
  const other = otherDevice(f);
  const { etag } = await serverSection(other, id);
  await other.update(sectionOperations.update, { sectionId: id }, { name: theirs }, { ifMatch: etag });
  return id;
}

describe('sections written offline', () => {
  test('a section created and renamed offline is one create with the last name; it lands under its server id', async () => {
    const f = await start();
    const created = f.mirror.sections.create({
      scope_type: 'user',
      scope_id: f.emulator.me.username,
      name: 'Later',
    });
    expect(f.mirror.sections.edit(created.id, { name: 'Next week' })).toEqual({ opId: created.opId });
    expect(f.mirror.sections.list()).toEqual([
      expect.objectContaining({ section_id: created.id, name: 'Next week', pending: 'queued' }),
    ]);
    await f.pusher.pushAll();
    expect(sectionWrites(f)).toEqual(['POST 201']);
    const [shown] = f.mirror.sections.list();
    expect(shown?.section_id).not.toMatch(/^local-/);
    expect(shown?.pending).toBeUndefined();
    expect((await serverSection(f.api, shown?.section_id as string)).section.name).toBe('Next week');
  });

  test('my other device renamed the same section: a three-way conflict; taking theirs sends nothing more', async () => {
    const f = await start();
    const id = await renamedOnMyOtherDevice(f, 'Later on', 'Soon');

    f.mirror.sections.edit(id, { name: 'Next week' });
    expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
    const [conflict] = f.mirror.outbox.conflicts('open');
    expect(conflict).toMatchObject({
      entityType: 'section',
      field: 'name',
      base: 'Later on',
      mine: 'Next week',
      theirs: 'Soon',
    });
    f.mirror.outbox.resolve(conflict?.conflictId as string, { take: 'theirs' });
    await f.pusher.pushAll();
    expect((await serverSection(f.api, id)).section.name).toBe('Soon');
    expect(f.mirror.outbox.list(['queued', 'conflict', 'failed'])).toEqual([]);
  });

  test('a move racing a rename on my other device merges per field: both stand, no conflict', async () => {
    const f = await start();
    const id = await renamedOnMyOtherDevice(f, 'Later on', 'Soon');

    f.emulator.control.clearRequests();
    f.mirror.sections.edit(id, { position: 5 });
    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, conflicts: 0 });
    expect(sectionWrites(f)).toEqual(['PATCH 412', 'PATCH 200']);
    expect((await serverSection(f.api, id)).section).toMatchObject({ name: 'Soon', position: 5 });
  });

  test('a duplicate name in the scope (409) waits as a fixable failure; retried with another name it lands', async () => {
    const f = await start();
    await pushedSection(f, 'Backlog here');
    const dup = f.mirror.sections.create({
      scope_type: 'user',
      scope_id: f.emulator.me.username,
      name: 'Backlog here',
    });
    expect(await f.pusher.pushAll()).toMatchObject({ failed: 1 });
    expect(f.mirror.outbox.op(dup.opId)).toMatchObject({ state: 'failed', lastProblem: { status: 409 } });
    const retried = f.mirror.outbox.retry(dup.opId, { name: 'Backlog two' });
    await f.pusher.pushAll();
    expect(f.mirror.outbox.op(retried).state).toBe('done');
    expect(f.mirror.sections.list().map((s) => s.name)).toEqual(expect.arrayContaining(['Backlog two']));
  });

  test('a delete carries If-Match and removes the section', async () => {
    const f = await start();
    const id = await pushedSection(f, 'Old stuff');
    f.mirror.sections.delete(id);
    expect(f.mirror.sections.list().map((s) => s.section_id)).not.toContain(id);
    await f.pusher.pushAll();
    expect(sectionWrites(f)).toEqual(['DELETE 204']);
    expect(f.emulator.control.requests().find((r) => r.method === 'DELETE')?.ifMatch).toMatch(/"/);
    expect(f.mirror.sections.list().map((s) => s.section_id)).not.toContain(id);
  });
});
