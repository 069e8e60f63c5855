// A server may change an ETag on an unchanged body (contract; variance mode
// does it, here at a moment the test chooses): the 412 that follows is no
// change of anyone's. Every kind's delete re-reads, finds the version the
// person deleted, and deletes it again under the new ETag; every kind's edit
// is sent again; neither asks the person (issue 22).
import { afterEach, describe, expect, test } from 'vitest';
import { projectOperations, taskOperations } from '../api/operations';
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import { type PushFixture, startPushFixture } from './testing/push-fixture';

let fixture: PushFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** Variance mode with its faults off: its representation liberties stay, ETags change only when told. */
async function start(): Promise<PushFixture> {
  fixture = await startPushFixture({ variance: { seed: 22, faults: false } });
  return fixture;
}

/**
 * A project the seed keeps active, by its name (required, so always sent; its
 * status may be absent or unknown in variance mode, and its page short or empty).
 */
async function activeProject(f: PushFixture): Promise<string> {
  const pageAt = (cursor: string | null) =>
    f.api.listPage(projectOperations.list, { orgId: f.emulator.orgId }, { cursor });
  let page = await pageAt(null);
  for (;;) {
    if (page.status !== 200) throw new Error('projects.list answered 304');
    const project = page.body.data.find((p) => p.name === 'Apollo Guidance');
    if (project) return project.project_id;
    const next = page.body.next_cursor ?? null;
    if (next === null) throw new Error('the seed has no project Apollo Guidance');
    page = await pageAt(next);
  }
}

/** One resource of a kind on the server and in the mirror, with its edit and delete as the app queues them. */
interface Made {
  id: string;
  /** Where its writes go. */
  path: RegExp;
  edit(): void;
  remove(): void;
}

/** Pushes a create; its server id (by the remapping event: a name or content may be absent in variance mode). */
async function landed(f: PushFixture, localId: string): Promise<string> {
  expect(await f.pusher.pushAll(), JSON.stringify(f.events)).toMatchObject({ failed: 0, conflicts: 0 });
  const remapped = f.events.find((e) => e.type === 'id-remapped' && e.from === localId);
  if (remapped?.type !== 'id-remapped') throw new Error(`${localId} did not land`);
  return remapped.to;
}

/** `id` as made: its writes go to `path`; its edit writes `patch` and its delete removes it, through the kind's mirror writes. */
function asMade<Patch>(
  id: string,
  path: RegExp,
  writes: { edit(id: string, patch: Patch): unknown; delete(id: string): unknown },
  patch: Patch,
): Made {
  return { id, path, edit: () => void writes.edit(id, patch), remove: () => void writes.delete(id) };
}

const KINDS: Record<string, (f: PushFixture) => Promise<Made>> = {
  async task(f) {
    const [id] = f.taskIds(1) as [string];
    await f.loadTasks([id]);
    return asMade(id, new RegExp(`^/v1/tasks/${id}$`), f.mirror.tasks, { title: 'Renamed here' });
  },
  async comment(f) {
    const created = await f.api.create(
      taskOperations.create,
      {},
      { org_id: f.emulator.orgId, title: 'a task to talk about' },
    );
    const taskId = created.body.task_id;
    const id = await landed(f, f.mirror.comments.create({ taskId, content: 'Said once' }).commentId);
    return asMade(id, new RegExp(`^/v1/task-comments/${id}$`), f.mirror.comments, 'Said better');
  },
  async section(f) {
    const created = f.mirror.sections.create({
      scope_type: 'user',
      scope_id: f.emulator.me.username,
      name: 'Read on Sunday',
    });
    const id = await landed(f, created.id);
    return asMade(id, new RegExp(`^/v1/sections/${id}$`), f.mirror.sections, { name: 'Much later' });
  },
  async goal(f) {
    const id = await landed(f, f.mirror.goals.create({ name: 'Faster pages' }, await activeProject(f)).id);
    return asMade(id, new RegExp(`/goals/${id}$`), f.mirror.goals, { name: 'Fast pages' });
  },
  async milestone(f) {
    const id = await landed(f, f.mirror.milestones.create({ name: 'Beta' }, await activeProject(f)).id);
    return asMade(id, new RegExp(`/milestones/${id}$`), f.mirror.milestones, { name: 'Beta 2' });
  },
};

const writesTo = (f: PushFixture, path: RegExp) =>
  f.emulator.control
    .requests()
    .filter((r) => r.method !== 'GET' && path.test(r.path))
    .map((r) => `${r.method} ${r.status < 300 ? '2xx' : r.status}`);

/** One `kind` pushed, then `change`d here while the server's ETags all moved on (the bodies alike), and pushed. */
async function pushedOverNewEtags(kind: string, change: 'edit' | 'remove') {
  const f = await start();
  const made = await (KINDS[kind] as (f: PushFixture) => Promise<Made>)(f);
  made[change]();
  f.emulator.control.variance?.changeEtags();
  f.emulator.control.clearRequests();
  return { f, made, summary: await f.pusher.pushAll() };
}

/** Each write a person makes, pushed when only the ETag moved: what it does, and what it sends. */
const WRITES = [
  {
    change: 'remove',
    does: 'delete deletes the version the person saw under its new ETag',
    sent: ['DELETE 412', 'DELETE 2xx'],
  },
  { change: 'edit', does: 'edit is sent again under the new ETag', sent: ['PATCH 412', 'PATCH 2xx'] },
] as const;

describe('a 412 where only the ETag changed', () => {
  test.each(WRITES.flatMap((write) => Object.keys(KINDS).map((kind) => [kind, write.does, write] as const)))(
    "a %s's %s, without asking",
    async (kind, _does, { change, sent }) => {
      const { f, made, summary } = await pushedOverNewEtags(kind, change);

      expect(writesTo(f, made.path)).toEqual(sent);
      expect(summary).toMatchObject({ pushed: 1, failed: 0, conflicts: 0 });
      expect(f.mirror.outbox.list(UNSETTLED_STATES)).toEqual([]);
    },
  );
});

describe('a delete held for a real change', () => {
  test('still asks the person; retried, it deletes the version they were shown even after its ETag changes again', async () => {
    const f = await start();
    const made = await (KINDS.task as (f: PushFixture) => Promise<Made>)(f);
    const removal = f.mirror.tasks.delete(made.id);
    f.emulator.control.peerEdit(made.id, { title: 'Still wanted?' });

    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 0, failed: 1 });
    const held = f.mirror.outbox.op(removal?.opId as string);
    expect(held).toMatchObject({ state: 'failed', lastProblem: { type: 'edited-remotely' } });
    expect(f.emulator.control.task(made.id)?.title).toBe('Still wanted?');

    f.mirror.outbox.retry(held.opId);
    f.emulator.control.variance?.changeEtags();
    f.emulator.control.clearRequests();
    expect(await f.pusher.pushAll()).toMatchObject({ pushed: 1, failed: 0 });
    expect(writesTo(f, made.path)).toEqual(['DELETE 412', 'DELETE 2xx']);
    expect(f.emulator.control.task(made.id)).toBeUndefined();
  });
});
