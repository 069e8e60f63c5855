// The account status reducer, event by event: what each sync event leaves of
// connection, problem, syncing, last synced, first-sync progress and unsynced.
import { describe, expect, test } from 'vitest';
import type { CollectionFailure, SyncEvent, SyncSummary } from '../events/sync-events';
import { networkError } from '../events/testing/sync-error-fixtures';
import {
  type AccountSyncState,
  initialAccountSyncState,
  MAX_LEFT_OUT_NAMED,
  reduceAccountSync,
} from './account-status';

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
    event: { type: 'rate-limited', retryAfterSeconds: 120, cause: 'answer' },
    to: slowedDown('2026-03-04T10:02:00.000Z'),
  },
  {
    name: 'edits held for the window’s end, its budget spent, read as rate-limited until then, and why',
    from: { ...start, connection: 'online' },
    event: { type: 'rate-limited', retryAfterSeconds: 42, cause: 'budget' },
    to: {
      connection: 'offline',
      problem: {
        kind: 'problem',
        type: 'rate-limit',
        message:
          'This minute’s share of the service’s requests is spent: sending goes on when the next begins.',
        retryAt: '2026-03-04T10:00:42.000Z',
      },
    },
  },
  {
    name: 'a 429 without Retry-After is rate-limited with no time',
    from: start,
    event: { type: 'rate-limited', retryAfterSeconds: null, cause: 'answer' },
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
    name: 'a connection lost while the client retries is offline at once, and says why',
    from: { ...start, connection: 'online' },
    event: { type: 'connection-lost', error: networkError },
    to: { connection: 'offline', problem: offline.problem },
  },
  {
    name: 'the connection back is online again',
    from: offline,
    event: { type: 'connection-back' },
    to: { connection: 'online', problem: null },
  },
  {
    name: 'a connection back leaves a rate limit alone',
    from: rateLimited,
    event: { type: 'connection-back' },
    to: rateLimited,
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

describe('what the syncs left out (issue 27)', () => {
  const skip = (id: string | null, field = 'status'): SyncEvent => ({
    type: 'item-skipped',
    collection: 'tasks',
    scope: '',
    id,
    field,
    reason: 'expected string',
  });
  const run = (state: AccountSyncState, tier: 'full' | 'hot', events: SyncEvent[]): AccountSyncState =>
    [
      { type: 'sync-started', reason: tier === 'full' ? 'poll-full' : 'poll-hot', tier } as SyncEvent,
      ...events,
      { type: 'sync-finished', reason: 'sync-now', summary: summary() } as SyncEvent,
    ].reduce((s, event) => reduceAccountSync(s, event, context()), state);

  test('a full sync names what it left out once it finishes, each item once; the next full sync without them clears them', () => {
    const during = [skip('tsk_1'), skip('tsk_1'), skip(null, 'task_id')].reduce(
      (s, event) => reduceAccountSync(s, event, context()),
      reduceAccountSync(start, { type: 'sync-started', reason: 'start', tier: 'full' }, context()),
    );
    // Told when the sync is done, as unsynced collections are.
    expect(during.leftOut).toEqual({ items: [], more: 0 });
    const after = run(start, 'full', [skip('tsk_1'), skip('tsk_1'), skip(null, 'task_id')]);
    expect(after.leftOut).toEqual({
      items: [
        { collection: 'tasks', id: 'tsk_1', field: 'status', reason: 'expected string' },
        { collection: 'tasks', id: null, field: 'task_id', reason: 'expected string' },
      ],
      more: 0,
    });
    expect(run(after, 'full', []).leftOut).toEqual({ items: [], more: 0 });
  });

  test('a hot sync adds what it left out and clears nothing (it does not read every list)', () => {
    const after = run(run(start, 'full', [skip('tsk_1')]), 'hot', [skip('tsk_2')]);
    expect(after.leftOut.items.map((item) => item.id)).toEqual(['tsk_1', 'tsk_2']);
    expect(run(after, 'hot', []).leftOut.items).toHaveLength(2);
  });

  test('a whole answer skipped is left out too, and one outside a sync (a task opened) at once', () => {
    const broken: SyncEvent = {
      type: 'resource-skipped',
      collection: 'tasks',
      scope: 'tsk_7',
      error: {
        kind: 'invalid-response',
        type: null,
        status: null,
        operation: 'tasks.get',
        message: 'tasks.get: bad',
      },
    };
    expect(reduceAccountSync(start, broken, context()).leftOut).toEqual({
      items: [{ collection: 'tasks', id: 'tsk_7', field: '(answer)', reason: 'tasks.get: bad' }],
      more: 0,
    });
  });

  test('past MAX_LEFT_OUT_NAMED items only the count grows', () => {
    const many = Array.from({ length: MAX_LEFT_OUT_NAMED + 7 }, (_, n) => skip(`tsk_${n}`));
    const after = run(start, 'full', many);
    expect(after.leftOut.items).toHaveLength(MAX_LEFT_OUT_NAMED);
    expect(after.leftOut.more).toBe(7);
  });
});
