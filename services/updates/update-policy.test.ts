import { describe, expect, test } from 'vitest';
import {
  CHECK_INTERVAL_MS,
  checkDue,
  installDecision,
  SETTLE_WAIT_MS,
  type UpdatePhase,
  updateStatusView,
} from './update-policy';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const ONLINE = { online: true, metered: false };

describe('checkDue', () => {
  const cases: [string, Parameters<typeof checkDue>[0], boolean][] = [
    [
      'checks at start when online',
      { now: NOW, lastCheckAt: null, phase: { kind: 'idle' }, network: ONLINE },
      true,
    ],
    [
      'not at start while offline',
      { now: NOW, lastCheckAt: null, phase: { kind: 'idle' }, network: { online: false, metered: false } },
      false,
    ],
    [
      'not on a metered network',
      { now: NOW, lastCheckAt: null, phase: { kind: 'idle' }, network: { online: true, metered: true } },
      false,
    ],
    [
      'not again before the interval',
      { now: NOW, lastCheckAt: NOW - CHECK_INTERVAL_MS + 1, phase: { kind: 'up-to-date' }, network: ONLINE },
      false,
    ],
    [
      'again once the interval passed',
      { now: NOW, lastCheckAt: NOW - CHECK_INTERVAL_MS, phase: { kind: 'up-to-date' }, network: ONLINE },
      true,
    ],
    [
      'not while a check runs',
      { now: NOW, lastCheckAt: NOW - CHECK_INTERVAL_MS * 2, phase: { kind: 'checking' }, network: ONLINE },
      false,
    ],
    [
      'not while downloading',
      {
        now: NOW,
        lastCheckAt: NOW - CHECK_INTERVAL_MS * 2,
        phase: { kind: 'downloading', version: '0.3.0', percent: 10 },
        network: ONLINE,
      },
      false,
    ],
    [
      'not once an update is downloaded',
      {
        now: NOW,
        lastCheckAt: NOW - CHECK_INTERVAL_MS * 2,
        phase: { kind: 'ready', version: '0.3.0' },
        network: ONLINE,
      },
      false,
    ],
    [
      'a failure waits for its retry time',
      {
        now: NOW,
        lastCheckAt: NOW - 1000,
        phase: { kind: 'failed', reason: 'unreachable', message: 'x', retryAt: NOW + 1 },
        network: ONLINE,
      },
      false,
    ],
    [
      'a failure is retried at its retry time',
      {
        now: NOW,
        lastCheckAt: NOW - 1000,
        phase: { kind: 'failed', reason: 'unreachable', message: 'x', retryAt: NOW },
        network: ONLINE,
      },
      true,
    ],
    [
      'a failure is not retried offline',
      {
        now: NOW,
        lastCheckAt: NOW - 1000,
        phase: { kind: 'failed', reason: 'unreachable', message: 'x', retryAt: NOW },
        network: { online: false, metered: false },
      },
      false,
    ],
  ];
  test.each(cases)('%s', (_name, input, expected) => {
    expect(checkDue(input)).toBe(expected);
  });
});

describe('installDecision', () => {
  const cases: [string, Parameters<typeof installDecision>[0], ReturnType<typeof installDecision>][] = [
    [
      'installs with nothing queued',
      { outbox: { pending: 0, inFlight: 0 }, online: true, waitedMs: 0 },
      { kind: 'install' },
    ],
    [
      'waits for queued edits to be sent while online',
      { outbox: { pending: 3, inFlight: 0 }, online: true, waitedMs: 0 },
      { kind: 'wait', pending: 3 },
    ],
    [
      'never interrupts a push in progress, however long it waited',
      { outbox: { pending: 1, inFlight: 1 }, online: false, waitedMs: SETTLE_WAIT_MS * 10 },
      { kind: 'wait', pending: 1 },
    ],
    [
      'offline, keeps queued edits in the mirror and installs',
      { outbox: { pending: 3, inFlight: 0 }, online: false, waitedMs: 0 },
      { kind: 'install' },
    ],
    [
      'online, stops waiting for queued edits after the settle time',
      { outbox: { pending: 3, inFlight: 0 }, online: true, waitedMs: SETTLE_WAIT_MS },
      { kind: 'install' },
    ],
  ];
  test.each(cases)('%s', (_name, input, expected) => {
    expect(installDecision(input)).toEqual(expected);
  });
});

describe('updateStatusView', () => {
  const cases: [UpdatePhase, string | null, boolean][] = [
    [{ kind: 'idle' }, null, false],
    [{ kind: 'checking' }, null, false],
    [{ kind: 'up-to-date' }, null, false],
    [{ kind: 'downloading', version: '0.3.0', percent: 41.6 }, 'Downloading update 0.3.0 (42%)', false],
    [{ kind: 'ready', version: '0.3.0' }, 'Restart to update to 0.3.0', true],
    [
      { kind: 'waiting', version: '0.3.0', pending: 1, since: NOW },
      'Sending 1 change, then restarting to update to 0.3.0',
      false,
    ],
    [
      { kind: 'failed', reason: 'unreachable', message: 'connect ECONNREFUSED 127.0.0.1:9', retryAt: NOW },
      'Could not get the update from its server: connect ECONNREFUSED 127.0.0.1:9. Trying again later.',
      false,
    ],
  ];
  test.each(cases)('%o says %s', (phase, message, canRestart) => {
    const status = updateStatusView(phase);
    expect(status.message).toBe(message);
    expect(status.can_restart).toBe(canRestart);
  });

  test('a refused feed setting is not tried again', () => {
    expect(
      updateStatusView({
        kind: 'failed',
        reason: 'feed-refused',
        message: 'it must use https',
        retryAt: Number.POSITIVE_INFINITY,
      }),
    ).toMatchObject({
      state: 'failed',
      retry_at: null,
      message: 'Updates are off, the update feed setting was refused: it must use https',
    });
    expect(
      checkDue({
        now: NOW,
        lastCheckAt: null,
        phase: { kind: 'failed', reason: 'feed-refused', message: 'x', retryAt: Number.POSITIVE_INFINITY },
        network: ONLINE,
      }),
    ).toBe(false);
  });

  test('a failure carries its reason and when it is tried again', () => {
    expect(
      updateStatusView({ kind: 'failed', reason: 'malformed-feed', message: 'bad', retryAt: NOW }),
    ).toMatchObject({ state: 'failed', reason: 'malformed-feed', retry_at: '2026-11-24T12:00:00.000Z' });
  });
});
