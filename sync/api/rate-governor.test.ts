import { describe, expect, test } from 'vitest';
import { ManualApiClock, settle } from './clock';
import {
  type BackgroundBudget,
  type RateObservation,
  type RatePermit,
  type RequestLane,
  RateGovernor,
} from './rate-governor';

function ok(limit: number, remaining: number, resetSeconds: number): RateObservation {
  return { status: 200, limit, remaining, resetSeconds, retryAfterSeconds: null };
}

/** Queues requests and records the order in which the governor lets them go. */
function harness(options: { background?: BackgroundBudget } = {}) {
  const clock = new ManualApiClock();
  const governor = new RateGovernor({ clock, ...options });
  const granted: string[] = [];
  const permits = new Map<string, RatePermit>();
  const request = (label: string, lane: RequestLane, signal?: AbortSignal) => {
    const pending = governor.acquire(lane, signal).then((permit) => {
      granted.push(label);
      permits.set(label, permit);
      return permit;
    });
    return pending;
  };
  const release = (label: string, observation: RateObservation | null | 'not-sent') => {
    const permit = permits.get(label);
    if (!permit) throw new Error(`${label} was not granted`);
    permit.release(observation);
  };
  /** The first request (labelled `probe`), answered with `observation`: what tells the governor the budget. */
  const probe = async (lane: RequestLane, observation: RateObservation) => {
    void request('probe', lane);
    await settle();
    release('probe', observation);
  };
  return { clock, governor, granted, request, release, probe };
}

describe('RateGovernor', () => {
  test('sends one request until an answer tells the budget, then as many as the budget allows', async () => {
    const h = harness();
    void h.request('a', 'background');
    void h.request('b', 'background');
    void h.request('c', 'background');
    await settle();
    expect(h.granted).toEqual(['a']);
    h.release('a', ok(10, 9, 60));
    await settle();
    expect(h.granted).toEqual(['a', 'b', 'c']);
  });

  test('stays inside the remaining budget and waits for the window to reset', async () => {
    const h = harness();
    await h.probe('user', ok(5, 2, 10));
    for (const label of ['a', 'b', 'c']) void h.request(label, 'user');
    await settle();
    expect(h.granted).toEqual(['probe', 'a', 'b']);
    await h.clock.advance(9_900);
    expect(h.granted).toHaveLength(3);
    await h.clock.advance(200);
    expect(h.granted).toEqual(['probe', 'a', 'b', 'c']);
  });

  test('a request refused before it reached the service spends none of the window; one cut without an answer does', async () => {
    const h = harness();
    await h.probe('user', ok(5, 2, 10));
    // Offline: the connection refused, each try gives its share back and the next may go.
    for (const label of ['refused 1', 'refused 2', 'refused 3', 'refused 4']) {
      void h.request(label, 'user');
      await settle();
      h.release(label, 'not-sent');
    }
    expect(h.governor.state().remaining).toBe(2);
    // Cut after it was sent: the service may have counted it.
    void h.request('cut', 'user');
    await settle();
    h.release('cut', null);
    for (const label of ['a', 'b']) void h.request(label, 'user');
    await settle();
    expect(h.granted.slice(-2)).toEqual(['cut', 'a']);
    expect(h.governor.state().remaining).toBe(0);
  });

  test('a person’s request held for the window’s end is told with when it ends, and told again once none waits', async () => {
    const h = harness();
    const told: (number | null)[] = [];
    h.governor.watchHolds((resumesInMs) => told.push(resumesInMs));
    await h.probe('background', ok(3, 1, 10));
    // Background work held by the budget is no one's wait: not told.
    void h.request('b1', 'background');
    void h.request('b2', 'background');
    await settle();
    expect(told).toEqual([]);
    void h.request('edit', 'user');
    await settle();
    expect(told).toEqual([10_000]);
    await h.clock.advance(10_000);
    // The window ended: one request goes to learn the next, the person's first.
    expect(h.granted).toEqual(['probe', 'b1', 'edit']);
    expect(told).toEqual([10_000, null]);
  });

  test('a 429’s wait is not told as a held window (the client tells it, with its Retry-After)', async () => {
    const h = harness();
    const told: (number | null)[] = [];
    h.governor.watchHolds((resumesInMs) => told.push(resumesInMs));
    await h.probe('user', { status: 429, limit: 3, remaining: 0, resetSeconds: 30, retryAfterSeconds: 5 });
    void h.request('edit', 'user');
    await settle();
    expect(h.granted).toEqual(['probe']);
    await h.clock.advance(5_000);
    expect(h.granted).toEqual(['probe', 'edit']);
    expect(told).toEqual([]);
  });

  test('a person-initiated request overtakes background requests queued before it', async () => {
    const h = harness();
    await h.probe('background', ok(10, 0, 5));
    void h.request('pull-1', 'background');
    void h.request('pull-2', 'background');
    void h.request('pull-3', 'background');
    void h.request('push-edit', 'user');
    await settle();
    expect(h.granted).toEqual(['probe']);
    // The window resets: the budget is relearnt with one request, the person's.
    await h.clock.advance(5_000);
    expect(h.granted).toEqual(['probe', 'push-edit']);
    h.release('push-edit', ok(10, 9, 60));
    await settle();
    expect(h.granted).toEqual(['probe', 'push-edit', 'pull-1', 'pull-2', 'pull-3']);
  });

  test('when budget frees up, waiting person-initiated requests go first', async () => {
    const h = harness();
    await h.probe('user', ok(10, 1, 30));
    void h.request('a', 'background');
    void h.request('b', 'background');
    void h.request('open-task', 'user');
    await settle();
    expect(h.granted).toEqual(['probe', 'a']);
    await h.clock.advance(30_000);
    expect(h.granted).toEqual(['probe', 'a', 'open-task']);
  });

  test('while a person is at work, background work takes no more than its share of a window; their requests still go', async () => {
    const h = harness({ background: { share: 0.5, reserve: 0.1, atWorkMs: 120_000 } });
    // The first request was the person's: they are at work.
    await h.probe('user', ok(10, 9, 60));
    for (let i = 1; i <= 7; i++) void h.request(`pull-${i}`, 'background');
    await settle();
    // pull-1..5 = 5 = half of 10.
    expect(h.granted).toEqual(['probe', 'pull-1', 'pull-2', 'pull-3', 'pull-4', 'pull-5']);
    void h.request('push', 'user');
    await settle();
    expect(h.granted.at(-1)).toBe('push');
    expect(h.governor.state().queued.background).toBe(2);
    // The next window gives background its share again (the person asked less than two minutes ago).
    await h.clock.advance(60_000);
    expect(h.granted.at(-1)).toBe('pull-6');
  });

  test('while no one is at work, background work takes the window but its reserve, and a person’s first request goes at once', async () => {
    const h = harness({ background: { share: 0.5, reserve: 0.1, atWorkMs: 120_000 } });
    await h.probe('background', ok(20, 19, 60));
    for (let i = 1; i <= 24; i++) void h.request(`pull-${i}`, 'background');
    await settle();
    // probe + pull-1..17 = 18: all of 20 but its tenth.
    expect(h.granted).toHaveLength(18);
    expect(h.granted.at(-1)).toBe('pull-17');
    expect(h.governor.state().backgroundUsed).toBe(18);
    // A person opens a task: the reserve lets it go now, not in a minute.
    void h.request('open-task', 'user');
    await settle();
    expect(h.granted.at(-1)).toBe('open-task');
    // From now on they are at work: a new window gives background half, and the person the rest.
    for (const label of h.granted) h.release(label, null);
    await h.clock.advance(60_000);
    expect(h.granted.slice(19)).toEqual(['pull-18']);
    h.release('pull-18', ok(20, 19, 60));
    await settle();
    expect(h.granted.slice(19)).toEqual([
      'pull-18',
      'pull-19',
      'pull-20',
      'pull-21',
      'pull-22',
      'pull-23',
      'pull-24',
    ]);
    expect(h.governor.state().backgroundUsed).toBe(7);
  });

  test('background work held to the person’s share takes more once they have been quiet long enough, in the same window', async () => {
    const h = harness({ background: { share: 0.5, reserve: 0.1, atWorkMs: 20_000 } });
    await h.probe('user', ok(20, 19, 60));
    for (let i = 1; i <= 20; i++) void h.request(`pull-${i}`, 'background');
    await settle();
    expect(h.governor.state().backgroundUsed).toBe(10);
    await h.clock.advance(19_900);
    expect(h.governor.state().backgroundUsed).toBe(10);
    // Twenty seconds after the person's request: the window but its reserve (18), less the person's own.
    await h.clock.advance(200);
    expect(h.governor.state().backgroundUsed).toBe(18);
    expect(h.governor.state().remaining).toBe(1);
  });

  test('the background budget can be changed while running', async () => {
    const h = harness({ background: { share: 0, reserve: 1, atWorkMs: 0 } });
    await h.probe('user', ok(10, 9, 60));
    void h.request('pull', 'background');
    await settle();
    expect(h.granted).toEqual(['probe']);
    h.governor.setBackgroundBudget({ share: 1, reserve: 0, atWorkMs: 0 });
    await settle();
    expect(h.granted).toEqual(['probe', 'pull']);
  });

  test('after a 429 no request of either lane goes until Retry-After has passed', async () => {
    const h = harness();
    await h.probe('user', ok(10, 9, 60));
    void h.request('x', 'background');
    await settle();
    h.release('x', { status: 429, limit: 10, remaining: 0, resetSeconds: 50, retryAfterSeconds: 3 });
    void h.request('user-after', 'user');
    void h.request('background-after', 'background');
    await h.clock.advance(2_900);
    expect(h.granted).toEqual(['probe', 'x']);
    await h.clock.advance(200);
    // One request relearns the budget after the wait, the person's first.
    expect(h.granted).toEqual(['probe', 'x', 'user-after']);
    h.release('user-after', ok(10, 5, 47));
    await settle();
    expect(h.granted).toEqual(['probe', 'x', 'user-after', 'background-after']);
  });

  test('counts requests still in flight as spent when an answer reports the budget', async () => {
    const h = harness();
    await h.probe('user', ok(10, 4, 60));
    for (const label of ['a', 'b', 'c', 'd', 'e']) void h.request(label, 'user');
    await settle();
    expect(h.granted).toEqual(['probe', 'a', 'b', 'c', 'd']);
    // `a` answers with remaining 3: b, c and d may not be counted yet, so nothing is left.
    h.release('a', ok(10, 3, 59));
    await settle();
    expect(h.granted).toHaveLength(5);
  });

  test('an aborted wait leaves the queue and rejects', async () => {
    const h = harness();
    void h.request('probe', 'user');
    await settle();
    const controller = new AbortController();
    const waiting = h.request('abandoned', 'background', controller.signal);
    void h.request('next', 'background');
    controller.abort(new Error('person closed the view'));
    await expect(waiting).rejects.toThrow('person closed the view');
    h.release('probe', ok(10, 9, 60));
    await settle();
    expect(h.granted).toEqual(['probe', 'next']);
  });

  test('a new token starts from an unknown budget', async () => {
    const h = harness();
    await h.probe('user', { status: 429, limit: 10, remaining: 0, resetSeconds: 60, retryAfterSeconds: 60 });
    void h.request('after-refresh', 'user');
    await settle();
    expect(h.granted).toEqual(['probe']);
    h.governor.tokenChanged();
    await settle();
    expect(h.granted).toEqual(['probe', 'after-refresh']);
  });
});

describe('RateGovernor windows', () => {
  test('an answer from a window the service started sooner than reckoned restores the budget', async () => {
    const h = harness();
    await h.probe('user', ok(10, 1, 60));
    void h.request('a', 'user');
    void h.request('b', 'user');
    await settle();
    expect(h.granted).toEqual(['probe', 'a']);
    h.release('a', ok(10, 9, 60 + 30));
    await settle();
    expect(h.granted).toEqual(['probe', 'a', 'b']);
  });

  test('answers of the same window arriving out of order never raise the budget', async () => {
    const h = harness();
    await h.probe('user', ok(10, 3, 60));
    for (const label of ['a', 'b', 'c', 'd']) void h.request(label, 'user');
    await settle();
    expect(h.granted).toEqual(['probe', 'a', 'b', 'c']);
    h.release('b', ok(10, 1, 59));
    h.release('a', ok(10, 2, 60));
    await settle();
    expect(h.granted).toHaveLength(4);
  });
});
