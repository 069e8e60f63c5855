// The scheduler's decisions in fake time: what runs when, how polling backs off
// and tightens, offline probes, pushes after edits, sign-out. Its actions are
// recorded stand-ins for pull and push (those are tested against the emulator).
import { describe, expect, test } from 'vitest';
import { ManualApiClock, settle } from '../api/clock';
import { NetworkError, ProblemError, SignedOutError } from '../api/errors';
import type { PullTier } from '../events/sync-parts';
import type { SyncReason } from '../events/sync-events';
import { DEFAULT_POLL_POLICY } from './poll-policy';
import { type Connectivity, type SchedulerActions, SyncScheduler } from './sync-scheduler';

type Call =
  | { at: number; what: 'pull'; tier: PullTier; reason: SyncReason }
  | { at: number; what: 'push' }
  | { at: number; what: 'refresh'; taskId: string }
  | { at: number; what: 'probe' };

const SECOND = 1000;
const MINUTE = 60 * SECOND;

class RecordedActions implements SchedulerActions {
  calls: Call[] = [];
  /** What the next pulls answer; default: nothing changed. */
  pullOutcomes: (boolean | Error)[] = [];
  /** Whether the next full pulls left some collection failed; default: none did. */
  fullFailed: boolean[] = [];
  pushOutcomes: (Error | null)[] = [];
  probeOutcomes: boolean[] = [];
  /** When set, pulls wait until released. */
  hold: (() => void)[] | null = null;

  constructor(private readonly clock: ManualApiClock) {}

  async pull(tier: PullTier, reason: SyncReason): Promise<{ changed: boolean; failed: boolean }> {
    this.calls.push({ at: this.clock.now(), what: 'pull', tier, reason });
    if (this.hold) await new Promise<void>((resolve) => this.hold?.push(resolve));
    const outcome = this.pullOutcomes.shift() ?? false;
    if (outcome instanceof Error) throw outcome;
    return { changed: outcome, failed: tier === 'full' && (this.fullFailed.shift() ?? false) };
  }

  push(): Promise<void> {
    this.calls.push({ at: this.clock.now(), what: 'push' });
    const outcome = this.pushOutcomes.shift() ?? null;
    return outcome ? Promise.reject(outcome) : Promise.resolve();
  }

  refreshTask(taskId: string): Promise<{ changed: boolean }> {
    this.calls.push({ at: this.clock.now(), what: 'refresh', taskId });
    return Promise.resolve({ changed: false });
  }

  probe(): Promise<boolean> {
    this.calls.push({ at: this.clock.now(), what: 'probe' });
    return Promise.resolve(this.probeOutcomes.shift() ?? false);
  }

  pulls(): { at: number; tier: PullTier; reason: SyncReason }[] {
    return this.calls.flatMap((c) =>
      c.what === 'pull' ? [{ at: c.at, tier: c.tier, reason: c.reason }] : [],
    );
  }

  take(): Call[] {
    const out = this.calls;
    this.calls = [];
    return out;
  }
}

function setUp() {
  const clock = new ManualApiClock();
  const t0 = clock.now();
  const actions = new RecordedActions(clock);
  const connectivity: Connectivity[] = [];
  const failures: string[] = [];
  const scheduler = new SyncScheduler(clock, actions, {
    connectivity: (state) => connectivity.push(state),
    failed: (what) => failures.push(what),
  });
  const since = (call: { at: number }) => call.at - t0;
  return { clock, t0, actions, scheduler, connectivity, failures, since };
}

const networkDown = () => new NetworkError('tasks.list', 'ECONNREFUSED', 'connection refused', 5);

/** The full pulls so far, as [seconds since the start, reason]. */
function fullPulls(actions: RecordedActions, since: (call: { at: number }) => number): [number, string][] {
  return actions
    .pulls()
    .filter((p) => p.tier === 'full')
    .map((p) => [since(p) / SECOND, p.reason]);
}

/** A scheduler whose first pull met the network down, so it is offline; what it did so far is taken. */
async function startedOffline(): Promise<ReturnType<typeof setUp>> {
  const bench = setUp();
  bench.actions.pullOutcomes = [networkDown()];
  bench.scheduler.start();
  await bench.clock.advance(0);
  bench.actions.take();
  return bench;
}

describe('polling', () => {
  test('when the computer wakes, the quick tiers pull at once and what waits is pushed; the full pass keeps its turn', async () => {
    const { clock, actions, scheduler, since } = setUp();
    scheduler.start();
    await clock.advance(0);
    // Quiet for a while: hot and new backed off.
    await clock.advance(5 * MINUTE);
    const fullAt = scheduler.state().nextPoll.full;
    const intervals = scheduler.state().intervals;
    actions.take();
    scheduler.woke();
    await clock.advance(0);
    const woke = actions.take();
    expect(woke.map((c) => (c.what === 'pull' ? `${c.tier}:${c.reason}` : c.what))).toEqual([
      'new:woke',
      'push',
      'hot:woke',
    ]);
    expect(woke.every((c) => since(c) === 5 * MINUTE)).toBe(true);
    expect(scheduler.state().nextPoll.full).toBe(fullAt);
    // A pull the wake asked for says nothing of the pace: the tiers do not back off for it.
    expect(scheduler.state().intervals).toEqual(intervals);
    await scheduler.stop();
  });

  test('start pulls everything at once, then polls hot, new and full at their base intervals', async () => {
    const { clock, actions, scheduler, since } = setUp();
    scheduler.start();
    await clock.advance(0);
    expect(actions.pulls().map((p) => [since(p), p.tier, p.reason])).toEqual([[0, 'full', 'start']]);
    actions.take();
    await clock.advance(10 * MINUTE);
    const pulls = actions.pulls().map((p) => [since(p), p.tier]);
    // Nothing changes, so hot backs off: 30 s, then +60 s, then +120 s, ...
    expect(pulls.filter(([, tier]) => tier === 'hot').map(([at]) => at)).toEqual(
      [30, 90, 210, 450].map((s) => s * SECOND),
    );
    expect(pulls.filter(([, tier]) => tier === 'new').map(([at]) => at)).toEqual(
      [60, 180, 420].map((s) => s * SECOND),
    );
    expect(pulls.filter(([, tier]) => tier === 'full').map(([at]) => at)).toEqual([10 * MINUTE]);
    await scheduler.stop();
  });

  test('a full pull that left a collection failed is followed by retries of only that, sooner and backing off, then by the whole full poll', async () => {
    const { clock, actions, scheduler, since } = setUp();
    // The start's full pull and the next two retries leave something failed; the third retry clears it.
    actions.fullFailed = [true, true, true, false];
    scheduler.start();
    await clock.advance(30 * MINUTE);
    const full = fullPulls(actions, since);
    expect(full).toEqual([
      [0, 'start'],
      [30, 'poll-retry'],
      [90, 'poll-retry'],
      [210, 'poll-retry'],
      // Nothing failed any more: the whole full pull at its interval.
      [210 + 600, 'poll-full'],
    ]);
    await scheduler.stop();
  });

  test('failed collections that keep failing are retried no later than the full interval, which then pulls everything', async () => {
    const { clock, actions, scheduler, since } = setUp();
    actions.fullFailed = Array.from({ length: 20 }, () => true);
    scheduler.start();
    await clock.advance(40 * MINUTE);
    const full = fullPulls(actions, since);
    // 30, 60, 120, 240, 480 s apart; the next (960 s) would pass the 10-minute interval: a whole poll instead.
    expect(full.slice(0, 7)).toEqual([
      [0, 'start'],
      [30, 'poll-retry'],
      [90, 'poll-retry'],
      [210, 'poll-retry'],
      [450, 'poll-retry'],
      [930, 'poll-retry'],
      [1530, 'poll-full'],
    ]);
    await scheduler.stop();
  });

  test('backing off stops at the tier maximum', async () => {
    const { clock, scheduler } = setUp();
    scheduler.start();
    await clock.advance(3 * 60 * MINUTE);
    const { intervals } = scheduler.state();
    expect(intervals.hot).toBe(DEFAULT_POLL_POLICY.tiers.hot.maxMs);
    expect(intervals.new).toBe(DEFAULT_POLL_POLICY.tiers.new.maxMs);
    expect(intervals.full).toBe(DEFAULT_POLL_POLICY.tiers.full.maxMs);
    await scheduler.stop();
  });

  test('a poll that finds a change tightens every tier back to its base interval', async () => {
    const { clock, actions, scheduler } = setUp();
    scheduler.start();
    await clock.advance(40 * MINUTE);
    expect(scheduler.state().intervals.hot).toBe(5 * MINUTE);
    actions.take();
    actions.pullOutcomes = [true];
    const nextHot = scheduler.state().nextPoll.hot ?? 0;
    await clock.advance(nextHot - clock.now());
    expect(actions.take().map((c) => c.what)).toEqual(['pull']);
    const state = scheduler.state();
    expect(state.intervals).toEqual({ full: 10 * MINUTE, new: MINUTE, hot: 30 * SECOND });
    expect(state.nextPoll.hot).toBe(clock.now() + 30 * SECOND);
    expect(state.nextPoll.new).toBeLessThanOrEqual(clock.now() + MINUTE);
    await scheduler.stop();
  });

  test('only one pull runs at a time, and a full pull waiting supersedes hot and new', async () => {
    const { clock, actions, scheduler } = setUp();
    actions.hold = [];
    scheduler.start();
    await clock.advance(0);
    expect(scheduler.state().pulling).toBe('full');
    const finishStart = actions.hold.shift();
    finishStart?.();
    await clock.advance(30 * SECOND);
    expect(scheduler.state().pulling).toBe('hot');
    // While the hot pull hangs, new comes due and the person asks for a sync.
    await clock.advance(30 * SECOND);
    const synced = scheduler.syncNow();
    await settle();
    expect(
      actions
        .pulls()
        .filter((p) => p.tier !== 'full' || p.reason !== 'start')
        .map((p) => p.tier),
    ).toEqual(['hot']);
    actions.hold.shift()?.();
    await settle();
    expect(scheduler.state().pulling).toBe('full');
    actions.hold.shift()?.();
    await synced;
    const tiers = actions.pulls().map((p) => `${p.tier}:${p.reason}`);
    expect(tiers).toEqual(['full:start', 'hot:poll-hot', 'full:sync-now']);
    actions.hold = null;
    await scheduler.stop();
  });

  test('stop cancels every timer and nothing runs afterwards', async () => {
    const { clock, actions, scheduler } = setUp();
    scheduler.start();
    await clock.advance(0);
    await scheduler.stop();
    actions.take();
    await clock.advance(2 * 60 * MINUTE);
    expect(actions.calls).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});

describe('pushing', () => {
  test('a burst of local edits is pushed once, right after the last edit', async () => {
    const { clock, actions, scheduler, since } = setUp();
    scheduler.start();
    await clock.advance(SECOND);
    actions.take();
    scheduler.localEdit();
    await clock.advance(100);
    scheduler.localEdit();
    await clock.advance(100);
    scheduler.localEdit();
    await clock.advance(DEFAULT_POLL_POLICY.pushDebounceMs + 10);
    expect(actions.take().map((c) => [c.what, since(c)])).toEqual([
      ['push', SECOND + 200 + DEFAULT_POLL_POLICY.pushDebounceMs],
    ]);
    await scheduler.stop();
  });

  test('a push the service failed (5xx) is tried again later', async () => {
    const { clock, actions, scheduler, failures } = setUp();
    scheduler.start();
    await clock.advance(SECOND);
    actions.take();
    actions.pushOutcomes = [
      new ProblemError('tasks.update', 503, 'about:blank', '', [], null, null, 'about:blank'),
    ];
    scheduler.localEdit();
    await clock.advance(DEFAULT_POLL_POLICY.pushDebounceMs);
    expect(failures).toEqual(['push']);
    await clock.advance(DEFAULT_POLL_POLICY.pushRetryMs);
    expect(actions.take().filter((c) => c.what === 'push')).toHaveLength(2);
    await scheduler.stop();
  });
});

describe('online and offline', () => {
  test('a network error takes sync offline: polls stop and health probes back off until one answers', async () => {
    const { clock, actions, scheduler, connectivity, since } = setUp();
    actions.pullOutcomes = [networkDown()];
    scheduler.start();
    await clock.advance(0);
    expect(connectivity).toEqual(['offline']);
    expect(scheduler.state().nextPoll).toEqual({ full: null, new: null, hot: null });
    actions.take();
    // Edits made offline wait: no push is attempted.
    scheduler.localEdit();
    await clock.advance(30 * SECOND);
    expect(actions.take().map((c) => [c.what, since(c)])).toEqual([
      ['probe', 2 * SECOND],
      ['probe', 6 * SECOND],
      ['probe', 14 * SECOND],
      ['probe', 30 * SECOND],
    ]);
    actions.probeOutcomes = [true];
    await clock.advance(32 * SECOND);
    expect(connectivity).toEqual(['offline', 'online']);
    const after = actions.take();
    expect(after.map((c) => c.what)).toEqual(['probe', 'pull', 'push']);
    expect(after[1]).toMatchObject({ tier: 'full', reason: 'network-returned' });
    expect(scheduler.state().nextPoll.hot).not.toBeNull();
    await scheduler.stop();
  });

  test('when the operating system reports a network change while offline, a probe goes at once', async () => {
    const { clock, actions, scheduler } = await startedOffline();
    actions.probeOutcomes = [true];
    scheduler.networkChanged();
    await clock.advance(0);
    expect(actions.take().map((c) => c.what)).toEqual(['probe', 'pull', 'push']);
    expect(scheduler.state().connectivity).toBe('online');
    await scheduler.stop();
  });

  test('when the computer wakes while offline, a probe goes at once instead of at its backed-off time', async () => {
    const { clock, actions, scheduler } = await startedOffline();
    // Long offline: the next probe is a minute away.
    await clock.advance(2 * MINUTE);
    actions.take();
    actions.probeOutcomes = [true];
    scheduler.woke();
    await clock.advance(0);
    expect(actions.take().map((c) => c.what)).toEqual(['probe', 'pull', 'push']);
    expect(scheduler.state().connectivity).toBe('online');
    await scheduler.stop();
  });

  test('sync now while offline probes at once and ends when the service is still unreachable', async () => {
    const { actions, scheduler } = await startedOffline();
    await scheduler.syncNow();
    expect(actions.take().map((c) => c.what)).toEqual(['probe']);
    expect(scheduler.state().connectivity).toBe('offline');
    await scheduler.stop();
  });

  test('a 5xx is the service failing, not the network: sync stays online and polls on', async () => {
    const { clock, actions, scheduler, connectivity, failures } = setUp();
    actions.pullOutcomes = [new ProblemError('tasks.list', 500, 'internal', '', [], null, null, 'x')];
    scheduler.start();
    await clock.advance(0);
    expect(connectivity).toEqual([]);
    expect(failures).toEqual(['full']);
    expect(scheduler.state().nextPoll.full).not.toBeNull();
    await scheduler.stop();
  });

  test('signed out stops all syncing until started again', async () => {
    const { clock, actions, scheduler, connectivity } = setUp();
    actions.pullOutcomes = [new SignedOutError('tasks.list', 'token-revoked', null)];
    scheduler.start();
    await clock.advance(0);
    expect(connectivity).toEqual(['signed-out']);
    actions.take();
    scheduler.localEdit();
    await clock.advance(60 * MINUTE);
    expect(actions.calls).toEqual([]);
    scheduler.start();
    await clock.advance(0);
    expect(actions.pulls().map((p) => p.reason)).toEqual(['start']);
    await scheduler.stop();
  });
});

test('opening a task revalidates it at once', async () => {
  const { clock, actions, scheduler } = setUp();
  scheduler.start();
  await clock.advance(SECOND);
  actions.take();
  scheduler.openTask('tsk_1');
  await settle();
  expect(actions.take()).toMatchObject([{ what: 'refresh', taskId: 'tsk_1' }]);
  expect(scheduler.state().openTaskId).toBe('tsk_1');
  await scheduler.stop();
});
