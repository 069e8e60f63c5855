// The account status reducer, event by event: what each sync event leaves of
// connection, problem, syncing, last synced, first-sync progress and unsynced.
import { describe, expect, test } from 'vitest';
import type { CollectionFailure, SyncEvent, SyncSummary } from '../events/sync-events';
import { networkError } from '../events/testing/sync-error-fixtures';
import { type AccountSyncState, initialAccountSyncState, reduceAccountSync } from './account-status';

const NOW = Date.parse('2026-03-04T10:00:00Z');
const context = (firstSyncPending = false) => ({ nowMs: NOW, firstSyncPending: () => firstSyncPending });
const start = initialAccountSyncState('2026-03-01T08:00:00.000Z');
const rateLimit = {
  ...networkError,
  kind: 'problem',
  type: 'rate-limit',
  status: 429,
  retryAfterSeconds: 90,
};
const failure: CollectionFailure = {
  collection: 'sprints',
  scope: 'team_1',
  error: { ...networkError, kind: 'problem', type: 'forbidden', status: 403 },
  skippedBecause: null,
  attempts: 1,
};
const summary = (failed: CollectionFailure[] = []): SyncSummary => ({
  pulled: 0,
  pushed: 0,
  conflicts: 0,
  requests: 1,
  not_modified: 0,
  failed: 0,
  changes: 0,
  notifications: 0,
  failed_collections: failed,
});
const offline: AccountSyncState = {
  ...start,
  connection: 'offline',
  problem: { kind: 'network', type: null, message: 'ECONNREFUSED', retryAt: null },
};
const rateLimited: AccountSyncState = {
  ...start,
  connection: 'offline',
  problem: { kind: 'problem', type: 'rate-limit', message: 'slow down', retryAt: '2026-03-04T10:01:30.000Z' },
};

/** A page of the task list arrived: 200 of about 500 tasks so far. */
const tasksProgress: SyncEvent = {
  type: 'progress',
  collection: 'tasks',
  scope: '',
  pagesDone: 2,
  itemsDone: 200,
  estimatedTotal: 500,
  notModified: 0,
};
/** Offline and rate-limited until `retryAt` (null: no time named), in the app's own words. */
const slowedDown = (retryAt: string | null): Partial<AccountSyncState> => ({
  connection: 'offline',
  problem: {
    kind: 'problem',
    type: 'rate-limit',
    message: 'The service asked the app to slow down.',
    retryAt,
  },
});

const cases: {
  name: string;
  from: AccountSyncState;
  event: SyncEvent;
  first?: boolean;
  to: Partial<AccountSyncState>;
}[] = [
  {
    name: 'a full sync of an account whose task list never completed is its first sync',
    from: start,
    event: { type: 'sync-started', reason: 'start', tier: 'full' },
    first: true,
    to: {
      syncing: true,
      fullSync: true,
      firstSync: { collection: 'organizations', itemsDone: 0, estimatedTotal: null },
    },
  },
  {
    name: 'a later sync is no first sync',
    from: start,
    event: { type: 'sync-started', reason: 'poll-hot', tier: 'hot' },
    to: { syncing: true, fullSync: false, firstSync: null },
  },
  {
    name: 'progress moves a first sync on',
    from: { ...start, firstSync: { collection: 'organizations', itemsDone: 0, estimatedTotal: null } },
    event: tasksProgress,
    to: { firstSync: { collection: 'tasks', itemsDone: 200, estimatedTotal: 500 } },
  },
  {
    name: 'progress of a later sync changes nothing',
    from: start,
    event: tasksProgress,
    to: start,
  },
  {
    name: 'a finished full sync is online, synced now, and names what it could not sync',
    from: { ...offline, syncing: true, fullSync: true },
    event: { type: 'sync-finished', reason: 'start', summary: summary([failure]) },
    to: {
      connection: 'online',
      problem: null,
      syncing: false,
      lastSyncedAt: '2026-03-04T10:00:00.000Z',
      unsynced: [failure],
    },
  },
  {
    name: 'a finished hot sync keeps what the last full sync could not sync',
    from: { ...start, syncing: true, unsynced: [failure] },
    event: { type: 'sync-finished', reason: 'poll-hot', summary: summary() },
    to: { unsynced: [failure], firstSync: null },
  },
  {
    name: 'a sync failed on the network is offline with the problem',
    from: { ...start, connection: 'online', syncing: true },
    event: { type: 'sync-failed', reason: 'poll-full', error: networkError },
    to: {
      syncing: false,
      connection: 'offline',
      problem: { kind: 'network', type: null, message: 'ECONNREFUSED', retryAt: null },
    },
  },
  {
    name: 'a sync refused with 429 is offline until the time the service named',
    from: { ...start, connection: 'online', syncing: true },
    event: { type: 'sync-failed', reason: 'poll-full', error: rateLimit },
    to: {
      connection: 'offline',
      problem: {
        kind: 'problem',
        type: 'rate-limit',
        message: 'ECONNREFUSED',
        retryAt: '2026-03-04T10:01:30.000Z',
      },
    },
  },
  {
    name: 'a sync failed otherwise keeps the connection and tells the problem',
    from: { ...start, connection: 'online' },
    event: {
      type: 'sync-failed',
      reason: 'poll-full',
      error: { ...networkError, kind: 'storage', type: 'full' },
    },
    to: {
      connection: 'online',
      problem: { kind: 'storage', type: 'full', message: 'ECONNREFUSED', retryAt: null },
    },
  },
  {
    name: 'waiting out a 429 is offline, rate-limited until then',
    from: { ...start, connection: 'online' },
    event: { type: 'rate-limited', retryAfterSeconds: 120 },
    to: slowedDown('2026-03-04T10:02:00.000Z'),
  },
  {
    name: 'a 429 without Retry-After is rate-limited with no time',
    from: start,
    event: { type: 'rate-limited', retryAfterSeconds: null },
    to: slowedDown(null),
  },
  {
    name: 'the lifted rate limit is online again',
    from: rateLimited,
    event: { type: 'rate-limit-lifted' },
    to: { connection: 'online', problem: null },
  },
  {
    name: 'a lifted rate limit leaves another problem alone',
    from: offline,
    event: { type: 'rate-limit-lifted' },
    to: offline,
  },
  {
    name: 'online clears the problem',
    from: offline,
    event: { type: 'online' },
    to: { connection: 'online', problem: null },
  },
  {
    name: 'offline tells why',
    from: start,
    event: { type: 'offline', error: networkError },
    to: { connection: 'offline', problem: offline.problem },
  },
  {
    name: 'signed out stops syncing and says so',
    from: { ...start, syncing: true, connection: 'online' },
    event: { type: 'signed-out', reason: 'token-revoked' },
    to: {
      syncing: false,
      connection: 'offline',
      problem: {
        kind: 'signed-out',
        type: 'token-revoked',
        message: 'The service no longer accepts this sign-in.',
        retryAt: null,
      },
    },
  },
  {
    name: 'a push that landed is online',
    from: offline,
    event: {
      type: 'pushed',
      opId: 'op_1',
      entityId: 'task_1',
      serverId: 'task_1',
      kind: 'update',
    } as SyncEvent,
    to: { connection: 'online' },
  },
];

describe('the account status after one sync event', () => {
  test.each(cases)('$name', ({ from, event, first, to }) => {
    expect(reduceAccountSync(from, event, context(first ?? false))).toMatchObject(to);
  });

  test('an event that changes nothing of the status returns the same status (its views need not redraw)', () => {
    expect(reduceAccountSync(start, { type: 'poll-scheduled', tier: 'hot', at: NOW }, context())).toBe(start);
    expect(reduceAccountSync(offline, { type: 'rate-limit-lifted' }, context())).toBe(offline);
  });
});
