// The whole task list walked as several cursor chains at once, against the
// emulator over real HTTP into a real SQLite mirror: the mirror ends up with
// exactly the server's tasks (ids and bodies), changes made while the chains
// walk are neither missed nor counted twice, deletions wait for every chain,
// a refused cursor restarts its own chain only, an interrupted first sync
// resumes each chain, and an unchanged re-sync is 304s chain by chain.
import { describe, expect, test } from 'vitest';
import type { SyncEvent } from '../events/sync-events';
import { ApplyBacklog } from './apply-backlog';
import { coverEveryDay, rangeOfScope } from './task-chains';
import { type PullFixture, pullFixturePerTest, serverTaskIds, abortAtTaskPage } from './testing/pull-fixture';

/** 6 000 tasks in three chains of two pages each: every chain has a page to fetch after its first. */
const setUp = pullFixturePerTest({
  seedTasks: 6000,
  engine: { taskChains: { maxChains: 3, targetPages: 2 } },
});

const isChainQuery = (query: string) => /filter(%5B|\[)created_(after|before)/.test(query);

function taskListRequests(f: PullFixture) {
  return f.emulator.control.requests().filter((r) => r.method === 'GET' && r.path === '/v1/tasks');
}

function chainsOf(f: PullFixture): string[] {
  return f.mirror.passes.state('tasks', '')?.chains ?? [];
}

/** The ids each chain's stored pages hold. */
function idsByChain(f: PullFixture): Map<string, string[]> {
  return new Map(
    chainsOf(f).map((scope) => [
      scope,
      (f.mirror.passes.state('tasks', scope)?.pages ?? []).flatMap((page) => page.ids),
    ]),
  );
}

/** Every server task is in the mirror as served (raw body), and nothing else is. */
function expectExactMirror(f: PullFixture): void {
  expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
  for (const served of f.emulator.control.servedTasks()) {
    const id = served.task_id as string;
    expect(f.mirror.tasks.get(id)?.server, id).toEqual(served);
  }
}

/** Calls `run` once, at the first progress of the whole list's chains (each has its first page then). */
function atFirstChainProgress(f: PullFixture, run: () => void): () => void {
  let done = false;
  return f.engine.subscribe((event: SyncEvent) => {
    if (done || event.type !== 'progress' || event.collection !== 'tasks' || event.scope !== '') return;
    done = true;
    run();
  });
}

describe('the task list as several chains', () => {
  test('a first sync over three chains mirrors exactly the server tasks, each in one chain, the ranges covering every day', async () => {
    const f = await setUp();
    const summary = await f.engine.pullOnce();
    expect(summary.failed).toEqual([]);
    expectExactMirror(f);
    const byChain = idsByChain(f);
    expect(byChain.size).toBe(3);
    const all = [...byChain.values()].flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...new Set(all)].sort()).toEqual(serverTaskIds(f));
    for (const ids of byChain.values()) expect(ids.length).toBeGreaterThan(1000);
    // The ranges tile the days: open before the first, open after the last, no gap between.
    const ranges = [...byChain.keys()].map((scope) => rangeOfScope(scope));
    expect(coverEveryDay(ranges.flatMap((r) => (r ? [r] : [])))).toHaveLength(3);
    expect(f.mirror.passes.state('tasks', '')).toMatchObject({ state: 'complete', completedOnce: true });
  });

  test('a task created, edited, moved to another project or deleted while the chains walk is neither missed nor counted twice', async () => {
    const f = await setUp();
    const me = f.emulator.me.username;
    // What the chains (and their probes) were sent so far, by the relay's count.
    const fetchedByChains = new Set<string>();
    f.relay.rewrite = (url, body) => {
      if (isChainQuery(url))
        for (const t of (JSON.parse(body) as { data: { task_id: string }[] }).data)
          fetchedByChains.add(t.task_id);
      return body;
    };
    const changed: Record<string, string> = {};
    const unsubscribe = atFirstChainProgress(f, () => {
      const waiting = f.emulator.control.tasks().filter((t) => !fetchedByChains.has(t.task_id));
      const [edited, moved] = waiting;
      const deleted = waiting.find((t) => t.assignee === me);
      const otherProject = f.emulator.control
        .tasks()
        .find((t) => t.project_id !== null && t.project_id !== moved?.project_id)?.project_id;
      if (!edited || !moved || !deleted || !otherProject) throw new Error('the seed has no such tasks');
      // Already in the mirror with the person's own tasks: only the sweep can remove it.
      expect(f.mirror.tasks.get(deleted.task_id)).not.toBeNull();
      f.emulator.control.peerEdit(edited.task_id, { title: 'renamed while the chains walk' });
      f.emulator.control.peerEdit(moved.task_id, { project_id: otherProject });
      f.emulator.control.peerDelete(deleted.task_id);
      changed.created = f.emulator.control.peerCreate({ title: 'created while the chains walk' }).task_id;
      Object.assign(changed, { edited: edited.task_id, moved: moved.task_id, deleted: deleted.task_id });
    });
    const summary = await f.engine.pullOnce();
    unsubscribe();
    expect(summary.failed).toEqual([]);
    expect(Object.keys(changed).sort()).toEqual(['created', 'deleted', 'edited', 'moved']);
    expectExactMirror(f);
    expect(f.mirror.tasks.get(changed.deleted ?? '')).toBeNull();
    const byChain = idsByChain(f);
    const all = [...byChain.values()].flat();
    expect(new Set(all).size).toBe(all.length);
    // The new task is in the open-ended last range.
    const last = [...byChain.keys()].find((scope) => rangeOfScope(scope)?.to === null) ?? '';
    expect(byChain.get(last)).toContain(changed.created);
  });

  test('a task deleted on the server is removed only once every chain completed', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const byCreation = f.emulator.control
      .tasks()
      .sort(
        (a, b) =>
          (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.task_id.localeCompare(b.task_id),
      );
    const newest = byCreation[byCreation.length - 1]?.task_id ?? '';
    const oldest = byCreation[0]?.task_id ?? '';
    f.emulator.control.peerDelete(newest);
    // The first chain's page changes too, and comes back unreadable: that chain fails, the others complete.
    f.emulator.control.peerEdit(oldest, { title: 'changed in the first chain' });
    f.relay.rewrite = (url, body) =>
      isChainQuery(url) && !/created_after/.test(url) ? body.slice(0, body.length / 2) : body;
    const cut = await f.engine.pullOnce();
    expect(cut.failed.map((c) => c.collection)).toEqual(['tasks']);
    expect(f.mirror.tasks.get(newest)).not.toBeNull();
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('running');

    f.relay.rewrite = null;
    const summary = await f.engine.pullOnce();
    expect(summary.failed).toEqual([]);
    expect(f.mirror.tasks.get(newest)).toBeNull();
    expect(summary.changes.filter((c) => c.kind === 'deleted').map((c) => c.id)).toEqual([newest]);
    expectExactMirror(f);
  });

  test('a refused cursor restarts only the chain it belonged to', async () => {
    const f = await setUp();
    const unsubscribe = atFirstChainProgress(f, () =>
      f.emulator.control.faults.rejectCursors(1, { pathPrefix: '/v1/tasks' }),
    );
    const summary = await f.engine.pullOnce();
    unsubscribe();
    expect(summary.failed).toEqual([]);
    expect(summary.restarts).toBe(1);
    const passes = chainsOf(f).map((scope) => f.mirror.passes.state('tasks', scope)?.passNo);
    expect(passes.sort()).toEqual([1, 1, 2]);
    expectExactMirror(f);
  });

  test('an interrupted first sync resumes every chain where it stopped, and is still the first', async () => {
    const f = await setUp();
    const stop = abortAtTaskPage(f, 4);
    await expect(f.engine.pullOnce({ signal: stop.signal })).rejects.toThrow();
    stop.done();
    expect(f.mirror.passes.state('tasks', '')).toMatchObject({ state: 'running', completedOnce: false });
    expect(chainsOf(f)).toHaveLength(3);
    expect(f.mirroredTaskIds().length).toBeLessThan(6000);

    await f.reopen();
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    expect(summary.initial).toBe(true);
    const chainRequests = taskListRequests(f).filter((r) => isChainQuery(r.query));
    // No probe, and no chain's first page fetched whole again: resumed from a cursor, or revalidated.
    expect(taskListRequests(f).filter((r) => !/assignee/.test(r.query) && !isChainQuery(r.query))).toEqual(
      [],
    );
    for (const r of chainRequests)
      expect(r.query.includes('cursor=') || r.ifNoneMatch !== null, r.query).toBe(true);
    expect(chainsOf(f)).toHaveLength(3);
    expectExactMirror(f);
    expect(f.mirror.passes.state('tasks', '')).toMatchObject({ state: 'complete', completedOnce: true });
  });

  test('an unchanged re-sync revalidates every page of every chain and gets only 304s', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const pages = [...idsByChain(f).keys()].map(
      (scope) => f.mirror.passes.state('tasks', scope)?.pages.length ?? 0,
    );
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    expect(summary.pulled).toBe(0);
    expect(summary.changes).toEqual([]);
    const requests = taskListRequests(f);
    expect(requests.every((r) => r.status === 304 && r.ifNoneMatch !== null)).toBe(true);
    expect(requests).toHaveLength(pages.reduce((a, b) => a + b, 0));
    // Each chain's own query: as many distinct filters as chains.
    const filters = new Set(
      requests.map((r) => {
        const query = new URLSearchParams(r.query);
        return `${query.get('filter[created_after]')}..${query.get('filter[created_before]')}`;
      }),
    );
    expect(filters.size).toBe(3);
    expectExactMirror(f);
  });
});

describe('coverEveryDay', () => {
  test.each([
    { stored: [], covered: [{ from: null, to: null }] },
    {
      stored: [{ from: null, to: '2026-01-31' }],
      covered: [
        { from: null, to: '2026-01-31' },
        { from: '2026-02-01', to: null },
      ],
    },
    {
      stored: [
        { from: '2026-03-01', to: null },
        { from: null, to: '2026-01-31' },
      ],
      covered: [
        { from: null, to: '2026-01-31' },
        { from: '2026-02-01', to: '2026-02-28' },
        { from: '2026-03-01', to: null },
      ],
    },
    {
      stored: [{ from: '2026-02-01', to: '2026-02-10' }],
      covered: [
        { from: null, to: '2026-01-31' },
        { from: '2026-02-01', to: '2026-02-10' },
        { from: '2026-02-11', to: null },
      ],
    },
  ])('a stored partition with holes gets a range per hole: $stored', ({ stored, covered }) => {
    expect(coverEveryDay(stored)).toEqual(covered);
  });
});

describe('the backlog the chains share', () => {
  test('a walk waits while the pages waiting for the store exceed the bound, and goes on as they are applied', async () => {
    const backlog = new ApplyBacklog(1);
    backlog.add();
    await backlog.room();
    backlog.add();
    let roomy = false;
    const waiting = backlog.room().then(() => (roomy = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(roomy).toBe(false);
    backlog.done();
    await waiting;
    expect(roomy).toBe(true);
  });
});
