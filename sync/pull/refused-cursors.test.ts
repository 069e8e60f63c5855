// Refused cursors always make progress: a list whose cursors the service
// refuses restarts, with backoff, for as long as the run's time allows (not a
// fixed number of times), also while other lists are walked and when the
// refused cursor was stored by an interrupted earlier run; pages already
// applied stay, and a stored cursor as old as a refused one is not sent again.
import { describe, expect, test } from 'vitest';
import { InstantClock } from './testing/instant-clock';
import { type PullFixture, pullFixturePerTest, serverTaskIds, abortAtTaskPage } from './testing/pull-fixture';

const setUp = pullFixturePerTest({ seedTasks: 2500 });

function taskListRequests(f: PullFixture) {
  return f.emulator.control.requests().filter((r) => r.method === 'GET' && r.path === '/v1/tasks');
}

/** Requests of the whole task list (not a first sync's preview of the person's tasks). */
function wholeListRequests(f: PullFixture) {
  return taskListRequests(f).filter((r) => !/assignee|team/.test(decodeURIComponent(r.query)));
}

/** Aborts the next full pull once the whole task list's first page is in. */
const interruptAfterFirstTaskPage = (f: PullFixture) => abortAtTaskPage(f, 1);

describe('refused cursors', () => {
  test('cursors refused six times in a row during a first sync: the sync still completes with every task', async () => {
    const f = await setUp();
    f.emulator.control.faults.rejectCursors(6, { pathPrefix: '/v1/tasks' });

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.restarts).toBe(6);
    expect(taskListRequests(f).filter((r) => r.status === 400)).toHaveLength(6);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test('cursors refused on two lists while other lists are walked at the same time: every list completes', async () => {
    const f = await setUp();
    // Members come one to a page (so they have cursors too), slowly, beside the task list.
    f.emulator.control.faults.shortPages(4, { pathPrefix: '/v1/organization-members', pageSize: 1 });
    f.emulator.control.faults.setLatency(15, { pathPrefix: '/v1/organization-members' });
    f.emulator.control.faults.setLatency(15, { pathPrefix: '/v1/sections' });
    // Any request that carries a cursor is refused, ten times in all: both lists meet several.
    f.emulator.control.faults.rejectCursors(10);

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    const refused = f.emulator.control.requests().filter((r) => r.status === 400);
    expect(refused).toHaveLength(10);
    expect(new Set(refused.map((r) => r.path)).size).toBe(2);
    expect(f.mirror.collections.list('organization_members').length).toBeGreaterThan(1);
    expect(summary.completed).toContain('organization_members');
  });

  test('a stored cursor of an interrupted first sync, refused by the next run, restarts the pass and the run completes', async () => {
    const f = await setUp();
    const cut = interruptAfterFirstTaskPage(f);
    await expect(f.engine.pullOnce({ signal: cut.signal })).rejects.toThrow();
    cut.done();
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('running');
    const kept = f.mirroredTaskIds().length;
    expect(kept).toBeGreaterThan(0);
    // The service forgets its old cursors (a new process of it), and refuses the fresh ones a few times more.
    f.emulator.control.faults.expireCursors();
    f.emulator.control.faults.rejectCursors(4, { pathPrefix: '/v1/tasks' });
    await f.reopen();
    f.emulator.control.clearRequests();

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.initial).toBe(true);
    // The stored cursor went first and was refused; then fresh chains, refused three times more.
    expect(wholeListRequests(f)[0]).toMatchObject({ status: 400 });
    expect(wholeListRequests(f)[0]?.query).toContain('cursor=');
    expect(taskListRequests(f).filter((r) => r.status === 400)).toHaveLength(4);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test('a first sync that restarted on a refused cursor and was then interrupted is still the first: the next run announces nothing', async () => {
    const f = await setUp();
    let changesAnnounced = 0;
    f.engine.subscribe((event) => {
      if (event.type === 'changes') changesAnnounced += event.changes.length;
    });
    // Every cursor is refused for a while, so the whole list's chain starts over; the run is cut
    // short once the restarted chain has a page in.
    f.emulator.control.faults.rejectCursors(3, { pathPrefix: '/v1/tasks' });
    const stop = new AbortController();
    const unsubscribe = f.engine.subscribe((event) => {
      const chain = f.mirror.passes.state('tasks', '')?.chains[0];
      const pass = chain === undefined ? null : f.mirror.passes.state('tasks', chain);
      if (
        event.type === 'progress' &&
        event.collection === 'tasks' &&
        event.scope === '' &&
        (pass?.passNo ?? 0) > 1
      )
        stop.abort();
    });
    await expect(f.engine.pullOnce({ signal: stop.signal })).rejects.toThrow();
    unsubscribe();
    expect(f.mirror.passes.state('tasks', '')).toMatchObject({ state: 'running', completedOnce: false });
    const [chain] = f.mirror.passes.state('tasks', '')?.chains ?? [];
    expect(f.mirror.passes.state('tasks', chain ?? '')?.passNo).toBeGreaterThan(1);

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.initial).toBe(true);
    expect(changesAnnounced).toBe(0);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')).toMatchObject({ state: 'complete', completedOnce: true });
  });

  test('once the service refused stored cursors of some age, an interrupted pass whose stored cursor is as old starts over without sending it', async () => {
    const clock = new InstantClock();
    const f = await setUp({ engine: { clock } });
    await f.engine.pullOnce();
    // Ten minutes later the service (a new process of it) refuses every cursor it handed out before:
    // the re-sync's revalidation ahead meets the refusals, and the engine learns from them.
    clock.pass(10 * 60_000);
    f.emulator.control.faults.expireCursors();
    const cut = interruptAfterFirstTaskPage(f);
    await expect(f.engine.pullOnce({ signal: cut.signal })).rejects.toThrow();
    cut.done();
    expect(taskListRequests(f).some((r) => r.status === 400)).toBe(true);
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('running');
    // Twenty minutes on, the interrupted pass's stored cursor is older than those refused.
    clock.pass(20 * 60_000);
    f.emulator.control.faults.expireCursors();
    f.emulator.control.clearRequests();

    const summary = await f.engine.pullOnce();

    expect(taskListRequests(f).filter((r) => r.status === 400)).toEqual([]);
    expect(taskListRequests(f)[0]?.query).not.toContain('cursor=');
    expect(summary.failed).toEqual([]);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test("a list refused until the run's time is up keeps every page applied, removes nothing and is named; the next run completes it", async () => {
    const clock = new InstantClock();
    const f = await setUp({
      engine: { clock, pullRunPolicy: { runBudgetMs: 60_000, restartBaseMs: 1_000 } },
    });
    await f.engine.pullOnce();
    const before = f.mirroredTaskIds().sort();
    const gone = before[0] ?? '';
    f.emulator.control.peerDelete(gone);
    // The oldest task sits on the first page (created_at order), which the service still serves.
    const oldest = f.emulator.control
      .tasks()
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? ''))[0];
    f.emulator.control.peerEdit(oldest?.task_id ?? '', { title: 'renamed while cursors were refused' });
    f.emulator.control.faults.expireCursors();
    f.emulator.control.faults.rejectCursors(10_000, { pathPrefix: '/v1/tasks' });

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([
      expect.objectContaining({
        collection: 'tasks',
        scope: '',
        error: expect.objectContaining({
          kind: 'cursor-refused',
          status: 400,
          type: 'invalid-parameter',
        }) as unknown,
      }),
    ]);
    // Restarted for the whole minute (backoff 0, 1, 2, 4, 8, 16 s), well past the three restarts once allowed.
    expect(taskListRequests(f).filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(7);
    // The pass never completed: nothing was removed, and the first page (with the renamed task) was applied.
    expect(f.mirror.tasks.get(gone)).not.toBeNull();
    expect(f.mirror.tasks.get(oldest?.task_id ?? '')?.task.title).toBe('renamed while cursors were refused');
    expect(summary.completed).toEqual(expect.arrayContaining(['sections', 'sprints', 'goals']));

    f.emulator.control.faults.clear();
    const next = await f.engine.pullOnce();
    expect(next.failed).toEqual([]);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.tasks.get(gone)).toBeNull();
  });
});
