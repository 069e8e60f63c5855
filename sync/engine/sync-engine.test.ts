// The façade driven as the app drives it, against the emulator over real HTTP
// and a real mirror file: start pulls, a local edit is pushed right away,
// opening a task revalidates it, losing the network goes offline and a health
// probe brings sync back, stop ends everything.
import { afterEach, expect, test, vi } from 'vitest';
import type { SyncEvent } from '../events/sync-events';
import { type PullFixture, startPullFixture } from '../pull/testing/pull-fixture';

let fixture: PullFixture | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** Resolves with the first event (from now on) that matches. */
function nextEvent<T extends SyncEvent['type']>(
  f: PullFixture,
  type: T,
  match: (event: Extract<SyncEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<SyncEvent, { type: T }>> {
  return new Promise((resolve) => {
    const unsubscribe = f.engine.subscribe((event) => {
      if (event.type === type && match(event as Extract<SyncEvent, { type: T }>)) {
        unsubscribe();
        resolve(event as Extract<SyncEvent, { type: T }>);
      }
    });
  });
}

test('start pulls everything, a local edit is pushed right after, and opening a task revalidates it', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 300 }));
  const started = nextEvent(f, 'sync-finished', (e) => e.reason === 'start');
  const hotPoll = nextEvent(f, 'poll-scheduled', (e) => e.tier === 'hot');
  f.engine.start();
  const first = await started;
  await hotPoll;
  expect(first.summary.pulled).toBeGreaterThan(300);
  expect(f.mirroredTaskIds()).toHaveLength(300);
  expect(f.engine.state().nextPoll.hot).toBeGreaterThan(Date.now());

  const id = f.mirroredTaskIds()[0] ?? '';
  f.mirror.tasks.edit(id, { title: 'edited here' });
  const pushed = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (f.emulator.control.task(id)?.title === 'edited here') {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  f.engine.localEdit();
  await pushed;

  f.emulator.control.peerEdit(id, { status: 'blocked' });
  f.emulator.control.clearRequests();
  const refreshed = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (f.mirror.tasks.get(id)?.task.status === 'blocked') {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  f.engine.openTask(id);
  await refreshed;
  expect(f.emulator.control.requests().some((r) => r.path === `/v1/tasks/${id}`)).toBe(true);
  await f.engine.stop();
  expect(f.engine.state().running).toBe(false);
});

test('when requests stop getting through the engine goes offline, and a health probe that answers brings a full sync', async () => {
  const f = (fixture = await startPullFixture({
    seedTasks: 300,
    engine: { pollPolicy: { probeBaseMs: 30, probeMaxMs: 60 } },
  }));
  await f.engine.pullOnce();
  // Every request is cut off mid-answer (the API client retries, then gives up).
  f.emulator.control.faults.dropConnections(10_000);
  const offline = nextEvent(f, 'offline');
  f.engine.start();
  expect((await offline).error.kind).toBe('network');
  const back = nextEvent(f, 'sync-finished', (e) => e.reason === 'network-returned');
  f.emulator.control.faults.clear();
  await nextEvent(f, 'online');
  await back;
  expect(f.engine.state().connectivity).toBe('online');
  expect(f.emulator.control.requests().some((r) => r.path === '/v1/health' && r.status === 200)).toBe(true);
});

test('a request the network fails twice in a row says the connection is lost while the client retries, and back once it answers', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 50 }));
  const seen: SyncEvent['type'][] = [];
  const unsubscribe = f.engine.subscribe((event) => {
    if (event.type === 'connection-lost' || event.type === 'connection-back' || event.type === 'offline')
      seen.push(event.type);
  });
  const lost = nextEvent(f, 'connection-lost');
  // The same request is cut off twice; its third attempt gets through.
  f.emulator.control.faults.dropConnections(2, { pathPrefix: '/v1/projects' });
  const summary = await f.engine.syncOnce();
  unsubscribe();
  expect((await lost).error.kind).toBe('network');
  expect(seen).toEqual(['connection-lost', 'connection-back']);
  expect(summary.failed_collections).toEqual([]);
});

test('one cut connection the client retries at once is not a lost connection (a kept-alive socket the server closed)', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 50 }));
  const seen: SyncEvent['type'][] = [];
  const unsubscribe = f.engine.subscribe((event) => {
    if (event.type === 'connection-lost' || event.type === 'connection-back') seen.push(event.type);
  });
  f.emulator.control.faults.dropConnections(1, { pathPrefix: '/v1/projects' });
  const summary = await f.engine.syncOnce();
  unsubscribe();
  expect(summary.failed_collections).toEqual([]);
  expect(
    f.emulator.control.requests().filter((r) => r.path.startsWith('/v1/projects')).length,
  ).toBeGreaterThan(1);
  expect(seen).toEqual([]);
});

test('a health probe answered in a form that breaks the contract brings sync back too: the service answered (issue 27)', async () => {
  const f = (fixture = await startPullFixture({
    seedTasks: 50,
    engine: { pollPolicy: { probeBaseMs: 30, probeMaxMs: 60 } },
  }));
  await f.engine.pullOnce();
  f.relay.rewrite = (url, body) => (url === '/v1/health' ? '{"status":["not","a","string"]}' : body);
  f.emulator.control.faults.dropConnections(10_000);
  const offline = nextEvent(f, 'offline');
  f.engine.start();
  await offline;
  const back = nextEvent(f, 'sync-finished', (e) => e.reason === 'network-returned');
  f.emulator.control.faults.clear();
  await nextEvent(f, 'online');
  await back;
  expect(f.engine.state().connectivity).toBe('online');
});

test('while the client waits out a 429 the engine says it is rate-limited, and says so no more once answers come', async () => {
  const f = (fixture = await startPullFixture({ seedTasks: 50 }));
  const seen: SyncEvent['type'][] = [];
  const unsubscribe = f.engine.subscribe((event) => {
    if (event.type === 'rate-limited' || event.type === 'rate-limit-lifted') seen.push(event.type);
  });
  const limited = nextEvent(f, 'rate-limited');
  f.emulator.control.faults.rateLimitBurst(1, { pathPrefix: '/v1/projects', retryAfterSeconds: 1 });
  const summary = await f.engine.syncOnce();
  unsubscribe();
  expect((await limited).retryAfterSeconds).toBe(1);
  expect(seen).toEqual(['rate-limited', 'rate-limit-lifted']);
  // The pass itself went on after the wait: nothing was lost to the 429.
  expect(summary.pulled).toBeGreaterThan(50);
});

test('a first sync no one watches takes the rate window but its reserve, and an edit made meanwhile is pushed in that window', async () => {
  // 40 requests a minute: background may take 36 while no one is at work, 20 once someone is.
  const f = (fixture = await startPullFixture({ seedTasks: 300, rateLimit: { live: 40, windowMs: 60_000 } }));
  // Task pages of 5: the first sync needs more requests than the window has.
  f.emulator.control.faults.shortPages(100, { pathPrefix: '/v1/tasks', pageSize: 5 });
  f.engine.start();
  const governor = f.api.governor;
  // The pull stands at the background's cap, waiting for the next window.
  await vi.waitFor(
    () => {
      const state = governor.state();
      expect(state.queued.background > 0 && state.inFlight === 0).toBe(true);
    },
    { timeout: 20_000, interval: 20 },
  );
  expect(governor.state().backgroundUsed).toBe(36);
  const id = f.mirroredTaskIds()[0] ?? '';
  expect(id).not.toBe('');

  f.mirror.tasks.edit(id, { title: 'edited during the first sync' });
  f.engine.localEdit();
  await vi.waitFor(() => expect(f.emulator.control.task(id)?.title).toBe('edited during the first sync'), {
    timeout: 20_000,
    interval: 20,
  });
  await vi.waitFor(() => expect(governor.state()).toMatchObject({ inFlight: 0, queued: { user: 0 } }), {
    timeout: 5_000,
    interval: 20,
  });
  // Still the same window (its background count not started over), nothing answered 429,
  // and the person now at work: the pull takes no more of this window.
  expect(governor.state().backgroundUsed).toBe(36);
  expect(governor.state().queued.background).toBeGreaterThan(0);
  expect(f.emulator.control.requests().filter((r) => r.status === 429)).toEqual([]);
  expect(
    f.emulator.control.requests().some((r) => r.method === 'PATCH' && r.path === `/v1/tasks/${id}`),
  ).toBe(true);
});

test('edits held for the next window, this one’s budget spent, say so until they go: no 429 came to say it', async () => {
  // Twenty requests in two seconds: twenty edits after a sync cannot all go in its window.
  const f = (fixture = await startPullFixture({ seedTasks: 30, rateLimit: { live: 20, windowMs: 2_000 } }));
  await f.engine.pullOnce();
  const ids = f.mirroredTaskIds().slice(0, 20);
  for (const id of ids) f.mirror.tasks.edit(id, { title: `held ${id}` });
  const held = f.events.length;
  expect(await f.engine.pushOnce()).toMatchObject({ pushed: 20, failed: 0 });
  const told = f.events
    .slice(held)
    .filter((e) => e.type === 'rate-limited' || e.type === 'rate-limit-lifted');
  // Held, then going again, for each window the edits waited for.
  expect(told.length).toBeGreaterThanOrEqual(2);
  told.forEach((event, i) =>
    expect(event).toEqual(
      i % 2 === 0
        ? { type: 'rate-limited', retryAfterSeconds: expect.any(Number) as number, cause: 'budget' }
        : { type: 'rate-limit-lifted' },
    ),
  );
  expect(told.at(-1)).toEqual({ type: 'rate-limit-lifted' });
  for (const id of ids) expect(f.emulator.control.task(id)?.title).toBe(`held ${id}`);
  expect(f.emulator.control.requests().filter((r) => r.status === 429)).toEqual([]);
});
